/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A run: its worker threads started together, supervised, stopped and
 * joined; the threads themselves are in run_thread.c.
 */
#include "engine/run/run.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/flowops/flowops.h"
#include "engine/run/monitor.h"
#include "engine/run/run_int.h"
#include "engine/run/run_open.h"
#include "engine/io/verify.h"
#include "util/util.h"

/*
 * Main thread: the warm-up, polling for signals as supervise does; at its
 * end the measured interval starts.  False if the run stopped meanwhile.
 */
static bool warm_up(struct run *run)
{
	uint64_t end = run->start_ns + run->opts->warmup_ns;

	for (;;) {
		uint64_t now = now_ns();

		if (timeline_stopping(run->ctl))
			return false;
		if (timeline_signalled || timeline_check_stdout()) {
			timeline_stop(run->ctl, STOP_SIGNAL);
			return false;
		}
		if (now >= end)
			break;
		timeline_sleep(run->ctl, end - now < 100000000u ? end - now :
								  100000000u);
	}
	run_warm_switch(run);
	return true;
}

/* Main thread: wait for the end of the run, polling for signals. */
static void supervise(struct run *run, int64_t psrun)
{
	const struct run_opts *o = run->opts;
	uint64_t deadline = run->start_ns + run->runtime_ns;
	uint64_t every = o->interval_ns ? o->interval_ns :
			 psrun ? (uint64_t)(psrun < 0 ? -psrun : psrun) *
					 1000000000u :
			 o->progress ? 1000000000u : 0;
	uint64_t next = every ? run->start_ns + every : UINT64_MAX;

	while (!timeline_stopping(run->ctl)) {
		uint64_t now = now_ns(), nap = 100000000u;

		if (timeline_signalled || timeline_check_stdout()) {
			timeline_stop(run->ctl, STOP_SIGNAL);
			break;
		}
		if (now >= deadline) {
			timeline_stop(run->ctl, STOP_TIMEOUT);
			break;
		}
		if (now >= next) {
			run_sample(run, psrun, now, false);
			while (next <= now)
				next += every;
		}
		/* wake at the interval's or the run's end, not up to 0.1 s after */
		now = now_ns();
		if (next > now && next - now < nap)
			nap = next - now;
		if (deadline > now && deadline - now < nap)
			nap = deadline - now;
		timeline_sleep(run->ctl, nap);
	}
	if (o->progress)
		monitor_progress_clear(run->monitor, stderr);
}


/* The run's state before its threads: seeds, shared counters, clock. */
static void prepare(struct run *run, const struct ir_stmt *st, size_t n)
{
	const struct workload *w = run->w;

	run->seed = run->opts->seed;
	run->rank_seed = rv_mix64(run->seed) ^
			 (uint64_t)run->opts->peers->rank << 32;
	run->vlog = vfy_log_new();
	run->shared = xcalloc(w->nflowops ? w->nflowops : 1,
			      sizeof(*run->shared));
	run->runtime_ns = run->opts->runtime_ns ?
				  run->opts->runtime_ns :
				  (uint64_t)st->n * 1000000000u;
	for (size_t i = 0; i < w->nflowops; i++) {
		unsigned ff = flowop_flags(w->flowops[i]->type);

		if (ff & FF_SYNC_POINT)
			run->has_syncs = true;
		/* one that names its target reads that flowop's own count */
		if ((ff & FF_TOTALS) && w->flowops[i]->target.index < 0)
			run->need_totals = true;
	}
	run->ctl = timeline_new(n);
	atomic_init(&run->events_taken, 0);
	atomic_init(&run->ndone, 0);
	atomic_init(&run->warm_gen, 0);
	atomic_init(&run->window_ns, 0);
}

/*
 * Start the n workers' threads, stopping at a signal or a failure (said
 * in run->error, as a flowop's is).  Returns how many started.
 */
static size_t start_threads(struct run *run, size_t n)
{
	size_t k;
	int rc;

	for (k = 0; k < n; k++) {
		run->workers[k].stop = timeline_flag(run->ctl);
		run->workers[k].need_totals = run->need_totals;
		run->workers[k].warming = run->opts->warmup_ns > 0;
		atomic_init(&run->workers[k].measuring,
			    run->opts->warmup_ns == 0);
	}
	for (k = 0; k < n; k++) {
		/* thousands of threads take seconds to start: look at signals */
		if (timeline_signalled)
			timeline_stop(run->ctl, STOP_SIGNAL);
		if (timeline_stopping(run->ctl))
			break;
		rc = pthread_create(&run->workers[k].tid, NULL, run_thread_main,
				    &run->workers[k]);
		if (rc != 0) {
			snprintf(run->error, sizeof(run->error),
				 "cannot start thread %zu of %zu: %s", k + 1, n,
				 strerror(rc));
			timeline_stop(run->ctl, STOP_ERROR);
			break;
		}
		run->workers[k].started = true;
	}
	return k;
}

/*
 * A process alone, its threads started: the barrier, the warm-up, then
 * the main thread supervises until the run ends.
 */
static void run_alone(struct run *run, int64_t psrun)
{
	/* the barrier: every worker ready, then the clock starts */
	run->start_ns = timeline_start(run->ctl, run_ready, run);
	run->warm_start_ns = run->start_ns;
	run_rusage_now(&run->cpu_start);
	if (run->opts->warmup_ns && !warm_up(run))
		return;
	run->monitor = monitor_new(run->w, run->workers, run->nworkers,
				   run->start_ns);
	if (run->opts->interval_ns)
		monitor_latency(run->monitor);
	supervise(run, psrun);
}

int run_workload(struct run *run, const struct ir_stmt *st)
{
	size_t n = (size_t)workload_nworkers(run->w), k; /* <= MAX_WORKERS */
	bool alone = run->opts->peers->alone;

	prepare(run, st, n);
	if (run_thread_init(run, n) < 0) {
		timeline_stop(run->ctl, STOP_ERROR);
		if (!alone) /* the others are told not to start */
			timeline_start(run->ctl, run_job_gate, run);
		run->start_ns = run->end_ns = now_ns();
		run_rusage_now(&run->cpu_start);
		run->cpu_end = run->cpu_start;
		return -1;
	}
	k = start_threads(run, n);
	run->end_ns = 0;
	if (!alone) {
		/* the job's barrier, whatever happened here: all start or none */
		run_job_start(run, st->n2);
	} else if (k == n || timeline_reason(run->ctl) == STOP_SIGNAL) {
		run_alone(run, st->n2);
	} else {
		run->start_ns = now_ns();
		run_mark(run, false);
	}
	if (!run->end_ns)
		run->end_ns = now_ns();
	run_mark(run, true);
	for (size_t i = 0; i < n; i++)
		if (run->workers[i].started)
			pthread_join(run->workers[i].tid, NULL);
	run_open_close(run);
	/*
	 * The last interval ends with the run: the series sums to the
	 * totals.  In a job every process has a monitor or none (made in
	 * the same round), so all take this sample together.
	 */
	if (run->monitor)
		run_sample(run, st->n2, run->end_ns, true);
	return timeline_reason(run->ctl) == STOP_ERROR ||
			       (k < n && timeline_reason(run->ctl) != STOP_SIGNAL) ?
		       -1 :
		       0;
}

void run_release(struct run *run)
{
	run_thread_free(run);
	free(run->shared);
	vfy_log_free(run->vlog);
	monitor_free(run->monitor);
	timeline_free(run->ctl);
}
