/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The system calls the strace reader models, each turned into an op on
 * a path or on the stream's handle for its descriptor.  Descriptors are
 * followed through opens, dups and closes; one the trace never opened
 * (inherited, or open before strace started) is known by its -y path
 * and becomes an inherited handle.  Calls on what is not a file
 * (pipes, sockets, /proc, /sys, /dev) and calls fbrun does not model are
 * counted as ignored.
 */
#include "trace/strace_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/paths.h"

bool trace_st_field_is(struct field f, const char *w)
{
	return strlen(w) == f.n && memcmp(f.s, w, f.n) == 0;
}

bool trace_st_field_has(struct field f, const char *w)
{
	size_t k = strlen(w);

	for (size_t i = 0; i + k <= f.n; i++)
		if (memcmp(f.s + i, w, k) == 0)
			return true;
	return false;
}

bool trace_st_pseudo(const char *abs)
{
	static const char *const fs[] = { "/proc", "/sys", "/dev" };

	for (size_t i = 0; i < ARRAY_SIZE(fs); i++) {
		size_t k = strlen(fs[i]);

		if (strncmp(abs, fs[i], k) == 0 &&
		    (abs[k] == '/' || abs[k] == '\0'))
			return true;
	}
	return false;
}

int trace_st_too_few(struct trace_reader *r, const struct trace_st_call *c)
{
	return trace_rd_error(r, c->name.s, c->name.n,
			      "'%.*s' has too few arguments", (int)c->name.n,
			      c->name.s);
}

/* 1: ignore the call (not a file fbrun replays) */
int trace_st_ignore(struct trace_reader *r, const struct trace_st_call *c)
{
	char *name = xstrndup(c->name.s, c->name.n);

	trace_ignore(r->t, name, 1);
	free(name);
	return 1;
}

/*
 * "3", "3</a/b>", "AT_FDCWD", "AT_FDCWD</a>", "-1": the fd and its path,
 * strace's escapes decoded (-y writes '>' in a name as \76)
 */
int trace_st_fd_arg(struct trace_reader *r, struct field f, int *fd, char **ann)
{
	const char *lt = memchr(f.s, '<', f.n);
	struct field num = { f.s, lt ? (size_t)(lt - f.s) : f.n };
	bool neg = num.n > 1 && num.s[0] == '-';
	int64_t v = 0;

	*ann = NULL;
	if (trace_st_field_is(num, "AT_FDCWD")) {
		*fd = -100;
	} else {
		/* a bad descriptor a call failed on: close(-1) = -1 EBADF */
		num.s += neg;
		num.n -= neg;
		if (trace_rd_count(r, num, "descriptor", &v) < 0)
			return -1;
		if (v > 1 << 30)
			return trace_rd_error(r, f.s, f.n,
					      "descriptor out of range");
		*fd = neg ? -1 : (int)v;
	}
	if (lt && f.s[f.n - 1] == '>' &&
	    trace_rd_unescape(r, lt + 1, f.n - (size_t)(lt - f.s) - 2, ann) < 0)
		return -1;
	return 0;
}

static size_t fd_slot(const int *key, size_t cap, int fd)
{
	size_t i = ((size_t)fd * 2654435761u) & (cap - 1);

	while (key[i] != -1 && key[i] != fd)
		i = (i + 1) & (cap - 1);
	return i;
}

int trace_st_get_fd(const struct st_pid *p, int fd)
{
	size_t i;

	if (fd < 0 || !p->fdcap)
		return -1;
	i = fd_slot(p->fdkey, p->fdcap, fd);
	return p->fdkey[i] == fd ? p->fdval[i] : -1;
}

void trace_st_set_fd(struct st_pid *p, int fd, int h)
{
	size_t i;

	if (fd < 0)
		return;
	if (2 * (p->nfd + 1) > p->fdcap) {
		size_t cap = p->fdcap ? 2 * p->fdcap : 16;
		int *key = xmalloc(cap * sizeof(*key));
		int *val = xmalloc(cap * sizeof(*val));

		memset(key, 0xff, cap * sizeof(*key));
		for (size_t j = 0; j < p->fdcap; j++)
			if (p->fdkey[j] != -1) {
				i = fd_slot(key, cap, p->fdkey[j]);
				key[i] = p->fdkey[j];
				val[i] = p->fdval[j];
			}
		free(p->fdkey);
		free(p->fdval);
		p->fdkey = key;
		p->fdval = val;
		p->fdcap = cap;
	}
	i = fd_slot(p->fdkey, p->fdcap, fd);
	if (p->fdkey[i] == -1) {
		p->fdkey[i] = fd;
		p->fdval[i] = -1;
		p->nfd++;
	}
	if (p->fdval[i] >= 0)
		p->refs[p->fdval[i]]--;
	if (h >= 0) {
		if ((size_t)h >= p->nrefs) {
			size_t n = p->nrefs;

			p->nrefs = (size_t)h + 16;
			p->refs = xrealloc(p->refs, p->nrefs * sizeof(*p->refs));
			memset(p->refs + n, 0, (p->nrefs - n) * sizeof(*p->refs));
		}
		p->refs[h]++;
	}
	p->fdval[i] = h;
}

