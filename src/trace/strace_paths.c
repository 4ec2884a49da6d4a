/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The strace reader's calls on paths (stat, unlink, mkdir, rename, the
 * attribute changes), the descriptor bookkeeping that makes no op (dup,
 * chdir), and the table from a call's name to its handler.
 */
#include "trace/strace_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/paths.h"

/* the size and type a stat's buffer shows */
static void stat_buf(struct field f, struct trace_op *op)
{
	static const char *const keys[] = { "st_size=", "stx_size=" };

	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		size_t n = strlen(keys[k]);

		for (size_t i = 0; i + n < f.n; i++) {
			if (memcmp(f.s + i, keys[k], n) != 0 ||
			    (i > 0 && f.s[i - 1] != ' ' && f.s[i - 1] != '{'))
				continue;
			op->result = strtoll(f.s + i + n, NULL, 10);
			if (op->result < 0 || op->result > TRACE_MAX_OFFSET)
				op->result = 0;
		}
	}
	if (trace_st_field_has(f, "S_IFDIR"))
		op->flags = TRACE_O_DIRECTORY;
}

static int c_stat(struct trace_reader *r, struct st_pid *p,
		  const struct trace_st_call *c, struct trace_op *op)
{
	bool at = c->name.s[0] == 'n' || c->name.s[0] == 'f' ||
		  trace_st_field_is(c->name, "statx");
	int d = at ? 0 : -1, buf = at ? 2 : 1, flags = at ? 3 : -1;

	if (trace_st_field_is(c->name, "statx")) {
		buf = 4;
		flags = 2;
	}
	if (c->nargs <= buf || (flags >= 0 && c->nargs <= flags))
		return trace_st_too_few(r, c);
	op->type = trace_st_field_is(c->name, "lstat") ? TOP_LSTAT : TOP_STAT;
	if (flags >= 0 &&
	    trace_st_field_has(c->arg[flags], "AT_SYMLINK_NOFOLLOW"))
		op->type = TOP_LSTAT;
	if (!op->err)
		stat_buf(c->arg[buf], op);
	if (at && trace_st_field_is(c->arg[1], "\"\"") &&
	    trace_st_field_has(c->arg[flags], "AT_EMPTY_PATH")) {
		op->type = TOP_FSTAT;
		return trace_st_handle_arg(r, p, c, 0, &op->handle);
	}
	return trace_st_path_arg(r, p, c, d, d + 1, &op->path);
}

/* the calls on one path: what each is, where its arguments are */
static const struct {
	const char *name;
	enum trace_op_type type;
	int dir, path, extra; /* -1: none; extra: mode, length or flags */
} path_calls[] = {
	{ "statfs", TOP_STATFS, -1, 0, -1 },
	{ "unlink", TOP_UNLINK, -1, 0, -1 },
	{ "unlinkat", TOP_UNLINK, 0, 1, 2 },
	{ "rmdir", TOP_RMDIR, -1, 0, -1 },
	{ "mkdir", TOP_MKDIR, -1, 0, 1 },
	{ "mkdirat", TOP_MKDIR, 0, 1, 2 },
	{ "truncate", TOP_TRUNCATE, -1, 0, 1 },
	{ "chmod", TOP_SETATTR, -1, 0, -1 },
	{ "fchmodat", TOP_SETATTR, 0, 1, -1 },
	{ "chown", TOP_SETATTR, -1, 0, -1 },
	{ "lchown", TOP_SETATTR, -1, 0, -1 },
	{ "fchownat", TOP_SETATTR, 0, 1, -1 },
	{ "utimensat", TOP_SETATTR, 0, 1, -1 },
	{ "utime", TOP_SETATTR, -1, 0, -1 },
	{ "utimes", TOP_SETATTR, -1, 0, -1 },
	/* the link made; where it points: symlink_target */
	{ "symlink", TOP_SYMLINK, -1, 1, -1 },
	{ "symlinkat", TOP_SYMLINK, 1, 2, -1 },
};

