/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of run.c, shared with run_job.c: a run alone, and a run as
 * one process of a job (engine/peers.h).
 */
#ifndef FBRUN_RUN_INT_H
#define FBRUN_RUN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/run.h"

/* The warm-up is over: the measured interval starts now. */
void run_warm_switch(struct run *run);
/*
 * One sample of --interval, psrun or the status line, at now; last at
 * the run's end.  In a job, collective (run_job_sample).
 */
void run_sample(struct run *run, int64_t psrun, uint64_t now, bool last);

/* The job's barrier: timeline_start's gate, every process's reason. */
enum stop_reason run_job_gate(void *arg, enum stop_reason mine);
/*
 * The job's sample of the interval run->monitor just took: summed on
 * rank 0, which makes it the job's.  True on rank 0.
 */
bool run_job_sample(struct run *run, uint64_t now);
/* The main thread's rounds until the job stops: this process's end. */
uint64_t run_job_supervise(struct run *run, int64_t psrun);

#endif
