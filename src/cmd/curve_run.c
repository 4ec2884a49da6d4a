/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun curve's runs (curve_int.h): the closed loops' most when the
 * levels are percentages of it or an objective is searched, each level
 * --repeat times, then the search: bisection between the highest rate
 * known to meet the objective and the lowest known to miss it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/curve_int.h"
#include "engine/engine.h"
#include "engine/sys/timeline.h"
#include "lang/ir.h"
#include "report/report.h"
#include "util/msg.h"
#include "util/util.h"

/* The most probes a search makes, its bracket halved each time. */
#define MAX_PROBES 40
/* Where the search looks first below the most: a tenth of it. */
#define LOW_PROBE 0.1

/* The level a run is for. */
static struct curve_level *target(const struct curve_cmd *k)
{
	return k->target < 0 ? &k->c->max : &k->c->levels[k->target];
}

/* The run as a JSON object (when one is written): the file's top level. */
static void keep_json(struct curve_cmd *k, const struct results *r,
		      const char *script)
{
	struct report_meta m;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return;
	report_meta_get(&m, r, script, "default");
	report_json(mem, r, &m);
	report_meta_release(&m);
	if (fclose(mem) != 0) {
		free(text);
		return;
	}
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	free(k->last_json);
	k->last_json = text;
}

/* engine_opts.deliver: a run's figures for its level, and its line. */
static int deliver(const struct results *r, void *arg)
{
	struct curve_cmd *k = arg;
	struct curve_level *l = target(k);
	struct curve_run run;

	/* a run cut short measured a part of the load: not kept */
	if (r->reason == RESULTS_END_SIGNAL || r->reason == RESULTS_END_ERROR ||
	    r->reason == RESULTS_END_NONE) {
		if (r->error[0])
			fb_error("%s", r->error);
		return 0;
	}
	curve_run_of(r, k->c->has_objective ? &k->c->obj : NULL, &run);
	curve_level_add_run(l, &run);
	if (k->want_json)
		keep_json(k, r, k->c->script);
	fprintf(k->lines, "curve: %s", k->target < 0 ? "closed loops" : l->name);
	if (k->target >= 0)
		fprintf(k->lines, " (%.1f arrivals/s)", l->rate);
	if (k->repeat > 1)
		fprintf(k->lines, ", run %u of %u", k->run_no, k->repeat);
	fprintf(k->lines, ": %.1f arrivals/s done; ", run.fig[CF_ACHIEVED]);
	report_summary_line(k->lines, r);
	fflush(k->lines);
	return 0;
}

/* --repeat's runs at the load lo for level at; false once one failed. */
static bool run_level(struct curve_cmd *k, const struct workload *w,
		      struct engine_opts *eo, struct open_load_opts lo,
		      ptrdiff_t at)
{
	for (unsigned i = 0; i < k->repeat; i++) {
		int rc;

		eo->load = lo;
		k->target = at;
		k->run_no = i + 1;
		rc = engine_run(w, eo);
		k->ran = true;
		if (rc != 0 || timeline_signalled) {
			k->c->interrupted = timeline_signalled;
			k->rc = rc ? rc : FB_EXIT_RUN;
			return false;
		}
	}
	curve_derive(k->c);
	return true;
}

/*
 * A level at rate (arrivals a second in all): false once a run failed.
 * A probe of the search is named by its share of the most, starred.
 */
static bool run_rate(struct curve_cmd *k, const struct workload *w,
		     struct engine_opts *eo, const char *name, double rate,
		     bool probe)
{
	struct open_load_opts lo = { OPEN_RATE, rate, k->arrivals };
	char pname[32];
	size_t at;

	if (probe) {
		snprintf(pname, sizeof(pname), "%.1f%%*",
			 k->c->has_max ? 100 * rate / k->c->max.sum[CF_ACHIEVED].mean :
					 0);
		name = pname;
	}
	at = curve_add_level(k->c, name, rate, probe);

	if (probe)
		k->c->slo.probes++;
	return run_level(k, w, eo, lo, (ptrdiff_t)at);
}

/* The closed loops' most: arrivals a second, or 0 after saying why not. */
static double measure_most(struct curve_cmd *k, const struct workload *w,
			   struct engine_opts *eo)
{
	struct open_load_opts lo = { OPEN_CLOSED, 0, 0 };
	double most;

	k->c->has_max = true;
	k->c->max.name = xstrdup("closed");
	if (!run_level(k, w, eo, lo, -1))
		return 0;
	most = k->c->max.sum[CF_ACHIEVED].mean;
	if (most <= 0) {
		fb_error("the closed loops completed no arrival in %g s: no "
			 "rate to scale the levels by",
			 k->c->per_level_s);
		k->rc = FB_EXIT_RUN;
	}
	return most;
}

/* Each --levels rate in turn. */
static bool run_levels(struct curve_cmd *k, const struct workload *w,
		       struct engine_opts *eo, double most)
{
	for (size_t i = 0; i < k->nlevels; i++) {
		char name[32];
		double rate = k->pct ? k->levels[i] / 100 * most : k->levels[i];

		snprintf(name, sizeof(name), k->pct ? "%g%%" : "%g",
			 k->levels[i]);
		if (!run_rate(k, w, eo, name, rate, false))
			return false;
	}
	return true;
}

