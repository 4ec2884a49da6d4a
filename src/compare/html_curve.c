/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A load curve's page (html.h): response time against throughput, a
 * line per curve with a point per level, the objective's bound across,
 * and each curve's levels as a table.  One file, inline SVG, no script.
 */
#include <math.h>
#include <stdio.h>

#include "compare/html.h"
#include "compare/html_int.h"
#include "util/util.h"

#define W 900
#define H 420
#define LEFT 80
#define TOP 30
#define PLOT_W (W - LEFT - 30)
#define PLOT_H (H - TOP - 60)

/* The chart's ranges: x from 0 to the most achieved, y (log) over the p99s. */
struct axes {
	double xmax, ylo, yhi;
};

static void ranges(struct curve *const *cv, size_t n, struct axes *a)
{
	a->xmax = 0;
	a->ylo = INFINITY;
	a->yhi = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < cv[k]->nlevels; i++) {
			const struct st_summary *s = cv[k]->levels[i].sum;

			a->xmax = fmax(a->xmax, s[CF_ACHIEVED].mean);
			if (s[CF_RESP_P50].mean > 0)
				a->ylo = fmin(a->ylo, s[CF_RESP_P50].mean);
			a->yhi = fmax(a->yhi, s[CF_RESP_P99].mean);
			if (cv[k]->has_objective)
				a->yhi = fmax(a->yhi, cv[k]->obj.bound_ms);
		}
	if (a->xmax <= 0)
		a->xmax = 1;
	if (!(a->ylo < INFINITY) || a->ylo <= 0)
		a->ylo = 0.001;
	/* whole decades, so the grid's lines are 10^k ms */
	a->ylo = pow(10, floor(log10(a->ylo)));
	a->yhi = pow(10, ceil(log10(fmax(a->yhi, a->ylo * 10))));
}

static double px(const struct axes *a, double x)
{
	return LEFT + PLOT_W * x / a->xmax;
}

static double py(const struct axes *a, double ms)
{
	double f = (log10(fmax(ms, a->ylo)) - log10(a->ylo)) /
		   (log10(a->yhi) - log10(a->ylo));

	return TOP + PLOT_H * (1 - f);
}

static void grid(FILE *out, const struct axes *a)
{
	for (double d = a->ylo; d <= a->yhi * 1.001; d *= 10)
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			     "stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
			     "text-anchor=\"end\">%g ms</text>\n",
			LEFT, py(a, d), LEFT + PLOT_W, py(a, d), LEFT - 6,
			py(a, d) + 4, d);
	for (int g = 0; g <= 4; g++)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
			     "%.0f</text>\n",
			px(a, a->xmax * g / 4), TOP + PLOT_H + 18,
			a->xmax * g / 4);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">arrivals "
		     "done a second</text>\n",
		LEFT + PLOT_W / 2, TOP + PLOT_H + 40);
}

/* A curve's p99 (solid) and p50 (dashed) response times, and its points. */
static void lines(FILE *out, const struct axes *a, const struct curve *c,
		  const char *color)
{
	static const struct {
		enum curve_fig f;
		const char *dash;
	} figs[] = { { CF_RESP_P99, "" }, { CF_RESP_P50, "4 3" } };

	for (size_t f = 0; f < ARRAY_SIZE(figs); f++) {
		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" "
			     "stroke-width=\"2\" stroke-dasharray=\"%s\" "
			     "points=\"",
			color, figs[f].dash);
		for (size_t i = 0; i < c->nlevels; i++)
			fprintf(out, "%.1f,%.1f ",
				px(a, c->levels[i].sum[CF_ACHIEVED].mean),
				py(a, c->levels[i].sum[figs[f].f].mean));
		fputs("\"/>\n", out);
	}
	for (size_t i = 0; i < c->nlevels; i++) {
		const struct curve_level *l = &c->levels[i];

		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
			     "fill=\"%s\"><title>",
			px(a, l->sum[CF_ACHIEVED].mean),
			py(a, l->sum[CF_RESP_P99].mean), color);
		html_esc(out, l->name);
		fprintf(out, ": %.1f offered, %.1f done a second, p99 %.3f "
			     "ms</title></circle>\n",
			l->rate, l->sum[CF_ACHIEVED].mean,
			l->sum[CF_RESP_P99].mean);
	}
}

