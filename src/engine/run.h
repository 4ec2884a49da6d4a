/*
 * A run: the workers of every thread instance, the filesets they use, the
 * shared state of the synchronising flowops, and the timeline.
 */
#ifndef FBRUN_RUN_H
#define FBRUN_RUN_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/fileset.h"
#include "engine/timeline.h"
#include "engine/worker.h"
#include "lang/ir.h"

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
	uint64_t seed; /* of the threads' random numbers; 0: from the clock */
	struct datapat data; /* written where neither flowop nor fileset says */
	uint64_t interval_ns; /* --interval: 0 if not given */
	bool interval_flowops; /* and a line per flowop after each */
	bool progress; /* the status line on stderr (a terminal) */
	FILE *lines; /* where interval and psrun lines go */
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
	uint64_t runtime_ns;
	_Atomic uint64_t events_taken; /* eventgen tokens consumed */
	bool need_totals; /* a finish/limit flowop reads the I/O totals */
	bool has_syncs; /* block or semblock flowops: workers get sync points */
	_Atomic unsigned ndone; /* workers that finished (NORSC) */
	_Atomic uint64_t *shared; /* per flowop id: seekrw's tickets taken */
	uint64_t seed;
	struct monitor *monitor; /* made when the clock starts */
	struct rusage_snap {
		uint64_t user_ns, sys_ns;
	} cpu_start, cpu_end;
};

/*
 * Run the workload's threads against the created filesets for the IR run
 * statement's time (or opts->runtime_ns).  Fills run->workers' statistics.
 * Returns 0 if the run ended normally (timeout, quit mode, signal), -1 if
 * a flowop failed (the partial statistics are still there).
 */
int run_workload(struct run *run, const struct ir_stmt *st);
/* Free workers, sync points and the timeline (not the filesets). */
void run_release(struct run *run);

/* Elapsed run time in ns from the start, for the limit flowops. */
uint64_t run_elapsed_ns(const struct run *run);

#endif
