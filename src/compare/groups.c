/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Two groups of runs compared (groups.h): for each flowop and figure the
 * runs' values, their mean and interval per group, and Welch's test of the
 * second group against the first (util/statistics).
 */
#include "compare/groups.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare/html_int.h"
#include "compare/match.h"
#include "compare/read.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/statistics.h"
#include "util/util.h"

#define LEVEL 0.95
#define ALPHA 0.05
#define GNAME_W 24

/* The figures compared between groups, in table and page order. */
static const enum cmp_metric gmetrics[] = { CM_OPS, CM_MB, CM_MS };
#define NGMETRICS (sizeof(gmetrics) / sizeof(gmetrics[0]))

int groups_read(struct cmp *c, struct cmp_group *g, size_t ng)
{
	for (size_t k = 0; k < ng; k++) {
		g[k].first = c->nruns;
		g[k].nruns = 0;
		for (size_t i = 0; i < g[k].npaths; i++) {
			struct cmp_run *r;
			size_t n;
			int rc = cmp_read_runs(g[k].paths[i], &r, &n);

			/* what was read is freed with the rest, even on -1 */
			c->runs = xrealloc(c->runs,
					   (c->nruns + n) * sizeof(*c->runs));
			if (n)
				memcpy(&c->runs[c->nruns], r, n * sizeof(*r));
			c->nruns += n;
			g[k].nruns += n;
			free(r);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

/*
 * A row's figure in each run of a group that has it (a flowop that never
 * ran has no latency); the count.
 */
static size_t values(const struct cmp *c, const struct cmp_group *g,
		     size_t row, enum cmp_metric m, double *x)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nruns; i++)
		if (cmp_value(c->rows[row].fo[g->first + i], m, &x[n]))
			n++;
	return n;
}

/* One flowop's figure in both groups, and the test. */
struct gcell {
	double *x[2];
	size_t n[2];
	struct st_summary s[2];
	struct st_welch w;
	bool significant;
};

static void cell(const struct cmp *c, const struct cmp_group *g, size_t row,
		 enum cmp_metric m, struct gcell *gc)
{
	for (int k = 0; k < 2; k++) {
		gc->x[k] = xcalloc(g[k].nruns + 1, sizeof(double));
		gc->n[k] = values(c, &g[k], row, m, gc->x[k]);
		st_summarise(gc->x[k], gc->n[k], LEVEL, &gc->s[k]);
	}
	st_welch(&gc->s[0], &gc->s[1], LEVEL, &gc->w);
	gc->significant = gc->w.valid && gc->w.p < ALPHA;
}

static void cell_free(struct gcell *c)
{
	free(c->x[0]);
	free(c->x[1]);
}

static void mean_ci(FILE *out, const struct st_summary *s, int prec)
{
	char buf[64];

	if (!s->n)
		snprintf(buf, sizeof(buf), "-");
	else if (s->n < 2)
		snprintf(buf, sizeof(buf), "%.*f", prec, s->mean);
	else
		snprintf(buf, sizeof(buf), "%.*f +- %.*f", prec, s->mean, prec,
			 s->half);
	fprintf(out, " %*s", GNAME_W, buf);
}

static const char *verdict(const struct gcell *c)
{
	if (!c->w.valid && (c->n[0] < 2 || c->n[1] < 2))
		return "not tested (2 runs a side needed)";
	if (!c->w.valid)
		return "not tested (a mean of 0)";
	return c->significant ? "significant" : "within noise";
}

/* What --common left out, as the table of runs says it. */
static void print_notes(FILE *out, const struct cmp *c)
{
	if (!c->same_script)
		fprintf(out, "The runs are of different scripts.\n");
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].nleft) {
			fprintf(out, "Compared: the %zu flowop%s every run "
				     "has\n",
				c->nrows, c->nrows == 1 ? "" : "s");
			break;
		}
}

