/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun's own trace format, version 1 (doc/trace-format.md): read and
 * written here.  A header line, then "stream" lines each starting a
 * stream, "inherit" lines naming a handle open before it, "ignored"
 * lines, and one op a line: time, duration, name, key=value arguments,
 * "= result".
 */
#include "trace/trace_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define FBTRACE_VERSION 1

const struct trace_flag_name trace_flag_names[] = {
	{ "read", TRACE_O_READ },	{ "write", TRACE_O_WRITE },
	{ "creat", TRACE_O_CREAT },	{ "excl", TRACE_O_EXCL },
	{ "trunc", TRACE_O_TRUNC },	{ "append", TRACE_O_APPEND },
	{ "directory", TRACE_O_DIRECTORY }, { "sync", TRACE_O_SYNC },
	{ "dsync", TRACE_O_DSYNC },	{ "direct", TRACE_O_DIRECT },
	{ "nofollow", TRACE_O_NOFOLLOW }, { "path", TRACE_O_PATH },
};
const size_t trace_nflag_names = ARRAY_SIZE(trace_flag_names);

/* ---------------------------------------------------------------- write */

static void put_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void put_time(FILE *out, int64_t ns)
{
	if (ns == TRACE_NO_TIME)
		fputs("-", out);
	else
		fprintf(out, "%" PRId64 ".%09" PRId64, ns / 1000000000,
			ns % 1000000000);
}

static void put_flags(FILE *out, unsigned flags)
{
	const char *sep = "";

	for (size_t i = 0; i < trace_nflag_names; i++) {
		if (flags & trace_flag_names[i].bit) {
			fprintf(out, "%s%s", sep, trace_flag_names[i].name);
			sep = "|";
		}
	}
}

static void put_op(const struct trace *t, const struct trace_op *op, FILE *out)
{
	put_time(out, op->time_ns);
	fputc(' ', out);
	put_time(out, op->dur_ns);
	fprintf(out, " %s", trace_op_name(op->type));
	if (op->handle >= 0)
		fprintf(out, " h=%d", op->handle);
	if (op->path >= 0) {
		fputs(" path=", out);
		put_quoted(out, trace_path(t, op->path));
	}
	if (op->path2 >= 0) {
		fputs(" to=", out);
		put_quoted(out, trace_path(t, op->path2));
	}
	if (op->flags) {
		fputs(" flags=", out);
		put_flags(out, op->flags);
	}
	if (op->mode)
		fprintf(out, " mode=%04o", op->mode);
	if (op->offset == -1)
		fputs(" off=cur", out);
	else if (op->offset)
		fprintf(out, " off=%" PRId64, op->offset);
	if (op->length)
		fprintf(out, " len=%" PRId64, op->length);
	if (op->err) /* the readers keep only errnos with a name */
		fprintf(out, " = %s\n", trace_errno_name(op->err)
						 ? trace_errno_name(op->err)
						 : "EIO");
	else
		fprintf(out, " = %" PRId64 "\n", op->result);
}

/* the inherited handles numbered from next on, up to the next open's */
static size_t put_inherited(const struct trace *t,
			    const struct trace_stream *st, size_t next,
			    FILE *out)
{
	for (; next < st->nhandles && st->handles[next].inherited; next++) {
		fprintf(out, "inherit h=%zu path=", next);
		put_quoted(out, trace_path(t, st->handles[next].path));
		if (st->handles[next].flags) {
			fputs(" flags=", out);
			put_flags(out, st->handles[next].flags);
		}
		fputc('\n', out);
	}
	return next;
}