/* The handle behind descriptor argument i; 1 when it is not a file. */
int trace_st_handle_arg(struct trace_reader *r, struct st_pid *p,
			const struct trace_st_call *c, int i, int *h)
{
	char *ann;
	int fd, idx, rc = 0;

	if (i >= c->nargs)
		return trace_st_too_few(r, c);
	if (trace_st_fd_arg(r, c->arg[i], &fd, &ann) < 0)
		return -1;
	if (ann && (ann[0] != '/' || trace_st_pseudo(ann))) {
		rc = 1;
	} else if (trace_st_get_fd(p, fd) >= 0) {
		*h = trace_st_get_fd(p, fd);
	} else if (ann && fd >= 0) {
		trace_rd_path_abs(r, ann, &idx);
		*h = trace_add_handle(r->t, p->stream, idx, 0, true);
		trace_st_set_fd(p, fd, *h);
	} else if (fd != -100 && c->ret_known && c->retval < 0 &&
		   trace_st_field_is(c->errname, "EBADF")) {
		/* a call on a bad descriptor: made on none, failing as it did */
		*h = -1;
	} else {
		rc = 1;
	}
	free(ann);
	return rc;
}

/*
 * The path argument i, from directory argument d (-1: none): its index,
 * or 1 when it is under /proc, /sys or /dev.
 */
int trace_st_path_arg(struct trace_reader *r, struct st_pid *p,
		      const struct trace_st_call *c, int d, int i, int *idx)
{
	char *path, *ann = NULL, *abs = NULL;
	const char *end, *base = p->cwd, *relbase = NULL;
	int fd = -100, rc;

	if (i >= c->nargs)
		return trace_st_too_few(r, c);
	if (d >= 0 && trace_st_fd_arg(r, c->arg[d], &fd, &ann) < 0)
		return -1;
	if (fd == -100 && ann && ann[0] == '/') {
		free(p->cwd);
		p->cwd = xstrdup(ann);
		base = p->cwd;
		if (!r->root)
			r->root = path_lexical(ann);
	} else if (fd != -100) {
		base = ann && ann[0] == '/' ? ann : NULL;
		/* without -y, a directory the trace opened is known by its open */
		if (!base && trace_st_get_fd(p, fd) >= 0)
			relbase = trace_path(
				r->t,
				trace_stream_handle(r->t, p->stream,
						    trace_st_get_fd(p, fd))
					->path);
	}
	if (trace_rd_unquote(r, c->arg[i].s, c->arg[i].s + c->arg[i].n, &path,
			     &end) < 0) {
		free(ann);
		return -1;
	}
	if (path[0] == '/')
		abs = xstrdup(path);
	else if (base)
		abs = xasprintf("%s/%s", base, path);
	if (abs && trace_st_pseudo(abs)) {
		rc = 1;
	} else if (abs) {
		rc = trace_rd_path_abs(r, abs, idx);
	} else {
		char *rel = relbase ? xasprintf("%s/%s", relbase, path)
				    : xstrdup(path);

		rc = trace_rd_path_rel(r, rel, c->arg[i].s, c->arg[i].n, idx);
		free(rel);
	}
	free(abs);
	free(path);
	free(ann);
	return rc;
}

static const struct {
	const char *name;
	unsigned bits;
} open_flags[] = {
	{ "O_RDONLY", TRACE_O_READ },
	{ "O_WRONLY", TRACE_O_WRITE },
	{ "O_RDWR", TRACE_O_READ | TRACE_O_WRITE },
	{ "O_CREAT", TRACE_O_CREAT },
	{ "O_EXCL", TRACE_O_EXCL },
	{ "O_TRUNC", TRACE_O_TRUNC },
	{ "O_APPEND", TRACE_O_APPEND },
	{ "O_DIRECTORY", TRACE_O_DIRECTORY },
	{ "O_SYNC", TRACE_O_SYNC },
	{ "O_DSYNC", TRACE_O_DSYNC },
	{ "O_DIRECT", TRACE_O_DIRECT },
	{ "O_NOFOLLOW", TRACE_O_NOFOLLOW },
	{ "O_PATH", TRACE_O_PATH },
};

