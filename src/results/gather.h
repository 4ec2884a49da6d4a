/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A job's results (fbrun-mpi): each process's own sent to rank 0 as a
 * results file's text (results/write.h, with every digit), read back
 * there (results/read.h) and merged (results_merge), exactly: one
 * serialisation for -o, fbrun report, fbrun compare and the gather.
 */
#ifndef FBRUN_RESULTS_GATHER_H
#define FBRUN_RESULTS_GATHER_H

#include <stddef.h>

#include "results/results.h"

/*
 * One process's results as text for rank 0, its host its one rank's;
 * malloc'd, its length in *len; NULL if no memory was left.
 */
char *results_serialise(const struct results *r, const char *host,
			size_t *len);
/*
 * A job's results from its n processes' texts, in rank order (mine is
 * the calling process's own: what describes the script, the series, the
 * devices).  NULL with the reason in err if a text is missing, cannot be
 * read or is not of the same workload (its counters do not add up).
 */
struct results *results_merge_texts(const struct results *mine,
				    char *const *texts, size_t n, char *err,
				    size_t errlen);

#endif