int trace_write(const struct trace *t, FILE *out)
{
	size_t next;

	fprintf(out, "fbrun-trace %d\n", FBTRACE_VERSION);
	fprintf(out, "# from %s: %zu streams\n", trace_format_name(t->format),
		t->nstreams);
	for (size_t i = 0; i < t->nign; i++)
		fprintf(out, "ignored %s %" PRIu64 "\n", t->ign[i].name,
			t->ign[i].count);
	for (size_t s = 0; s < t->nstreams; s++) {
		const struct trace_stream *st = &t->streams[s];

		fputs("stream ", out);
		put_quoted(out, st->name);
		fputc('\n', out);
		next = 0;
		for (size_t i = 0; i < st->nops; i++) {
			next = put_inherited(t, st, next, out);
			put_op(t, &st->ops[i], out);
			if (st->ops[i].type == TOP_OPEN && !st->ops[i].err)
				next++;
		}
		put_inherited(t, st, next, out);
	}
	fflush(out);
	return ferror(out) ? (errno = EIO, -1) : 0;
}

/* ----------------------------------------------------------------- read */

struct fb_state {
	size_t stream;
	bool have_stream;
};

static int fb_flags(struct trace_reader *r, struct field v, unsigned *out)
{
	const char *p = v.s, *end = v.s + v.n;

	*out = 0;
	while (p < end) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t n = bar ? (size_t)(bar - p) : (size_t)(end - p);
		size_t i;

		for (i = 0; i < trace_nflag_names; i++)
			if (strlen(trace_flag_names[i].name) == n &&
			    memcmp(trace_flag_names[i].name, p, n) == 0)
				break;
		if (i == trace_nflag_names)
			return trace_rd_error(
				r, p, n, "unknown open flag '%.*s'", (int)n, p);
		*out |= trace_flag_names[i].bit;
		p = bar ? bar + 1 : end;
	}
	return 0;
}

static int fb_path(struct trace_reader *r, struct field v, int *idx)
{
	char *path;
	const char *end;
	int rc;

	if (trace_rd_unquote(r, v.s, v.s + v.n, &path, &end) < 0)
		return -1;
	if (end != v.s + v.n)
		rc = trace_rd_error(r, end, 1,
				    "expected a blank after the path");
	else if (path[0] == '/')
		rc = trace_rd_error(
			r, v.s, v.n,
			"path '%s' is absolute: trace paths are relative to the trace root",
			path);
	else
		rc = trace_rd_path_rel(r, path, v.s, v.n, idx);
	free(path);
	return rc;
}

static int fb_handle(struct trace_reader *r, struct fb_state *fs,
		     struct field v, int *h)
{
	int64_t n;

	if (trace_rd_count(r, v, "handle", &n) < 0)
		return -1;
	if ((size_t)n >= trace_stream_nhandles(r->t, fs->stream))
		return trace_rd_error(
			r, v.s, v.n,
			"handle %" PRId64 " was not opened in this stream", n);
	*h = (int)n;
	return 0;
}

/* one key=value argument of an op */
/* -1 (its error) when field i's key= is one of fields first to i - 1's */
static int fb_once(struct trace_reader *r, const struct field *f, int first,
		   int i)
{
	const char *eq = memchr(f[i].s, '=', f[i].n);
	size_t k = eq ? (size_t)(eq - f[i].s) + 1 : f[i].n;

	for (int j = first; j < i; j++)
		if (f[j].n >= k && memcmp(f[j].s, f[i].s, k) == 0)
			return trace_rd_error(r, f[i].s, k, "'%.*s' given twice",
					      (int)k, f[i].s);
	return 0;
}

static int fb_arg(struct trace_reader *r, struct fb_state *fs, struct field f,
		  struct trace_op *op)
{
	const char *eq = memchr(f.s, '=', f.n);
	struct field k, v;

