/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* compare --fail-if-worse: which flowops got worse, for CI (gate.h). */
#include "compare/gate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/msg.h"
#include "util/util.h"

int gate_metric(const char *word, enum cmp_metric *m)
{
	if (strcmp(word, "ops") == 0)
		*m = CM_OPS;
	else if (strcmp(word, "latency") == 0)
		*m = CM_MS;
	else if (strcmp(word, "p99") == 0)
		*m = CM_P99;
	else if (strcmp(word, "response") == 0)
		*m = CM_RP99;
	else
		return fb_error("--metric expects ops, latency, p99 or "
				"response, got '%s'",
				word);
	return 0;
}

int gate_pct(const char *arg, double *pct)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end || errno || !isfinite(v) || v < 0 ||
	    !(arg[0] >= '0' && arg[0] <= '9'))
		return fb_error("--fail-if-worse expects a percentage (0 or "
				"more), got '%s'",
				arg);
	*pct = v;
	return 0;
}

const char *gate_word(enum gate_verdict v)
{
	return v == GATE_PASS ? "pass" : v == GATE_FAIL ? "fail" : "";
}

/* How much worse v is than base, in percent of base; false if unknown. */
static bool worse(enum cmp_metric m, double base, double v, double *pct)
{
	if (!(base > 0))
		return false;
	*pct = (cmp_metrics[m].higher_better ? base - v : v - base) / base *
	       100;
	return true;
}

void gate_runs(const struct cmp_gate *gt, const struct cmp *c, size_t row,
	       size_t run, struct gate_cell *out)
{
	double base, v;

	*out = (struct gate_cell){ GATE_NONE, 0 };
	if (!gt->on || run == 0 ||
	    !cmp_value(c->rows[row].fo[0], gt->m, &base) ||
	    !cmp_value(c->rows[row].fo[run], gt->m, &v) ||
	    !worse(gt->m, base, v, &out->worse_pct))
		return;
	out->v = out->worse_pct > gt->pct ? GATE_FAIL : GATE_PASS;
}

void gate_groups(const struct cmp_gate *gt, const struct groups_cell *gc,
		 struct gate_cell *out)
{
	*out = (struct gate_cell){ GATE_NONE, 0 };
	/* no test, no verdict: one run a side says nothing of the noise */
	if (!gt->on || !gc->w.valid ||
	    !worse(gt->m, gc->s[0].mean, gc->s[1].mean, &out->worse_pct))
		return;
	out->v = gc->significant && out->worse_pct > gt->pct ? GATE_FAIL :
							       GATE_PASS;
}

size_t gate_report_runs(FILE *err, const struct cmp_gate *gt,
			const struct cmp *c)
{
	const char *name = cmp_metrics[gt->m].name;
	size_t fails = 0;

	for (size_t row = 0; row < c->nrows; row++)
		for (size_t i = 1; i < c->nruns; i++) {
			struct gate_cell g;

			gate_runs(gt, c, row, i, &g);
			if (g.v != GATE_FAIL)
				continue;
			fails++;
			fprintf(err, "compare: fail: %s %s: %s %.1f%% worse "
				     "than %s (limit %g%%)\n",
				c->rows[row].name, name, c->runs[i].label,
				g.worse_pct, c->runs[0].label, gt->pct);
		}
	if (!fails)
		fprintf(err, "compare: pass: no flowop's %s worse than %s by "
			     "more than %g%%\n",
			name, c->runs[0].label, gt->pct);
	return fails;
}

size_t gate_report_groups(FILE *err, const struct cmp_gate *gt,
			  const struct cmp *c, const struct cmp_group *g)
{
	const char *name = cmp_metrics[gt->m].name;
	size_t fails = 0;

	for (size_t row = 0; row < c->nrows; row++) {
		struct groups_cell gc;
		struct gate_cell v;

		groups_cell(c, g, row, gt->m, &gc);
		gate_groups(gt, &gc, &v);
		if (v.v == GATE_FAIL) {
			fails++;
			fprintf(err, "compare: fail: %s %s: %s %.1f%% worse "
				     "than %s (limit %g%%; p = %.3g)\n",
				c->rows[row].name, name, g[1].label,
				v.worse_pct, g[0].label, gt->pct, gc.w.p);
		}
		groups_cell_free(&gc);
	}
	if (!fails)
		fprintf(err, "compare: pass: no flowop's %s significantly "
			     "worse than %s by more than %g%%\n",
			name, g[0].label, gt->pct);
	return fails;
}
