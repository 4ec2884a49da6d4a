/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A run as one process of a job (fbrun-mpi's ranks): the common start,
 * the rounds where the ranks agree to stop, and the job's --interval
 * and psrun series, summed on rank 0 in those rounds.
 */
#include "engine/run/run_int.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "engine/run/monitor.h"
#include "util/util.h"

/*
 * Start with the job's other processes: every one's threads ready, or
 * the job's reason not to start.
 */
enum stop_reason run_job_gate(void *arg, enum stop_reason mine)
{
	struct run *run = arg;
	const struct engine_peers *p = run->opts->peers;

	if (mine == STOP_NONE && timeline_signalled)
		mine = STOP_SIGNAL;
	mine = run_ready(run, mine);
	run->job_start = (enum stop_reason)p->agree(p->arg, (int)mine);
	return run->job_start;
}

/* The length of a round of a job's stop: its ranks agree every 0.1 s. */
#define ROUND_NS 100000000u

/*
 * Sleep until round r's time, r rounds after start: rounds on a schedule,
 * so the series' intervals are as long as asked, not a little longer
 * each round.  A signal that fbrun stops on ends the nap at once.
 */
static void round_wait(uint64_t start, uint64_t r)
{
	uint64_t at = start + r * ROUND_NS;
	struct timespec ts = { (time_t)(at / 1000000000u),
			       (long)(at % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
		       EINTR &&
	       !timeline_signalled)
		;
}

/*
 * Main thread of one process of a job: the run ends for all at once, in
 * a round every 0.1 s where each says whether it has a reason to stop
 * (agree_stop decides).  A process whose threads are done waits for the
 * others (or, with --stonewall, ends the run for all); its measured time
 * ends when its own threads did.  Returns that end.
 *
 * The rounds are the job's common clock: --interval's (and psrun's)
 * samples are taken in every k-th round after the warm-up's (k rounds
 * make the interval), by every process at once, and summed on rank 0.
 */
static uint64_t job_supervise(struct run *run, int64_t psrun)
{
	const struct engine_peers *p = run->opts->peers;
	const struct run_opts *o = run->opts;
	uint64_t warm = o->warmup_ns, local_end = 0;
	uint64_t start = run->start_ns;
	uint64_t deadline = start + warm + run->runtime_ns;
	/* the whole seconds of --interval or psrun, in rounds; 0: none */
	uint64_t secs = o->interval_ns ? o->interval_ns / 1000000000u :
			psrun < 0 ? (uint64_t)-(psrun + 1) + 1 :
				    (uint64_t)psrun;
	uint64_t every = secs > UINT64_MAX / 10 ? UINT64_MAX : secs * 10;
	uint64_t measured = warm / ROUND_NS; /* the round the series starts */

	for (uint64_t round = 0;; round++) {
		uint64_t now = now_ns();

		/* each rank's own warm-up end, a round's time apart at most */
		if (warm && !run->warm_done && now >= run->start_ns + warm &&
		    !timeline_stopping(run->ctl))
			run_warm_switch(run);
		enum stop_reason mine = STOP_NONE, job;
		bool done = false;
		int by = -1;

		if (timeline_stopping(run->ctl)) {
			mine = timeline_reason(run->ctl);
			done = mine == STOP_DONE;
			if (!local_end)
				local_end = now;
		} else if (timeline_signalled || timeline_check_stdout()) {
			mine = STOP_SIGNAL;
		} else if (now >= deadline) {
			mine = STOP_TIMEOUT;
		}
		/* every process's monitor from the same round on */
		if (every && round == measured) {
			run->monitor = monitor_new(run->w, run->workers,
						   run->nworkers,
						   run->start_ns);
			if (o->interval_ns)
				monitor_latency(run->monitor);
		}
		job = p->agree_stop(p->arg, mine, done, &by);
		if (job != STOP_NONE) {
			timeline_stop(run->ctl, job);
			run->stopped_by = (unsigned)(by + 1);
			break;
		}
		if (run->monitor && round > measured &&
		    (round - measured) % every == 0)
			run_sample(run, psrun, now_ns(), false);
		round_wait(start, round + 1);
	}
	return local_end ? local_end : now_ns();
}

void run_job_start(struct run *run, int64_t psrun)
{
	run->start_ns = timeline_start(run->ctl, run_job_gate, run);
	run->warm_start_ns = run->start_ns;
	run_rusage_now(&run->cpu_start);
	/* as agreed, not as here: a thread may fail at once */
	if (run->job_start == STOP_NONE)
		run->end_ns = job_supervise(run, psrun);
}
