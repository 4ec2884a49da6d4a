/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* compare --fail-if-worse: which flowops got worse, for CI (gate.h). */
#include "compare/gate.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
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
	return v == GATE_PASS	? "pass" :
	       v == GATE_FAIL	? "fail" :
	       v == GATE_REFUSE ? "refused" :
				  "";
}

enum gate_verdict gate_overall(const struct gate_tally *t)
{
	return t->fails ? GATE_FAIL : t->refused ? GATE_REFUSE : GATE_PASS;
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

/* A figure fbrun could have written: finite and never below 0. */
static bool figure(double v)
{
	return isfinite(v) && v >= 0;
}

/*
 * Whether a run did not finish: it ended by an error, a signal, or before
 * it ran ("none").  A file without "ended_by" (an older fbrun's) did.
 */
static bool unfinished(const struct cmp_run *r)
{
	return r->ended_by && (!strcmp(r->ended_by, "error") ||
			       !strcmp(r->ended_by, "signal") ||
			       !strcmp(r->ended_by, "none"));
}

static void set(struct gate_cell *out, enum gate_verdict v, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));
static void set(struct gate_cell *out, enum gate_verdict v, const char *fmt,
		...)
{
	va_list ap;

	out->v = v;
	va_start(ap, fmt);
	vsnprintf(out->why, sizeof(out->why), fmt, ap);
	va_end(ap);
}

/* Run r did not finish: v (a refusal for the base, a failure else), why. */
static void set_unfinished(struct gate_cell *out, enum gate_verdict v,
			   const struct cmp_run *r)
{
	if (r->error && r->error[0])
		set(out, v, "%.64s ended by %s (%.64s)", r->label, r->ended_by,
		    r->error);
	else
		set(out, v, "%.64s ended by %s", r->label, r->ended_by);
}

#define LACKS "none (missing, null or not a number)"

/* One flowop of run nl (n) against the base bl's (b). */
static void judge(const struct cmp_gate *gt, const struct cmp_flowop *b,
		  const char *bl, const struct cmp_flowop *n, const char *nl,
		  struct gate_cell *out)
{
	double base, v;

	if (n->errors && !b->errors) {
		set(out, GATE_FAIL, "%s had %" PRIu64 " failed operations, %s "
				    "none",
		    nl, n->errors, bl);
		return;
	}
	/* a base that did nothing has no latency: nothing to be worse than */
	if (!cmp_value(b, gt->m, &base)) {
		if (!b->idle)
			set(out, GATE_REFUSE, "%s has " LACKS, bl);
		return;
	}
	if (!figure(base)) {
		set(out, GATE_REFUSE, "%s has %g, not a figure", bl, base);
		return;
	}
	if (!cmp_value(n, gt->m, &v)) {
		if (n->idle)
			set(out, GATE_FAIL, "%s did no operations, %s did", nl,
			    bl);
		else
			set(out, GATE_REFUSE, "%s has " LACKS, nl);
		return;
	}
	if (!figure(v)) {
		set(out, GATE_REFUSE, "%s has %g, not a figure", nl, v);
		return;
	}
	if (!worse(gt->m, base, v, &out->worse_pct))
		return;
	out->v = out->worse_pct > gt->pct ? GATE_FAIL : GATE_PASS;
}

void gate_runs(const struct cmp_gate *gt, const struct cmp *c, size_t row,
	       size_t run, struct gate_cell *out)
{
	const struct cmp_run *b = &c->runs[0], *r = &c->runs[run];

	*out = (struct gate_cell){ .v = GATE_NONE };
	if (!gt->on || run == 0)
		return;
	if (unfinished(b))
		set_unfinished(out, GATE_REFUSE, b);
	else if (unfinished(r))
		set_unfinished(out, GATE_FAIL, r);
	else
		judge(gt, c->rows[row].fo[0], b->label, c->rows[row].fo[run],
		      r->label, out);
}

/* The first of group g's runs that did not finish, or NULL. */
static const struct cmp_run *group_unfinished(const struct cmp *c,
					      const struct cmp_group *g)
{
	for (size_t i = 0; i < g->nruns; i++)
		if (unfinished(&c->runs[g->first + i]))
			return &c->runs[g->first + i];
	return NULL;
}

