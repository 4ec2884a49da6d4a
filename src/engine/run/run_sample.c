/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What a run measures of itself while it goes on, for run.c and run_job.c
 * above: the CPU time, the marks where the measured interval starts and
 * ends, the warm-up's switch, and the samples of --interval, psrun and
 * the status line (in a job, summed on rank 0).
 */
#include "engine/run/run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "engine/run/diskstats.h"
#include "engine/run/ivlog.h"
#include "engine/run/monitor.h"
#include "util/util.h"

void run_rusage_now(struct rusage_snap *s)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	s->user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
		     (uint64_t)ru.ru_utime.tv_usec * 1000u;
	s->sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
		    (uint64_t)ru.ru_stime.tv_usec * 1000u;
}

/*
 * Where the measured interval starts (again after a warm-up) and ends:
 * the CPU time and the devices' counters, read by the main thread.  At
 * the start of a run the devices are read before the gate opens (a
 * worker's first read must not come before it), the CPU time after.
 */
void run_mark(struct run *run, bool end)
{
	run_rusage_now(end ? &run->cpu_end : &run->cpu_start);
	diskstats_sample(run->disks, end);
}

/*
 * A sample in a job (collective: every process takes it in the same
 * round): the interval each process just took, summed on rank 0, which
 * makes it the job's, ending at the longest of the processes' times since
 * their start.  True on rank 0, which keeps and prints it.
 */
static bool job_sample(struct run *run, uint64_t now)
{
	const struct engine_peers *p = run->opts->peers;
	size_t n = monitor_job_len(run->monitor);
	uint64_t *mine = xcalloc(n, sizeof(*mine)), *sum = NULL;
	uint64_t t = now > run->start_ns ? now - run->start_ns : 0, t_max = t;

	if (p->rank == 0)
		sum = xcalloc(n, sizeof(*sum));
	monitor_job_counts(run->monitor, mine);
	p->reduce_sum(p->arg, mine, sum, n);
	p->reduce_max(p->arg, &t, &t_max, 1);
	if (sum)
		monitor_set_job(run->monitor, sum, t_max);
	free(mine);
	free(sum);
	return p->rank == 0;
}

/*
 * One sample: --interval and psrun keep it in the series and print their
 * lines (psrun not at the end, as before), else it feeds the status line.
 * In a job, rank 0 keeps and prints the job's (job_sample), the others
 * nothing.
 */
void run_sample(struct run *run, int64_t psrun, uint64_t now, bool last)
{
	const struct run_opts *o = run->opts;

	monitor_take(run->monitor, now);
	if (!o->peers->alone && !job_sample(run, now))
		return;
	if (o->interval_ns || psrun) {
		monitor_keep(run->monitor);
		if (o->interval_ns) {
			monitor_print_line(run->monitor, o->lines,
					   o->interval_flowops);
			ivlog_sample(o->ivlog, run->monitor,
				     o->interval_flowops);
		} else if (!last)
			monitor_print_psrun(run->monitor, o->lines, psrun < 0);
	} else if (o->progress && !last) {
		monitor_progress(run->monitor, stderr,
				 (double)run->runtime_ns / 1e9);
	}
}

/* The warm-up is over: the measured interval starts now. */
void run_warm_switch(struct run *run)
{
	run->start_ns = now_ns();
	run_mark(run, false);
	atomic_store(&run->window_ns, run->start_ns);
	atomic_store(&run->events_taken, 0);
	run->warm_done = true;
	atomic_store_explicit(&run->warm_gen, 1, memory_order_release);
}

enum stop_reason run_ready(void *arg, enum stop_reason mine)
{
	struct run *run = arg;
	const struct run_opts *o = run->opts;

	if (mine == STOP_NONE && o->at_ready &&
	    o->at_ready(o->at_ready_arg, run->error, sizeof(run->error)) != 0)
		mine = STOP_ERROR;
	diskstats_sample(run->disks, false);
	return mine;
}
