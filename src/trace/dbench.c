/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * dbench's NBENCH loadfiles (dbench 3 and 4): one operation a line, an
 * optional time in seconds first, the NT status it returned last.  A
 * loadfile is one client: one stream.  Paths use backslashes and start
 * at the client's directory; handles are the numbers NTCreateX gave.
 */
#include "trace/trace_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * An op's values between its name and its status: p a path, h a handle,
 * n a number (o the offset, l the length, r the bytes done).
 */
static const struct dbench_op {
	const char *name;
	enum trace_op_type type;
	const char *sig;
} dbench_ops[] = {
	{ "NTCreateX", TOP_OPEN, "pnnn" },
	{ "Close", TOP_CLOSE, "h" },
	{ "ReadX", TOP_READ, "holr" },
	{ "WriteX", TOP_WRITE, "holr" },
	{ "Flush", TOP_FSYNC, "h" },
	{ "QUERY_PATH_INFORMATION", TOP_STAT, "pn" },
	{ "QUERY_FILE_INFORMATION", TOP_FSTAT, "hn" },
	{ "QUERY_FS_INFORMATION", TOP_STATFS, "n" },
	{ "SET_FILE_INFORMATION", TOP_SETATTR, "hn" },
	{ "FIND_FIRST", TOP_READDIR, "pnnr" },
	{ "Unlink", TOP_UNLINK, "pn" },
	{ "Rename", TOP_RENAME, "pp" },
	{ "Mkdir", TOP_MKDIR, "p" },
	{ "Rmdir", TOP_RMDIR, "p" },
	{ "Deltree", TOP_DELTREE, "p" },
	{ "LockX", TOP_LOCK, "hol" },
	{ "UnlockX", TOP_UNLOCK, "hol" },
};

/* The NT statuses loadfiles hold, as the errno a POSIX call gives. */
static const struct {
	const char *name;
	int err;
} nt_status[] = {
	{ "NT_STATUS_OK", 0 },
	{ "NT_STATUS_OBJECT_NAME_NOT_FOUND", ENOENT },
	{ "NT_STATUS_OBJECT_PATH_NOT_FOUND", ENOENT },
	{ "NT_STATUS_NO_SUCH_FILE", ENOENT },
	{ "NT_STATUS_NO_MORE_FILES", ENOENT },
	{ "NT_STATUS_DELETE_PENDING", ENOENT },
	{ "NT_STATUS_OBJECT_NAME_COLLISION", EEXIST },
	{ "NT_STATUS_ACCESS_DENIED", EACCES },
	{ "NT_STATUS_CANNOT_DELETE", EACCES },
	{ "NT_STATUS_FILE_IS_A_DIRECTORY", EISDIR },
	{ "NT_STATUS_NOT_A_DIRECTORY", ENOTDIR },
	{ "NT_STATUS_DIRECTORY_NOT_EMPTY", ENOTEMPTY },
	{ "NT_STATUS_SHARING_VIOLATION", EBUSY },
	{ "NT_STATUS_INVALID_HANDLE", EBADF },
	{ "NT_STATUS_INVALID_PARAMETER", EINVAL },
	{ "NT_STATUS_OBJECT_PATH_SYNTAX_BAD", EINVAL },
	{ "NT_STATUS_DISK_FULL", ENOSPC },
	{ "NT_STATUS_LOCK_NOT_GRANTED", EAGAIN },
	{ "NT_STATUS_FILE_LOCK_CONFLICT", EAGAIN },
	{ "NT_STATUS_RANGE_NOT_LOCKED", ENOLCK },
	{ "NT_STATUS_END_OF_FILE", 0 },
	{ "NT_STATUS_NOT_IMPLEMENTED", ENOSYS },
};

/* The handles NTCreateX gave and no Close took back yet. */
struct fnums {
	struct {
		int64_t fnum;
		int handle;
	} *v;
	size_t n, cap;
};

