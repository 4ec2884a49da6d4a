/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A job's ranks (fbrun-mpi): each one's figures and their spread, after
 * the job's own table, as IOR reports its per-rank spread.
 */
#ifndef FBRUN_RANKS_H
#define FBRUN_RANKS_H

#include <stdio.h>

#include "engine/results.h"
#include "util/jsonw.h"

/* The per-rank table and the spread line; nothing for one process. */
void ranks_text(FILE *out, const struct results *r);
/* "mpi": {ranks, hosts, stonewalled_by} and "ranks": [...]. */
void ranks_json(struct json *j, const struct results *r);

#endif
