/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Script errors and warnings as file:line:col, the line and a caret
 * (diag.h).
 */
#include "util/diag.h"

#include <stdarg.h>
#include <stdlib.h>

#include "util/util.h"

struct diag {
	FILE *out;
	int max_errors;
	int errors, warnings, dropped;
	bool last_dropped; /* notes follow their message's fate */
};

struct diag *diag_new(FILE *out, int max_errors)
{
	struct diag *d = xcalloc(1, sizeof(*d));

	d->out = out;
	d->max_errors = max_errors > 0 ? max_errors : 1;
	return d;
}

void diag_free(struct diag *d)
{
	free(d);
}

/* Widest part of a line we show; longer lines are cut around the caret. */
#define SHOW_WIDTH 120

static void put_byte(FILE *out, unsigned char c)
{
	fputc(c == '\t' || c >= 0x20 ? c : '?', out);
}

static void show_line(FILE *out, const struct source *src, struct loc loc)
{
	int line, col, endline, endcol, i;
	size_t len, from, to, caret, width;
	const char *text;

	source_position(src, loc.start, &line, &col);
	text = source_line(src, line, &len);
	caret = (size_t)col - 1;
	if (loc.end > loc.start) {
		source_position(src, loc.end, &endline, &endcol);
		width = endline == line ? (size_t)(endcol - col) : len - caret;
	} else {
		width = 1;
	}
	if (width == 0)
		width = 1;
	from = 0;
	to = len;
	if (len > SHOW_WIDTH) {
		from = caret > SHOW_WIDTH / 2 ? caret - SHOW_WIDTH / 2 : 0;
		to = from + SHOW_WIDTH < len ? from + SHOW_WIDTH : len;
	}
	fputs("    ", out);
	if (from > 0)
		fputs("...", out);
	for (size_t k = from; k < to; k++)
		put_byte(out, (unsigned char)text[k]);
	if (to < len)
		fputs("...", out);
	fputs("\n    ", out);
	if (from > 0)
		fputs("   ", out);
	for (size_t k = from; k < caret && k < to; k++) {
		unsigned char c = (unsigned char)text[k];

		if ((c & 0xc0) == 0x80)
			continue; /* UTF-8 continuation: same column */
		fputc(c == '\t' ? '\t' : ' ', out);
	}
	fputc('^', out);
	for (i = 1; (size_t)i < width && caret + (size_t)i < to; i++)
		fputc('~', out);
	fputc('\n', out);
}

static void emit(struct diag *d, const struct source *src, struct loc loc,
		 const char *kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
static void emit(struct diag *d, const struct source *src, struct loc loc,
		 const char *kind, const char *fmt, va_list ap)
{
	int line, col;

	if (src && loc.start >= 0) {
		source_position(src, loc.start, &line, &col);
		fprintf(d->out, "%s:%d:%d: %s: ", source_name(src), line, col,
			kind);
	} else if (src) {
		fprintf(d->out, "%s: %s: ", source_name(src), kind);
	} else {
		fprintf(d->out, "fbrun: %s: ", kind);
	}
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	if (src && loc.start >= 0)
		show_line(d->out, src, loc);
}

void diag_error(struct diag *d, const struct source *src, struct loc loc,
		const char *fmt, ...)
{
	va_list ap;

	d->errors++;
	d->last_dropped = d->errors > d->max_errors;
	if (d->last_dropped) {
		d->dropped++;
		return;
	}
	va_start(ap, fmt);
	emit(d, src, loc, "error", fmt, ap);
	va_end(ap);
}

void diag_warning(struct diag *d, const struct source *src, struct loc loc,
		  const char *fmt, ...)
{
	va_list ap;

	d->warnings++;
	d->last_dropped = d->errors >= d->max_errors;
	if (d->last_dropped)
		return;
	va_start(ap, fmt);
	emit(d, src, loc, "warning", fmt, ap);
	va_end(ap);
}

void diag_note(struct diag *d, const struct source *src, struct loc loc,
	       const char *fmt, ...)
{
	va_list ap;

	if (d->last_dropped)
		return;
	va_start(ap, fmt);
	emit(d, src, loc, "note", fmt, ap);
	va_end(ap);
}

int diag_error_count(const struct diag *d)
{
	return d->errors;
}

int diag_warning_count(const struct diag *d)
{
	return d->warnings;
}

bool diag_full(const struct diag *d)
{
	return d->errors >= d->max_errors;
}

void diag_finish(struct diag *d)
{
	if (d->dropped)
		fprintf(d->out, "fbrun: %d more error%s not shown\n",
			d->dropped, d->dropped == 1 ? "" : "s");
}
