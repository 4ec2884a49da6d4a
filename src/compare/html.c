/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* compare's --html page: its head, the tables and the bar charts (html.h). */
#include "compare/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/html_int.h"
#include "compare/model.h"
#include "util/outfile.h"
#include "util/util.h"

#define CHART_W 1000 /* bar charts */
#define BAR_H 14

static void page_head(FILE *out, const struct cmp *c)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>fbrun compare: ", out);
	for (size_t i = 0; i < c->nruns; i++) {
		fputs(i ? " vs " : "", out);
		html_esc(out, c->runs[i].label);
	}
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; color: #222; margin: 16px 24px; }\n"
	      "h1 { font-size: 22px; }\n"
	      "h2 { font-size: 18px; margin-top: 32px; "
	      "border-bottom: 1px solid #ccc; }\n"
	      "table { border-collapse: collapse; margin: 8px 0; }\n"
	      "th, td { border: 1px solid #ccc; padding: 3px 8px; "
	      "font-size: 13px; text-align: left; vertical-align: top; }\n"
	      "th { background: #f2f2f2; }\n"
	      "td.num { text-align: right; font-family: monospace; }\n"
	      "p.note { color: #555; font-size: 13px; }\n"
	      ".swatch { display: inline-block; width: 10px; height: 10px; "
	      "margin-right: 6px; }\n"
	      "div.cdf { display: inline-block; vertical-align: top; "
	      "margin: 0 12px 12px 0; }\n"
	      "svg { background: #fff; }\n"
	      "svg text { font-family: sans-serif; font-size: 12px; "
	      "fill: #222; }\n"
	      "</style>\n</head>\n<body>\n", out);
}

static void td(FILE *out, const char *s)
{
	fputs("<td>", out);
	html_esc(out, s);
	fputs("</td>", out);
}

/* What differs between the runs: --data, mount options, variables. */
static void variables_table(FILE *out, const struct cmp *c)
{
	size_t n;
	struct cmp_diff *d = cmp_diffs(c, &n);

	if (n) {
		fputs("<p>Variables that differ:</p>\n<table>\n"
		      "<tr><th>variable</th>", out);
		for (size_t p = 0; p < c->nruns; p++) {
			fputs("<th>", out);
			html_esc(out, c->runs[p].label);
			fputs("</th>", out);
		}
		fputs("</tr>\n", out);
	}
	for (size_t i = 0; i < n; i++) {
		fputs("<tr>", out);
		td(out, d[i].name);
		for (size_t p = 0; p < c->nruns; p++)
			td(out, d[i].values[p]);
		fputs("</tr>\n", out);
	}
	if (n)
		fputs("</table>\n", out);
	cmp_diffs_free(d, n);
}

