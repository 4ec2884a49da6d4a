/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * One worker thread's state, and its upkeep outside the flowops
 * (worker.c): the CPU clock probes, its files closed at the end.  The
 * state is written only by its own thread during the run; the run reads
 * it after joining (the counters the limit flowops share are the
 * exception, and are atomics).
 */
#ifndef FBRUN_WORKER_H
#define FBRUN_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/io/aioq.h"
#include "engine/io/datagen.h"
#include "engine/fileset/fileset.h"
#include "results/stats.h"
#include "engine/sys/timeline.h"
#include "lang/ir.h"
#include "lang/rand.h"

struct arrivals;
struct run;
struct sync_point;

/* An fd slot: what the thread holds open there. */
struct slot {
	/* first: what every op reads (pos and its flags: below) */
	int fd; /* -1 when closed */
	int fileset;
	bool verify; /* its fileset has verify (set with fileset) */
	bool pos_held;
	bool pos_moved;
	int64_t pos;
	int64_t entry;
	uint64_t size; /* the entry's size when opened: the working set */
	/*
	 * mmapread/mmapwrite's mapping of the open file, made by the first of
	 * them outside its timed window, undone when the slot is closed
	 * (worker_slot_unmap).  maplen is the file's size then: 0 for an empty file.
	 */
	char *map;
	uint64_t maplen;
	uint64_t mappos; /* where the next sequential op starts */
	bool mapped; /* map and maplen are set */
	bool map_shared_rw; /* mapped writable: fsync msyncs it first */
	/* stride=, startrecord=: the next op's record; rec_set once placed */
	uint64_t rec;
	bool rec_set;
	/*
	 * verify: a length the open file has at least (this fd's writes,
	 * and its preallocated size when vshared: the entry's file made
	 * before the run, whose length the threads share), set at open.
	 */
	uint64_t vlen;
	bool vshared;
	/*
	 * The descriptor's position, kept here from the open (0) while only
	 * the flowops that go on from it use the descriptor: sequential read,
	 * write and rewrite, by pread and pwrite at it, and the aio flowops,
	 * as fio keeps its offsets.  That saves an lseek per aio request, and
	 * the position lock the kernel takes around read() and write() where
	 * threads share a descriptor table.  pos_moved: the kernel's position
	 * is stale; slot_of hands it back before any other flowop uses the
	 * descriptor, and from then on read() and write() move the kernel's.
	 * (pos, pos_held and pos_moved are at the top.)
	 */
};

enum fo_result {
	FO_OK,
	FO_ERROR, /* a syscall failed: recorded, the run stops */
	FO_NORSC, /* nothing to pick, or a finish condition: the thread is done */
};

struct worker {
	/* first, in two cache lines: what the run reads at every op */
	const atomic_bool *stop; /* the run's stop flag */
	const struct workload *w;
	struct slot *slots;
	char *buf; /* memsize buffer, or grown on demand */
	size_t bufsize;
	struct fstats *stats; /* per flowop id */
	/* per flowop id: the chance, in 2^-64ths, that an op is CPU-sampled */
	uint64_t *cpu_odds;
	uint64_t sample_seq; /* splitmix64 state of the draws against them */
	struct rv_rng rng;
	struct run *run;
	bool sampling; /* this op reads the CPU clock inside its window */
	bool need_totals; /* the run's: kept here, next to the per-op fields */
	bool warming; /* --warmup and this worker has not ended it yet */
	bool rated; /* an open loop: below */
	/*
	 * An open loop (rate=, engine/worker/arrivals.h): the arrivals of the
	 * thread's passes (its rate= or its process's), and per flowop id a
	 * flowop's own, NULL where none; rated when there is either, and the
	 * ops then record their response times, lag_ns (the arrival in
	 * hand's delay) added to their own.
	 */
	struct arrivals *pass;
	struct arrivals **fo_arr;
	uint64_t lag_ns;
	/* the rest */
	const struct ir_thread *thread;
	int thread_index;
	unsigned instance; /* 0-based among all copies of the thread */
	size_t group; /* the first worker of its process instance */
	pthread_t tid;
	bool started;
	int64_t nslots;
	bool buf_fixed; /* memsize given: never grown */
	bool own_table; /* its descriptor table is its own (run_thread.c) */
	struct datagen **gens; /* per flowop id: its data pattern, on first use */
	uint64_t seed; /* of rng and of its data patterns: the run's, mixed */
	struct fs_local **locals; /* per fileset: its picks and paths, on first use */
	uint64_t cpu0; /* the CPU clock at the start of a sampled op's window */
	/* what the CPU clock reads add to a window, unpreempted */
	uint64_t probe_wall, probe_cpu;
	uint64_t probe_total; /* probe_wall taken off the ops so far */
	/* set once its counters are the measured ones (read by the monitor) */
	_Atomic bool measuring;
	struct fstats *warm; /* per flowop id: its counts in the warm-up */
	/* totals the finish/limit flowops of other threads read */
	_Atomic uint64_t io_ops, io_bytes, rw_ops;
	/* the first failure, for the report */
	int err_flowop;
	int err_no;
	char *err_what; /* its message, malloc'd: paths run to PATH_MAX */
	struct aioq *aioq; /* aioread/aiowrite's queue, made before the run */
	bool aio_failed; /* a request reaped by another op failed (counted) */
	uint64_t vfy_writes; /* writes to verified files: their generations */
	/*
	 * The time its compute flowops ran, cut short by the end or not, and
	 * the last one's window: the part of it past the end of the run is
	 * taken off after (the flag is seen only at the end of a nap).
	 */
	uint64_t compute_ns, compute_t0, compute_t1;
	struct sync_point *syncs; /* per flowop id, if the run has any */
	void **fostate; /* per flowop id: state of flowops that keep some */
	bool done; /* returned NORSC */
	bool finished; /* ... because a finish condition was met (op_finished) */
	char norsc_why[160];
} __attribute__((aligned(64))); /* a worker's lines are its own */

/*
 * Read the thread CPU clock at the start of a sampled op's window: twice,
 * out of line (op_start, flowops_int.h).
 */
void worker_cpu_start(struct worker *wk);

/*
 * Measure what the CPU clock reads of a sampled op cost when nothing
 * preempts them (before the clock starts; op_done_sampled takes it off).
 */
void worker_calibrate(struct worker *wk);

/* Undo slot s's mapping, if it has one (before its fd is closed). */
void worker_slot_unmap(struct slot *s);

/*
 * The warm-up is over (run->warm_gen moved): this worker's counters so far
 * go to wk->warm and start again from zero.  Called by the worker itself,
 * between two ops.
 */
void worker_warm_end(struct worker *wk);

/* Close every slot still open, and its fileset directories (end of the thread). */
void worker_close_slots(struct worker *wk);
/* Free the thread's fileset state and its array (after the run). */
void worker_free_locals(struct worker *wk);

#endif
