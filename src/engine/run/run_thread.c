/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A run's worker threads: their state made and freed, and the loop each
 * one runs (run_int.h); run.c starts, supervises and joins them.
 */
#include "engine/run/run_int.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/io/datagen.h"
#include "engine/run/diskstats.h"
#include "engine/flowops/flowops.h"
#include "engine/run/ivlog.h"
#include "engine/run/monitor.h"
#include "engine/run/run_open.h"
#include "engine/io/verify.h"
#include "util/sanitizer.h"
#include "util/util.h"

/*
 * CPU time is read in the first ops of a flowop, then in ops drawn at
 * random: each op of a flowop with a chance of its mean CPU time over
 * CPU_SAMPLE_NS (at least CPU_SAMPLE_MIN of it), so a thread samples
 * about once per CPU_SAMPLE_NS of the CPU time its ops take, whatever
 * the op rate and however many threads share a CPU.  A thread CPU clock
 * read is a system call: this bounds its cost to a fraction of a percent.
 *
 * The reads are inside the op's timed window (op_start, op_done_sampled),
 * never between ops: reading the clock makes the scheduler check the
 * thread's time slice, so a thread is often preempted right there, and a
 * read outside every window kept that wait for a CPU out of every
 * latency.  A flowop that times nothing (opslimit without eventgen)
 * reads no clock.  Which ops are drawn matters too, as a preemption a
 * read brings on lands in the op that reads: drawn by their share of the
 * CPU time, reads find used-up slices where a timer tick would (not by
 * the clock, which drew the op after the longest one, nor by latency,
 * which holds those waits and would draw their op ever more).
 */
#define CPU_SAMPLE_FIRST 16
#define CPU_SAMPLE_NS 1000000.0
#define CPU_SAMPLE_MIN 1000.0

static inline enum fo_result run_flowop(struct worker *wk,
					const struct ir_flowop *f);

/*
 * A composite flowop: its children in order, timed as one op, without
 * what the CPU clock reads of sampled children cost (op_done_sampled).
 */
static __attribute__((noinline)) enum fo_result
run_composite(struct worker *wk, const struct ir_flowop *f)
{
	enum fo_result r = FO_OK;
	uint64_t t0 = now_ns(), probed = wk->probe_total;

	for (size_t c = 0; c < f->nchildren && r == FO_OK; c++)
		r = run_flowop(wk, f->children[c]);
	if (r == FO_OK) {
		uint64_t lat = now_ns() - t0 - (wk->probe_total - probed);

		fstats_add(&wk->stats[f->id], lat, 0);
		if (wk->rated)
			fstats_resp(&wk->stats[f->id], lat + wk->lag_ns);
	}
	return r;
}

/*
 * One op with its thread CPU time read inside its window (see
 * CPU_SAMPLE_NS); an op that fails or times nothing leaves the flag set.
 */
static __attribute__((noinline)) enum fo_result
exec_sampled(struct worker *wk, const struct ir_flowop *f)
{
	const struct fstats *s = &wk->stats[f->id];
	enum fo_result r;
	double cpu, p;

	wk->sampling = true;
	r = flowop_exec(wk, f);
	wk->sampling = false;
	if (s->cpu_samples) {
		cpu = (double)s->cpu_ns / (double)s->cpu_samples;
		p = (cpu > CPU_SAMPLE_MIN ? cpu : CPU_SAMPLE_MIN) / CPU_SAMPLE_NS;
		wk->cpu_odds[f->id] = p >= 1 ? UINT64_MAX :
					       (uint64_t)(p * 0x1p64);
	}
	return r;
}

/* A uniform 64-bit draw (splitmix64), apart from the workload's numbers. */
static inline uint64_t sample_draw(struct worker *wk)
{
	return rv_mix64(wk->sample_seq += 0x9e3779b97f4a7c15ull);
}

/* An op of a flowop that is not a composite, CPU-sampled or not. */
static inline __attribute__((always_inline)) enum fo_result
exec_op(struct worker *wk, const struct ir_flowop *f)
{
	const struct fstats *s = &wk->stats[f->id];

	if (__builtin_expect(s->count + s->errors >= CPU_SAMPLE_FIRST &&
				     sample_draw(wk) >= wk->cpu_odds[f->id],
			     1))
		return flowop_exec(wk, f);
	return exec_sampled(wk, f);
}

/*
 * One op of a flowop with rate= (an open loop of its own): it waits for
 * its arrival, outside the timed window, and its response time counts
 * from that arrival's intended start.  The stop flag cuts the wait.
 */