void html_runs_table(FILE *out, const struct cmp *c, const size_t *color)
{
	fputs("<table>\n<tr><th>run</th><th>file</th><th>script</th>"
	      "<th>file system</th><th>kernel</th><th>cpus</th>"
	      "<th>started</th><th>seconds</th><th>ended by</th></tr>\n",
	      out);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct cmp_run *r = &c->runs[i];
		char fs[512];

		cmp_run_fs(r, fs, sizeof(fs));
		fprintf(out, "<tr><td><span class=\"swatch\" "
			     "style=\"background: %s\"></span>",
			html_color(color ? color[i] : i));
		html_esc(out, r->label);
		fputs("</td>", out);
		td(out, r->path);
		td(out, r->script ? r->script : "?");
		td(out, fs);
		td(out, r->kernel ? r->kernel : "?");
		fprintf(out, "<td class=\"num\">%.0f</td>", r->cpus);
		td(out, r->started ? r->started : "?");
		fprintf(out, "<td class=\"num\">%.1f</td>", r->seconds);
		fputs("<td>", out);
		html_esc(out, r->ended_by ? r->ended_by : "?");
		if (r->error) {
			fputs(": ", out);
			html_esc(out, r->error);
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	if (!c->same_script)
		fputs("<p class=\"note\">The runs are of different scripts.</p>\n",
		      out);
	variables_table(out, c);
	for (size_t i = 0; i < c->nruns; i++) {
		if (c->runs[i].nflowops == c->nrows)
			continue;
		fprintf(out, "<p class=\"note\">Compared: the %zu flowop%s "
			     "every run has; left out:", c->nrows,
			c->nrows == 1 ? "" : "s");
		for (size_t k = 0; k < c->nruns; k++) {
			fprintf(out, "%s %zu of ", k ? "," : "",
				c->runs[k].nflowops - c->nrows);
			html_esc(out, c->runs[k].label);
			fprintf(out, "&#39;s %zu", c->runs[k].nflowops);
		}
		fputs(".</p>\n", out);
		break;
	}
}

/* The IO Summary as a table, with ratios to the first run. */
static void summary_table(FILE *out, const struct cmp *c)
{
	double *v;
	bool *ok;

	fputs("<h2>IO Summary</h2>\n<table>\n<tr><th></th>", out);
	for (size_t i = 0; i < c->nruns; i++) {
		fputs("<th>", out);
		html_esc(out, c->runs[i].label);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	v = xcalloc(c->nruns, sizeof(*v));
	ok = xcalloc(c->nruns, sizeof(*ok));
	for (size_t s = 0; s < CMP_NSUMMARY; s++) {
		int prec;

		for (size_t i = 0; i < c->nruns; i++)
			ok[i] = cmp_summary_value(&c->runs[i], s, &v[i]);
		prec = cmp_prec(v, ok, c->nruns, cmp_summary[s].prec);
		fprintf(out, "<tr><th>%s</th>", cmp_summary[s].name);
		for (size_t i = 0; i < c->nruns; i++) {
			char r[16];

			if (!ok[i]) {
				fputs("<td class=\"num\">-</td>", out);
				continue;
			}
			fprintf(out, "<td class=\"num\">%.*f", prec, v[i]);
			if (i > 0 && ok[0]) {
				cmp_ratio(r, sizeof(r), v[i], v[0]);
				fprintf(out, " (%s)", r);
			}
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	free(v);
	free(ok);
	fputs("</table>\n", out);
}

static bool row_all_zero(const struct cmp *c, size_t r, enum cmp_metric m)
{
	for (size_t i = 0; i < c->nruns; i++) {
		double v;

		if (cmp_value(c->rows[r].fo[i], m, &v) && v != 0)
			return false;
	}
	return true;
}

/*
 * One horizontal bar chart: a group of bars (one per run) per flowop,
 * scaled within the group so each flowop's runs compare at a glance.
 */
static void bar_chart(FILE *out, const struct cmp *c, enum cmp_metric m)
{
	int name_w = 0, left, bar_max, y, shown = 0, h;
	int group_h = (int)c->nruns * (BAR_H + 3) + 12;
	double *v;
	bool *ok;

	for (size_t r = 0; r < c->nrows; r++) {
		int w = html_chars(c->rows[r].name);

		if (w > NAME_MAX_CHARS)
			w = NAME_MAX_CHARS;
		if (!row_all_zero(c, r, m))
			shown++;
		if (w > name_w)
			name_w = w;
	}
	fprintf(out, "<h2>%s</h2>\n", cmp_metrics[m].title);
	if (!shown) {
		fputs("<p class=\"note\">Zero or missing for every flowop "
		      "in every run.</p>\n", out);
		return;
	}
	fprintf(out, "<p class=\"note\">%s is better. Each flowop's bars "
		     "share a scale from 0 to the largest of its values; "
		     "ratios are to %s.",
		cmp_metrics[m].higher_better ? "Higher" : "Lower",
		c->nruns > 1 ? "the first run" : "it");
	if ((size_t)shown < c->nrows)
		fprintf(out, " Left out, as 0 or missing in every run: %zu "
			     "flowop%s.", c->nrows - (size_t)shown,
			c->nrows - (size_t)shown == 1 ? "" : "s");
	fputs("</p>\n", out);
	left = name_w * CHAR_W + 16;
	bar_max = CHART_W - left - 170;
	h = html_legend(NULL, c, left, 16, CHART_W, false) + 16 + shown * group_h;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		     "class=\"bars\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\">\n",
		CHART_W, h, CHART_W, h);
	y = html_legend(out, c, left, 16, CHART_W, false) + 16;
	v = xcalloc(c->nruns, sizeof(*v));
	ok = xcalloc(c->nruns, sizeof(*ok));
	for (size_t r = 0; r < c->nrows; r++) {
		size_t n = c->nruns;
		double max = 0;
		int prec;

		if (row_all_zero(c, r, m))
			continue;
		for (size_t i = 0; i < n; i++) {
			ok[i] = cmp_value(c->rows[r].fo[i], m, &v[i]);
			if (ok[i] && v[i] > max)
				max = v[i];
		}
		prec = cmp_prec(v, ok, n, cmp_metrics[m].prec);
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			left - 8, y + (int)n * (BAR_H + 3) / 2 + 4);
		html_esc_short(out, c->rows[r].name);
		fputs("</text>\n", out);
		for (size_t i = 0; i < n; i++) {
			int by = y + (int)i * (BAR_H + 3);
			double len = ok[i] && max > 0 && v[i] > 0 ?
					     v[i] / max * bar_max : 0;
			char ratio[16] = "";

			if (ok[i] && i > 0 && ok[0])
				cmp_ratio(ratio, sizeof(ratio), v[i], v[0]);
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" "
				     "height=\"%d\" fill=\"%s\"/>",
				left, by, len, BAR_H, html_color(i));
			fprintf(out, "<text x=\"%.1f\" y=\"%d\">", left + len + 5,
				by + BAR_H - 3);
			if (ok[i])
				fprintf(out, "%.*f", prec, v[i]);
			else
				fputs("-", out);
			if (ratio[0])
				fprintf(out, " (%s)", ratio);
			fputs("</text>\n", out);
		}
		y += group_h;
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			     "stroke=\"#e4e4e4\"/>\n",
			8, y - 7, CHART_W - 8, y - 7);
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		     "stroke=\"#888\"/>\n</svg>\n",
		left, 24, left, y - 7);
	free(v);
	free(ok);
}