/* Of group g's runs on row: those without figure m, those that did nothing. */
struct gaps {
	size_t lack, idle;
	uint64_t errors; /* failed operations of them all */
};

static void group_gaps(const struct cmp *c, const struct cmp_group *g,
		       size_t row, enum cmp_metric m, struct gaps *gp)
{
	double v;

	*gp = (struct gaps){ 0 };
	for (size_t i = 0; i < g->nruns; i++) {
		const struct cmp_flowop *fo = c->rows[row].fo[g->first + i];

		gp->errors += fo->errors;
		if (!cmp_value(fo, m, &v)) {
			gp->lack++;
			gp->idle += fo->idle;
		}
	}
}

/* The figures of the cell that are none: refused, true. */
static bool bad_figures(const struct cmp_group *g,
			const struct groups_cell *gc, struct gate_cell *out)
{
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < gc->n[k]; i++)
			if (!figure(gc->x[k][i])) {
				set(out, GATE_REFUSE,
				    "a run of %s has %g, not a figure",
				    g[k].label, gc->x[k][i]);
				return true;
			}
	return false;
}

/*
 * The groups' difference judged: a fail when significant and worse than
 * the limit.  Runs without spread cannot be tested; that matters only when
 * the difference is over the limit (a test could not fail the rest).
 */
static void judge_groups(const struct cmp_gate *gt,
			 const struct groups_cell *gc, struct gate_cell *out)
{
	if (gc->w.valid)
		out->v = gc->significant && out->worse_pct > gt->pct ?
				 GATE_FAIL :
				 GATE_PASS;
	else if (out->worse_pct > gt->pct)
		set(out, GATE_REFUSE,
		    "%.1f%% worse, but no spread in either group (each "
		    "run the same figure): cannot judge",
		    out->worse_pct);
	else
		out->v = GATE_PASS;
}

void gate_groups(const struct cmp_gate *gt, const struct cmp *c,
		 const struct cmp_group *g, size_t row,
		 const struct groups_cell *gc, struct gate_cell *out)
{
	const struct cmp_run *r;
	struct gaps b, n;

	*out = (struct gate_cell){ .v = GATE_NONE };
	if (!gt->on)
		return;
	if ((r = group_unfinished(c, &g[0]))) {
		set_unfinished(out, GATE_REFUSE, r);
		return;
	}
	if ((r = group_unfinished(c, &g[1]))) {
		set_unfinished(out, GATE_FAIL, r);
		return;
	}
	group_gaps(c, &g[0], row, gt->m, &b);
	group_gaps(c, &g[1], row, gt->m, &n);
	if (n.errors && !b.errors)
		set(out, GATE_FAIL,
		    "%s had %" PRIu64 " failed operations, %s none",
		    g[1].label, n.errors, g[0].label);
	else if (b.lack > b.idle)
		set(out, GATE_REFUSE, "%zu of %zu runs of %s have " LACKS,
		    b.lack - b.idle, g[0].nruns, g[0].label);
	else if (!gc->n[0])
		return; /* the base group did nothing */
	else if (n.idle)
		set(out, GATE_FAIL, "%zu of %zu runs of %s did no operations, "
				    "%s did",
		    n.idle, g[1].nruns, g[1].label, g[0].label);
	else if (n.lack)
		set(out, GATE_REFUSE, "%zu of %zu runs of %s have " LACKS, n.lack,
		    g[1].nruns, g[1].label);
	else if (!bad_figures(g, gc, out) && groups_has_ratio(gc) &&
		 worse(gt->m, gc->s[0].mean, gc->s[1].mean, &out->worse_pct))
		/* no test, no verdict: one run a side says nothing of noise */
		judge_groups(gt, gc, out);
}

