/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Which runs fbrun compare may compare, and its rows: flowops matched by
 * name across the runs (the n-th "x" with the n-th "x", for the odd script
 * whose names repeat).
 */
#ifndef FBRUN_COMPARE_MATCH_H
#define FBRUN_COMPARE_MATCH_H

#include <stdbool.h>

#include "compare/model.h"

/*
 * Refuse runs of different workloads (script digests or sets of flowop
 * names that differ from the first run's) unless common; then fill
 * c->rows with the first run's flowops, in its order, that every run has,
 * and each run's nleft.  0, or -1 after saying why.
 */
int cmp_match(struct cmp *c, bool common);
void cmp_rows_free(struct cmp *c);

#endif
