/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* compare's --html page: the latency distributions, one CDF per flowop. */
#include <math.h>
#include <stdio.h>

#include "compare/html_int.h"
#include "compare/model.h"

#define CDF_W 540
#define CDF_H 300
#define CDF_L 58 /* plot margins */
#define CDF_R 30
#define CDF_T 44
#define CDF_B 44

/* A bucket fit for the log scale; false for one that is not a bucket. */
static bool bucket(const struct results_bucket *b, double *from, double *to,
		   double *count)
{
	*from = b->from_ns;
	*to = b->to_ns;
	*count = b->count;
	if (*to <= 0 || *count < 0 || *from < 0 || *from > *to)
		return false;
	if (*from < 1)
		*from = 1; /* the log scale starts above zero */
	if (*to < *from)
		*to = *from;
	return true;
}

static void fmt_ns(char *buf, size_t len, double ns)
{
	if (ns < 1e3)
		snprintf(buf, len, "%g ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%g \xc2\xb5s", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%g ms", ns / 1e6);
	else
		snprintf(buf, len, "%g s", ns / 1e9);
}

/* Latency range of a flowop over all runs; false when none has data. */
static bool cdf_range(const struct cmp *c, size_t r, double *lo, double *hi)
{
	bool any = false;

	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct cmp_flowop *fo = c->rows[r].fo[i];

		for (size_t k = 0; k < fo->nhist; k++) {
			double from, to, n;

			if (!bucket(&fo->hist[k], &from, &to, &n) || !n)
				continue;
			*lo = fmin(*lo, from);
			*hi = fmax(*hi, to);
			any = true;
		}
	}
	return any;
}

static double cdf_x(double ns, double llo, double lhi)
{
	double plot_w = CDF_W - CDF_L - CDF_R;

	return CDF_L + (log10(ns) - llo) / (lhi - llo) * plot_w;
}

static double cdf_y(double frac)
{
	return CDF_T + (1 - frac) * (CDF_H - CDF_T - CDF_B);
}

static void cdf_axes(FILE *out, double llo, double lhi)
{
	int decades = (int)(lhi - llo);

	for (int d = (int)llo; d <= (int)lhi; d++) {
		for (int k = 1; k <= 9; k++) {
			double ns = pow(10, d) * k;
			double x = cdf_x(ns, llo, lhi);
			char label[32];

			if (log10(ns) > lhi + 1e-9)
				break;
			fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				     "y2=\"%d\" stroke=\"%s\"/>\n",
				x, CDF_T, x, CDF_H - CDF_B,
				k == 1 ? "#bbb" : "#eee");
			if (k != 1 && (decades > 2 || (k != 2 && k != 5)))
				continue;
			fmt_ns(label, sizeof(label), ns);
			fprintf(out, "<text x=\"%.1f\" y=\"%d\" "
				     "text-anchor=\"middle\">%s</text>\n",
				x, CDF_H - CDF_B + 16, label);
		}
	}
	for (int q = 0; q <= 4; q++) {
		double y = cdf_y(q / 4.0);

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
			     "y2=\"%.1f\" stroke=\"%s\"/>\n"
			     "<text x=\"%d\" y=\"%.1f\" "
			     "text-anchor=\"end\">%.2f</text>\n",
			CDF_L, y, CDF_W - CDF_R, y, q ? "#eee" : "#bbb",
			CDF_L - 6, y + 4, q / 4.0);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		     "latency (log scale)</text>\n"
		     "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" "
		     "transform=\"rotate(-90 14 %d)\">fraction \xe2\x89\xa4 "
		     "latency</text>\n",
		(CDF_L + CDF_W - CDF_R) / 2, CDF_H - 8,
		(CDF_T + CDF_H - CDF_B) / 2, (CDF_T + CDF_H - CDF_B) / 2);
}

/* Cumulative fraction of a run's histogram, one point per bucket edge. */
static void cdf_line(FILE *out, const struct cmp_flowop *fo, size_t run,
		     double llo, double lhi)
{
	double total = 0, cum = 0, from, to, n;
	bool first = true;

	for (size_t k = 0; k < fo->nhist; k++)
		if (bucket(&fo->hist[k], &from, &to, &n))
			total += n;
	if (total <= 0)
		return;
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" "
		     "stroke-width=\"1.8\" points=\"",
		html_color(run));
	for (size_t k = 0; k < fo->nhist; k++) {
		if (!bucket(&fo->hist[k], &from, &to, &n) || !n)
			continue;
		if (first)
			fprintf(out, "%.1f,%.1f ", cdf_x(from, llo, lhi),
				cdf_y(0));
		first = false;
		fprintf(out, "%.1f,%.1f ", cdf_x(from, llo, lhi), cdf_y(cum / total));
		cum += n;
		fprintf(out, "%.1f,%.1f ", cdf_x(to, llo, lhi), cdf_y(cum / total));
	}
	/* carry the line on to the right edge at 1 */
	fprintf(out, "%.1f,%.1f\"/>\n", cdf_x(pow(10, lhi), llo, lhi),
		cdf_y(cum / total));
}

static void cdf_chart(FILE *out, const struct cmp *c, size_t r, double lo,
		      double hi)
{
	double llo = floor(log10(lo)), lhi = ceil(log10(hi));
	int nodata = 0;

	if (lhi <= llo)
		lhi = llo + 1;
	fprintf(out, "<div class=\"cdf\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
		     "class=\"cdf\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\">\n"
		     "<text x=\"%d\" y=\"16\" font-weight=\"bold\">",
		CDF_W, CDF_H, CDF_W, CDF_H, CDF_L);
	html_esc_short(out, c->rows[r].name);
	fputs("</text>\n", out);
	html_legend(out, c, CDF_L, 34, CDF_W - CDF_R, true);
	cdf_axes(out, llo, lhi);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct cmp_flowop *fo = c->rows[r].fo[i];

		cdf_line(out, fo, i, llo, lhi);
		/* say so, rather than leave a run's line silently missing */
		if (fo->nhist)
			continue;
		if (!nodata++)
			fprintf(out, "<text x=\"%d\" y=\"16\" "
				     "text-anchor=\"end\">no data:",
				CDF_W - CDF_R);
		fputs(nodata > 1 ? ", " : " ", out);
		html_esc(out, c->runs[i].label);
	}
	if (nodata)
		fputs("</text>\n", out);
	fputs("</svg></div>\n", out);
}

void html_cdf_section(FILE *out, const struct cmp *c)
{
	size_t none = 0;

	fputs("<h2>Latency distribution</h2>\n<p class=\"note\">For each "
	      "flowop, the fraction of its operations that took at most a "
	      "given time (from the latency histogram; x is logarithmic). "
	      "A line further left is faster; the top of the curve is the "
	      "tail.</p>\n", out);
	for (size_t r = 0; r < c->nrows; r++) {
		double lo, hi;

		if (cdf_range(c, r, &lo, &hi))
			cdf_chart(out, c, r, lo, hi);
		else
			none++;
	}
	if (!none)
		return;
	fputs("<p class=\"note\">No latency data in any run:", out);
	for (size_t r = 0, k = 0; r < c->nrows; r++) {
		double lo, hi;

		if (cdf_range(c, r, &lo, &hi))
			continue;
		fputs(k++ ? ", " : " ", out);
		html_esc(out, c->rows[r].name);
	}
	fputs(".</p>\n", out);
}

