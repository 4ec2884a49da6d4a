/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of run.c, shared with run_thread.c (the worker threads),
 * run_job.c (a run as one process of a job, engine/sys/peers.h) and
 * run_sample.c (the samples and marks both take).
 */
#ifndef FBRUN_RUN_INT_H
#define FBRUN_RUN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/run/run.h"

/*
 * Every worker's state, or -1 after saying what could not be had in
 * run->error (what was had is freed).
 */
int run_thread_init(struct run *run, size_t n);
/* One worker thread (pthread_create's start routine; arg: its worker). */
void *run_thread_main(void *arg);
/* The workers' state, freed. */
void run_thread_free(struct run *run);

/*
 * Where the measured interval starts (end false) or ends: the CPU time
 * and the devices' counters (run_sample.c).
 */
void run_mark(struct run *run, bool end);
/* The warm-up is over: the measured interval starts now. */
void run_warm_switch(struct run *run);
/*
 * One sample of --interval, psrun or the status line, at now; last at
 * the run's end.  In a job, collective (run_job_sample).
 */
void run_sample(struct run *run, int64_t psrun, uint64_t now, bool last);

/*
 * Every worker ready (timeline_start's gate, arg the run): the run's
 * at_ready unless it is already stopping, then the devices' first
 * sample.  Returns the reason not to start, mine or at_ready's error.
 */
enum stop_reason run_ready(void *arg, enum stop_reason mine);
/* The job's barrier: timeline_start's gate, every process's reason. */
enum stop_reason run_job_gate(void *arg, enum stop_reason mine);
/*
 * A process of a job, its threads started (or not): the job's barrier,
 * then the main thread's rounds until the job stops; run->end_ns is this
 * process's end (0 if the job did not start).
 */
void run_job_start(struct run *run, int64_t psrun);
/* The process's CPU time now (getrusage). */
void run_rusage_now(struct rusage_snap *s);

#endif
