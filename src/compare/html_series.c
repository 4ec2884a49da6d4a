/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The time series of compare's page (html_int.h): each run's I/O ops/s
 * per --interval over the run, so warm-up, stalls and drift show.
 */
#include <math.h>
#include <stdio.h>

#include "compare/html_int.h"

#define SERIES_W 900
#define SERIES_H 260
#define LEFT 70
#define TOP 40

void html_series_section(FILE *out, const struct cmp *c)
{
	double tmax = 0, ymax = 0;
	int plot_w = SERIES_W - LEFT - 20, plot_h = SERIES_H - TOP - 40;
	int legend;

	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; k < c->runs[i].niv; k++) {
			tmax = fmax(tmax, c->runs[i].iv[k].t);
			ymax = fmax(ymax, c->runs[i].iv[k].ops);
		}
	if (tmax <= 0)
		return; /* no run has a series */
	if (ymax <= 0)
		ymax = 1;
	legend = html_legend(NULL, c, LEFT, 18, SERIES_W - 10, true);
	fputs("<h2>Operations per second over time</h2>\n"
	      "<p class=\"note\">I/O operations per second in each "
	      "<code>--interval</code> of each run (the runs without one are "
	      "left out).</p>\n",
	      out);
	fprintf(out, "<svg class=\"series\" width=\"%d\" height=\"%d\" "
		     "xmlns=\"http://www.w3.org/2000/svg\">\n",
		SERIES_W, SERIES_H + legend);
	html_legend(out, c, LEFT, 18, SERIES_W - 10, true);
	for (int g = 0; g <= 4; g++) {
		int y = TOP + legend + plot_h - plot_h * g / 4;

		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			     "stroke=\"#ddd\"/>\n<text x=\"%d\" y=\"%d\" "
			     "text-anchor=\"end\">%.0f</text>\n",
			LEFT, y, LEFT + plot_w, y, LEFT - 6, y + 4,
			ymax * g / 4);
	}
	for (int g = 0; g <= 4; g++)
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
			     "%.0f s</text>\n",
			LEFT + plot_w * g / 4, TOP + legend + plot_h + 18,
			tmax * g / 4);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct cmp_run *r = &c->runs[i];

		if (!r->niv)
			continue;
		fprintf(out, "<polyline class=\"run\" fill=\"none\" "
			     "stroke=\"%s\" stroke-width=\"2\" points=\"",
			html_color(i));
		for (size_t k = 0; k < r->niv; k++)
			fprintf(out, "%s%.1f,%.1f", k ? " " : "",
				LEFT + r->iv[k].t / tmax * plot_w,
				TOP + legend + plot_h -
					r->iv[k].ops / ymax * plot_h);
		fputs("\"/>\n", out);
	}
	fputs("</svg>\n", out);
}