	if (!eq)
		return trace_rd_error(r, f.s, f.n,
				      "expected key=value, not '%.*s'",
				      (int)f.n, f.s);
	k = (struct field){ f.s, (size_t)(eq - f.s) };
	v = (struct field){ eq + 1, f.n - k.n - 1 };
#define KEY(w) (k.n == strlen(w) && memcmp(k.s, w, k.n) == 0)
	if (KEY("h") && op->type == TOP_OPEN) {
		int64_t h;
		size_t next = trace_stream_nhandles(r->t, fs->stream);

		if (trace_rd_count(r, v, "handle", &h) < 0)
			return -1;
		if ((size_t)h != next)
			return trace_rd_error(r, v.s, v.n,
					      "handle %" PRId64
					      " is not the stream's next (%zu)",
					      h, next);
		return 0;
	}
	if (KEY("h"))
		return fb_handle(r, fs, v, &op->handle);
	if (KEY("path"))
		return fb_path(r, v, &op->path);
	if (KEY("to"))
		return fb_path(r, v, &op->path2);
	if (KEY("flags"))
		return fb_flags(r, v, &op->flags);
	if (KEY("mode")) {
		op->mode = 0;
		for (size_t i = 0; i < v.n; i++) {
			if (v.s[i] < '0' || v.s[i] > '7' || i >= 5)
				return trace_rd_error(
					r, v.s, v.n,
					"expected an octal mode up to 07777, not '%.*s'",
					(int)v.n, v.s);
			op->mode = op->mode * 8 + (unsigned)(v.s[i] - '0');
		}
		if (!v.n || op->mode > 07777)
			return trace_rd_error(
				r, v.s, v.n ? v.n : 1,
				"expected an octal mode up to 07777, not '%.*s'",
				(int)v.n, v.s);
		return 0;
	}
	if (KEY("off")) {
		if (v.n == 3 && memcmp(v.s, "cur", 3) == 0) {
			op->offset = -1;
			return 0;
		}
		return trace_rd_count(r, v, "offset", &op->offset);
	}
	if (KEY("len"))
		return trace_rd_count(r, v, "length", &op->length);
#undef KEY
	return trace_rd_error(r, k.s, k.n, "unknown argument '%.*s'", (int)k.n,
			      k.s);
}

static int fb_result(struct trace_reader *r, struct field f,
		     struct trace_op *op)
{
	if (f.n && f.s[0] >= 'A' && f.s[0] <= 'Z') {
		op->err = trace_errno_parse(f.s, f.n);
		if (!op->err)
			return trace_rd_error(r, f.s, f.n,
					      "unknown error '%.*s'", (int)f.n,
					      f.s);
		return 0;
	}
	return trace_rd_count(r, f, "result", &op->result);
}

static int fb_time(struct trace_reader *r, struct field f, int64_t *ns)
{
	if (f.n == 1 && f.s[0] == '-') {
		*ns = TRACE_NO_TIME;
		return 0;
	}
	return trace_rd_seconds(r, f, ns);
}

/*
 * What each type works on: a handle (h=), a path (path=, and to= for
 * rename and link; symlink's, where it points, may be left out), or either; statfs may have neither (dbench's: the
 * tree's), nor a close of a descriptor another one still holds, nor a
 * call on a handle that failed with EBADF (on a bad descriptor).  The
 * replay finds what it needs there.
 */
enum { ON_H = 1, ON_PATH = 2, ON_TO = 4, ON_NONE = 8 };
static const unsigned char fb_on[TOP_COUNT] = {
	[TOP_OPEN] = ON_PATH,
	[TOP_CLOSE] = ON_H | ON_NONE, /* of no handle: another fd holds it */
	[TOP_READ] = ON_H,
	[TOP_WRITE] = ON_H,
	[TOP_SEEK] = ON_H,
	[TOP_FSYNC] = ON_H,
	[TOP_FDATASYNC] = ON_H,
	[TOP_STAT] = ON_PATH,
	[TOP_LSTAT] = ON_PATH,
	[TOP_FSTAT] = ON_H,
	[TOP_UNLINK] = ON_PATH,
	[TOP_SYMLINK] = ON_PATH,
	[TOP_RENAME] = ON_PATH | ON_TO,
	[TOP_LINK] = ON_PATH | ON_TO,
	[TOP_MKDIR] = ON_PATH,
	[TOP_RMDIR] = ON_PATH,
	[TOP_READDIR] = ON_H | ON_PATH,
	[TOP_TRUNCATE] = ON_PATH,
	[TOP_FTRUNCATE] = ON_H,
	[TOP_SETATTR] = ON_H | ON_PATH,
	[TOP_STATFS] = ON_H | ON_PATH | ON_NONE,
	[TOP_LOCK] = ON_H,
	[TOP_UNLOCK] = ON_H,
	[TOP_DELTREE] = ON_PATH,
	[TOP_TRIM] = ON_H,
};

