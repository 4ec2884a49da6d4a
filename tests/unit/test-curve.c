/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Service level objectives parsed and judged, and a load curve's levels:
 * their order, their verdicts against an objective with their intervals,
 * the knee (results/objective.h, results/curve.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/curve.h"
#include "results/objective.h"
#include "tap.h"

static void parses(const char *text, enum objective_stat stat, double q,
		   const char *flowop, bool or_equal, double bound_ms)
{
	struct objective o;
	char err[200];
	size_t at, len;
	int rc = objective_parse(text, &o, err, sizeof(err), &at, &len);

	ok(rc == 0 && o.stat == stat && fabs(o.q - q) < 1e-12 &&
		   (flowop ? o.flowop && !strcmp(o.flowop, flowop) : !o.flowop) &&
		   o.or_equal == or_equal && fabs(o.bound_ms - bound_ms) < 1e-9,
	   "'%s' parses", text);
	if (rc == 0)
		objective_release(&o);
}

static void refused(const char *text, size_t want_at)
{
	struct objective o;
	char err[200];
	size_t at = 999, len = 0;
	int rc = objective_parse(text, &o, err, sizeof(err), &at, &len);

	ok(rc < 0 && at == want_at && len > 0 && err[0],
	   "'%s' refused at byte %zu (got %zu: %s)", text, want_at, at, err);
}

/* A level with runs whose objective figures are v[0..n). */
static struct curve_level *level(struct curve *c, const char *name,
				 double rate, const double *v, size_t n,
				 double p99)
{
	size_t at = curve_add_level(c, name, rate, false);

	for (size_t i = 0; i < n; i++) {
		struct curve_run r = { .held = true };

		r.fig[CF_OBJECTIVE] = v[i];
		r.fig[CF_RESP_P99] = p99;
		curve_level_add_run(&c->levels[at], &r);
	}
	return &c->levels[at];
}

int main(void)
{
	struct curve *c = curve_new();
	char err[200];
	size_t at, len;

	parses("p99<5ms", OBJ_QUANTILE, 0.99, NULL, false, 5);
	parses(" p99.9(read1) <= 20ms", OBJ_QUANTILE, 0.999, "read1", true, 20);
	parses("mean<200us", OBJ_MEAN, 0, NULL, false, 0.2);
	parses("max(t/w#2)<1.5s", OBJ_MAX, 0, "t/w#2", false, 1500);
	parses("p50<1000ns", OBJ_QUANTILE, 0.5, NULL, false, 0.001);
	refused("q99<5ms", 0);
	refused("p100<5ms", 0);
	refused("p99=5ms", 3);
	refused("p99<5", 5);
	refused("p99<0ms", 4);
	refused("p99(rd<5ms", 3);
	refused("p99()<5ms", 3);
	refused("p99<5 ms", 5);
	/* the accelerators' utilisation: met at or over a percentage */
	{
		struct objective o;

		ok(objective_parse("au>=90%", &o, err, sizeof(err), &at,
				   &len) == 0 &&
			   o.stat == OBJ_AU && o.or_equal &&
			   fabs(o.bound_pct - 90) < 1e-12 && !o.flowop,
		   "'au>=90%%' parses");
		ok(objective_met(&o, 90) && objective_met(&o, 99.5) &&
			   !objective_met(&o, 89.9) && !objective_met(&o, -1),
		   "au>=90%%: 90 and over meet it, under and none do not");
		objective_release(&o);
		ok(objective_parse(" au > 70.5%", &o, err, sizeof(err), &at,
				   &len) == 0 &&
			   !o.or_equal && fabs(o.bound_pct - 70.5) < 1e-12 &&
			   !objective_met(&o, 70.5) && objective_met(&o, 70.6),
		   "'au > 70.5%%': over it only");
		objective_release(&o);
	}
	refused("au<90%", 2);
	refused("au>=90", 4);
	refused("au>=0%", 4);
	refused("au>=101%", 4);
	refused("au>=90ms", 4);
	refused("au(gpu)>=90%", 2);

	/* the objective's verdicts: an interval below 0 still meets it */
	ok(objective_parse("p99<10ms", &c->obj, err, sizeof(err), &at, &len) ==
		   0,
	   "the curve's objective");
	c->has_objective = true;
	ok(objective_met(&c->obj, 9.99) && !objective_met(&c->obj, 10) &&
		   !objective_met(&c->obj, -1),
	   "under the bound meets it, the bound and no figure do not");
	{
		const double wide[] = { 9, 2, 2 };
		const double over[] = { 20, 21, 22 };
		const double under[] = { 1, 1.1, 1.2 };
		const double one[] = { 12 };

		level(c, "b", 200, wide, 3, 0.5);
		level(c, "d", 400, over, 3, 30);
		level(c, "a", 100, under, 3, 0.4);
		level(c, "c", 300, one, 1, 0.9);
	}
	curve_derive(c);
	ok(!strcmp(c->levels[0].name, "a") && !strcmp(c->levels[1].name, "b") &&
		   !strcmp(c->levels[2].name, "c") &&
		   !strcmp(c->levels[3].name, "d"),
	   "levels kept in rising rate");
	ok(c->levels[0].met && c->levels[0].surely_met &&
		   !c->levels[0].surely_not,
	   "a narrow interval under the bound: surely met");
	ok(c->levels[1].met && !c->levels[1].surely_met &&
		   !c->levels[1].surely_not,
	   "a wide one reaching below 0 and over the bound: neither sure");
	ok(!c->levels[2].met && c->levels[2].surely_not,
	   "one run over the bound: its own verdict, surely not");
	ok(!c->levels[3].met && c->levels[3].surely_not,
	   "a narrow interval over the bound: surely not");
	is_int(c->knee, 2, "the knee: the first level over twice the lowest's p99");
	curve_free(c);
	return tap_done();
}