static void say(FILE *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(FILE *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
}

/*
 * One cell counted, and said if it fails or is refused: row's figure,
 * run `label` against `base`; p the groups' test, < 0 for runs.
 */
static void count(FILE *err, const struct cmp_gate *gt, const char *row,
		  const char *label, const char *base,
		  const struct gate_cell *g, double p, struct gate_tally *t)
{
	const char *name = cmp_metrics[gt->m].name;
	char pbuf[32] = "";

	if (p >= 0)
		snprintf(pbuf, sizeof(pbuf), "; p = %.3g", p);
	switch (g->v) {
	case GATE_PASS:
		t->judged++;
		break;
	case GATE_REFUSE:
		t->refused++;
		say(err, "compare: refused: %s %s: %s\n", row, name, g->why);
		break;
	case GATE_FAIL:
		t->fails++;
		if (g->why[0])
			say(err, "compare: fail: %s %s: %s\n", row, name,
			    g->why);
		else
			say(err, "compare: fail: %s %s: %s %.1f%% worse than "
				 "%s (limit %g%%%s)\n",
			    row, name, label, g->worse_pct, base, gt->pct,
			    pbuf);
		break;
	case GATE_NONE:
		break;
	}
}

/* The verdict in all, the pass line or why nothing was judged. */
static enum gate_verdict finish(FILE *err, const struct cmp_gate *gt,
				const char *base, bool groups,
				struct gate_tally *t)
{
	const char *name = cmp_metrics[gt->m].name;

	if (!t->fails && !t->refused && !t->judged) {
		t->refused++;
		say(err, "compare: refused: no flowop's %s could be judged "
			 "against %s%s\n",
		    name, base,
		    groups ? " (a test needs 2 runs a side with the figure)" :
			     "");
	} else if (!t->fails && !t->refused) {
		say(err, "compare: pass: no flowop's %s %sworse than %s by more "
			 "than %g%%\n",
		    name, groups ? "significantly " : "", base, gt->pct);
	}
	return gate_overall(t);
}

enum gate_verdict gate_report_runs(FILE *err, const struct cmp_gate *gt,
				   const struct cmp *c, struct gate_tally *t)
{
	struct gate_cell g;

	*t = (struct gate_tally){ 0 };
	/* a run that did not finish is said once, not per flowop */
	if (unfinished(&c->runs[0])) {
		gate_runs(gt, c, 0, 1, &g);
		t->refused++;
		say(err, "compare: refused: %s: nothing to judge the other "
			 "runs against\n",
		    g.why);
		return gate_overall(t);
	}
	for (size_t i = 1; i < c->nruns; i++)
		if (unfinished(&c->runs[i])) {
			gate_runs(gt, c, 0, i, &g);
			t->fails++;
			say(err, "compare: fail: %s: the run did not finish; its "
				 "figures are not judged\n",
			    g.why);
		}
	for (size_t row = 0; row < c->nrows; row++)
		for (size_t i = 1; i < c->nruns; i++) {
			if (unfinished(&c->runs[i]))
				continue;
			gate_runs(gt, c, row, i, &g);
			count(err, gt, c->rows[row].name, c->runs[i].label,
			      c->runs[0].label, &g, -1, t);
		}
	return finish(err, gt, c->runs[0].label, false, t);
}

enum gate_verdict gate_report_groups(FILE *err, const struct cmp_gate *gt,
				     const struct cmp *c,
				     const struct cmp_group *g,
				     struct gate_tally *t)
{
	const struct cmp_run *r;
	struct gate_cell v;

	*t = (struct gate_tally){ 0 };
	/* a run that did not finish is said once, not per flowop */
	if ((r = group_unfinished(c, &g[0]))) {
		set_unfinished(&v, GATE_REFUSE, r);
		t->refused++;
		say(err, "compare: refused: %s: nothing to judge %s against\n",
		    v.why, g[1].label);
		return gate_overall(t);
	}
	if ((r = group_unfinished(c, &g[1]))) {
		set_unfinished(&v, GATE_FAIL, r);
		t->fails++;
		say(err, "compare: fail: %s: the run did not finish; %s is "
			 "not judged\n",
		    v.why, g[1].label);
		return gate_overall(t);
	}
	for (size_t row = 0; row < c->nrows; row++) {
		struct groups_cell gc;

		groups_cell(c, g, row, gt->m, &gc);
		gate_groups(gt, c, g, row, &gc, &v);
		count(err, gt, c->rows[row].name, g[1].label, g[0].label, &v,
		      gc.w.p, t);
		groups_cell_free(&gc);
	}
	return finish(err, gt, g[0].label, true, t);
}