static __attribute__((noinline)) enum fo_result
run_arrival(struct worker *wk, const struct ir_flowop *f)
{
	struct arrivals *a = wk->fo_arr[f->id];
	enum fo_result r;

	if (!arrivals_take(a, wk->stop))
		return FO_OK;
	wk->lag_ns = a->lag_ns;
	r = f->type == FO_COMPOSITE ? run_composite(wk, f) : exec_op(wk, f);
	wk->lag_ns = 0;
	if (r == FO_OK && !timeline_flag_set(wk->stop))
		arrivals_done(a);
	return r;
}

/*
 * The per-op path: inlined, and kept small with the composite and
 * CPU-sampled cases out of line, because its cost is in every op's time.
 */
static inline __attribute__((always_inline)) enum fo_result
run_flowop(struct worker *wk, const struct ir_flowop *f)
{
	for (int64_t i = 0; i < f->iters; i++) {
		enum fo_result r;

		if (timeline_flag_set(wk->stop))
			return FO_OK;
		if (__builtin_expect(wk->warming, 0) &&
		    atomic_load_explicit(&wk->run->warm_gen,
					 memory_order_relaxed))
			worker_warm_end(wk);
		if (__builtin_expect(wk->fo_arr && f->rate.per_sec > 0, 0))
			r = run_arrival(wk, f);
		else if (__builtin_expect(f->type == FO_COMPOSITE, 0))
			r = run_composite(wk, f);
		else
			r = exec_op(wk, f);
		/*
		 * --continue-on-error: the failure is counted; go on with the
		 * next op.  Restarting the thread's list instead would re-run
		 * the flowops before it against the fds they still hold open
		 * (openfile: EBUSY at full speed), hiding the real error.
		 */
		if (__builtin_expect(r != FO_OK, 0) &&
		    !(r == FO_ERROR && wk->run->opts->continue_on_error))
			return r;
	}
	return FO_OK;
}

/* Process niceness and I/O priority apply per thread on Linux. */
static void set_priorities(struct worker *wk)
{
	const struct ir_process *p = &wk->w->processes[wk->thread->process];
	pid_t tid = (pid_t)syscall(SYS_gettid);

	if (p->nice != 0)
		setpriority(PRIO_PROCESS, (id_t)tid, (int)p->nice);
	if (wk->thread->ioprio < 8) /* best-effort class (2) at that level */
		syscall(SYS_ioprio_set, 1, tid,
			(2 << 13) | (int)wk->thread->ioprio);
}

static void finish(struct worker *wk, enum fo_result r)
{
	struct run *run = wk->run;

	if (r == FO_ERROR) {
		timeline_stop(run->ctl, STOP_ERROR);
		return;
	}
	wk->done = true;
	if (run->w->quit == QUIT_ALLDONE) {
		if (atomic_fetch_add(&run->ndone, 1) + 1 == run->nworkers)
			timeline_stop(run->ctl, STOP_DONE);
	} else {
		timeline_stop(run->ctl, STOP_DONE);
	}
}

/*
 * A pass of the thread's flowops; with rate= on the thread or its
 * process, as an arrival (run_arrival says how).  False: the thread stops.
 */
static bool run_pass(struct worker *wk)
{
	const struct ir_thread *t = wk->thread;
	enum fo_result r = FO_OK;

	if (wk->pass) {
		if (!arrivals_take(wk->pass, wk->stop))
			return false;
		wk->lag_ns = wk->pass->lag_ns;
	}
	/* with --continue-on-error, run_flowop never returns FO_ERROR */
	for (size_t i = 0; i < t->nflowops && r == FO_OK; i++)
		r = run_flowop(wk, t->flowops[i]);
	if (r != FO_OK) {
		finish(wk, r);
		return false;
	}
	if (wk->pass && !timeline_flag_set(wk->stop))
		arrivals_done(wk->pass);
	return true;
}

/*
 * How much of the memsize buffer the thread's I/O can use: the largest
 * constant iosize of its read and write flowops, or all of it when one is
 * random or unset (whole-file I/O goes by the file's size).  Only that
 * part is touched before the run: the rest would be resident and never
 * used (webserver's 100 threads of 10 MB: 1 GB, of which 100 MB is read into).
 */
static uint64_t buffer_reach(struct ir_flowop *const *fo, size_t n,
			     uint64_t all);

/* One flowop's reach into the buffer: 0 if it uses none. */
static uint64_t flowop_reach(const struct ir_flowop *f, uint64_t all)
{
	if (f->type == FO_COMPOSITE) /* not in flowop_info */
		return buffer_reach(f->children, f->nchildren, all);
	if (!(flowop_flags(f->type) & FF_MOVES_DATA))
		return 0;
	return f->iosize.kind == IRV_INT && f->iosize.i > 0 ?
		       (uint64_t)f->iosize.i :
		       all;
}