static int fb_needs(struct trace_reader *r, struct field type,
		    const struct trace_op *op)
{
	unsigned on = fb_on[op->type];
	const char *what = NULL;

	if (op->type == TOP_OPEN)
		what = op->path < 0 ? "needs a path=" : NULL;
	else if (op->handle >= 0 && !(on & ON_H))
		what = "works on a path=, not a handle h=";
	else if (op->handle < 0 && op->path >= 0 && !(on & ON_PATH))
		what = "works on a handle h=, not a path=";
	else if (op->handle < 0 && op->path < 0 && !(on & ON_NONE) &&
		 !((on & ON_H) && op->err == EBADF)) /* a bad descriptor's */
		what = on & ON_H
			       ? (on & ON_PATH ? "needs a handle h= or a path="
					       : "needs a handle h=")
			       : "needs a path=";
	else if ((on & ON_TO) && op->path2 < 0)
		what = "needs the new name, to=";
	else if (!(on & ON_TO) && op->path2 >= 0 && op->type != TOP_SYMLINK)
		what = "takes no to=";
	if (!what)
		return 0;
	return trace_rd_error(r, type.s, type.n, "%.*s %s", (int)type.n, type.s,
			      what);
}

static int fb_op(struct trace_reader *r, struct fb_state *fs, struct field *f,
		 int n)
{
	struct trace_op op = { .handle = -1, .path = -1, .path2 = -1,
			       .line = r->line };
	int i;

	if (!fs->have_stream)
		return trace_rd_error(r, f[0].s, f[0].n,
				      "an operation before any 'stream' line");
	if (n < 5 || f[n - 2].n != 1 || f[n - 2].s[0] != '=')
		return trace_rd_error(
			r, n < 5 ? r->buf + r->len : f[n - 2].s, 0,
			"truncated line: expected TIME DURATION OP [ARG=VALUE...] = RESULT");
	if (fb_time(r, f[0], &op.time_ns) < 0 || fb_time(r, f[1], &op.dur_ns) < 0)
		return -1;
	for (i = 0; i < TOP_COUNT; i++)
		if (strlen(trace_op_name(i)) == f[2].n &&
		    memcmp(trace_op_name(i), f[2].s, f[2].n) == 0)
			break;
	if (i == TOP_COUNT)
		return trace_rd_error(r, f[2].s, f[2].n,
				      "unknown operation '%.*s'", (int)f[2].n,
				      f[2].s);
	op.type = (enum trace_op_type)i;
	for (i = 3; i < n - 2; i++)
		if (fb_once(r, f, 3, i) < 0 || fb_arg(r, fs, f[i], &op) < 0)
			return -1;
	if (fb_result(r, f[n - 1], &op) < 0)
		return -1;
	if (op.offset + op.length > TRACE_MAX_OFFSET)
		return trace_rd_error(
			r, f[2].s, f[2].n,
			"the operation ends beyond the largest offset fbrun replays (1 PiB)");
	if (fb_needs(r, f[2], &op) < 0)
		return -1;
	if (op.type == TOP_OPEN && !op.err)
		op.handle = trace_add_handle(r->t, fs->stream, op.path,
					     op.flags, false);
	trace_add_op(r->t, fs->stream, &op);
	return 0;
}

