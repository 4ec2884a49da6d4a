/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The flowops that do no file I/O of their own (time and CPU, limits,
 * finish conditions, synchronisation).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/flowops/flowops_int.h"
#include "lang/compile.h"
#include "util/util.h"


/* ------------------------------------------------------------ time, CPU */

enum fo_result fo_delay(struct worker *wk, const struct ir_flowop *f)
{
	int64_t secs = op_value(wk, &f->value);
	uint64_t t0 = op_start(wk);

	if (secs > MAX_SECONDS)
		secs = MAX_SECONDS; /* longer than any run: no ns overflow */

	/* a delay cut short by the end of the run is not a delay */
	if (timeline_sleep(wk->run->ctl,
			 (uint64_t)(secs > 0 ? secs : 0) * NS_PER_SEC))
		op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_hog(struct worker *wk, const struct ir_flowop *f)
{
	int64_t n = op_value(wk, &f->value);
	volatile char *p = (volatile char *)op_buffer(wk, 1);
	uint64_t t0 = op_start(wk);

	for (int64_t i = 0; i < n; i++) {
		p[0] = (char)i;
		/* a long hog must still end with the run */
		if ((i & 0xfffff) == 0xfffff && timeline_flag_set(wk->stop))
			return FO_OK;
	}
	op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_print(struct worker *wk, const struct ir_flowop *f)
{
	uint64_t t0 = op_start(wk);

	if (f->value.kind == IRV_STR)
		printf("%s\n", f->value.s);
	else
		printf("%" PRId64 "\n", op_value(wk, &f->value));
	op_done(wk, f, t0, 0);
	return FO_OK;
}

/* Samples value; the report shows the mean through the byte counter. */
enum fo_result fo_testrandvar(struct worker *wk,
				     const struct ir_flowop *f)
{
	uint64_t t0 = op_start(wk);
	int64_t v = op_value(wk, &f->value);

	op_done(wk, f, t0, v > 0 ? (uint64_t)v : 0);
	return FO_OK;
}

/* ------------------------------------------------------------ limits */

enum total_kind { T_OPS, T_BYTES, T_RW };

/* Process-wide total of I/O (or of the target flowop) so far. */
static uint64_t total_of(struct worker *wk, const struct ir_flowop *f,
			 enum total_kind kind)
{
	struct run *run = wk->run;
	uint64_t sum = 0;

	for (size_t i = 0; i < run->nworkers; i++) {
		struct worker *o = &run->workers[i];

		if (f->target.index >= 0) {
			struct fstats *s = &o->stats[f->target.index];

			sum += kind == T_BYTES ?
				       __atomic_load_n(&s->bytes, __ATOMIC_RELAXED) :
				       __atomic_load_n(&s->count, __ATOMIC_RELAXED);
		} else {
			sum += atomic_load_explicit(kind == T_OPS ? &o->io_ops :
						    kind == T_RW ? &o->rw_ops :
								   &o->io_bytes,
						    memory_order_relaxed);
		}
	}
	return sum;
}

/*
 * Wait until rate * elapsed covers `need` units (scaled by unit).
 * Returns false if the end of the run cut the wait short.
 */
static bool wait_tokens(struct worker *wk, uint64_t need, double unit)
{
	struct run *run = wk->run;
	double rate = (double)wk->w->eventgen_rate * unit;

	while (!timeline_stopping(run->ctl)) {
		double have = rate * (double)run_elapsed_ns(run) / 1e9;
		double wait;

		if (have >= (double)need)
			return true;
		wait = ((double)need - have) / rate;
		timeline_sleep(run->ctl, wait > 0.1 ? 100000000u :
						    (uint64_t)(wait * 1e9) + 1);
	}
	return false;
}

static enum fo_result limit(struct worker *wk, const struct ir_flowop *f,
			    enum total_kind kind, double unit)
{
	uint64_t t0;

	if (wk->w->eventgen_rate == 0)
		return FO_OK; /* no eventgen: nothing to hold to (warned) */
	t0 = op_start(wk);
	/* as a delay: a wait cut short by the end of the run is not one */
	if (wait_tokens(wk, total_of(wk, f, kind), unit))
		op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_eventlimit(struct worker *wk,
				    const struct ir_flowop *f)
{
	uint64_t t0, n;

	if (wk->w->eventgen_rate == 0)
		return FO_OK;
	t0 = op_start(wk);
	n = atomic_fetch_add(&wk->run->events_taken, 1) + 1;
	/* not recorded if the run ended first: no event was passed */
	if (wait_tokens(wk, n, 1.0))
		op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_opslimit(struct worker *wk, const struct ir_flowop *f)
{
	return limit(wk, f, T_OPS, 1.0);
}

enum fo_result fo_iopslimit(struct worker *wk,
				   const struct ir_flowop *f)
{
	return limit(wk, f, T_RW, 1.0);
}

/* One event allows one MiB. */
enum fo_result fo_bwlimit(struct worker *wk, const struct ir_flowop *f)
{
	return limit(wk, f, T_BYTES, 1048576.0);
}

enum fo_result fo_finishoncount(struct worker *wk,
				       const struct ir_flowop *f)
{
	uint64_t t0 = op_start(wk);
	uint64_t n = total_of(wk, f, T_OPS);

	op_done(wk, f, t0, 0);
	if (n >= (uint64_t)op_value(wk, &f->value))
		return op_finished(wk, "flowop %s: %" PRIu64 " operations done",
			     f->name, n);
	return FO_OK;
}

enum fo_result fo_finishonbytes(struct worker *wk,
				       const struct ir_flowop *f)
{
	uint64_t t0 = op_start(wk);
	uint64_t n = total_of(wk, f, T_BYTES);

	op_done(wk, f, t0, 0);
	/*
	 * >=, as finishoncount: "finish once value bytes are moved" (filebench
	 * tests >, so it moved one more I/O than asked for)
	 */
	if (n >= (uint64_t)op_value(wk, &f->value))
		return op_finished(wk, "flowop %s: %" PRIu64 " bytes moved", f->name,
			     n);
	return FO_OK;
}

/* ------------------------------------------------------------ sync */

/* Wait on a sync point for up to 100 ms, so stops are seen quickly. */
static void sync_wait(struct sync_point *sp)
{
	struct timespec ts;
	uint64_t t = now_ns() + 100000000u;

	ts.tv_sec = (time_t)(t / NS_PER_SEC);
	ts.tv_nsec = (long)(t % NS_PER_SEC);
	pthread_cond_timedwait(&sp->cond, &sp->lock, &ts);
}

/*
 * Each instance of a block or semblock flowop (one per thread instance)
 * has its own point, in its worker; a wakeup or sempost reaches every
 * instance of its target, as in filebench.
 */
static struct sync_point *point(struct worker *wk, int flowop)
{
	return &wk->syncs[flowop];
}

/* Calls fn on the point of every instance of flowop `target`. */
static void each_instance(struct worker *wk, int target,
			  void (*fn)(struct worker *, struct sync_point *,
				     const struct ir_flowop *),
			  const struct ir_flowop *f)
{
	struct run *run = wk->run;
	int thread = wk->w->flowops[target]->thread;

	for (size_t i = 0; i < run->nworkers; i++)
		if (run->workers[i].thread_index == thread)
			fn(wk, point(&run->workers[i], target), f);
}

/*
 * block waits for a wakeup it has not seen yet: one sent while the thread
 * was busy elsewhere is not lost (filebench loses it, and both sides of a
 * block/wakeup pair can then wait until the run ends).
 */
enum fo_result fo_block(struct worker *wk, const struct ir_flowop *f)
{
	struct sync_point *sp = point(wk, f->id);
	uint64_t t0 = op_start(wk);
	bool woken;

	pthread_mutex_lock(&sp->lock);
	while (sp->generation == sp->seen && !timeline_flag_set(wk->stop))
		sync_wait(sp);
	woken = sp->generation != sp->seen;
	sp->seen = sp->generation;
	pthread_mutex_unlock(&sp->lock);
	/* ended by the end of the run, not a wakeup: not a block (as delay) */
	if (woken)
		op_done(wk, f, t0, 0);
	return FO_OK;
}

static void wake_one(struct worker *wk, struct sync_point *sp,
		     const struct ir_flowop *f)
{
	(void)wk;
	(void)f;
	pthread_mutex_lock(&sp->lock);
	sp->generation++;
	pthread_cond_broadcast(&sp->cond);
	pthread_mutex_unlock(&sp->lock);
}

enum fo_result fo_wakeup(struct worker *wk, const struct ir_flowop *f)
{
	uint64_t t0 = op_start(wk);

	each_instance(wk, (int)f->target.index, wake_one, f);
	op_done(wk, f, t0, 0);
	return FO_OK;
}

/*
 * semblock takes `value` units, first widening the room blocking posters
 * have by the same amount: posters may run up to highwater + value ahead
 * of the consumer, so a value larger than highwater does not deadlock.
 */
enum fo_result fo_semblock(struct worker *wk, const struct ir_flowop *f)
{
	struct sync_point *sp = point(wk, f->id);
	int64_t want = op_value(wk, &f->value);
	uint64_t t0 = op_start(wk);
	bool took = false;

	if (want < 1)
		want = 1;
	pthread_mutex_lock(&sp->lock);
	sp->room += want;
	pthread_cond_broadcast(&sp->cond); /* blocking posters may go on */
	while (sp->sem < want && !timeline_flag_set(wk->stop))
		sync_wait(sp);
	if (sp->sem >= want) {
		sp->sem -= want;
		took = true;
	}
	pthread_mutex_unlock(&sp->lock);
	/* only units taken count: ops x value = units taken, always */
	if (took)
		op_done(wk, f, t0, 0);
	return FO_OK;
}

static void post_one(struct worker *wk, struct sync_point *sp,
		     const struct ir_flowop *f)
{
	int64_t add = op_value(wk, &f->value);

	if (add < 1)
		add = 1;
	pthread_mutex_lock(&sp->lock);
	/* a blocking poster first waits for room in the consumer's allowance */
	while (f->blocking && sp->room < add && !timeline_flag_set(wk->stop))
		sync_wait(sp);
	if (f->blocking)
		sp->room -= add;
	sp->sem += add;
	pthread_cond_broadcast(&sp->cond);
	pthread_mutex_unlock(&sp->lock);
}

enum fo_result fo_sempost(struct worker *wk, const struct ir_flowop *f)
{
	uint64_t t0 = op_start(wk);

	each_instance(wk, (int)f->target.index, post_one, f);
	if (!timeline_flag_set(wk->stop))
		op_done(wk, f, t0, 0);
	return FO_OK;
}
