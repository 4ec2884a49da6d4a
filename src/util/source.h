/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A script's text and where its lines start, so that a byte offset kept in
 * any AST or IR node can be turned back into file:line:col and a caret.
 */
#ifndef FBRUN_SOURCE_H
#define FBRUN_SOURCE_H

#include <stddef.h>

/* A span of source text: byte offsets, end exclusive. */
struct loc {
	int start, end;
};

#define LOC_NONE ((struct loc){ -1, -1 })

struct source;

/*
 * Scripts are at most this long: real ones are a few kilobytes, and the
 * parse takes some twenty times the text in memory.
 */
#define SOURCE_MAX_BYTES (64u << 20)

/*
 * Read a script from path ("-" reads standard input).  Returns NULL with
 * errno set on failure, EFBIG if it is longer than SOURCE_MAX_BYTES.  The
 * text may contain any bytes, NUL included.
 */
struct source *source_load(const char *path);

/* Wrap text (copied) under a display name such as "<command line>". */
struct source *source_from_string(const char *name, const char *text,
				  size_t len);
void source_free(struct source *src);

const char *source_name(const struct source *src);
const char *source_text(const struct source *src);
size_t source_len(const struct source *src);

/* 1-based line and column (in bytes) of a byte offset. */
void source_position(const struct source *src, int offset, int *line,
		     int *col);

/* Start and length (without newline) of 1-based line `line`. */
const char *source_line(const struct source *src, int line, size_t *len);

#endif
