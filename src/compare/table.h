/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The text output of fbrun compare: what each run is, then the table. */
#ifndef FBRUN_COMPARE_TABLE_H
#define FBRUN_COMPARE_TABLE_H

#include <stdio.h>

#include "compare/model.h"

/* The runs, what differs between them, and the figures with ratios. */
void cmp_table(FILE *out, const struct cmp *c);
/* A line per run: its label, script, file system, machine, start, length. */
void cmp_table_runs(FILE *out, const struct cmp *c);

#endif