static uint64_t buffer_reach(struct ir_flowop *const *fo, size_t n,
			     uint64_t all)
{
	uint64_t reach = 0;

	for (size_t i = 0; i < n && reach < all; i++) {
		uint64_t r = flowop_reach(fo[i], all);

		if (r > reach)
			reach = r;
	}
	return reach < all ? reach : all;
}

/*
 * A descriptor table of its own, as if the thread were a process: in a
 * shared table the kernel takes a reference on the file for each call
 * and the file position's lock for each read(), write() and lseek(),
 * which a one-thread program (bonnie++, a bare loop) does not.  The
 * copy holds the filesets' roots, open before the threads start.  Only
 * where close_range(2) is there to empty it again (thread_end): a table
 * is let go after pthread_join returns, and a copy of a root still open
 * then would keep its flock from the next run.  Not under
 * ThreadSanitizer, whose model has one table per process: it would take
 * the same number open in two tables for a race.  -1: failed (said).
 */
#if defined(SYS_close_range) && !defined(FBRUN_TSAN)
#define OWN_TABLE 1
#endif
static int own_table(struct worker *wk)
{
#ifdef OWN_TABLE
	if (syscall(SYS_close_range, ~0U, ~0U, 0) < 0)
		return 0; /* no close_range: the table stays shared */
	if (unshare(CLONE_FILES) < 0) {
		wk->err_no = errno;
		wk->err_what = strdup("cannot have a descriptor table of its own");
		return -1;
	}
	wk->own_table = true;
#else
	(void)wk;
#endif
	return 0;
}

/* What the thread opened, closed by itself, and its table emptied. */
static void *thread_end(struct worker *wk)
{
	worker_close_slots(wk);
	flowops_release(wk);
#ifdef OWN_TABLE
	if (wk->own_table)
		syscall(SYS_close_range, 3U, ~0U, 0);
#endif
	return NULL;
}

void *run_thread_main(void *arg)
{
	struct worker *wk = arg;
	struct run *run = wk->run;
	const struct ir_thread *t = wk->thread;

	/* started after a stop (a signal during the start): nothing to do */
	if (timeline_flag_set(wk->stop))
		return NULL;
	if (own_table(wk) < 0) {
		timeline_stop(run->ctl, STOP_ERROR);
		timeline_ready_wait(run->ctl);
		return NULL;
	}
	if (t->memsize > 0) {
		void *p;

		/* allocated now; what the I/O can use touched, so it is resident */
		int rc = (uint64_t)t->memsize > SIZE_MAX ?
				 ENOMEM :
				 posix_memalign(&p, 4096, (size_t)t->memsize);

		if (rc != 0) {
			/* no buffer, no run: say so and stop everyone */
			wk->err_no = rc;
			if (asprintf(&wk->err_what,
				     "thread %s cannot allocate its memsize of "
				     "%" PRId64 " bytes",
				     t->name, t->memsize) < 0)
				wk->err_what = NULL;
			timeline_stop(run->ctl, STOP_ERROR);
			timeline_ready_wait(run->ctl);
			return thread_end(wk);
		}
		memset(p, 0xa5,
		       (size_t)buffer_reach(t->flowops, t->nflowops,
					    (uint64_t)t->memsize));
		wk->buf = p;
		wk->bufsize = (size_t)t->memsize;
		wk->buf_fixed = true;
	}
	flowops_prepare_data(wk);
	set_priorities(wk);
	worker_calibrate(wk);
	if (flowops_prepare(wk) < 0) {
		timeline_stop(run->ctl, STOP_ERROR);
		timeline_ready_wait(run->ctl);
		return thread_end(wk);
	}
	timeline_ready_wait(run->ctl);
	run_open_start(wk, timeline_start_ns(run->ctl));
	while (!timeline_flag_set(wk->stop) && run_pass(wk))
		;
	return thread_end(wk);
}

/* This instance's points for its block and semblock flowops. */
static int init_syncs(struct worker *wk)
{
	const struct workload *w = wk->w;
	pthread_condattr_t ca;

	wk->syncs = calloc(w->nflowops ? w->nflowops : 1, sizeof(*wk->syncs));
	if (!wk->syncs)
		return -1;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* as sync_wait */
	for (size_t i = 0; i < w->nflowops; i++) {
		pthread_mutex_init(&wk->syncs[i].lock, NULL);
		pthread_cond_init(&wk->syncs[i].cond, &ca);
		wk->syncs[i].room = w->flowops[i]->highwater;
	}
	pthread_condattr_destroy(&ca);
	return 0;
}

/*
 * Thousands of threads times thousands of flowops can be more state than
 * the machine has: a failure here is reported, not fatal (-1, wk partly
 * filled; run_release frees it).
 */