/*
 * Where a symbolic link the trace made points, as a path of the trace
 * (op->path2), when that is beneath the trace root: a relative target
 * from the link's directory, an absolute one under the root.  A target
 * outside (above the root, or absolute elsewhere) is left out: the
 * replay's link leads nowhere, and what reads through it is a mismatch.
 */
static int symlink_target(struct trace_reader *r, const struct trace_st_call *c,
			  struct trace_op *op)
{
	const char *end, *link = trace_path(r->t, op->path);
	const char *slash = strrchr(link, '/');
	char *target, *full, *lex;

	if (trace_rd_unquote(r, c->arg[0].s, c->arg[0].s + c->arg[0].n,
			     &target, &end) < 0)
		return -1;
	if (target[0] == '/') {
		int idx;

		trace_rd_path_abs(r, target, &idx);
		if (strncmp(trace_path(r->t, idx), "_abs", 4) != 0 ||
		    (trace_path(r->t, idx)[4] != '/' &&
		     trace_path(r->t, idx)[4] != '\0'))
			op->path2 = idx;
		free(target);
		return 0;
	}
	full = slash ? xasprintf("%.*s/%s", (int)(slash - link), link, target)
		     : xstrdup(target);
	lex = path_lexical(full);
	if (*target && strcmp(lex, "..") != 0 && strncmp(lex, "../", 3) != 0)
		op->path2 = trace_intern(r->t, lex);
	free(lex);
	free(full);
	free(target);
	return 0;
}

static int c_pathop(struct trace_reader *r, struct st_pid *p,
		    const struct trace_st_call *c, struct trace_op *op)
{
	size_t i = 0;
	int x, rc;

	while (!trace_st_field_is(c->name, path_calls[i].name))
		i++;
	op->type = path_calls[i].type;
	x = path_calls[i].extra;
	if (c->nargs <= path_calls[i].path || (x >= 0 && c->nargs <= x))
		return trace_st_too_few(r, c);
	if (op->type == TOP_UNLINK && x >= 0 &&
	    trace_st_field_has(c->arg[x], "AT_REMOVEDIR"))
		op->type = TOP_RMDIR;
	if (op->type == TOP_MKDIR) {
		for (size_t k = 0; k < c->arg[x].n && c->arg[x].s[k] >= '0' &&
				   c->arg[x].s[k] <= '7'; k++)
			op->mode = op->mode * 8 + (unsigned)(c->arg[x].s[k] - '0');
		op->mode &= 07777;
	}
	if (op->type == TOP_TRUNCATE &&
	    trace_rd_count(r, c->arg[x], "length", &op->length) < 0)
		return -1;
	/* utimensat(fd, NULL, ...), fchownat(fd, "", ..., AT_EMPTY_PATH) */
	if (path_calls[i].dir == 0 && (trace_st_field_is(c->arg[1], "NULL") ||
				       trace_st_field_is(c->arg[1], "\"\"")))
		return trace_st_handle_arg(r, p, c, 0, &op->handle);
	rc = trace_st_path_arg(r, p, c, path_calls[i].dir, path_calls[i].path,
			       &op->path);
	if (rc == 0 && op->type == TOP_SYMLINK && !op->err)
		rc = symlink_target(r, c, op);
	return rc;
}

/* rename, renameat, renameat2, link, linkat: two paths */
static int c_rename(struct trace_reader *r, struct st_pid *p,
		    const struct trace_st_call *c, struct trace_op *op)
{
	bool at = !trace_st_field_is(c->name, "rename") &&
		  !trace_st_field_is(c->name, "link");
	int rc;

	if (c->nargs < (at ? 4 : 2))
		return trace_st_too_few(r, c);
	op->type = c->name.s[0] == 'l' ? TOP_LINK : TOP_RENAME;
	rc = trace_st_path_arg(r, p, c, at ? 0 : -1, at ? 1 : 0, &op->path);
	if (rc == 0)
		rc = trace_st_path_arg(r, p, c, at ? 2 : -1, at ? 3 : 1,
				       &op->path2);
	return rc;
}