static int status(struct trace_reader *r, struct field f, int *err)
{
	if (f.n > 2 && f.s[0] == '0' && (f.s[1] == 'x' || f.s[1] == 'X')) {
		int64_t v;

		if (trace_rd_count(r, f, "status", &v) < 0)
			return -1;
		*err = v ? EIO : 0;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(nt_status); i++) {
		if (strlen(nt_status[i].name) == f.n &&
		    memcmp(nt_status[i].name, f.s, f.n) == 0) {
			*err = nt_status[i].err;
			return 0;
		}
	}
	if (f.n > 10 && memcmp(f.s, "NT_STATUS_", 10) == 0)
		return trace_rd_error(r, f.s, f.n, "unknown status '%.*s'",
				      (int)f.n, f.s);
	return trace_rd_error(
		r, f.s, f.n,
		"expected a status (NT_STATUS_... or 0x...) at the end of the line");
}

/* "\clients\client1\x" -> clients/client1/x under the trace root */
static int db_path(struct trace_reader *r, struct field f, int *idx)
{
	const char *s = f.s;
	size_t n = f.n;
	char *p;
	int rc;

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s++;
		n -= 2;
	}
	p = xstrndup(s, n);
	for (char *q = p; *q; q++)
		if (*q == '\\')
			*q = '/';
	if (memchr(s, '\0', n))
		rc = trace_rd_error(r, f.s, f.n,
				    "a path may not hold a NUL byte");
	else
		rc = trace_rd_path_rel(r, p + strspn(p, "/"), f.s, f.n, idx);
	free(p);
	return rc;
}

static int find_fnum(struct trace_reader *r, struct fnums *fn, struct field f,
		     bool take, int *handle)
{
	int64_t v;

	if (trace_rd_count(r, f, "handle", &v) < 0)
		return -1;
	for (size_t i = fn->n; i-- > 0;) {
		if (fn->v[i].fnum != v)
			continue;
		*handle = fn->v[i].handle;
		if (take)
			fn->v[i] = fn->v[--fn->n];
		return 0;
	}
	return trace_rd_error(
		r, f.s, f.n,
		"handle %.*s was not opened (no NTCreateX gave it)", (int)f.n,
		f.s);
}

/* NTCreateX's create options and disposition as open flags */
static unsigned create_flags(int64_t options, int64_t disposition)
{
	static const unsigned disp[] = {
		TRACE_O_CREAT | TRACE_O_TRUNC, /* supersede */
		0, /* open */
		TRACE_O_CREAT | TRACE_O_EXCL, /* create */
		TRACE_O_CREAT, /* open if */
		TRACE_O_TRUNC, /* overwrite */
		TRACE_O_CREAT | TRACE_O_TRUNC, /* overwrite if */
	};
	unsigned fl = disposition >= 0 && disposition < 6 ? disp[disposition]
							  : 0;

	if (options & 0x1) /* a directory */
		return (fl & (TRACE_O_CREAT | TRACE_O_EXCL)) | TRACE_O_READ |
		       TRACE_O_DIRECTORY;
	return fl | TRACE_O_READ | TRACE_O_WRITE;
}

static int db_values(struct trace_reader *r, const struct dbench_op *d,
		     struct field *v, struct fnums *fn, struct trace_op *op)
{
	int64_t num[4] = { 0 };

