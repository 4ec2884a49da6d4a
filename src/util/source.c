/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A script's text and its line starts: byte offset -> line and column
 * (source.h).
 */
#include "util/source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

struct source {
	char *name;
	char *text; /* NUL-terminated copy; len excludes the NUL */
	size_t len;
	size_t *line_start; /* byte offset of each line's first byte */
	size_t nlines;
};

static void index_lines(struct source *src)
{
	size_t cap = 0, i;

	src->line_start = grow_array(NULL, &cap, 1, sizeof(size_t));
	/* a UTF-8 byte-order mark is not part of line 1: columns skip it */
	src->line_start[0] =
		src->len >= 3 && memcmp(src->text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	src->nlines = 1;
	/* a line ends at LF, CR LF or a lone CR (old Mac files) */
	for (i = 0; i < src->len; i++) {
		if (src->text[i] != '\n' && src->text[i] != '\r')
			continue;
		if (src->text[i] == '\r' && i + 1 < src->len &&
		    src->text[i + 1] == '\n')
			continue;
		src->line_start = grow_array(src->line_start, &cap,
					     src->nlines + 1, sizeof(size_t));
		src->line_start[src->nlines++] = i + 1;
	}
}

struct source *source_from_string(const char *name, const char *text,
				  size_t len)
{
	struct source *src = xcalloc(1, sizeof(*src));

	src->name = xstrdup(name);
	src->text = xmalloc(len + 1);
	memcpy(src->text, text, len);
	src->text[len] = '\0';
	src->len = len;
	index_lines(src);
	return src;
}

struct source *source_load(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	struct source *src;
	struct stat st;
	int err;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > (off_t)SOURCE_MAX_BYTES) {
		if (f != stdin)
			fclose(f);
		errno = EFBIG;
		return NULL;
	}
	/* one byte past the limit tells a file at the limit from a larger one */
	do {
		size_t want = SOURCE_MAX_BYTES + 1 - len;

		buf = grow_array(buf, &cap, len + 65536, 1);
		n = fread(buf + len, 1, cap - len < want ? cap - len : want, f);
		len += n;
	} while (n > 0 && len <= SOURCE_MAX_BYTES);
	err = ferror(f) ? (errno ? errno : EIO) : 0;
	if (!err && len > SOURCE_MAX_BYTES)
		err = EFBIG;
	if (f != stdin)
		fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	src = source_from_string(strcmp(path, "-") == 0 ? "<stdin>" : path,
				 buf, len);
	free(buf);
	return src;
}

void source_free(struct source *src)
{
	if (!src)
		return;
	free(src->name);
	free(src->text);
	free(src->line_start);
	free(src);
}

const char *source_name(const struct source *src)
{
	return src->name;
}

const char *source_text(const struct source *src)
{
	return src->text;
}

size_t source_len(const struct source *src)
{
	return src->len;
}

void source_position(const struct source *src, int offset, int *line,
		     int *col)
{
	size_t lo = 0, hi = src->nlines, off;

	if (offset < 0)
		offset = 0;
	off = (size_t)offset > src->len ? src->len : (size_t)offset;
	if (off < src->line_start[0])
		off = src->line_start[0];
	/* last line whose start is <= off */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (src->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = (int)lo + 1;
	*col = (int)(off - src->line_start[lo]) + 1;
}

const char *source_line(const struct source *src, int line, size_t *len)
{
	size_t start, end;

	if (line < 1 || (size_t)line > src->nlines) {
		*len = 0;
		return "";
	}
	start = src->line_start[line - 1];
	if ((size_t)line == src->nlines) {
		end = src->len;
	} else {
		/* end at the line's terminator: LF, CR or CR LF */
		end = src->line_start[line] - 1;
		if (src->text[end] == '\n' && end > start &&
		    src->text[end - 1] == '\r')
			end--;
	}
	*len = end - start;
	return src->text + start;
}
