/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The open loop of a run's workers (rate=; doc/running.md, "Open loop"):
 * each worker's arrivals (engine/worker/arrivals.h) made from the rate=
 * of its thread, its process and its flowops, or from fbrun curve's load.
 */
#ifndef FBRUN_RUN_OPEN_H
#define FBRUN_RUN_OPEN_H

#include <stddef.h>
#include <stdint.h>

struct run;
struct worker;

/* Where a worker sits among the copies of its thread and process. */
struct open_place {
	int64_t pinst, npinst; /* its process instance, of */
	int64_t tinst, ntinst; /* its thread's instance, of */
	/* among all the thread instances of its process instance */
	int64_t member, nmembers;
};

/* wk's arrivals from the script's rate=; 0 (nothing can fail yet). */
int run_open_init(struct run *run, struct worker *wk,
		  const struct open_place *pl);
/* Every worker's made: fbrun curve's load in place of the script's rates. */
void run_open_load(struct run *run);
/* The clock started at t0 (the worker's own thread, before its first op). */
void run_open_start(struct worker *wk, uint64_t t0);
/* After the workers were joined: each one's arrivals counted to the end. */
void run_open_close(struct run *run);
void run_open_free(struct worker *wk, size_t nflowops);

#endif