static int worker_init(struct run *run, struct worker *wk, int tidx,
		       unsigned instance)
{
	const struct workload *w = run->w;
	const struct ir_thread *t = &w->threads[tidx];
	size_t nfo = w->nflowops ? w->nflowops : 1;
	/* one stream per worker of each rank: the same for the same seed */
	uint64_t seed = rv_mix64(run->rank_seed ^ instance);

	memset(wk, 0, sizeof(*wk));
	wk->run = run;
	wk->w = w;
	wk->thread = t;
	wk->thread_index = tidx;
	wk->instance = instance;
	wk->err_flowop = -1;
	wk->nslots = t->nslots;
	wk->slots = calloc_lines((size_t)t->nslots, sizeof(*wk->slots));
	wk->locals = calloc(w->nfilesets ? w->nfilesets : 1, sizeof(*wk->locals));
	wk->stats = calloc_lines(nfo, sizeof(*wk->stats));
	wk->cpu_odds = calloc_lines(nfo, sizeof(uint64_t));
	if (!wk->slots || !wk->locals || !wk->stats || !wk->cpu_odds ||
	    (run->has_syncs && init_syncs(wk) < 0))
		return -1;
	for (int64_t i = 0; i < t->nslots; i++)
		wk->slots[i] = (struct slot){ .fd = -1, .fileset = -1,
					       .entry = -1 };
	wk->fostate = calloc(nfo, sizeof(void *));
	wk->gens = calloc(nfo, sizeof(*wk->gens));
	if (!wk->fostate || !wk->gens)
		return -1;
	for (size_t i = 0; i < w->nflowops; i++)
		fstats_init(&wk->stats[i]);
	wk->seed = seed;
	rv_rng_seed(&wk->rng, seed);
	wk->sample_seq = rv_mix64(seed ^ 0x5a3b1e9c0d7f2468ull);
	atomic_init(&wk->io_ops, 0);
	atomic_init(&wk->io_bytes, 0);
	atomic_init(&wk->rw_ops, 0);
	return 0;
}

/* Every worker's state, or -1 after saying what could not be had. */
int run_thread_init(struct run *run, size_t n)
{
	const struct workload *w = run->w;
	size_t k = 0;

	run->workers = calloc_lines(n, sizeof(*run->workers));
	if (!run->workers)
		goto fail;
	for (size_t p = 0; p < w->nprocesses; p++) {
		const struct ir_process *pr = &w->processes[p];
		struct open_place pl = { .npinst = pr->instances };

		pl.nmembers = (int64_t)(ir_process_nworkers(w, p) /
					(uint64_t)pr->instances);
		for (pl.pinst = 0; pl.pinst < pr->instances; pl.pinst++) {
			pl.member = 0;
			for (int t = pr->first_thread;
			     t < pr->first_thread + pr->nthreads; t++) {
				pl.ntinst = w->threads[t].instances;
				for (pl.tinst = 0; pl.tinst < pl.ntinst;
				     pl.tinst++, pl.member++, k++) {
					struct worker *wk = &run->workers[k];

					if (worker_init(run, wk, t,
							(unsigned)k) < 0) {
						/* syncs come last: not made */
						free(wk->slots);
						free(wk->locals);
						free(wk->stats);
						free(wk->cpu_odds);
						free(wk->fostate);
						free(wk->gens);
						goto fail;
					}
					wk->group = k - (size_t)pl.member;
					run->nworkers = k + 1;
					run_open_init(run, wk, &pl);
				}
			}
		}
	}
	run_open_load(run);
	return 0;
fail:
	snprintf(run->error, sizeof(run->error),
		 "cannot allocate the state of %zu threads (%zu flowops "
		 "each): %s",
		 n, w->nflowops, strerror(ENOMEM));
	run_thread_free(run); /* what was had, so the report can be made */
	return -1;
}

void run_thread_free(struct run *run)
{
	for (size_t i = 0; i < run->nworkers; i++) {
		struct worker *wk = &run->workers[i];

		for (size_t f = 0; f < run->w->nflowops; f++)
			fstats_release(&wk->stats[f]);
		if (wk->syncs)
			for (size_t f = 0; f < run->w->nflowops; f++) {
				pthread_mutex_destroy(&wk->syncs[f].lock);
				pthread_cond_destroy(&wk->syncs[f].cond);
			}
		for (size_t f = 0; wk->gens && f < run->w->nflowops; f++)
			datagen_free(wk->gens[f]);
		free(wk->gens);
		free(wk->syncs);
		run_open_free(wk, run->w->nflowops);
		flowops_release(wk);
		for (size_t f = 0; wk->warm && f < run->w->nflowops; f++)
			fstats_release(&wk->warm[f]);
		free(wk->warm);
		free(wk->stats);
		free(wk->cpu_odds);
		free(wk->slots);
		worker_free_locals(wk);
		free(wk->buf);
		free(wk->err_what);
	}
	free(run->workers);
	run->workers = NULL;
	run->nworkers = 0;
}
