/*
 * The run clock, the start barrier and the stop flag: the one place that
 * decides when measuring starts and ends.  A multi-process run (one fbrun
 * per client machine) replaces runctl_start's local barrier with a global
 * one; nothing else needs to know.
 */
#ifndef FBRUN_RUNCTL_H
#define FBRUN_RUNCTL_H

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
	STOP_SIGNAL, /* SIGINT or SIGTERM */
};

struct runctl;

/* Set by the SIGINT/SIGTERM handler; the main thread polls it. */
extern volatile sig_atomic_t runctl_signalled;

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
 * thread's time slice is over: where it is read matters (runner.c).
 */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct runctl *runctl_new(size_t nworkers);
void runctl_free(struct runctl *r);

/* Worker: report ready, then block until the run starts (or is stopped). */
void runctl_ready_wait(struct runctl *r);
/*
 * Main: wait until every worker is ready, start the clock, release them.
 * Returns the start time (ns).
 */
uint64_t runctl_start(struct runctl *r);

/*
 * The start time.  Workers may read it once runctl_ready_wait returned:
 * it is written before they are released.
 */
uint64_t runctl_start_ns(const struct runctl *r);

/* Ask everyone to stop; the first reason given is kept. */
void runctl_stop(struct runctl *r, enum stop_reason why);
enum stop_reason runctl_reason(const struct runctl *r);

/* The stop flag itself, for the workers' inline check. */
const atomic_bool *runctl_flag(const struct runctl *r);

/* Cheap check for the workers' loop: one relaxed load, no call. */
static inline bool runctl_flag_set(const atomic_bool *flag)
{
	return atomic_load_explicit(flag, memory_order_relaxed);
}

bool runctl_stopping(const struct runctl *r);

/*
 * Sleep until ns from now, or until a stop, whichever comes first.
 * Returns true if it slept the whole time.
 */
bool runctl_sleep(struct runctl *r, uint64_t ns);

#endif
