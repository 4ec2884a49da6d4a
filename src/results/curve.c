/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A load curve's model, its figures and its JSON member (curve.h). */
#include "results/curve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define LEVEL 0.95 /* the confidence of the levels' intervals */

/* The JSON's name of each figure of a run, and whether it is a time. */
static const char *const fig_key[CF_COUNT] = {
	[CF_ACHIEVED] = "achieved_per_sec", [CF_OPS] = "ops_per_sec",
	[CF_RESP_P50] = "response_p50_ms", [CF_RESP_P99] = "response_p99_ms",
	[CF_RESP_P999] = "response_p99.9_ms", [CF_SVC_P50] = "service_p50_ms",
	[CF_SVC_P99] = "service_p99_ms", [CF_SVC_P999] = "service_p99.9_ms",
	[CF_CPU] = "cpu_us_per_op", [CF_OBJECTIVE] = "objective_ms",
};

const char *curve_fig_key(enum curve_fig f)
{
	return fig_key[f];
}

struct curve *curve_new(void)
{
	struct curve *c = xcalloc(1, sizeof(*c));

	c->knee = -1;
	return c;
}

static void level_clear(struct curve_level *l)
{
	free(l->name);
	free(l->runs);
	memset(l, 0, sizeof(*l));
}

void curve_free(struct curve *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nlevels; i++)
		level_clear(&c->levels[i]);
	level_clear(&c->max);
	free(c->levels);
	free(c->script);
	free(c->arrivals);
	if (c->has_objective)
		objective_release(&c->obj);
	free(c);
}

size_t curve_add_level(struct curve *c, const char *name, double rate,
		       bool probe)
{
	size_t at = 0;

	while (at < c->nlevels && c->levels[at].rate <= rate)
		at++;
	c->levels = grow_array(c->levels, &c->cap, c->nlevels + 1,
			       sizeof(*c->levels));
	memmove(&c->levels[at + 1], &c->levels[at],
		(c->nlevels - at) * sizeof(*c->levels));
	c->nlevels++;
	memset(&c->levels[at], 0, sizeof(c->levels[at]));
	c->levels[at].name = xstrdup(name);
	c->levels[at].rate = rate;
	c->levels[at].probe = probe;
	if (c->knee >= (ptrdiff_t)at)
		c->knee++;
	return at;
}

void curve_run_of(const struct results *r, const struct objective *o,
		  struct curve_run *out)
{
	uint64_t done = 0;

	memset(out, 0, sizeof(*out));
	out->secs = r->secs;
	out->held = true;
	for (size_t i = 0; i < r->narr; i++) {
		out->offered += r->arr[i].offered;
		done += r->arr[i].done;
		out->dropped += r->arr[i].dropped;
		out->held = out->held && (r->arr[i].held || r->arr[i].rate <= 0);
	}
	out->done = done;
	out->fig[CF_ACHIEVED] = results_rate(done, r->secs);
	out->fig[CF_OPS] = r->sum.ops_s;
	out->fig[CF_RESP_P50] = r->io_rq[RESULTS_P50] / 1e6;
	out->fig[CF_RESP_P99] = r->io_rq[RESULTS_P99] / 1e6;
	out->fig[CF_RESP_P999] = r->io_rq[RESULTS_P999] / 1e6;
	out->fig[CF_SVC_P50] = r->io_q[RESULTS_P50] / 1e6;
	out->fig[CF_SVC_P99] = r->io_q[RESULTS_P99] / 1e6;
	out->fig[CF_SVC_P999] = r->io_q[RESULTS_P999] / 1e6;
	out->fig[CF_CPU] = r->sum.cpu_us;
	out->fig[CF_OBJECTIVE] = o ? objective_value(o, r) : -1;
}

void curve_level_add_run(struct curve_level *l, const struct curve_run *run)
{
	l->runs = grow_array(l->runs, &l->cap, l->nruns + 1, sizeof(*l->runs));
	l->runs[l->nruns++] = *run;
}

static void level_derive(struct curve_level *l, const struct curve *c)
{
	double *x = xcalloc(l->nruns ? l->nruns : 1, sizeof(*x));
	double worst, best;

	for (int f = 0; f < CF_COUNT; f++) {
		size_t n = 0;

		for (size_t i = 0; i < l->nruns; i++)
			if (f != CF_OBJECTIVE || l->runs[i].fig[f] >= 0)
				x[n++] = l->runs[i].fig[f];
		st_summarise(x, n, LEVEL, &l->sum[f]);
	}
	free(x);
	l->met = l->surely_met = l->surely_not = false;
	if (!c->has_objective || !l->sum[CF_OBJECTIVE].n)
		return;
	l->met = objective_met(&c->obj, l->sum[CF_OBJECTIVE].mean);
	/* one run: its own verdict; more: the interval's */
	worst = l->sum[CF_OBJECTIVE].mean + l->sum[CF_OBJECTIVE].half;
	/* a figure is never below 0: an interval reaching under it meets */
	best = fmax(l->sum[CF_OBJECTIVE].mean - l->sum[CF_OBJECTIVE].half, 0);
	if (c->obj.stat == OBJ_AU) { /* a utilisation: the higher, the better */
		double t = worst;

		worst = best;
		best = t;
	}
	l->surely_met = objective_met(&c->obj, worst);
	l->surely_not = !objective_met(&c->obj, best);
}

