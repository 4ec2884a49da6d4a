/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The run clock, the start barrier and the stop flag: the one place that
 * decides when measuring starts and ends.  A multi-process run (one fbrun
 * per client machine) replaces timeline_start's local barrier with a global
 * one; nothing else needs to know.
 */
#ifndef FBRUN_TIMELINE_H
#define FBRUN_TIMELINE_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum stop_reason {
	STOP_NONE,
	STOP_TIMEOUT, /* the run time is over */
	STOP_DONE, /* a quit mode says the work is done */
	STOP_ERROR, /* a flowop failed */
	STOP_SIGNAL, /* SIGINT, SIGTERM, SIGHUP, or standard output closed */
};

struct timeline;

/*
 * The signal that asked fbrun to stop (SIGINT, SIGTERM, SIGHUP; SIGPIPE
 * when standard output was found closed), 0 if none.  Set by the handler
 * or timeline_interrupt; the main thread polls it.
 */
extern volatile sig_atomic_t timeline_signalled;

/*
 * SIGINT, SIGTERM and SIGHUP set timeline_signalled; SIGPIPE is ignored, so
 * a write to a closed pipe fails with EPIPE instead of killing fbrun.
 */
void timeline_catch_signals(void);
/* Stop as a signal would (the first one is kept). */
void timeline_interrupt(int sig);
/* "SIGINT", ..., or "a closed standard output" for SIGPIPE. */
const char *timeline_signal_name(int sig);
/*
 * Whether standard output is a pipe or socket nobody reads any more (a
 * poll, no write); if so, timeline_interrupt(SIGPIPE).
 */
bool timeline_check_stdout(void);
/*
 * Run cmd with /bin/sh -c, as system() does, but with the child's
 * signals at their defaults and fbrun's own handlers kept: a signal fbrun
 * gets meanwhile is passed on to the child.  Returns the wait status, or
 * -1 with errno if the shell could not be started.
 */
int timeline_command(const char *cmd);

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The calling thread's CPU time (user + system) in nanoseconds.  A system
 * call, unlike now_ns, and one at which the scheduler looks whether the
 * thread's time slice is over: where it is read matters (run.c).
 */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct timeline *timeline_new(size_t nworkers);
void timeline_free(struct timeline *r);

/* Worker: report ready, then block until the run starts (or is stopped). */
void timeline_ready_wait(struct timeline *r);
/*
 * Main: wait until every worker is ready, start the clock, release them.
 * Returns the start time (ns).  A signal meanwhile (timeline_signalled)
 * stops the run instead, within 0.1 s: the workers are released to end.
 * gate, if not NULL, is called once every worker is ready (or the run is
 * stopping), with the reason to stop so far: it is where the processes
 * of a job start together, and a reason it returns stops this one.
 */
uint64_t timeline_start(struct timeline *r,
			enum stop_reason (*gate)(void *arg,
						 enum stop_reason mine),
			void *arg);

/*
 * The start time.  Workers may read it once timeline_ready_wait returned:
 * it is written before they are released.
 */
uint64_t timeline_start_ns(const struct timeline *r);

/* Ask everyone to stop; the first reason given is kept. */
void timeline_stop(struct timeline *r, enum stop_reason why);
enum stop_reason timeline_reason(const struct timeline *r);

/* The stop flag itself, for the workers' inline check. */
const atomic_bool *timeline_flag(const struct timeline *r);

/* Cheap check for the workers' loop: one relaxed load, no call. */
static inline bool timeline_flag_set(const atomic_bool *flag)
{
	return atomic_load_explicit(flag, memory_order_relaxed);
}

bool timeline_stopping(const struct timeline *r);

/*
 * Sleep until ns from now, or until a stop, whichever comes first.
 * Returns true if it slept the whole time.
 */
bool timeline_sleep(struct timeline *r, uint64_t ns);

/*
 * Sleep until the CLOCK_MONOTONIC time at (ns), in naps after each of
 * which the stop flag is looked at (a worker's waits: no lock, unlike
 * timeline_sleep).  True at that time, false if the flag was set by then.
 */
bool timeline_sleep_until(const atomic_bool *stop, uint64_t at);

#endif
