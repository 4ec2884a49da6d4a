/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fio's iolog, versions 2 and 3: a header line, then per line a file
 * named and what happened to it (add, open, close) or an I/O on it (read,
 * write, sync, datasync, trim with an offset and a length).  Version 2
 * spaces them with "wait" lines (microseconds); version 3 puts the time
 * since the start, in microseconds, before each line.  One stream.
 */
#include "trace/trace_int.h"

#include <stdlib.h>
#include <string.h>

struct fio_file {
	int path;
	int handle; /* -1 while closed */
};

struct fio_state {
	struct fio_file *files;
	size_t n, cap;
	/* path index -> its file + 1: found at once among 100,000 files */
	size_t *slot;
	size_t nslot;
	int version;
	int64_t now; /* v2: the waits so far, in ns */
};

static bool is(struct field f, const char *word)
{
	return strlen(word) == f.n && memcmp(f.s, word, f.n) == 0;
}

static struct fio_file *find(struct fio_state *st, int path)
{
	if (path < 0 || (size_t)path >= st->nslot || !st->slot[path])
		return NULL;
	return &st->files[st->slot[path] - 1];
}

static void add_file(struct fio_state *st, int path)
{
	if ((size_t)path >= st->nslot) {
		size_t n = st->nslot;

		st->slot = grow_array(st->slot, &st->nslot, (size_t)path + 1,
				      sizeof(*st->slot));
		memset(st->slot + n, 0, (st->nslot - n) * sizeof(*st->slot));
	}
	st->files = grow_array(st->files, &st->cap, st->n + 1,
			       sizeof(*st->files));
	st->files[st->n++] = (struct fio_file){ path, -1 };
	st->slot[path] = st->n;
}

static int fio_path(struct trace_reader *r, struct field f, int *idx)
{
	char *p = xstrndup(f.s, f.n);
	int rc = trace_rd_path_rel(r, p, f.s, f.n, idx);

	free(p);
	return rc;
}

/* add, open, close */
static int manage(struct trace_reader *r, struct fio_state *st,
		  struct field *f, int path, struct trace_op *op)
{
	struct fio_file *ff = find(st, path);

	if (is(f[1], "add")) {
		if (!ff)
			add_file(st, path);
		return 1;
	}
	if (!ff)
		return trace_rd_error(r, f[0].s, f[0].n,
				      "file '%.*s' was not added before",
				      (int)f[0].n, f[0].s);
	if (is(f[1], "open")) {
		if (ff->handle >= 0)
			return trace_rd_error(r, f[1].s, f[1].n,
					      "file '%.*s' is already open",
					      (int)f[0].n, f[0].s);
		op->type = TOP_OPEN;
		op->flags = TRACE_O_READ | TRACE_O_WRITE;
		op->handle = ff->handle =
			trace_add_handle(r->t, 0, path, op->flags, false);
		return 0;
	}
	if (is(f[1], "close")) {
		if (ff->handle < 0)
			return trace_rd_error(r, f[1].s, f[1].n,
					      "file '%.*s' is not open",
					      (int)f[0].n, f[0].s);
		op->type = TOP_CLOSE;
		op->handle = ff->handle;
		ff->handle = -1;
		return 0;
	}
	return trace_rd_error(
		r, f[1].s, f[1].n,
		"unknown iolog action '%.*s' (add, open or close without an offset)",
		(int)f[1].n, f[1].s);
}

static const struct {
	const char *name;
	enum trace_op_type type;
} io_actions[] = {
	{ "read", TOP_READ },	    { "write", TOP_WRITE },
	{ "sync", TOP_FSYNC },	    { "datasync", TOP_FDATASYNC },
	{ "trim", TOP_TRIM },
};

/* read, write, sync, datasync, trim, and v2's wait */
static int io(struct trace_reader *r, struct fio_state *st, struct field *f,
	      int path, struct trace_op *op)
{
	struct fio_file *ff;
	size_t i;

	if (trace_rd_count(r, f[2], "offset", &op->offset) < 0 ||
	    trace_rd_count(r, f[3], "length", &op->length) < 0)
		return -1;
	if (is(f[1], "wait")) {
		if (st->version == 3)
			return trace_rd_error(
				r, f[1].s, f[1].n,
				"a version 3 iolog has no wait lines (its lines carry the time)");
		st->now += op->offset * 1000;
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(io_actions); i++)
		if (is(f[1], io_actions[i].name))
			break;
	if (i == ARRAY_SIZE(io_actions))
		return trace_rd_error(r, f[1].s, f[1].n,
				      "unknown iolog action '%.*s'",
				      (int)f[1].n, f[1].s);
	if (op->offset + op->length > TRACE_MAX_OFFSET)
		return trace_rd_error(
			r, f[3].s, f[3].n,
			"the I/O ends beyond the largest offset fbrun replays (1 PiB)");
	ff = find(st, path);
	if (!ff || ff->handle < 0)
		return trace_rd_error(r, f[0].s, f[0].n,
				      "file '%.*s' is not open", (int)f[0].n,
				      f[0].s);
	op->type = io_actions[i].type;
	op->handle = ff->handle;
	if (op->type == TOP_FSYNC || op->type == TOP_FDATASYNC)
		op->offset = op->length = 0;
	else if (op->type != TOP_TRIM)
		op->result = op->length;
	return 0;
}

static int fio_line(struct trace_reader *r, struct fio_state *st)
{
	struct field fields[6], *f = fields;
	int n = trace_rd_fields(r, fields, 6), rc;
	struct trace_op op = { .handle = -1, .path = -1, .path2 = -1,
			       .time_ns = TRACE_NO_TIME,
			       .dur_ns = TRACE_NO_TIME, .line = r->line };
	int path;

	if (n <= 0)
		return n;
	if (st->version == 3) {
		if (trace_rd_count(r, f[0], "time", &op.time_ns) < 0)
			return -1;
		op.time_ns *= 1000;
		f++;
		n--;
	} else if (st->now) {
		op.time_ns = st->now;
	}
	if (n != 2 && n != 4)
		return trace_rd_error(
			r, n < 2 ? r->buf + r->len : f[2].s, 0,
			"expected a file, an action and, for I/O, an offset and a length");
	if (fio_path(r, f[0], &path) < 0)
		return -1;
	rc = n == 2 ? manage(r, st, f, path, &op) : io(r, st, f, path, &op);
	if (rc == 0) {
		op.path = op.type == TOP_OPEN ? path : -1;
		trace_add_op(r->t, 0, &op);
	}
	return rc < 0 ? -1 : 0;
}

enum trace_looks trace_looks_fio(const char *line, size_t len)
{
	return trace_rd_starts(line, len, "fio version") ? TRACE_LOOKS_YES
							 : TRACE_LOOKS_NO;
}

int trace_read_fio(struct trace_reader *r)
{
	struct fio_state st = { 0 };
	int rc = 0;

	if (r->len == 19 && memcmp(r->buf, "fio version 2 iolog", 19) == 0)
		st.version = 2;
	else if (r->len == 19 && memcmp(r->buf, "fio version 3 iolog", 19) == 0)
		st.version = 3;
	else
		return trace_rd_error(
			r, r->buf, r->len,
			"expected 'fio version 2 iolog' or 'fio version 3 iolog'");
	trace_add_stream(r->t, "fio");
	for (int line = 2; rc == 0 && line <= r->nlines; line++) {
		trace_rd_line(r, line);
		rc = fio_line(r, &st);
	}
	free(st.files);
	free(st.slot);
	return rc;
}