/* dup, dup2, dup3, fcntl(F_DUPFD): the new descriptor is the old file */
static int c_dup(struct trace_reader *r, struct st_pid *p,
		 const struct trace_st_call *c, struct trace_op *op)
{
	int h = -1;

	if (c->nargs < 1)
		return trace_st_too_few(r, c);
	if (trace_st_field_is(c->name, "fcntl") &&
	    (c->nargs < 2 || !trace_st_field_has(c->arg[1], "F_DUPFD")))
		return 1;
	if (op->err || c->retval > 1 << 30)
		return 1;
	if (trace_st_handle_arg(r, p, c, 0, &h) < 0)
		return -1;
	if (h >= 0 || trace_st_get_fd(p, (int)c->retval) >= 0)
		trace_st_set_fd(p, (int)c->retval, h);
	return 1;
}

/* The number after key= in a struct strace printed ("l_start=10"). */
static bool struct_number(struct field f, const char *key, int64_t *v)
{
	size_t k = strlen(key);

	for (size_t i = 0; i + k < f.n; i++) {
		size_t j = i + k;

		if (memcmp(f.s + i, key, k) != 0 ||
		    (i > 0 && f.s[i - 1] != ' ' && f.s[i - 1] != '{'))
			continue;
		*v = 0;
		if (j == f.n || f.s[j] < '0' || f.s[j] > '9')
			return false;
		for (; j < f.n && f.s[j] >= '0' && f.s[j] <= '9'; j++) {
			if (*v > TRACE_MAX_OFFSET)
				return false;
			*v = *v * 10 + (f.s[j] - '0');
		}
		return true;
	}
	return false;
}

/*
 * fcntl: F_DUPFD moves a descriptor (c_dup); a record lock set or
 * cleared from the file's start (F_SETLK, F_SETLKW and their OFD forms,
 * l_whence=SEEK_SET) is a lock or an unlock of its range; any other
 * command is ignored.
 */
static int c_fcntl(struct trace_reader *r, struct st_pid *p,
		   const struct trace_st_call *c, struct trace_op *op)
{
	static const char *const setlk[] = { "F_SETLK", "F_SETLKW",
					     "F_OFD_SETLK", "F_OFD_SETLKW" };
	bool lock = false;

	if (c->nargs >= 2 && trace_st_field_has(c->arg[1], "F_DUPFD"))
		return c_dup(r, p, c, op);
	for (size_t i = 0; c->nargs >= 3 && i < ARRAY_SIZE(setlk); i++)
		lock |= trace_st_field_is(c->arg[1], setlk[i]);
	if (!lock || !trace_st_field_has(c->arg[2], "l_whence=SEEK_SET") ||
	    !struct_number(c->arg[2], "l_start=", &op->offset) ||
	    !struct_number(c->arg[2], "l_len=", &op->length) ||
	    op->offset + op->length > TRACE_MAX_OFFSET)
		return 1;
	op->type = trace_st_field_has(c->arg[2], "l_type=F_UNLCK") ? TOP_UNLOCK
							    : TOP_LOCK;
	return trace_st_handle_arg(r, p, c, 0, &op->handle);
}

/* chdir, fchdir: where relative paths start, when no annotation says */
static int c_chdir(struct trace_reader *r, struct st_pid *p,
		   const struct trace_st_call *c, struct trace_op *op)
{
	char *ann, *path;
	const char *end;
	int fd;

	if (c->nargs < 1)
		return trace_st_too_few(r, c);
	if (op->err)
		return 1;
	if (trace_st_field_is(c->name, "fchdir")) {
		if (trace_st_fd_arg(r, c->arg[0], &fd, &ann) < 0)
			return -1;
		if (ann && ann[0] == '/') {
			free(p->cwd);
			p->cwd = ann;
		} else {
			free(ann);
		}
		return 1;
	}
	if (trace_rd_unquote(r, c->arg[0].s, c->arg[0].s + c->arg[0].n, &path,
			     &end) < 0)
		return -1;
	if (path[0] == '/' || p->cwd) {
		char *abs = path[0] == '/' ? xstrdup(path)
					   : xasprintf("%s/%s", p->cwd, path);

		free(p->cwd);
		p->cwd = path_lexical(abs);
		free(abs);
	}
	free(path);
	return 1;
}

