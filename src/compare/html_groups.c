/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The page of two groups of runs (groups.h): per figure, each flowop's
 * runs as dots on a line per group, the means and their intervals, the
 * ratio and the verdict; each flowop on its own scale.
 */
#include "compare/groups.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "compare/html_int.h"
#include "util/outfile.h"
#include "util/util.h"

#define ROW_H 34
#define PLOT_X 260
#define PLOT_W 460
#define CHART_W (PLOT_X + PLOT_W + 260)

static double pos(double v, double max)
{
	return PLOT_X + (max > 0 ? v / max * PLOT_W : 0);
}

/* A group's strip: a dot per run, the mean, its interval as an error bar. */
static void strip(FILE *out, const struct groups_cell *c, int k, int y,
		  double max, const char *color)
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

/*
 * The end of a flowop's scale: its largest run or interval end.  Values
 * of flowops differ a million times, so each has its own scale, and its
 * runs compare at a glance; the numbers compare across flowops.
 */
static double row_max(const struct groups_cell *c)
{
	double max = 0;

	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < c->n[k]; i++)
			max = fmax(max, c->x[k][i]);
		if (c->s[k].n)
			max = fmax(max, c->s[k].mean + c->s[k].half);
	}
	return max;
}

static void chart_row(FILE *out, const struct cmp *cm, size_t f,
		      const struct groups_cell *c, int y, int prec)
{
	bool grey = !c->significant;
	double max = row_max(c);

	fprintf(out, "<g class=\"%s\"%s>\n", grey ? "noise" : "significant",
		grey ? " opacity=\"0.35\"" : "");
	fprintf(out, "<text x=\"8\" y=\"%d\">", y + 8);
	html_esc_short(out, cm->rows[f].name);
	fputs("</text>\n", out);
	strip(out, c, 0, y + 2, max, grey ? "#888" : html_color(0));
	strip(out, c, 1, y + 14, max, grey ? "#888" : html_color(1));
	fprintf(out, "<text class=\"scale\" x=\"%d\" y=\"%d\" "
		     "text-anchor=\"end\" font-size=\"10\">%.*f</text>\n",
		PLOT_X + PLOT_W, y + 27, prec, max);
	fprintf(out, "<text x=\"%d\" y=\"%d\">", PLOT_X + PLOT_W + 12, y + 12);
	if (groups_has_ratio(c)) {
		char ratio[64];

		groups_ratio(ratio, sizeof(ratio), c);
		fprintf(out, "%s ", ratio);
	}
	fputs(groups_verdict(c), out);
	fputs("</text>\n</g>\n", out);
}

static void chart(FILE *out, const struct cmp *cm, const struct cmp_group *g,
		  enum cmp_metric m)
{
	int y = 30;

	fprintf(out, "<h2>");
	html_esc(out, cmp_metrics[m].title);
	fprintf(out, "</h2>\n<svg class=\"groups\" width=\"%d\" height=\"%zu\" "
		     "xmlns=\"http://www.w3.org/2000/svg\">\n",
		CHART_W, 40 + cm->nrows * ROW_H);
	fprintf(out, "<text x=\"%d\" y=\"16\">dots are runs, bars the 95%% "
		     "interval of the mean; each flowop from 0 at the left "
		     "to the number under its right end</text>\n",
		PLOT_X);
	for (size_t f = 0; f < cm->nrows; f++) {
		struct groups_cell c;

		groups_cell(cm, g, f, m, &c);
		chart_row(out, cm, f, &c, y, cmp_metrics[m].prec);
		groups_cell_free(&c);
		y += ROW_H;
	}
	fprintf(out, "<line x1=\"%d\" y1=\"24\" x2=\"%d\" y2=\"%d\" "
		     "stroke=\"#888\"/>\n</svg>\n",
		PLOT_X, PLOT_X, y);
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
	size_t *color = xcalloc(c->nruns + 1, sizeof(*color));

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>fbrun compare: ", out);
	html_esc(out, g[0].label);
	fputs(" vs ", out);
	html_esc(out, g[1].label);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; color: #222; margin: 16px 24px; }\n"
	      "h2 { font-size: 18px; margin-top: 28px; "
	      "border-bottom: 1px solid #ccc; }\n"
	      "table { border-collapse: collapse; margin: 8px 0; }\n"
	      "th, td { border: 1px solid #ccc; padding: 3px 8px; "
	      "font-size: 13px; text-align: left; vertical-align: top; }\n"
	      "th { background: #f2f2f2; }\n"
	      "td.num { text-align: right; font-family: monospace; }\n"
	      "p.note { color: #555; font-size: 13px; }\n"
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
		for (size_t i = 0; i < g[k].nruns; i++)
			color[g[k].first + i] = (size_t)k;
	}
	fputs("</p>\n<p>Ratios are of the second group's mean to the "
	      "first's, with their 95% interval; a difference Welch's t-test "
	      "does not find significant at the 5% level is greyed out.</p>\n",
	      out);
	html_runs_table(out, c, color);
	for (size_t mi = 0; mi < GROUPS_NMETRICS; mi++)
		if (groups_any(c, groups_metrics[mi]))
			chart(out, c, g, groups_metrics[mi]);
	fputs("</body>\n</html>\n", out);
	free(color);
}

int groups_html(const char *path, const struct cmp *c,
		const struct cmp_group *g)
{
	struct groups_page pg = { c, g };

	return outfile_write(path, page, &pg);
}
