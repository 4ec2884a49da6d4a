/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The inside of compare's HTML page, shared by html.c and html_cdf.c. */
#ifndef FBRUN_COMPARE_HTML_INT_H
#define FBRUN_COMPARE_HTML_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/model.h"

#define CHAR_W 7 /* rough width of a 12px sans-serif character */
/* A chart label is cut to this many characters (html_esc_short). */
#define NAME_MAX_CHARS 40

/* The characters of UTF-8 text s, for its width in a chart. */
int html_chars(const char *s);
/* The colour of a run in every chart. */
const char *html_color(size_t run);
/*
 * Text escaped for HTML body, attribute and SVG text alike; invalid UTF-8
 * and control characters become U+FFFD.
 */
void html_esc(FILE *out, const char *s);
/* The same, cut to a chart label's length with an ellipsis. */
void html_esc_short(FILE *out, const char *s);
/*
 * Legend entries laid out left to right from x0, wrapping at max_x, as
 * lines or swatches.  Returns the baseline of the last line; out NULL
 * only measures.
 */
int html_legend(FILE *out, const struct cmp *c, int x0, int y, int max_x,
		bool lines);
/*
 * The runs as a table (a swatch of colour color[i] for run i, or of its
 * own colour if color is NULL), then what differs between them.
 */
void html_runs_table(FILE *out, const struct cmp *c, const size_t *color);
/* The runs' --interval series: I/O ops/s over time, a line per run. */
void html_series_section(FILE *out, const struct cmp *c);
/* The latency distributions: a CDF chart per flowop with data. */
void html_cdf_section(FILE *out, const struct cmp *c);

#endif
