/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A load curve as text and CSV (curve_print.h). */
#include "report/curve_print.h"

#include <inttypes.h>
#include <string.h>

#include "util/util.h"

/* level, offered/s, achieved/s, ops/s, resp p50 p99 p99.9, svc p50 p99 p99.9, cpu */
#define LAYOUT_CURVE_HEAD                                                    \
	"%-10s %10s %10s %10s %9s %9s %10s %9s %9s %10s %9s%s\n"
#define LAYOUT_CURVE_ROW                                                     \
	"%-10s %10.1f %10.1f %10.1f %9.3f %9.3f %10.3f %9.3f %9.3f %10.3f "   \
	"%9.0f"

static const char *arrivals_word(const struct curve *c)
{
	return c->arrivals && strcmp(c->arrivals, "script") ?
		       c->arrivals :
		       "the script's";
}

static void print_head(FILE *out, const struct curve *c)
{
	fprintf(out, "Load curve of %s: %zu level%s of %g s after a %g s "
		     "warm-up, %s arrivals",
		c->script ? c->script : "?", c->nlevels,
		c->nlevels == 1 ? "" : "s", c->per_level_s, c->warmup_s,
		arrivals_word(c));
	if (c->repeat > 1)
		fprintf(out, ", the means of %u runs each", c->repeat);
	fputc('\n', out);
	if (c->has_max && c->max.sum[CF_ACHIEVED].n)
		fprintf(out, "Closed loops' most: %.1f arrivals/s, %.1f ops/s\n",
			c->max.sum[CF_ACHIEVED].mean, c->max.sum[CF_OPS].mean);
	if (c->interrupted)
		fprintf(out, "Interrupted: the levels done so far\n");
}

static void print_row(FILE *out, const struct curve *c,
		      const struct curve_level *l)
{
	const struct st_summary *s = l->sum;

	fprintf(out, LAYOUT_CURVE_ROW, l->name, l->rate, s[CF_ACHIEVED].mean,
		s[CF_OPS].mean, s[CF_RESP_P50].mean, s[CF_RESP_P99].mean,
		s[CF_RESP_P999].mean, s[CF_SVC_P50].mean, s[CF_SVC_P99].mean,
		s[CF_SVC_P999].mean, s[CF_CPU].mean);
	if (c->has_objective)
		fprintf(out, " %4s", !s[CF_OBJECTIVE].n ? "-" :
				     l->met	       ? "met" :
							 "not");
	fputc('\n', out);
}

/* The levels whose rate was not held in some run (results.h, held). */
static void print_unheld(FILE *out, const struct curve *c)
{
	bool any = false;

	for (size_t i = 0; i < c->nlevels; i++) {
		const struct curve_level *l = &c->levels[i];
		bool held = true;

		for (size_t r = 0; r < l->nruns; r++)
			held = held && l->runs[r].held;
		if (held)
			continue;
		fprintf(out, "%s %s", any ? "," : "\nNot held (arrivals dropped, "
						  "or under 95% of them done):",
			l->name);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

static void print_objective(FILE *out, const struct curve *c)
{
	char name[128];

	objective_name(&c->obj, name, sizeof(name));
	fprintf(out, "Objective %s (the %s under %s%g ms): ", c->obj.text,
		name, c->obj.or_equal ? "or at " : "", c->obj.bound_ms);
	if (!c->slo.searched)
		fprintf(out, "each level's verdict in its last column\n");
	else if (c->slo.met && c->slo.at_max)
		fprintf(out, "met at the closed loops' most, %.1f arrivals/s, "
			     "the most the script can be offered%s\n",
			c->slo.rate, c->interrupted ? " (interrupted)" : "");
	else if (c->slo.met)
		fprintf(out, "met up to %.1f arrivals/s, 95%% interval %.1f to "
			     "%.1f (%zu probes%s)\n",
			c->slo.rate, c->slo.low, c->slo.high, c->slo.probes,
			c->interrupted ? ", interrupted: the search's best so far" :
					 "");
	else if (c->interrupted)
		fprintf(out, "interrupted before a rate probed met it\n");
	else
		fprintf(out, "no rate probed met it; the lowest was %.1f "
			     "arrivals/s\n",
			c->slo.low);
}

void curve_print_text(FILE *out, const struct curve *c)
{
	print_head(out, c);
	fputc('\n', out);
	fprintf(out, LAYOUT_CURVE_HEAD, "level", "offered/s", "achieved/s",
		"ops/s", "resp p50", "resp p99", "resp p99.9", "svc p50",
		"svc p99", "svc p99.9", "us/op-cpu",
		c->has_objective ? "  slo" : "");
	for (size_t i = 0; i < c->nlevels; i++)
		print_row(out, c, &c->levels[i]);
	print_unheld(out, c);
	fprintf(out, "\nTimes in ms: a response time counts from when its "
		     "arrival was due, a service time\nfrom when its op "
		     "started (doc/running.md, \"Load curves\")\n%s",
		c->slo.probes ? "*: a rate the objective's search probed, by "
				"its share of the closed loops' most\n" :
				"");
	if (c->knee >= 0) {
		const struct curve_level *k = &c->levels[c->knee];

		fprintf(out, "Knee: %s, %.1f arrivals/s: its p99 response "
			     "time, %.3f ms, is over twice the lowest "
			     "level's, %.3f ms\n",
			k->name, k->rate, k->sum[CF_RESP_P99].mean,
			c->levels[0].sum[CF_RESP_P99].mean);
	} else if (c->nlevels > 1) {
		fprintf(out, "Knee: none, no level's p99 response time is over "
			     "twice the lowest level's\n");
	}
	if (c->has_objective)
		print_objective(out, c);
}

void curve_print_csv(FILE *out, const struct curve *c)
{
	fprintf(out, "level,rate,runs,probe");
	for (int f = 0; f < CF_COUNT; f++)
		fprintf(out, ",%s,%s_ci95", curve_fig_key(f),
			curve_fig_key(f));
	fprintf(out, ",met\n");
	for (size_t i = 0; i < c->nlevels; i++) {
		const struct curve_level *l = &c->levels[i];

		csv_put(out, l->name);
		fprintf(out, ",%.3f,%zu,%d", l->rate, l->nruns, l->probe);
		for (int f = 0; f < CF_COUNT; f++)
			if (l->sum[f].n)
				fprintf(out, ",%.6f,%.6f", l->sum[f].mean,
					l->sum[f].half);
			else
				fprintf(out, ",,");
		fprintf(out, ",%s\n", !c->has_objective ||
					      !l->sum[CF_OBJECTIVE].n ? "" :
				      l->met			 ? "yes" :
								   "no");
	}
}
