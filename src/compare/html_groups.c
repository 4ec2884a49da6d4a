/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The page of two groups of runs (groups.h): the verdict first, then the
 * IO Summary and, per figure, a table with a row per flowop: its runs as
 * dots on a strip per group (each group in its colour), the means and
 * their intervals, the ratio and the verdict.  Each row has its own
 * scale, from 0; the strips sit in their own cells, so nothing they
 * draw can run into a name, and the cells wrap, so the page fits its
 * window.
 */
#include "compare/groups.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "compare/html_int.h"
#include "compare/verdict.h"
#include "util/outfile.h"
#include "util/util.h"

#define STRIP_W 340 /* a row's plot */
#define STRIP_H 46
#define X0 8 /* the plot's 0 */
#define X1 (STRIP_W - 8) /* its right end: the row's largest value */

static double pos(double v, double max)
{
	v = fmin(fmax(v, 0), max); /* an interval's end below 0 is cut at 0 */
	return X0 + (max > 0 ? v / max * (X1 - X0) : 0);
}

/* A group's strip: a dot per run, the mean, its interval as an error bar. */
static void strip(FILE *out, const struct groups_cell *c, int k, int y,
		  double max)
{
	const struct st_summary *s = &c->s[k];
	const char *color = html_color((size_t)k);

	if (!s->n)
		return;
	if (s->n >= 2) {
		double lo = pos(s->mean - s->half, max);
		double hi = pos(s->mean + s->half, max);

		fprintf(out,
			"<line class=\"ci g%d\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
			"stroke-width=\"2\"/>\n",
			k, lo, y, hi, y, color);
		/* the ends' ticks; none where the interval is cut at 0 */
		if (s->mean - s->half >= 0)
			fprintf(out,
				"<line class=\"end g%d\" x1=\"%.1f\" y1=\"%d\" "
				"x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
				"stroke-width=\"2\"/>\n",
				k, lo, y - 5, lo, y + 5, color);
		fprintf(out,
			"<line class=\"end g%d\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
			"stroke-width=\"2\"/>\n",
			k, hi, y - 5, hi, y + 5, color);
	}
	for (size_t i = 0; i < c->n[k]; i++)
		fprintf(out,
			"<circle class=\"run g%d\" cx=\"%.1f\" cy=\"%d\" "
			"r=\"3.5\" fill=\"%s\" fill-opacity=\"0.6\"/>\n",
			k, pos(c->x[k][i], max), y, color);
	fprintf(out,
		"<rect class=\"mean g%d\" x=\"%.1f\" y=\"%d\" width=\"3\" "
		"height=\"14\" fill=\"%s\"/>\n",
		k, pos(s->mean, max) - 1.5, y - 7, color);
}

/*
 * The end of a row's scale: its largest run or interval end.  Values of
 * flowops differ a million times, so each has its own scale, and its
 * runs compare at a glance; the numbers compare across rows.
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

/* "significant", "noise" or "untested": the row's class. */
static const char *row_class(const struct groups_cell *c)
{
	return !c->w.valid ? "untested" : c->significant ? "significant" :
							    "noise";
}

static void mean_cell(FILE *out, const struct st_summary *s, int prec)
{
	fputs("<td class=\"num\">", out);
	if (!s->n)
		fputs("-", out);
	else if (s->n < 2)
		fprintf(out, "%.*f", prec, s->mean);
	else
		fprintf(out, "%.*f &plusmn; %.*f", prec, s->mean, prec,
			s->half);
	fputs("</td>", out);
}