/* fbrun-mpi's per-rank tables, as the runs printed them. */
static void ranks_section(FILE *out, const struct cmp *c)
{
	bool any = false;

	for (size_t i = 0; i < c->nruns; i++) {
		const struct cmp_run *r = &c->runs[i];
		char *text = NULL;
		size_t len = 0;
		FILE *mem;

		if (!r->res->nranks || !(mem = open_memstream(&text, &len)))
			continue;
		cmp_run_ranks_text(mem, r);
		if (fclose(mem) == 0 && len > 1) {
			if (!any)
				fputs("<h2>Ranks (fbrun-mpi)</h2>\n", out);
			any = true;
			if (c->nruns > 1) {
				fputs("<p>", out);
				html_esc(out, r->label);
				fputs("</p>\n", out);
			}
			fputs("<pre>\n", out);
			html_esc(out, text + 1); /* from after its blank line */
			fputs("</pre>\n", out);
		}
		free(text);
	}
}

void html_page(FILE *out, const struct cmp *c)
{
	page_head(out, c);
	if (c->nruns == 1) {
		fputs("<h1>fbrun: ", out);
		html_esc(out, c->runs[0].label);
		fputs("</h1>\n", out);
	} else {
		fprintf(out, "<h1>fbrun: %zu runs compared</h1>\n", c->nruns);
	}
	html_runs_table(out, c, NULL);
	summary_table(out, c);
	ranks_section(out, c);
	for (int m = 0; m < CM_COUNT; m++)
		if (compare_model_shown(c, m))
			bar_chart(out, c, m);
	html_series_section(out, c);
	html_cdf_section(out, c);
	fputs("</body>\n</html>\n", out);
}

static void fill_page(FILE *out, const void *arg)
{
	html_page(out, arg);
}

int html_write(const char *path, const struct cmp *c)
{
	return outfile_write(path, fill_page, c);
}