/* A row's line in a figure's table; nothing when no run has the figure. */
static void print_row(FILE *out, const struct cmp *c,
		      const struct cmp_group *g, size_t row, enum cmp_metric m)
{
	int prec = cmp_metrics[m].prec;
	struct gcell gc;
	char ratio[64] = "-";

	cell(c, g, row, m, &gc);
	if (!gc.n[0] && !gc.n[1]) {
		cell_free(&gc);
		return;
	}
	fprintf(out, "%-20s", c->rows[row].name);
	mean_ci(out, &gc.s[0], prec);
	mean_ci(out, &gc.s[1], prec);
	if (gc.w.valid)
		snprintf(ratio, sizeof(ratio), "%.2fx [%.2f, %.2f]",
			 gc.w.ratio, gc.w.ratio_lo, gc.w.ratio_hi);
	fprintf(out, "  %-24s ", ratio);
	if (gc.w.valid)
		fprintf(out, "%8.3g", gc.w.p);
	else
		fprintf(out, "%8s", "-");
	fprintf(out, "  %s\n", verdict(&gc));
	cell_free(&gc);
}

void groups_table(FILE *out, const struct cmp *c, const struct cmp_group *g)
{
	fprintf(out, "Groups (%s against %s; 95%% intervals, Welch's t-test "
		     "at the 5%% level):\n",
		g[1].label, g[0].label);
	for (int k = 0; k < 2; k++) {
		const struct cmp_run *r = &c->runs[g[k].first];
		char fs[512];

		cmp_run_fs(r, fs, sizeof(fs));
		fprintf(out, "  %s: %zu run%s from", g[k].label, g[k].nruns,
			g[k].nruns == 1 ? "" : "s");
		for (size_t i = 0; i < g[k].npaths; i++)
			fprintf(out, " %s", g[k].paths[i]);
		fprintf(out, " (%s, %s)\n", r->script ? r->script : "?", fs);
	}
	print_notes(out, c);
	for (size_t mi = 0; mi < NGMETRICS; mi++) {
		enum cmp_metric m = gmetrics[mi];
		char head[2][64];

		for (int k = 0; k < 2; k++)
			snprintf(head[k], sizeof(head[k]), "%s (%zu)",
				 g[k].label, g[k].nruns);
		fprintf(out, "\n%-20s %*s %*s  %-24s %8s  %s\n",
			cmp_metrics[m].name, GNAME_W, head[0], GNAME_W,
			head[1], "ratio [95% interval]", "p", "verdict");
		for (size_t row = 0; row < c->nrows; row++)
			print_row(out, c, g, row, m);
	}
}

/* ------------------------------------------------------------ page */

#define ROW_H 34
#define PLOT_X 260
#define PLOT_W 460
#define CHART_W (PLOT_X + PLOT_W + 260)

static double pos(double v, double max)
{
	return PLOT_X + (max > 0 ? v / max * PLOT_W : 0);
}

/* A group's strip: a dot per run, the mean, its interval as an error bar. */
static void strip(FILE *out, const struct gcell *c, int k, int y, double max,
		  const char *color)
{
	const struct st_summary *s = &c->s[k];

	if (!s->n)
		return;
	if (s->n >= 2)
		fprintf(out,
			"<line class=\"ci\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
			"y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"%s\" stroke-width=\"2\"/>\n"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"%s\" stroke-width=\"2\"/>\n",
			pos(s->mean - s->half, max), y,
			pos(s->mean + s->half, max), y, color,
			pos(s->mean - s->half, max), y - 5,
			pos(s->mean - s->half, max), y + 5, color,
			pos(s->mean + s->half, max), y - 5,
			pos(s->mean + s->half, max), y + 5, color);
	for (size_t i = 0; i < c->n[k]; i++)
		fprintf(out,
			"<circle class=\"run\" cx=\"%.1f\" cy=\"%d\" r=\"3.5\" "
			"fill=\"%s\" fill-opacity=\"0.6\"/>\n",
			pos(c->x[k][i], max), y, color);
	fprintf(out,
		"<rect class=\"mean\" x=\"%.1f\" y=\"%d\" width=\"3\" "
		"height=\"14\" fill=\"%s\"/>\n",
		pos(s->mean, max) - 1.5, y - 7, color);
}

static void chart(FILE *out, const struct cmp *cm, const struct cmp_group *g,
		  enum cmp_metric m)
{
	struct gcell *cells = xcalloc(cm->nrows + 1, sizeof(*cells));
	double max = 0;
	int y = 30;

