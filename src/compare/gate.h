/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * compare --fail-if-worse PCT [--metric ops|latency|p99]: a check for CI.
 * A flowop fails when its figure is worse than the base's by more than
 * PCT percent (runs side by side: each run against the first), and, for
 * groups of runs, the difference is significant too (doc/compare.md).
 * The check judges or refuses, never passes what it cannot judge: a run
 * that ended by error or signal, a flowop that did nothing or failed
 * operations the base did not, fail it; a figure that is not there (or
 * not a number), or a base that did not finish, make it refuse.
 */
#ifndef FBRUN_COMPARE_GATE_H
#define FBRUN_COMPARE_GATE_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/groups.h"
#include "compare/model.h"

struct cmp_gate {
	bool on;
	double pct; /* the limit, percent */
	enum cmp_metric m; /* CM_OPS, CM_MS or CM_P99 */
};

/* What the check says of one flowop of one run (or of the groups). */
enum gate_verdict {
	GATE_NONE, /* not judged: no check, the base run, a base that did nothing */
	GATE_PASS,
	GATE_FAIL,
	GATE_REFUSE, /* cannot be judged: the check fails as a whole, exit 2 */
};

struct gate_cell {
	enum gate_verdict v;
	double worse_pct; /* how much worse than the base, % (< 0: better) */
	/* a fail or refusal not by worse_pct: why, for the line said */
	char why[192];
};

/* How the check went, in all. */
struct gate_tally {
	size_t fails, refused, judged;
};

/* --metric's word: ops, latency or p99; 0, or -1 if it is none. */
int gate_metric(const char *word, enum cmp_metric *m);
/* --fail-if-worse's PCT: a number >= 0, a % after it allowed. */
int gate_pct(const char *arg, double *pct);
/* "pass", "fail", "refused", or "" when not judged. */
const char *gate_word(enum gate_verdict v);
/* The verdict in all: GATE_FAIL if any failed, else GATE_REFUSE if any was
 * refused (or nothing could be judged), else GATE_PASS. */
enum gate_verdict gate_overall(const struct gate_tally *t);

/* Run `run` against the first on row `row`. */
void gate_runs(const struct cmp_gate *gt, const struct cmp *c, size_t row,
	       size_t run, struct gate_cell *out);
/* The second group against the first on row `row`, gc its figure's cell. */
void gate_groups(const struct cmp_gate *gt, const struct cmp *c,
		 const struct cmp_group *g, size_t row,
		 const struct groups_cell *gc, struct gate_cell *out);

/*
 * Say on err (NULL: count only) each flowop that fails or cannot be
 * judged, and why, or that none fails; the verdict in all, the counts
 * into *t.
 */
enum gate_verdict gate_report_runs(FILE *err, const struct cmp_gate *gt,
				   const struct cmp *c, struct gate_tally *t);
enum gate_verdict gate_report_groups(FILE *err, const struct cmp_gate *gt,
				     const struct cmp *c,
				     const struct cmp_group *g,
				     struct gate_tally *t);

#endif