/* O_WRONLY|O_CREAT|O_CLOEXEC: the flags fbrun keeps, the rest dropped */
static unsigned parse_flags(struct field f)
{
	unsigned bits = 0;
	const char *p = f.s, *end = f.s + f.n;

	while (p < end) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		struct field w = { p, bar ? (size_t)(bar - p) : (size_t)(end - p) };

		for (size_t i = 0; i < ARRAY_SIZE(open_flags); i++)
			if (trace_st_field_is(w, open_flags[i].name))
				bits |= open_flags[i].bits;
		p = bar ? bar + 1 : end;
	}
	return bits;
}

static unsigned parse_mode(struct field f)
{
	unsigned m = 0;

	for (size_t i = 0; i < f.n && f.s[i] >= '0' && f.s[i] <= '7'; i++)
		m = m * 8 + (unsigned)(f.s[i] - '0');
	return m & 07777;
}

static int open_at(struct trace_reader *r, struct st_pid *p,
		   const struct trace_st_call *c, struct trace_op *op, int d)
{
	int rc = trace_st_path_arg(r, p, c, d, d + 1, &op->path);

	if (rc)
		return rc;
	op->type = TOP_OPEN;
	if (trace_st_field_is(c->name, "creat")) {
		op->flags = TRACE_O_WRITE | TRACE_O_CREAT | TRACE_O_TRUNC;
		op->mode = c->nargs > 1 ? parse_mode(c->arg[1]) : 0;
	} else {
		if (c->nargs < d + 3)
			return trace_st_too_few(r, c);
		op->flags = parse_flags(c->arg[d + 2]);
		if (!(op->flags & TRACE_O_WRITE))
			op->flags |= TRACE_O_READ;
		if (c->nargs > d + 3)
			op->mode = parse_mode(c->arg[d + 3]);
	}
	if (!op->err) {
		op->handle = trace_add_handle(r->t, p->stream, op->path,
					      op->flags, false);
		if (c->retval >= 0 && c->retval < 1 << 30)
			trace_st_set_fd(p, (int)c->retval, op->handle);
	}
	return 0;
}

int trace_st_c_open(struct trace_reader *r, struct st_pid *p,
		    const struct trace_st_call *c, struct trace_op *op)
{
	return open_at(r, p, c, op,
		       trace_st_field_is(c->name, "openat") ? 0 : -1);
}

int trace_st_c_close(struct trace_reader *r, struct st_pid *p,
		     const struct trace_st_call *c, struct trace_op *op)
{
	int rc = trace_st_handle_arg(r, p, c, 0, &op->handle), fd;
	char *ann;

	if (rc < 0)
		return rc;
	if (trace_st_fd_arg(r, c->arg[0], &fd, &ann) == 0) {
		if (trace_st_get_fd(p, fd) >= 0)
			trace_st_set_fd(p, fd, -1);
		free(ann);
	}
	op->type = TOP_CLOSE;
	/*
	 * A descriptor dup made of the same file (a shell's redirection:
	 * open, dup2 to 1, close the first): the file stays open through
	 * the other, so the close is one of no handle, closing nothing.
	 */
	if (rc == 0 && op->handle >= 0 && (size_t)op->handle < p->nrefs &&
	    p->refs[op->handle] > 0)
		op->handle = -1;
	return rc;
}

/* read, write and their p and v forms */
int trace_st_c_rw(struct trace_reader *r, struct st_pid *p,
		  const struct trace_st_call *c, struct trace_op *op)
{
	bool vec = memchr(c->name.s, 'v', c->name.n) != NULL;
	bool pos = c->name.s[0] == 'p';
	int rc = trace_st_handle_arg(r, p, c, 0, &op->handle);

	if (rc)
		return rc;
	op->type = c->name.s[pos] == 'r' ? TOP_READ : TOP_WRITE;
	if (c->nargs < 3 + pos)
		return trace_st_too_few(r, c);
	op->offset = -1;
	if (pos && trace_rd_count(r, c->arg[3], "offset", &op->offset) < 0)
		return -1;
	if (!vec && trace_rd_count(r, c->arg[2], "length", &op->length) < 0)
		return -1;
	if (!op->err)
		op->result = c->retval;
	if (vec)
		op->length = op->result;
	if ((op->offset > 0 ? op->offset : 0) + op->length > TRACE_MAX_OFFSET)
		return trace_rd_error(
			r, c->arg[pos ? 3 : 2].s, c->arg[pos ? 3 : 2].n,
			"the I/O ends beyond the largest offset fbrun replays (1 PiB)");
	return 0;
}

