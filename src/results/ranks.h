/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A job's ranks (fbrun-mpi) as the text table shows them: each one's
 * figures and their spread, after the job's own table, as IOR reports
 * its per-rank spread.  Printed by the run's report and by compare's
 * page from the same figures (struct rank_result), so the two agree.
 */
#ifndef FBRUN_RESULTS_RANKS_H
#define FBRUN_RESULTS_RANKS_H

#include <stddef.h>
#include <stdio.h>

#include "results/results.h"

/*
 * From a blank line: the per-rank table, the spread of the ranks' ops/s
 * and, when stonewall_rank >= 0, the line naming the rank whose work
 * ended the run (--stonewall).  Nothing for n == 0.
 */
void results_ranks_text(FILE *out, const struct rank_result *k, size_t n,
			int stonewall_rank);

#endif