void curve_derive(struct curve *c)
{
	double low = -1;

	if (c->has_max)
		level_derive(&c->max, c);
	c->knee = -1;
	for (size_t i = 0; i < c->nlevels; i++) {
		struct curve_level *l = &c->levels[i];

		level_derive(l, c);
		if (!l->sum[CF_RESP_P99].n)
			continue;
		/* the knee: the first level over twice the lowest's p99 */
		if (low < 0)
			low = l->sum[CF_RESP_P99].mean;
		else if (c->knee < 0 && l->sum[CF_RESP_P99].mean > 2 * low)
			c->knee = (ptrdiff_t)i;
	}
}

/* All their digits: fbrun report prints the levels' table again. */
static void write_figures(struct json *j, const double *fig)
{
	for (int f = 0; f < CF_COUNT; f++)
		if (f != CF_OBJECTIVE || fig[f] >= 0)
			jw_exact(j, fig_key[f], fig[f]);
}

static void write_level(struct json *j, const char *key,
			const struct curve_level *l, bool objective)
{
	jw_object(j, key);
	jw_str(j, "name", l->name ? l->name : "");
	jw_exact(j, "rate", l->rate);
	jw_bool(j, "probe", l->probe);
	jw_array(j, "runs");
	for (size_t i = 0; i < l->nruns; i++) {
		const struct curve_run *r = &l->runs[i];

		jw_object(j, NULL);
		jw_exact(j, "seconds", r->secs);
		jw_u64(j, "offered", r->offered);
		jw_u64(j, "done", r->done);
		jw_u64(j, "dropped", r->dropped);
		jw_bool(j, "held", r->held);
		write_figures(j, r->fig);
		jw_end(j, '}');
	}
	jw_end(j, ']');
	jw_object(j, "figures");
	for (int f = 0; f < CF_COUNT; f++) {
		if (!l->sum[f].n)
			continue;
		jw_object(j, fig_key[f]);
		jw_num(j, "mean", l->sum[f].mean);
		jw_num(j, "ci95", l->sum[f].half);
		jw_end(j, '}');
	}
	jw_end(j, '}');
	if (objective && l->sum[CF_OBJECTIVE].n)
		jw_bool(j, "met", l->met);
	jw_end(j, '}');
}

static void write_objective(struct json *j, const struct curve *c)
{
	char name[128];

	objective_name(&c->obj, name, sizeof(name));
	jw_object(j, "objective");
	jw_str(j, "text", c->obj.text);
	jw_str(j, "figure", name);
	jw_num(j, "bound_ms", c->obj.bound_ms);
	jw_bool(j, "searched", c->slo.searched);
	if (c->slo.searched) {
		jw_bool(j, "met", c->slo.met);
		jw_bool(j, "at_max", c->slo.at_max);
		jw_exact(j, "rate", c->slo.rate);
		jw_exact(j, "low", c->slo.low);
		if (!c->slo.at_max) /* met at the most: no upper end */
			jw_exact(j, "high", c->slo.high);
		jw_u64(j, "probes", c->slo.probes);
	}
	jw_end(j, '}');
}

void curve_write(struct json *j, const char *key, const struct curve *c)
{
	jw_object(j, key);
	jw_str(j, "script", c->script ? c->script : "");
	jw_exact(j, "per_level_seconds", c->per_level_s);
	jw_exact(j, "warmup_seconds", c->warmup_s);
	jw_u64(j, "repeat", c->repeat);
	jw_str(j, "arrivals", c->arrivals ? c->arrivals : "script");
	if (c->has_max)
		write_level(j, "max", &c->max, false);
	jw_array(j, "levels");
	for (size_t i = 0; i < c->nlevels; i++)
		write_level(j, NULL, &c->levels[i], c->has_objective);
	jw_end(j, ']');
	if (c->knee >= 0) /* its index in levels */
		jw_u64(j, "knee", (uint64_t)c->knee);
	if (c->has_objective)
		write_objective(j, c);
	jw_bool(j, "interrupted", c->interrupted);
	jw_end(j, '}');
}
