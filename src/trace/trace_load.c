/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A trace loaded (trace.h): the file read whole, its format told from its
 * first line, handed to the format's reader.  Above the readers and the
 * model they fill, so that neither calls back here.
 */
#include "trace/trace_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/msg.h"
#include "util/paths.h"

/* Traces are larger than scripts: strace of a build runs to hundreds of megabytes; source offsets are ints. */
#define TRACE_MAX_BYTES ((size_t)1 << 30)

/* Each format's reader and its look at a first line (format_list.h). */
static const struct {
	int (*read)(struct trace_reader *r);
	enum trace_looks (*looks)(const char *line, size_t len);
} formats[TRACE_NFORMATS] = {
#define TRACE_FORMAT(id, name, read, looks) [TRACE_##id] = { read, looks },
#include "trace/format_list.h"
#undef TRACE_FORMAT
};

static enum trace_format detect(const struct source *src, int nlines)
{
	size_t len = 0;
	int line;
	const char *s = "";
	enum trace_looks best = TRACE_LOOKS_NO;
	enum trace_format found = TRACE_AUTO;

	/* the first line that is not blank or a comment decides */
	for (line = 1; line <= nlines; line++) {
		s = source_line(src, line, &len);
		while (len && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		if (len && *s != '#')
			break;
	}
	if (line > nlines)
		return TRACE_AUTO;
	/* the surest, the first of a tie; dbench takes what none else does */
	for (int f = TRACE_AUTO + 1; f < TRACE_NFORMATS; f++) {
		enum trace_looks how = formats[f].looks(s, len);

		if (how > best) {
			best = how;
			found = (enum trace_format)f;
		}
	}
	return found;
}

/* a control byte in the first line: a binary file, not a trace */
static int binary(struct trace_reader *r)
{
	for (size_t i = 0; i < r->len; i++) {
		unsigned char c = (unsigned char)r->buf[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return trace_rd_error(
				r, r->buf + i, 1,
				"binary data (byte 0x%02x): not a trace", c);
	}
	return 0;
}

static struct trace *parse_source(const struct source *src,
				  const struct trace_opts *opts)
{
	struct trace_reader r = { .src = src };
	enum trace_format f = opts ? opts->format : TRACE_AUTO;
	int rc, col;

	r.diag = diag_new(opts && opts->err ? opts->err : stderr, 1);
	r.t = trace_new();
	if (opts && opts->root)
		r.root = path_lexical(opts->root);
	source_position(src, (int)source_len(src), &r.nlines, &col);
	trace_rd_line(&r, 1);
	if (f == TRACE_AUTO)
		f = detect(src, r.nlines);
	if (f == TRACE_AUTO)
		rc = trace_rd_error(&r, r.buf, 0, "empty trace");
	else
		rc = binary(&r) < 0 ? -1 : formats[f].read(&r);
	r.t->format = f;
	free(r.root);
	diag_free(r.diag);
	if (rc < 0) {
		trace_free(r.t);
		return NULL;
	}
	return r.t;
}

struct trace *trace_parse(const char *name, const char *text, size_t len,
			  const struct trace_opts *opts)
{
	struct source *src = source_from_string(name, text, len);
	struct trace *t = parse_source(src, opts);

	source_free(src);
	return t;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;
	struct stat st;

	*len = 0;
	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;
		return NULL;
	}
	do {
		buf = grow_array(buf, &cap, *len + 65536, 1);
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0 && *len <= TRACE_MAX_BYTES);
	if (ferror(f) || *len > TRACE_MAX_BYTES) {
		errno = ferror(f) ? EIO : EFBIG;
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

struct trace *trace_load(const char *path, const struct trace_opts *opts)
{
	size_t len;
	char *text = slurp(path, &len);
	struct trace *t;

	if (!text) {
		fb_error("cannot read trace '%s': %s", path, strerror(errno));
		return NULL;
	}
	t = trace_parse(path, text, len, opts);
	free(text);
	return t;
}
