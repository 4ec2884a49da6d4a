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
	STOP_SIGNAL, /* SIGINT, SIGTERM, SIGHUP, or standard output closed */
};

struct runctl;

/*
 * The signal that asked fbrun to stop (SIGINT, SIGTERM, SIGHUP; SIGPIPE
 * when standard output was found closed), 0 if none.  Set by the handler
 * or runctl_interrupt; the main thread polls it.
 */
extern volatile sig_atomic_t runctl_signalled;

/*
 * SIGINT, SIGTERM and SIGHUP set runctl_signalled; SIGPIPE is ignored, so
 * a write to a closed pipe fails with EPIPE instead of killing fbrun.
 */
void runctl_catch_signals(void);
/* Stop as a signal would (the first one is kept). */
void runctl_interrupt(int sig);
/* "SIGINT", ..., or "a closed standard output" for SIGPIPE. */
const char *runctl_signal_name(int sig);
/*
 * Whether standard output is a pipe or socket nobody reads any more (a
 * poll, no write); if so, runctl_interrupt(SIGPIPE).
 */
bool runctl_check_stdout(void);
/*
 * Run cmd with /bin/sh -c, as system() does, but with the child's
 * signals at their defaults and fbrun's own handlers kept: a signal fbrun
 * gets meanwhile is passed on to the child.  Returns the wait status, or
 * -1 with errno if the shell could not be started.
 */
int runctl_command(const char *cmd);

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
 * Returns the start time (ns).  A signal meanwhile (runctl_signalled)
 * stops the run instead, within 0.1 s: the workers are released to end.
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