/* A row of a figure's table: nothing when no run has the figure. */
static void row(FILE *out, const char *name, const struct groups_cell *c,
		int prec)
{
	double max = row_max(c);
	char ratio[64];

	if (!c->n[0] && !c->n[1])
		return;
	prec = groups_prec(c, prec);
	fprintf(out, "<tr class=\"%s\"><td class=\"name\">", row_class(c));
	html_esc_short(out, name);
	fprintf(out, "</td><td class=\"plot\"><svg class=\"strip\" "
		     "width=\"%d\" height=\"%d\" "
		     "xmlns=\"http://www.w3.org/2000/svg\">\n"
		     "<line class=\"axis\" x1=\"%d\" y1=\"2\" x2=\"%d\" "
		     "y2=\"32\" stroke=\"#888\"/>\n",
		STRIP_W, STRIP_H, X0, X0);
	strip(out, c, 0, 10, max);
	strip(out, c, 1, 24, max);
	fprintf(out, "<text class=\"scale\" x=\"%d\" y=\"%d\" "
		     "text-anchor=\"end\">%.*f</text>\n</svg></td>",
		X1, STRIP_H - 3, prec, max);
	mean_cell(out, &c->s[0], prec);
	mean_cell(out, &c->s[1], prec);
	groups_ratio(ratio, sizeof(ratio), c);
	fprintf(out, "<td class=\"num\">%s</td><td class=\"num\">", ratio);
	if (c->w.valid)
		fprintf(out, "%.3g", c->w.p);
	else
		fputs("-", out);
	fprintf(out, "</td><td class=\"verdict\">%s</td></tr>\n",
		groups_verdict(c));
}

/* A group's name with its colour. */
static void swatch(FILE *out, const struct cmp_group *g, int k)
{
	fprintf(out, "<span class=\"swatch\" style=\"background: %s\">"
		     "</span>",
		html_color((size_t)k));
	html_esc(out, g[k].label);
}

/* A figure's table: its head says what is drawn and in which colours. */
static void table_head(FILE *out, const char *title, const char *first,
		       const struct cmp_group *g)
{
	fputs("<h2>", out);
	html_esc(out, title);
	fputs("</h2>\n<table class=\"groups\">\n<tr><th>", out);
	html_esc(out, first);
	fputs("</th><th class=\"legend\">", out);
	swatch(out, g, 0);
	fputs(" ", out);
	swatch(out, g, 1);
	fputs("<br>dots: runs; tick: mean; bar: its 95% interval; from 0 at "
	      "the left to the number at the right</th>",
	      out);
	for (int k = 0; k < 2; k++) {
		fputs("<th>", out);
		html_esc(out, g[k].label);
		fprintf(out, " (%zu)</th>", g[k].nruns);
	}
	fputs("<th>ratio [95% interval]</th><th>p</th><th>verdict</th>"
	      "</tr>\n",
	      out);
}

static void chart(FILE *out, const struct cmp *cm, const struct cmp_group *g,
		  enum cmp_metric m)
{
	size_t zero = 0;

	table_head(out, cmp_metrics[m].title, "flowop", g);
	for (size_t f = 0; f < cm->nrows; f++) {
		struct groups_cell c;

		groups_cell(cm, g, f, m, &c);
		/* as on the page of runs side by side: 0 says nothing drawn */
		if ((c.n[0] || c.n[1]) && row_max(&c) == 0)
			zero++;
		else
			row(out, cm->rows[f].name, &c, cmp_metrics[m].prec);
		groups_cell_free(&c);
	}
	fputs("</table>\n", out);
	if (zero)
		fprintf(out, "<p class=\"note\">Left out, as 0 in every run: "
			     "%zu flowop%s.</p>\n",
			zero, zero == 1 ? "" : "s");
}

/* The IO Summary, as the page of runs side by side has it. */
static void summary(FILE *out, const struct cmp *c, const struct cmp_group *g)
{
	if (!groups_has_summary(c))
		return;
	table_head(out, "IO Summary", "figure", g);
	for (size_t i = 0; i < GROUPS_NSUMMARY; i++) {
		struct groups_cell gc;

		groups_summary_cell(c, g, groups_summary[i], &gc);
		row(out, cmp_summary[groups_summary[i]].name, &gc,
		    cmp_summary[groups_summary[i]].prec);
		groups_cell_free(&gc);
	}
	fputs("</table>\n", out);
}