	for (size_t f = 0; f < cm->nrows; f++) {
		cell(cm, g, f, m, &cells[f]);
		for (int k = 0; k < 2; k++)
			for (size_t i = 0; i < cells[f].n[k]; i++)
				max = fmax(max, cells[f].x[k][i]);
		for (int k = 0; k < 2; k++)
			max = fmax(max, cells[f].s[k].mean + cells[f].s[k].half);
	}
	fprintf(out, "<h2>");
	html_esc(out, cmp_metrics[m].title);
	fprintf(out, "</h2>\n<svg class=\"groups\" width=\"%d\" height=\"%zu\" "
		     "xmlns=\"http://www.w3.org/2000/svg\">\n",
		CHART_W, 40 + cm->nrows * ROW_H);
	fprintf(out, "<text x=\"%d\" y=\"16\">%s: dots are runs, bars the "
		     "95%% interval of the mean</text>\n",
		PLOT_X, "0 at the left");
	for (size_t f = 0; f < cm->nrows; f++) {
		const struct gcell *c = &cells[f];
		bool grey = !c->significant;

		fprintf(out, "<g class=\"%s\"%s>\n",
			grey ? "noise" : "significant",
			grey ? " opacity=\"0.35\"" : "");
		fprintf(out, "<text x=\"8\" y=\"%d\">", y + 8);
		html_esc_short(out, cm->rows[f].name);
		fputs("</text>\n", out);
		strip(out, c, 0, y + 2, max, grey ? "#888" : html_color(0));
		strip(out, c, 1, y + 14, max, grey ? "#888" : html_color(1));
		fprintf(out, "<text x=\"%d\" y=\"%d\">", PLOT_X + PLOT_W + 12,
			y + 12);
		if (c->w.valid)
			fprintf(out, "%.2fx [%.2f, %.2f] %s", c->w.ratio,
				c->w.ratio_lo, c->w.ratio_hi, verdict(c));
		else
			fputs(verdict(c), out);
		fputs("</text>\n</g>\n", out);
		y += ROW_H;
	}
	fprintf(out, "<line x1=\"%d\" y1=\"24\" x2=\"%d\" y2=\"%d\" "
		     "stroke=\"#888\"/>\n</svg>\n",
		PLOT_X, PLOT_X, y);
	for (size_t f = 0; f < cm->nrows; f++)
		cell_free(&cells[f]);
	free(cells);
}

/* What the page is drawn from: the runs matched, and the two groups. */
struct groups_page {
	const struct cmp *c;
	const struct cmp_group *g;
};

static void page(FILE *out, const void *arg)
{
	const struct cmp *c = ((const struct groups_page *)arg)->c;
	const struct cmp_group *g = ((const struct groups_page *)arg)->g;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>fbrun compare: ", out);
	html_esc(out, g[0].label);
	fputs(" vs ", out);
	html_esc(out, g[1].label);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; color: #222; margin: 16px 24px; }\n"
	      "h2 { font-size: 18px; margin-top: 28px; "
	      "border-bottom: 1px solid #ccc; }\n"
	      "svg text { font-family: sans-serif; font-size: 12px; "
	      "fill: #222; }\n"
	      ".swatch { display: inline-block; width: 10px; height: 10px; "
	      "margin: 0 6px 0 12px; }\n"
	      "</style>\n</head>\n<body>\n<h1>fbrun: two groups of runs "
	      "compared</h1>\n<p>",
	      out);
	for (int k = 0; k < 2; k++) {
		fprintf(out, "<span class=\"swatch\" style=\"background: %s\">"
			     "</span>",
			html_color((size_t)k));
		html_esc(out, g[k].label);
		fprintf(out, " (%zu runs)", g[k].nruns);
	}
	fputs("</p>\n<p>Ratios are of the second group's mean to the "
	      "first's, with their 95% interval; a difference Welch's t-test "
	      "does not find significant at the 5% level is greyed out.</p>\n",
	      out);
	if (!c->same_script)
		fputs("<p>The runs are of different scripts.</p>\n", out);
	for (size_t mi = 0; mi < NGMETRICS; mi++)
		chart(out, c, g, gmetrics[mi]);
	fputs("</body>\n</html>\n", out);
}

int groups_match(struct cmp *c, const struct cmp_group *g, size_t ng,
		 bool common)
{
	if (ng != 2)
		return fb_error("compare takes two groups of runs, got %zu", ng);
	for (size_t k = 0; k < ng; k++)
		if (!g[k].nruns)
			return fb_error("group %s has no runs", g[k].label);
	/* every run against the first, as runs side by side are */
	return cmp_match(c, common);
}

int groups_html(const char *path, const struct cmp *c,
		const struct cmp_group *g)
{
	struct groups_page pg = { c, g };

	return outfile_write(path, page, &pg);
}