/*
 * The bracket the levels run so far give: the highest rate met below
 * the lowest missed (0: none met; -1: none missed).
 */
static void bracket(const struct curve *c, double *lo, double *hi)
{
	*lo = 0;
	*hi = -1;
	for (size_t i = 0; i < c->nlevels; i++)
		if (c->levels[i].sum[CF_OBJECTIVE].n && !c->levels[i].met) {
			*hi = c->levels[i].rate;
			break;
		}
	for (size_t i = 0; i < c->nlevels; i++)
		if (c->levels[i].met && (*hi < 0 || c->levels[i].rate < *hi))
			*lo = c->levels[i].rate;
}

/*
 * The 95% interval of the highest rate met: from the highest rate whose
 * runs' interval meets the objective whole, to the lowest whose
 * interval misses it whole (with one run at each, their verdicts).
 */
static void interval(struct curve *c, double most)
{
	c->slo.low = 0;
	c->slo.high = most;
	for (size_t i = 0; i < c->nlevels; i++) {
		const struct curve_level *l = &c->levels[i];

		if (l->surely_met && l->rate <= c->slo.rate)
			c->slo.low = l->rate;
		if (l->surely_not && l->rate >= c->slo.rate &&
		    l->rate < c->slo.high)
			c->slo.high = l->rate;
	}
}

/*
 * The search's verdict from the levels run so far: the highest rate met
 * below the lowest missed, and its interval; none met if there is none.
 * Also where a signal cut the search short: what it had found by then.
 */
static void conclude(struct curve *c, double most)
{
	double lo, hi;

	bracket(c, &lo, &hi);
	c->slo.met = lo > 0;
	c->slo.rate = lo;
	c->slo.at_max = c->slo.met && hi < 0 && lo >= most;
	if (c->slo.at_max) {
		/* no rate above the most can be offered: no upper end */
		c->slo.low = c->levels[c->nlevels - 1].surely_met ? lo : 0;
		c->slo.high = 0;
	} else if (c->slo.met) {
		interval(c, most);
	} else {
		c->slo.low = c->nlevels ? c->levels[0].rate : 0;
	}
}

/* The objective's search; false once a run failed. */
static bool search(struct curve_cmd *k, const struct workload *w,
		   struct engine_opts *eo, double most)
{
	struct curve *c = k->c;
	bool ok = true;
	double lo, hi;

	c->slo.searched = true;
	bracket(c, &lo, &hi);
	if (hi < 0) {
		ok = run_rate(k, w, eo, NULL, most, true);
		bracket(c, &lo, &hi);
	}
	if (ok && hi >= 0 && lo <= 0 && hi > LOW_PROBE * most) {
		ok = run_rate(k, w, eo, NULL, LOW_PROBE * most, true);
		bracket(c, &lo, &hi);
	}
	while (ok && hi >= 0 && lo > 0 && hi - lo > k->precision * most &&
	       c->slo.probes < MAX_PROBES) {
		ok = run_rate(k, w, eo, NULL, (lo + hi) / 2, true);
		bracket(c, &lo, &hi);
	}
	conclude(c, most);
	return ok;
}

/* Every run the curve makes; false once one failed or was interrupted. */
static bool run_all(struct curve_cmd *k, const struct workload *w,
		    struct engine_opts *eo)
{
	double most = 0;

	if (k->pct || k->c->has_objective) {
		most = measure_most(k, w, eo);
		if (most <= 0)
			return false;
	}
	if ((k->levels_given || !k->c->has_objective) &&
	    !run_levels(k, w, eo, most))
		return false;
	if (k->c->has_objective && !search(k, w, eo, most ? most :
					   k->levels[k->nlevels - 1]))
		return false;
	return true;
}

int curve_runner(const struct cli_options *o, const struct workload *w,
		 struct engine_opts *eo, void *arg)
{
	struct curve_cmd *k = arg;

	if (curve_check(k, w, eo) < 0)
		return FB_EXIT_USAGE;
	k->repeat = o->repeat ? (unsigned)o->repeat : 1;
	k->c->repeat = k->repeat;
	k->c->script = xstrdup(eo->script ? eo->script : "");
	k->c->per_level_s = (double)eo->runtime_s;
	k->c->warmup_s = (double)eo->warmup_s;
	eo->deliver = deliver;
	eo->deliver_arg = k;
	/* checked as a run's -o is: never inside a fileset's tree */
	eo->output = k->output;
	eo->series = true;
	eo->series_reuse = k->reuse;
	k->lines = k->format == FORMAT_TEXT ? stdout : stderr;
	if (k->format != FORMAT_TEXT)
		eo->quiet = eo->data_on_stdout = true;
	k->rc = FB_EXIT_OK;
	if (!run_all(k, w, eo) && k->rc == FB_EXIT_OK)
		k->rc = FB_EXIT_RUN;
	/* the trees --reuse kept from run to run go now */
	if (k->ran && k->reuse && !timeline_signalled) {
		struct engine_opts end = *eo;

		end.series_end = true;
		end.quiet = true;
		if (engine_run(w, &end) != 0 && k->rc == FB_EXIT_OK)
			k->rc = FB_EXIT_RUN;
	}
	curve_derive(k->c);
	return curve_output(k);
}