static void chart(FILE *out, struct curve *const *cv,
		  const char *const *labels, size_t n)
{
	struct axes a;

	ranges(cv, n, &a);
	fprintf(out, "<svg width=\"%d\" height=\"%d\" "
		     "xmlns=\"http://www.w3.org/2000/svg\" font-size=\"12\">\n",
		W, H + 20 * (int)n);
	grid(out, &a);
	for (size_t k = 0; k < n; k++) {
		lines(out, &a, cv[k], html_color(k));
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
			     "fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
			LEFT, H + 20 * (int)k - 8, html_color(k), LEFT + 16,
			H + 20 * (int)k + 1);
		html_esc(out, labels[k]);
		fputs("</text>\n", out);
		if (!cv[k]->has_objective)
			continue;
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			     "stroke=\"#c00\" stroke-dasharray=\"8 4\"/>"
			     "<text x=\"%d\" y=\"%.1f\" fill=\"#c00\" "
			     "text-anchor=\"end\">",
			LEFT, py(&a, cv[k]->obj.bound_ms), LEFT + PLOT_W,
			py(&a, cv[k]->obj.bound_ms), LEFT + PLOT_W - 4,
			py(&a, cv[k]->obj.bound_ms) - 4);
		html_esc(out, cv[k]->obj.text);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
}

static void table(FILE *out, const struct curve *c, const char *label,
		  size_t k)
{
	fprintf(out, "<h2><span class=\"swatch\" style=\"background:%s\">"
		     "</span>", html_color(k));
	html_esc(out, label);
	fputs("</h2>\n<table><tr><th>level</th><th>offered/s</th>"
	      "<th>achieved/s</th><th>resp p50 ms</th><th>resp p99 ms</th>"
	      "<th>svc p50 ms</th><th>svc p99 ms</th></tr>\n", out);
	for (size_t i = 0; i < c->nlevels; i++) {
		const struct curve_level *l = &c->levels[i];

		fputs("<tr><td>", out);
		html_esc(out, l->name);
		fprintf(out, "</td><td class=\"num\">%.1f</td><td class=\"num\">"
			     "%.1f</td><td class=\"num\">%.3f</td><td "
			     "class=\"num\">%.3f</td><td class=\"num\">%.3f"
			     "</td><td class=\"num\">%.3f</td></tr>\n",
			l->rate, l->sum[CF_ACHIEVED].mean,
			l->sum[CF_RESP_P50].mean, l->sum[CF_RESP_P99].mean,
			l->sum[CF_SVC_P50].mean, l->sum[CF_SVC_P99].mean);
	}
	fputs("</table>\n", out);
	if (c->has_objective && c->slo.searched && c->slo.at_max)
		fprintf(out, "<p>%s met at the closed loops' most, %.1f "
			     "arrivals a second.</p>\n",
			c->obj.text, c->slo.rate);
	else if (c->has_objective && c->slo.searched && c->slo.met)
		fprintf(out, "<p>%s met up to %.1f arrivals a second (95%% "
			     "interval %.1f to %.1f).</p>\n",
			c->obj.text, c->slo.rate, c->slo.low, c->slo.high);
	else if (c->has_objective && c->slo.searched)
		fprintf(out, "<p>No rate probed met %s.</p>\n", c->obj.text);
}

void html_curve_page(FILE *out, struct curve *const *curves,
		     const char *const *labels, size_t n)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
	      "charset=\"utf-8\">\n<title>fbrun curve</title>\n<style>\n"
	      "body { font-family: sans-serif; color: #222; margin: 16px "
	      "24px; }\nh1 { font-size: 22px; }\nh2 { font-size: 18px; }\n"
	      "table { border-collapse: collapse; }\nth, td { border: 1px "
	      "solid #ccc; padding: 3px 8px; font-size: 13px; }\n"
	      "td.num { text-align: right; font-family: monospace; }\n"
	      ".swatch { display: inline-block; width: 12px; height: 12px; "
	      "margin-right: 8px; }\n</style>\n</head>\n<body>\n"
	      "<h1>Response time against throughput</h1>\n<p>Each point is "
	      "a level: the arrivals done a second and their p99 response "
	      "time (solid; dashed, the p50), counted from when each arrival "
	      "was due.  The dashed red line is the objective's "
	      "bound.</p>\n",
	      out);
	chart(out, curves, labels, n);
	for (size_t k = 0; k < n; k++)
		table(out, curves[k], labels[k], k);
	fputs("</body>\n</html>\n", out);
}