static int fb_directive(struct trace_reader *r, struct fb_state *fs,
			struct field *f, int n)
{
	if (f[0].n == 6 && memcmp(f[0].s, "stream", 6) == 0) {
		char *name;
		const char *end;

		if (n != 2)
			return trace_rd_error(r, f[0].s, f[0].n,
					      "expected stream \"NAME\"");
		if (trace_rd_unquote(r, f[1].s, f[1].s + f[1].n, &name,
				     &end) < 0)
			return -1;
		fs->stream = trace_add_stream(r->t, name);
		fs->have_stream = true;
		free(name);
		return 0;
	}
	if (f[0].n == 7 && memcmp(f[0].s, "ignored", 7) == 0) {
		int64_t count;
		char *name;

		if (n != 3 || trace_rd_count(r, f[2], "count", &count) < 0)
			return n != 3 ? trace_rd_error(
						r, f[0].s, f[0].n,
						"expected ignored NAME COUNT")
				      : -1;
		for (size_t i = 0; i < f[1].n; i++)
			if (!isalnum((unsigned char)f[1].s[i]) &&
			    f[1].s[i] != '_')
				return trace_rd_error(
					r, f[1].s, f[1].n,
					"an ignored call's name is letters, digits and '_'");
		name = xstrndup(f[1].s, f[1].n);
		trace_ignore(r->t, name, (uint64_t)count);
		free(name);
		return 0;
	}
	if (f[0].n != 7 || memcmp(f[0].s, "inherit", 7) != 0)
		return trace_rd_error(
			r, f[0].s, f[0].n,
			"unknown line '%.*s' (stream, inherit, ignored or an operation)",
			(int)f[0].n, f[0].s);
	/* inherit h=N path="..." [flags=...] */
	{
		struct trace_op op = { .handle = -1, .path = -1, .path2 = -1 };
		int64_t h;

		if (!fs->have_stream)
			return trace_rd_error(
				r, f[0].s, f[0].n,
				"'inherit' before any 'stream' line");
		if (n < 3 || f[1].n < 3 || memcmp(f[1].s, "h=", 2) != 0)
			return trace_rd_error(
				r, f[0].s, f[0].n,
				"expected inherit h=N path=\"PATH\" [flags=...]");
		if (trace_rd_count(r, (struct field){f[1].s + 2, f[1].n - 2},
				   "handle", &h) < 0)
			return -1;
		if ((size_t)h != trace_stream_nhandles(r->t, fs->stream))
			return trace_rd_error(
				r, f[1].s, f[1].n,
				"handle %" PRId64
				" is not the stream's next (%zu)",
				h, trace_stream_nhandles(r->t, fs->stream));
		for (int i = 2; i < n; i++)
			if (fb_once(r, f, 2, i) < 0 ||
			    fb_arg(r, fs, f[i], &op) < 0)
				return -1;
		if (op.path < 0 || op.handle >= 0 || op.offset || op.length)
			return trace_rd_error(r, f[0].s, f[0].n,
					      "inherit needs a path=");
		trace_add_handle(r->t, fs->stream, op.path, op.flags, true);
		return 0;
	}
}

enum trace_looks trace_looks_fbrun(const char *line, size_t len)
{
	return trace_rd_starts(line, len, "fbrun-trace") ? TRACE_LOOKS_YES
							 : TRACE_LOOKS_NO;
}

int trace_read_fbrun(struct trace_reader *r)
{
	struct fb_state fs = { 0 };
	struct field f[16];
	int64_t version;
	int n, rc = 0;

	n = trace_rd_fields(r, f, 16);
	if (n != 2 || f[0].n != 11 || memcmp(f[0].s, "fbrun-trace", 11) != 0)
		return trace_rd_error(
			r, r->buf, r->len,
			"expected 'fbrun-trace %d' on the first line",
			FBTRACE_VERSION);
	if (trace_rd_count(r, f[1], "version", &version) < 0)
		return -1;
	if (version != FBTRACE_VERSION)
		return trace_rd_error(r, f[1].s, f[1].n,
				      "fbrun trace version %" PRId64
				      ": this fbrun reads version %d",
				      version, FBTRACE_VERSION);
	for (int line = 2; rc == 0 && line <= r->nlines; line++) {
		trace_rd_line(r, line);
		n = trace_rd_fields(r, f, 16);
		if (n <= 0 || f[0].s[0] == '#')
			rc = n < 0 ? -1 : 0;
		else if (f[0].s[0] >= 'a' && f[0].s[0] <= 'z')
			rc = fb_directive(r, &fs, f, n);
		else
			rc = fb_op(r, &fs, f, n);
	}
	return rc;
}