/* The verdict, first: a line per figure judged, then the kinds' flowops. */
static void verdict(FILE *out, const struct cmp *c, const struct cmp_group *g)
{
	static const enum cmp_kind order[] = { CK_READ, CK_WRITE, CK_IO,
					       CK_NONE, CK_UNKNOWN };
	struct verdict *v = verdict_new(c, g);

	fputs("<h2>Verdict</h2>\n<table class=\"verdict\">\n<tr>"
	      "<th>figure</th>",
	      out);
	for (int k = 0; k < 2; k++) {
		fputs("<th>", out);
		swatch(out, g, k);
		fputs("</th>", out);
	}
	fputs("<th>ratio [95% interval]</th><th>verdict</th></tr>\n", out);
	for (size_t i = 0; i < v->n; i++) {
		const struct verdict_line *l = &v->line[i];
		char ratio[64], says[256];

		groups_ratio(ratio, sizeof(ratio), &l->gc);
		verdict_says(says, sizeof(says), l, g);
		fprintf(out, "<tr class=\"%s\"><td>", row_class(&l->gc));
		html_esc(out, l->what);
		fputs("</td>", out);
		for (int k = 0; k < 2; k++)
			if (l->gc.n[k])
				fprintf(out, "<td class=\"num\">%.*f</td>",
					l->prec, l->gc.s[k].mean);
			else
				fputs("<td class=\"num\">-</td>", out);
		fprintf(out, "<td class=\"num\">%s</td><td>", ratio);
		html_esc(out, says);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n<p class=\"note\">", out);
	if (!v->n)
		fputs("No figure to judge.<br>\n", out);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct verdict_kind *k = &v->kind[order[i]];

		if (!k->n)
			continue;
		html_esc(out, verdict_kind_name(v, order[i]));
		fputs(":", out);
		for (size_t r = 0; r < k->n; r++) {
			fputs(r ? ", " : " ", out);
			html_esc(out, c->rows[k->rows[r]].name);
		}
		fputs("<br>\n", out);
	}
	fputs("</p>\n", out);
	verdict_free(v);
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
	      "table { border-collapse: collapse; margin: 8px 0; "
	      "max-width: 100%; }\n"
	      "th, td { border: 1px solid #ccc; padding: 3px 8px; "
	      "font-size: 13px; text-align: left; vertical-align: middle; "
	      "overflow-wrap: anywhere; }\n"
	      "th { background: #f2f2f2; }\n"
	      "th.legend { font-weight: normal; }\n"
	      "td.num { text-align: right; font-family: monospace; }\n"
	      "td.plot { padding: 0 4px; width: 340px; }\n"
	      "td.plot svg { display: block; }\n"
	      "tr.noise td.verdict, tr.untested td.verdict { color: #777; }\n"
	      "tr.significant td.verdict { font-weight: bold; }\n"
	      "p.note { color: #555; font-size: 13px; }\n"
	      "svg text { font-family: sans-serif; font-size: 10px; "
	      "fill: #555; }\n"
	      ".swatch { display: inline-block; width: 10px; height: 10px; "
	      "margin: 0 6px 0 12px; }\n"
	      "</style>\n</head>\n<body>\n<h1>fbrun: two groups of runs "
	      "compared</h1>\n<p>",
	      out);
	for (int k = 0; k < 2; k++) {
		swatch(out, g, k);
		fprintf(out, " (%zu runs)", g[k].nruns);
		for (size_t i = 0; i < g[k].nruns; i++)
			color[g[k].first + i] = (size_t)k;
	}
	fputs("</p>\n<p>Ratios are of the second group's mean to the "
	      "first's, with their 95% interval; a difference is significant "
	      "when Welch's t-test finds it at the 5% level.</p>\n",
	      out);
	verdict(out, c, g);
	summary(out, c, g);
	fputs("<h2>Runs</h2>\n", out);
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