int trace_st_c_lseek(struct trace_reader *r, struct st_pid *p,
		     const struct trace_st_call *c, struct trace_op *op)
{
	int rc = trace_st_handle_arg(r, p, c, 0, &op->handle);

	op->type = TOP_SEEK;
	if (!rc && !op->err) {
		if (c->retval > TRACE_MAX_OFFSET)
			return trace_rd_error(
				r, c->ret.s, c->ret.n,
				"offset %lld is beyond the largest fbrun replays (1 PiB)",
				(long long)c->retval);
		op->offset = c->retval;
	}
	return rc;
}

/* fsync, fdatasync, fstat, fstatfs, getdents, ftruncate, fchmod, fchown */
int trace_st_c_fd(struct trace_reader *r, struct st_pid *p,
		  const struct trace_st_call *c, struct trace_op *op)
{
	static const struct {
		const char *name;
		enum trace_op_type type;
	} fd_calls[] = {
		{ "fsync", TOP_FSYNC },	       { "fdatasync", TOP_FDATASYNC },
		{ "fstat", TOP_FSTAT },	       { "fstatfs", TOP_STATFS },
		{ "getdents", TOP_READDIR },   { "getdents64", TOP_READDIR },
		{ "ftruncate", TOP_FTRUNCATE }, { "fchmod", TOP_SETATTR },
		{ "fchown", TOP_SETATTR },
	};
	int rc = trace_st_handle_arg(r, p, c, 0, &op->handle);

	for (size_t i = 0; i < ARRAY_SIZE(fd_calls); i++)
		if (trace_st_field_is(c->name, fd_calls[i].name))
			op->type = fd_calls[i].type;
	if (rc)
		return rc;
	if (op->type == TOP_READDIR || op->type == TOP_FTRUNCATE) {
		if (c->nargs < (op->type == TOP_READDIR ? 3 : 2))
			return trace_st_too_few(r, c);
		if (trace_rd_count(r, c->arg[op->type == TOP_READDIR ? 2 : 1],
				   "length", &op->length) < 0)
			return -1;
		if (op->type == TOP_READDIR && !op->err)
			op->result = c->retval;
	}
	return 0;
}

/*
 * A copy's offset argument: NULL is -1 (the descriptor's offset), else
 * the number strace shows in brackets, "[100]" or "[100] => [400]".
 */
static int copy_offset(struct trace_reader *r, struct field f, int64_t *off)
{
	const char *end = memchr(f.s, ']', f.n);

	*off = -1;
	if (trace_st_field_is(f, "NULL"))
		return 0;
	if (f.n < 3 || f.s[0] != '[' || !end)
		return trace_rd_error(r, f.s, f.n,
				      "expected NULL or [OFFSET] for the offset");
	f = (struct field){ f.s + 1, (size_t)(end - f.s - 1) };
	return trace_rd_count(r, f, "offset", off);
}

/*
 * copy_file_range and sendfile: the kernel moves the bytes from one
 * descriptor to another.  They are replayed as what they move, a read of
 * the source (added here) and a write of the destination (op), each of
 * the bytes the call copied; a side that is not a file (sendfile's
 * socket) is left out.  A failed copy is ignored: a program falls back
 * to read and write, which the trace holds.
 */
int trace_st_c_copy(struct trace_reader *r, struct st_pid *p,
		    const struct trace_st_call *c, struct trace_op *op)
{
	bool sf = trace_st_field_has(c->name, "sendfile"); /* and sendfile64 */
	struct trace_op rd = *op;
	int nin, nout;

	if (c->nargs < (sf ? 4 : 6))
		return trace_st_too_few(r, c);
	if (op->err)
		return 1;
	if ((nin = trace_st_handle_arg(r, p, c, sf ? 1 : 0, &rd.handle)) < 0 ||
	    (nout = trace_st_handle_arg(r, p, c, sf ? 0 : 2, &op->handle)) < 0 ||
	    copy_offset(r, c->arg[sf ? 2 : 1], &rd.offset) < 0)
		return -1;
	op->offset = -1;
	if (!sf && copy_offset(r, c->arg[3], &op->offset) < 0)
		return -1;
	if (nin && nout)
		return 1;
	rd.type = TOP_READ;
	op->type = TOP_WRITE;
	rd.length = rd.result = op->length = op->result = c->retval;
	/* offsets and results are at most TRACE_MAX_OFFSET: no overflow */
	if ((rd.offset > 0 ? rd.offset : 0) + rd.length > TRACE_MAX_OFFSET ||
	    (op->offset > 0 ? op->offset : 0) + op->length > TRACE_MAX_OFFSET)
		return trace_rd_error(
			r, c->name.s, c->name.n,
			"the copy ends beyond the largest offset fbrun replays (1 PiB)");
	if (nout) {
		*op = rd;
		return 0;
	}
	if (!nin)
		trace_add_op(r->t, p->stream, &rd);
	return 0;
}
