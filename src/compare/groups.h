/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun compare with groups of runs ("A1.json A2.json -- B1.json", or
 * files written with --repeat): per flowop the mean and 95% interval of
 * each group, the ratio of the means with its interval and Welch's
 * t-test, as a text table and optionally a page (doc/compare.md).
 */
#ifndef FBRUN_COMPARE_GROUPS_H
#define FBRUN_COMPARE_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/model.h"
#include "util/statistics.h"

/* A group: its files, and its runs among the comparison's (struct cmp). */
struct cmp_group {
	const char *label;
	const char **paths;
	size_t npaths;
	size_t first, nruns; /* c->runs[first .. first + nruns) */
};

/*
 * Read every group's files, their runs appended to c->runs in group
 * order; 0, or -1 after saying why.  c's runs are the caller's to free
 * (cmp_run_clear) either way.
 */
int groups_read(struct cmp *c, struct cmp_group *g, size_t ng);
/*
 * The runs matched as cmp_match matches runs side by side (one script,
 * the same flowops, unless common): c->rows.  0, or -1 after saying why.
 */
int groups_match(struct cmp *c, const struct cmp_group *g, size_t ng,
		 bool common);
/* The figures compared between groups, in table and page order. */
#define GROUPS_NMETRICS 5
extern const enum cmp_metric groups_metrics[GROUPS_NMETRICS];

/*
 * One flowop's figure m in both groups: each group's values (x[k][0..n[k])
 * of the runs that have it), their mean and 95% interval, and Welch's
 * test of the second against the first, significant at the 5% level.
 */
struct groups_cell {
	double *x[2];
	size_t n[2];
	struct st_summary s[2];
	struct st_welch w;
	bool significant;
};
void groups_cell(const struct cmp *c, const struct cmp_group *g, size_t row,
		 enum cmp_metric m, struct groups_cell *gc);
void groups_cell_free(struct groups_cell *gc);
/* A figure of run `run` (of c->runs) into *v; false if it has none. */
typedef bool (*groups_value_fn)(const struct cmp *c, size_t run,
				const void *arg, double *v);
/* The cell of any figure, each run's from value(c, run, arg, &v). */
void groups_cell_by(const struct cmp *c, const struct cmp_group *g,
		    groups_value_fn value, const void *arg,
		    struct groups_cell *gc);
/*
 * The IO Summary's figures compared, as indices of cmp_summary (ops/s,
 * reads/s, writes/s, mb/s, ms/op: as the flowops', not the sampled CPU).
 */
#define GROUPS_NSUMMARY 5
extern const size_t groups_summary[GROUPS_NSUMMARY];
void groups_summary_cell(const struct cmp *c, const struct cmp_group *g,
			 size_t i, struct groups_cell *gc);
/* Whether any run has an IO Summary figure (a hand-made file may not). */
bool groups_has_summary(const struct cmp *c);
/* Decimals for a cell's means: prec, or more for small ones. */
int groups_prec(const struct groups_cell *gc, int prec);
/*
 * Whether any run has figure m for any flowop (files of an older fbrun
 * lack the p99): a figure none has gets no table or chart.
 */
bool groups_any(const struct cmp *c, enum cmp_metric m);
/* "significant", "within noise" or why it is not tested. */
const char *groups_verdict(const struct groups_cell *gc);
/* Whether the cell has a ratio: tested, or of runs without spread. */
bool groups_has_ratio(const struct groups_cell *gc);
/* "2.00x [1.53, 2.61]", "2.00x" without an interval (no spread), or "-". */
void groups_ratio(char *buf, size_t len, const struct groups_cell *gc);

/* The table of the two groups, the second against the first. */
void groups_table(FILE *out, const struct cmp *c, const struct cmp_group *g);
/* Their page, written to path; 0, or -1 after saying why. */
int groups_html(const char *path, const struct cmp *c,
		const struct cmp_group *g);

#endif