	for (int i = 0; d->sig[i]; i++) {
		switch (d->sig[i]) {
		case 'p':
			if (db_path(r, v[i], op->path < 0 ? &op->path
							  : &op->path2) < 0)
				return -1;
			break;
		case 'h':
			if (find_fnum(r, fn, v[i], d->type == TOP_CLOSE,
				      &op->handle) < 0)
				return -1;
			break;
		case 'o':
			if (trace_rd_count(r, v[i], "offset", &op->offset) < 0)
				return -1;
			break;
		case 'l':
			if (trace_rd_count(r, v[i], "length", &op->length) < 0)
				return -1;
			break;
		case 'r':
			if (trace_rd_count(r, v[i], "count", &op->result) < 0)
				return -1;
			break;
		default: { /* a failed NTCreateX's handle may be -1 */
			bool neg = v[i].n > 1 && v[i].s[0] == '-';
			struct field f = { v[i].s + neg, v[i].n - neg };
			int64_t *to = &num[i < 4 ? i : 3];

			if (trace_rd_count(r, f, "value", to) < 0)
				return -1;
			if (neg)
				*to *= -1;
		}
		}
	}
	if (d->type == TOP_OPEN) {
		op->flags = create_flags(num[1], num[2]);
		op->mode = 0600;
		if (!op->err) {
			fn->v = grow_array(fn->v, &fn->cap, fn->n + 1,
					   sizeof(*fn->v));
			fn->v[fn->n].fnum = num[3];
			op->handle = trace_add_handle(r->t, 0, op->path,
						      op->flags, false);
			fn->v[fn->n++].handle = op->handle;
		}
	}
	if (d->type == TOP_READDIR) {
		/* FIND_FIRST names a pattern: the directory is listed */
		const char *p = trace_path(r->t, op->path);
		const char *slash = strrchr(p, '/');
		char *dir = slash ? xstrndup(p, (size_t)(slash - p)) : xstrdup(".");

		op->path = trace_intern(r->t, dir);
		free(dir);
	}
	if (op->err)
		op->result = 0;
	return 0;
}

static int db_line(struct trace_reader *r, struct fnums *fn)
{
	struct field f[20];
	int n = trace_rd_fields(r, f, 20), first = 0;
	struct trace_op op = { .handle = -1, .path = -1, .path2 = -1,
			       .time_ns = TRACE_NO_TIME,
			       .dur_ns = TRACE_NO_TIME, .line = r->line };
	const struct dbench_op *d = NULL;

	if (n <= 0 || f[0].s[0] == '#')
		return n < 0 ? -1 : 0;
	if (f[0].n >= 3 && memcmp(f[0].s, "SMB", 3) == 0)
		return trace_rd_error(
			r, f[0].s, f[0].n,
			"a dbench 1 loadfile: only dbench 3 and 4 loadfiles are read");
	if (f[0].s[0] >= '0' && f[0].s[0] <= '9') {
		if (trace_rd_seconds(r, f[0], &op.time_ns) < 0)
			return -1;
		first = 1;
	}
	if (n - first < 2)
		return trace_rd_error(
			r, r->buf + r->len, 0,
			"truncated line: expected an operation and its status");
	for (size_t i = 0; i < ARRAY_SIZE(dbench_ops); i++)
		if (strlen(dbench_ops[i].name) == f[first].n &&
		    strncasecmp(dbench_ops[i].name, f[first].s, f[first].n) == 0)
			d = &dbench_ops[i];
	if (!d && f[first].n == 5 && strncasecmp(f[first].s, "Sleep", 5) == 0) {
		trace_ignore(r->t, "Sleep", 1);
		return 0;
	}
	if (!d)
		return trace_rd_error(r, f[first].s, f[first].n,
				      "unknown dbench operation '%.*s'",
				      (int)f[first].n, f[first].s);
	if (status(r, f[n - 1], &op.err) < 0)
		return -1;
	if (n - first - 2 != (int)strlen(d->sig))
		return trace_rd_error(
			r, f[first].s, f[first].n,
			"%s takes %d values before its status, not %d", d->name,
			(int)strlen(d->sig), n - first - 2);
	op.type = d->type;
	if (db_values(r, d, f + first + 1, fn, &op) < 0)
		return -1;
	trace_add_op(r->t, 0, &op);
	return 0;
}

/*
 * A loadfile has no mark: a trace no other format says is theirs is read
 * as one, and this reader says what is wrong with it.
 */
enum trace_looks trace_looks_dbench(const char *line, size_t len)
{
	return TRACE_LOOKS_MAYBE;
}

int trace_read_dbench(struct trace_reader *r)
{
	struct fnums fn = { 0 };
	int rc = 0;

	trace_add_stream(r->t, "client");
	for (int line = 1; rc == 0 && line <= r->nlines; line++) {
		trace_rd_line(r, line);
		rc = db_line(r, &fn);
	}
	free(fn.v);
	return rc;
}
