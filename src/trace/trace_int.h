/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of the trace module: the model's struct and what the
 * readers share (a line at a time, located errors, numbers, quoted
 * strings, paths mapped under the trace root).
 */
#ifndef FBRUN_TRACE_INT_H
#define FBRUN_TRACE_INT_H

#include "trace/trace.h"
#include "util/diag.h"
#include "util/source.h"
#include "util/util.h"

struct trace_stream {
	char *name;
	struct trace_op *ops;
	size_t nops, cap_ops;
	struct trace_handle *handles;
	size_t nhandles, cap_handles;
};

struct trace_ignored {
	char *name;
	uint64_t count;
};

struct trace {
	enum trace_format format;
	char **paths;
	size_t npaths, cap_paths;
	struct strmap *pathmap; /* path -> index + 1 */
	struct trace_stream *streams;
	size_t nstreams, cap_streams;
	struct trace_ignored *ign;
	size_t nign, cap_ign;
	struct strmap *ignmap; /* name -> index + 1 */
	struct trace_entry *initial;
	size_t ninitial;
	bool initial_done;
};

/*
 * One logical line being read.  Its text may be two physical lines
 * joined (strace's unfinished call and its resumption): bytes before
 * `split` are at source offset off_a, the rest at off_b.
 */
struct trace_reader {
	struct trace *t;
	const struct source *src;
	struct diag *diag;
	char *root; /* absolute and lexical, or NULL */
	int line; /* the physical line being read */
	int nlines; /* the source's lines */
	const char *buf;
	size_t len, split;
	int off_a, off_b;
};

/* A field of a whitespace-separated line. */
struct field {
	const char *s;
	size_t n;
};

/* The error at `at` (within r->buf), `width` bytes underlined; -1. */
int trace_rd_error(struct trace_reader *r, const char *at, size_t width,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Point the reader at physical line `line` (1-based). */
void trace_rd_line(struct trace_reader *r, int line);

/* Up to max fields split at blanks; a "..." field may hold blanks. */
int trace_rd_fields(struct trace_reader *r, struct field *f, int max);
/* A whole field as a count in [0, TRACE_MAX_OFFSET] (decimal or 0x hex). */
int trace_rd_count(struct trace_reader *r, struct field f, const char *what,
		   int64_t *out);
/* A seconds value such as 1796317320.340405 as nanoseconds. */
int trace_rd_seconds(struct trace_reader *r, struct field f, int64_t *ns);
/*
 * A "quoted" string with C escapes (\n \t \\ \" \xHH \ooo) unquoted.
 * *end is set past the closing quote.  Malloc'd in *out; a NUL inside
 * is refused.
 */
int trace_rd_unquote(struct trace_reader *r, const char *s, const char *limit,
		     char **out, const char **end);
/*
 * The n bytes at s with the same escapes decoded, no quotes around: an
 * annotation such as strace -y's </a\76b> for /a>b.  Malloc'd in *out.
 */
int trace_rd_unescape(struct trace_reader *r, const char *s, size_t n,
		      char **out);
/*
 * Path mapping (doc/trace-format.md, "Paths"): a relative path is taken
 * from the root and may not climb above it; an absolute one beneath the
 * root becomes relative to it, any other goes under "_abs/".  `at` is
 * where the path is written, for the error.  Returns the interned index.
 */
int trace_rd_path_rel(struct trace_reader *r, const char *path, const char *at,
		      size_t width, int *idx);
int trace_rd_path_abs(struct trace_reader *r, const char *path, int *idx);

/* Whether the n bytes at s start with prefix. */
bool trace_rd_starts(const char *s, size_t n, const char *prefix);

/* How surely a first line is in a format: the looks of format_list.h. */
enum trace_looks {
	TRACE_LOOKS_NO,
	TRACE_LOOKS_MAYBE, /* what no format says yes to: dbench's */
	TRACE_LOOKS_YES, /* its own mark ("fio version", "fbrun-trace") */
};

/* Each format's reader and its look at a first line, in its own file. */
#define TRACE_FORMAT(id, name, read, looks)                                    \
	int read(struct trace_reader *r);                                      \
	enum trace_looks looks(const char *line, size_t len);
#include "trace/format_list.h"
#undef TRACE_FORMAT

/* The stream's op array, to patch an op just added (fd bookkeeping). */
struct trace_op *trace_last_op(struct trace *t, size_t s);

/* fbrun's own format's flag words, shared by its reader and writer. */
extern const struct trace_flag_name {
	const char *name;
	unsigned bit;
} trace_flag_names[];
extern const size_t trace_nflag_names;

#endif
