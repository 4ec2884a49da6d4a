/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Worker threads: start them together, run them, stop them, join them. */
#include "engine/run.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/datagen.h"
#include "engine/diskstats.h"
#include "engine/flowops.h"
#include "engine/ivlog.h"
#include "engine/monitor.h"
#include "engine/run_int.h"
#include "engine/verify.h"
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
	if (r == FO_OK)
		fstats_add(&wk->stats[f->id],
			   now_ns() - t0 - (wk->probe_total - probed), 0);
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

/*
 * The per-op path: inlined, and kept small with the composite and
 * CPU-sampled cases out of line, because its cost is in every op's time.
 */
static inline __attribute__((always_inline)) enum fo_result
run_flowop(struct worker *wk, const struct ir_flowop *f)
{
	const struct fstats *s = &wk->stats[f->id];

	for (int64_t i = 0; i < f->iters; i++) {
		enum fo_result r;

		if (timeline_flag_set(wk->stop))
			return FO_OK;
		if (__builtin_expect(wk->warming, 0) &&
		    atomic_load_explicit(&wk->run->warm_gen,
					 memory_order_relaxed))
			worker_warm_end(wk);
		if (__builtin_expect(f->type == FO_COMPOSITE, 0))
			r = run_composite(wk, f);
		else if (__builtin_expect(s->count + s->errors >= CPU_SAMPLE_FIRST &&
						  sample_draw(wk) >=
							  wk->cpu_odds[f->id],
					  1))
			r = flowop_exec(wk, f);
		else
			r = exec_sampled(wk, f);
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

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct run *run = wk->run;
	const struct ir_thread *t = wk->thread;

	/* started after a stop (a signal during the start): nothing to do */
	if (timeline_flag_set(wk->stop))
		return NULL;
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
			return NULL;
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
		worker_close_slots(wk);
		return NULL;
	}
	timeline_ready_wait(run->ctl);
	while (!timeline_flag_set(wk->stop)) {
		enum fo_result r = FO_OK;

		/* with --continue-on-error, run_flowop never returns FO_ERROR */
		for (size_t i = 0; i < t->nflowops && r == FO_OK; i++)
			r = run_flowop(wk, t->flowops[i]);
		if (r != FO_OK) {
			finish(wk, r);
			break;
		}
	}
	worker_close_slots(wk);
	return NULL;
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
static void free_workers(struct run *run);

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
static int init_workers(struct run *run, size_t n)
{
	const struct workload *w = run->w;
	size_t k = 0;

	run->workers = calloc_lines(n, sizeof(*run->workers));
	if (!run->workers)
		goto fail;
	for (size_t p = 0; p < w->nprocesses; p++) {
		const struct ir_process *pr = &w->processes[p];

		for (int64_t pi = 0; pi < pr->instances; pi++)
			for (int t = pr->first_thread;
			     t < pr->first_thread + pr->nthreads; t++)
				for (int64_t ti = 0; ti < w->threads[t].instances;
				     ti++, k++) {
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
					run->nworkers = k + 1;
				}
	}
	return 0;
fail:
	snprintf(run->error, sizeof(run->error),
		 "cannot allocate the state of %zu threads (%zu flowops "
		 "each): %s",
		 n, w->nflowops, strerror(ENOMEM));
	free_workers(run); /* what was had, so the report can be made */
	return -1;
}

static void rusage_now(struct rusage_snap *s)
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
static void mark(struct run *run, bool end)
{
	rusage_now(end ? &run->cpu_end : &run->cpu_start);
	disks_sample(run->disks, end);
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
	if (o->peers && !run_job_sample(run, now))
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
	mark(run, false);
	atomic_store(&run->window_ns, run->start_ns);
	atomic_store(&run->events_taken, 0);
	run->warm_done = true;
	atomic_store_explicit(&run->warm_gen, 1, memory_order_release);
}

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
		/* wake at the interval's end, not up to 0.1 s after it */
		now = now_ns();
		if (next > now && next - now < nap)
			nap = next - now;
		timeline_sleep(run->ctl, nap);
	}
	if (o->progress)
		monitor_progress_clear(run->monitor, stderr);
}


int run_workload(struct run *run, const struct ir_stmt *st)
{
	const struct workload *w = run->w;
	size_t n = (size_t)workload_nworkers(w), k = 0; /* <= MAX_WORKERS */
	unsigned rank = run->opts->peers ? run->opts->peers->rank : 0;
	int rc;

	run->seed = run->opts->seed;
	run->rank_seed = rv_mix64(run->seed) ^ (uint64_t)rank << 32;
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
		if (ff & FF_TOTALS)
			run->need_totals = true;
	}
	run->ctl = timeline_new(n);
	atomic_init(&run->events_taken, 0);
	atomic_init(&run->ndone, 0);
	atomic_init(&run->warm_gen, 0);
	atomic_init(&run->window_ns, 0);
	if (init_workers(run, n) < 0) {
		timeline_stop(run->ctl, STOP_ERROR);
		if (run->opts->peers) /* the others are told not to start */
			timeline_start(run->ctl, run_job_gate, run);
		run->start_ns = run->end_ns = now_ns();
		rusage_now(&run->cpu_start);
		run->cpu_end = run->cpu_start;
		return -1;
	}
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
		rc = pthread_create(&run->workers[k].tid, NULL, worker_main,
				    &run->workers[k]);
		if (rc != 0) {
			/* said with the results, as a flowop's failure is */
			snprintf(run->error, sizeof(run->error),
				 "cannot start thread %zu of %zu: %s", k + 1, n,
				 strerror(rc));
			timeline_stop(run->ctl, STOP_ERROR);
			break;
		}
		run->workers[k].started = true;
	}
	run->end_ns = 0;
	if (run->opts->peers) {
		/* the devices first: every I/O of the run comes after */
		disks_sample(run->disks, false);
		/* the job's barrier, whatever happened here: all start or none */
		run->start_ns = timeline_start(run->ctl, run_job_gate, run);
		run->warm_start_ns = run->start_ns;
		rusage_now(&run->cpu_start);
		/* as agreed, not as here: a thread may fail at once */
		if (run->job_start == STOP_NONE)
			run->end_ns = run_job_supervise(run, st->n2);
	} else if (k == n || timeline_reason(run->ctl) == STOP_SIGNAL) {
		disks_sample(run->disks, false);
		/* the barrier: every worker ready, then the clock starts */
		run->start_ns = timeline_start(run->ctl, NULL, NULL);
		run->warm_start_ns = run->start_ns;
		rusage_now(&run->cpu_start);
		if (!run->opts->warmup_ns || warm_up(run)) {
			run->monitor = monitor_new(run->w, run->workers,
						   run->nworkers,
						   run->start_ns);
			if (run->opts->interval_ns)
				monitor_latency(run->monitor);
			supervise(run, st->n2);
		}
	} else {
		run->start_ns = now_ns();
		mark(run, false);
	}
	if (!run->end_ns)
		run->end_ns = now_ns();
	mark(run, true);
	for (size_t i = 0; i < n; i++)
		if (run->workers[i].started)
			pthread_join(run->workers[i].tid, NULL);
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

static void free_workers(struct run *run)
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

void run_release(struct run *run)
{
	free_workers(run);
	free(run->shared);
	vfy_log_free(run->vlog);
	monitor_free(run->monitor);
	timeline_free(run->ctl);
}
