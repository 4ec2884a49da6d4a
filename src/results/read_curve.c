/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A results file's curve member read back (read.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/curve.h"
#include "results/read.h"
#include "results/read_int.h"
#include "util/util.h"

static void read_level(struct curve_level *l, const json_t *o)
{
	const json_t *runs = rd_get(o, "runs");

	l->name = rd_str_dup(o, "name");
	if (!l->name)
		l->name = xstrdup("?");
	l->rate = rd_num(o, "rate");
	l->probe = rd_flag(o, "probe");
	for (size_t i = 0; i < json_array_size(runs); i++) {
		const json_t *x = json_array_get(runs, i);
		struct curve_run r = { 0 };

		r.secs = rd_num(x, "seconds");
		r.offered = rd_u64(x, "offered");
		r.done = rd_u64(x, "done");
		r.dropped = rd_u64(x, "dropped");
		r.held = rd_flag(x, "held");
		for (int f = 0; f < CF_COUNT; f++)
			r.fig[f] = json_is_number(rd_get(x, curve_fig_key(f))) ?
					   rd_num(x, curve_fig_key(f)) :
					   -1;
		curve_level_add_run(l, &r);
	}
}

/* The objective as the file states it, parsed again. */
static int read_objective(struct curve *c, const json_t *o, char *err,
			  size_t errlen)
{
	const char *text = json_string_value(rd_get(o, "text"));
	char why[160];
	size_t at, len;

	if (!text || objective_parse(text, &c->obj, why, sizeof(why), &at,
				     &len) < 0) {
		snprintf(err, errlen, "its curve's objective '%s' does not "
			 "read: %s", text ? text : "", text ? why : "no text");
		return -1;
	}
	c->has_objective = true;
	c->slo.searched = rd_flag(o, "searched");
	c->slo.met = rd_flag(o, "met");
	c->slo.at_max = rd_flag(o, "at_max");
	c->slo.rate = rd_num(o, "rate");
	c->slo.low = rd_num(o, "low");
	c->slo.high = rd_num(o, "high");
	c->slo.probes = (size_t)rd_u64(o, "probes");
	return 0;
}

static struct curve *from_json(const json_t *cv, char *err, size_t errlen)
{
	struct curve *c = curve_new();
	const json_t *levels = rd_get(cv, "levels");

	if (!json_is_array(levels)) {
		snprintf(err, errlen, "its curve has no \"levels\" array");
		curve_free(c);
		return NULL;
	}
	c->script = rd_str_dup(cv, "script");
	c->per_level_s = rd_num(cv, "per_level_seconds");
	c->warmup_s = rd_num(cv, "warmup_seconds");
	c->repeat = (unsigned)rd_u64(cv, "repeat");
	c->arrivals = rd_str_dup(cv, "arrivals");
	c->interrupted = rd_flag(cv, "interrupted");
	if (json_is_object(rd_get(cv, "max"))) {
		c->has_max = true;
		read_level(&c->max, rd_get(cv, "max"));
	}
	if (json_is_object(rd_get(cv, "objective")) &&
	    read_objective(c, rd_get(cv, "objective"), err, errlen) < 0) {
		curve_free(c);
		return NULL;
	}
	for (size_t i = 0; i < json_array_size(levels); i++) {
		const json_t *o = json_array_get(levels, i);
		/* kept in the file's order: fbrun wrote them rising */
		struct curve_level *l;

		c->levels = grow_array(c->levels, &c->cap, c->nlevels + 1,
				       sizeof(*c->levels));
		l = &c->levels[c->nlevels++];
		memset(l, 0, sizeof(*l));
		read_level(l, o);
	}
	curve_derive(c);
	return c;
}

struct curve *results_read_curve(const char *text, size_t len, char *err,
			 size_t errlen, bool *bad)
{
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY, NULL);
	const json_t *cv = rd_get(root, "curve");
	struct curve *c = NULL;

	*bad = false;
	if (json_is_object(cv) && !(c = from_json(cv, err, errlen)))
		*bad = true;
	json_decref(root);
	return c;
}
