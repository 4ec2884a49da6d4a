/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * compare --format json and csv: the comparison as data, for scripts and
 * CI, with the figures the text table shows and --fail-if-worse's verdict
 * per flowop (doc/compare.md).
 */
#ifndef FBRUN_COMPARE_EXPORT_H
#define FBRUN_COMPARE_EXPORT_H

#include <stdio.h>

#include "compare/gate.h"
#include "compare/groups.h"
#include "compare/model.h"

/* Runs side by side: ratios to the first run. */
void export_runs_json(FILE *out, const struct cmp *c, const struct cmp_gate *gt);
void export_runs_csv(FILE *out, const struct cmp *c, const struct cmp_gate *gt);
/* Two groups: the second against the first. */
void export_groups_json(FILE *out, const struct cmp *c,
			const struct cmp_group *g, const struct cmp_gate *gt);
void export_groups_csv(FILE *out, const struct cmp *c,
		       const struct cmp_group *g, const struct cmp_gate *gt);

#endif
