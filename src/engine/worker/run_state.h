/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What a run's workers share: the options, the filesets, the timeline,
 * the sync points and counters of the synchronising and limit flowops,
 * and what the run measured.  The flowops read it while the run goes on
 * (they run below run.c, so this is apart from run.h).
 */
#ifndef FBRUN_RUN_STATE_H
#define FBRUN_RUN_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/sys/peers.h"
#include "engine/sys/timeline.h"
#include "engine/worker/arrivals.h"
#include "lang/datapat.h"
#include "lang/ir.h"

struct disks;
struct fileset;
struct vfy_log;
struct worker;
/* block/wakeup and semblock/sempost meet at the target flowop's point. */
struct sync_point {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t generation; /* block: bumped by each wakeup */
	uint64_t seen; /* block: the last generation it returned for */
	int64_t sem; /* semblock: available units */
	int64_t room; /* semblock: units blocking posters may still add */
};

struct run_opts {
	uint64_t runtime_ns; /* 0: the script's */
	bool continue_on_error;
	bool quiet;
	uint64_t seed; /* --seed: every random number of the run (0 default) */
	struct datapat data; /* written where neither flowop nor fileset says */
	uint64_t interval_ns; /* --interval: 0 if not given */
	uint64_t warmup_ns; /* --warmup: run this long before measuring */
	double steady_tol; /* --steady: a fraction (0.10), 0 if not asked */
	bool interval_flowops; /* and a line per flowop after each */
	bool progress; /* the status line on stderr (a terminal) */
	FILE *lines; /* where interval and psrun lines go */
	struct ivlog *ivlog; /* --interval-log, or NULL */
	const struct engine_peers *peers; /* the job; peers_solo alone */
	struct open_load_opts load; /* fbrun curve's load, or the script's */
	/*
	 * Called by the main thread once every worker is ready, its memsize
	 * buffer made and touched, before the devices' first sample and the
	 * clock: memory is charged to the cgroup that touches it first, so
	 * what the threads hold stays out of one entered here
	 * (--cache-limit's).  Nonzero: the run stops, err says why.
	 */
	int (*at_ready)(void *arg, char *err, size_t errlen);
	void *at_ready_arg;
};

struct monitor;
struct run {
	const struct workload *w;
	const struct run_opts *opts;
	struct timeline *ctl;
	struct fileset **filesets; /* per IR fileset, created */
	struct worker *workers;
	size_t nworkers;
	uint64_t start_ns, end_ns; /* the measured interval */
	/*
	 * --warmup: the clock started warmup_ns before start_ns.  At the
	 * warm-up's end the main thread bumps warm_gen; each worker sees it at
	 * its next op and moves its counters aside (worker_warm_end), so the
	 * workers' hot path stays without locks.
	 */
	uint64_t warm_start_ns;
	bool warm_done; /* the warm-up ended before the run did */
	_Atomic unsigned warm_gen;
	/* the warm-up's end, where the limit flowops count time from; 0 before */
	_Atomic uint64_t window_ns;
	uint64_t runtime_ns;
	_Atomic uint64_t events_taken; /* eventgen tokens consumed */
	bool need_totals; /* a finish/limit flowop reads the I/O totals */
	bool has_syncs; /* block or semblock flowops: workers get sync points */
	_Atomic unsigned ndone; /* workers that finished (NORSC) */
	_Atomic uint64_t *shared; /* per flowop id: seekrw's tickets taken */
	/*
	 * The run's seed (opts->seed), and this process's part of it: mixed
	 * with its rank, so a job's ranks draw apart (seekrw's tickets, each
	 * worker's stream).
	 */
	uint64_t seed, rank_seed;
	struct monitor *monitor; /* made when the clock starts */
	unsigned stopped_by; /* with peers: 1 + the rank that ended the run */
	enum stop_reason job_start; /* with peers: STOP_NONE if all started */
	struct vfy_log *vlog; /* the files verify found wrong, reported once */
	/* the filesets' block devices, read where cpu_start and cpu_end are */
	struct disks *disks;
	/* the main thread's failure (a thread not started), for the results */
	char error[256];
	struct rusage_snap {
		uint64_t user_ns, sys_ns;
	} cpu_start, cpu_end;
};

/*
 * Elapsed run time in ns from the start (after a warm-up, from its end),
 * for the limit flowops.
 */
static inline uint64_t run_elapsed_ns(const struct run *run)
{
	uint64_t t = atomic_load_explicit(&run->window_ns,
					  memory_order_relaxed);

	return now_ns() - (t ? t : timeline_start_ns(run->ctl));
}

#endif