static const struct {
	const char *name;
	call_fn fn;
} calls[] = {
	{ "open", trace_st_c_open },      { "openat", trace_st_c_open },
	{ "creat", trace_st_c_open },     { "close", trace_st_c_close },
	{ "read", trace_st_c_rw },        { "write", trace_st_c_rw },
	{ "pread64", trace_st_c_rw },     { "pwrite64", trace_st_c_rw },
	{ "readv", trace_st_c_rw },       { "writev", trace_st_c_rw },
	{ "preadv", trace_st_c_rw },      { "pwritev", trace_st_c_rw },
	{ "preadv2", trace_st_c_rw },     { "pwritev2", trace_st_c_rw },
	{ "lseek", trace_st_c_lseek },    { "fsync", trace_st_c_fd },
	{ "fdatasync", trace_st_c_fd },   { "fstat", trace_st_c_fd },
	{ "fstatfs", trace_st_c_fd },     { "getdents", trace_st_c_fd },
	{ "getdents64", trace_st_c_fd },  { "ftruncate", trace_st_c_fd },
	{ "fchmod", trace_st_c_fd },      { "fchown", trace_st_c_fd },
	{ "stat", c_stat },               { "lstat", c_stat },
	{ "newfstatat", c_stat },         { "fstatat64", c_stat },
	{ "statx", c_stat },              { "statfs", c_pathop },
	{ "unlink", c_pathop },           { "unlinkat", c_pathop },
	{ "rmdir", c_pathop },            { "mkdir", c_pathop },
	{ "mkdirat", c_pathop },          { "truncate", c_pathop },
	{ "chmod", c_pathop },            { "fchmodat", c_pathop },
	{ "chown", c_pathop },            { "lchown", c_pathop },
	{ "fchownat", c_pathop },         { "utimensat", c_pathop },
	{ "utime", c_pathop },            { "utimes", c_pathop },
	{ "symlink", c_pathop },          { "symlinkat", c_pathop },
	{ "rename", c_rename },           { "renameat", c_rename },
	{ "renameat2", c_rename },        { "link", c_rename },
	{ "linkat", c_rename },           { "dup", c_dup },
	{ "dup2", c_dup },                { "dup3", c_dup },
	{ "fcntl", c_fcntl },             { "chdir", c_chdir },
	{ "fchdir", c_chdir },            { "copy_file_range", trace_st_c_copy },
	{ "sendfile", trace_st_c_copy },  { "sendfile64", trace_st_c_copy },
};

size_t trace_strace_ncalls(void)
{
	return ARRAY_SIZE(calls);
}

const char *trace_strace_call(size_t i)
{
	return i < ARRAY_SIZE(calls) ? calls[i].name : NULL;
}

int trace_st_call(struct trace_reader *r, struct st_state *st, struct st_pid *p,
		  const struct trace_st_call *c, struct trace_op *op)
{
	call_fn fn = NULL;
	int rc;

	(void)st;
	for (size_t i = 0; i < ARRAY_SIZE(calls) && !fn; i++)
		if (trace_st_field_is(c->name, calls[i].name))
			fn = calls[i].fn;
	/* "= ?": the process went away inside the call */
	if (!fn || !c->ret_known)
		return trace_st_ignore(r, c) > 0 ? 0 : -1;
	if (c->retval < 0) {
		op->err = trace_errno_parse(c->errname.s, c->errname.n);
		if (!op->err) /* ERESTARTSYS and its kin: a signal came */
			op->err = EINTR;
	}
	rc = fn(r, p, c, op);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return trace_st_ignore(r, c) > 0 ? 0 : -1;
	trace_add_op(r->t, p->stream, op);
	return 0;
}
