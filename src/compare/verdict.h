/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The verdict of two groups of runs (doc/compare.md, "The verdict"): a
 * few figures of the whole workload and of its I/O by kind, each with
 * the group that is faster, the ratio and its interval, and whether the
 * runs can tell.  The kinds come from the flowop table
 * (compare_model_kinds); flowops that do no I/O are left out.
 */
#ifndef FBRUN_COMPARE_VERDICT_H
#define FBRUN_COMPARE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/groups.h"

/* One figure judged: "IO Summary ops/s", "reads mb/s"... */
struct verdict_line {
	char what[48];
	int prec; /* the decimals its means are shown with */
	bool higher_better;
	struct groups_cell gc;
};

/*
 * The flowops a kind takes (rows of the comparison), for the notes; the
 * fsyncs are CK_WRITE's, with the writes.
 */
struct verdict_kind {
	size_t *rows;
	size_t n;
};

struct verdict {
	struct verdict_line *line;
	size_t n;
	struct verdict_kind kind[CK_COUNT];
	char writes_name[32]; /* "writes+fsyncs", "writes" or "fsyncs" */
};

/* The verdict of g[1] against g[0]; free with verdict_free. */
struct verdict *verdict_new(const struct cmp *c, const struct cmp_group *g);
void verdict_free(struct verdict *v);

/* The group whose mean is better on the line (0 or 1), -1 if neither. */
int verdict_faster(const struct verdict_line *l);
/*
 * What the line says: "B faster, significant", "within noise (B's mean
 * better)", "cannot judge: no spread (B's mean better)"...
 */
void verdict_says(char *buf, size_t len, const struct verdict_line *l,
		  const struct cmp_group *g);
/* What a kind's flowops are called in the notes: "reads", ... */
const char *verdict_kind_name(const struct verdict *v, enum cmp_kind k);

/* The verdict of g[1] against g[0] as text, a block after the tables. */
void verdict_print(FILE *out, const struct cmp *c, const struct cmp_group *g);

#endif
