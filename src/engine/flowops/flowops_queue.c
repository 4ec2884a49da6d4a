/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A data loader feeding an accelerator: queueput threads fill a bounded
 * queue of items (samples), queuetake takes a batch of them, compute is
 * the accelerator's time on it (doc/language.md, "Accelerators and data
 * loading").  A queue is the queuetake flowop's sync point in the first
 * worker of its thread in each process instance: every emulated
 * accelerator has its own loader.
 */
#include <stdint.h>

#include "engine/flowops/flowops_int.h"
#include "lang/compile.h"
#include "util/util.h"

#define QUEUE_NAP_NS 100000000u /* a waiter looks at the stop flag this often */

/* Wait on q for up to a nap, so the end of the run is seen quickly. */
static void queue_wait(struct sync_point *q)
{
	struct timespec ts;
	uint64_t t = now_ns() + QUEUE_NAP_NS;

	ts.tv_sec = (time_t)(t / NS_PER_SEC);
	ts.tv_nsec = (long)(t % NS_PER_SEC);
	pthread_cond_timedwait(&q->cond, &q->lock, &ts);
}

/*
 * Before the clock: the queue this worker's queuetake or queueput uses,
 * the one of its process instance (compile checked they share a process).
 */
int op_queue_prepare(struct worker *wk, const struct ir_flowop *f)
{
	struct run *run = wk->run;
	int take = f->type == FO_QUEUETAKE ? f->id : (int)f->target.index;
	int thread = run->w->flowops[take]->thread;

	for (size_t i = wk->group; i < run->nworkers; i++)
		if (run->workers[i].thread_index == thread) {
			wk->fostate[f->id] = &run->workers[i].syncs[take];
			return 0;
		}
	return -1; /* not reached: the thread is in this process */
}

static int64_t items(struct worker *wk, const struct ir_flowop *f,
		     int64_t depth)
{
	int64_t n = op_value(wk, &f->value);

	/* a random count past the depth would wait for ever */
	return n < 1 ? 1 : n > depth ? depth : n;
}

enum fo_result fo_queuetake(struct worker *wk, const struct ir_flowop *f)
{
	struct sync_point *q = wk->fostate[f->id];
	int64_t want = items(wk, f, f->depth);
	uint64_t t0 = op_start(wk);
	bool took = false;

	pthread_mutex_lock(&q->lock);
	while (q->sem < want && !timeline_flag_set(wk->stop))
		queue_wait(q);
	if (q->sem >= want) {
		q->sem -= want;
		took = true;
		pthread_cond_broadcast(&q->cond); /* room for the putters */
	}
	pthread_mutex_unlock(&q->lock);
	/* a wait the end of the run cut short took nothing: not an op */
	if (took)
		op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_queueput(struct worker *wk, const struct ir_flowop *f)
{
	struct sync_point *q = wk->fostate[f->id];
	int64_t depth = wk->w->flowops[f->target.index]->depth;
	int64_t add = items(wk, f, depth);
	uint64_t t0 = op_start(wk);
	bool put = false;

	pthread_mutex_lock(&q->lock);
	while (q->sem + add > depth && !timeline_flag_set(wk->stop))
		queue_wait(q);
	if (q->sem + add <= depth) {
		q->sem += add;
		put = true;
		pthread_cond_broadcast(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
	if (put)
		op_done(wk, f, t0, 0);
	return FO_OK;
}

/*
 * The accelerator's host thread waits while it computes; the time is
 * its compute time, the part until the end of the run included.  None
 * starts once the run is stopping: its window would replace the last
 * one's, whose part past the end is taken off after.
 */
enum fo_result fo_compute(struct worker *wk, const struct ir_flowop *f)
{
	int64_t us = op_value(wk, &f->value);
	uint64_t t0, ns;
	bool whole;

	if (timeline_flag_set(wk->stop))
		return FO_OK;
	t0 = op_start(wk);
	if (us > MAX_SECONDS * 1000000)
		us = MAX_SECONDS * 1000000; /* longer than any run */
	whole = timeline_sleep_until(wk->stop,
				     t0 + (uint64_t)(us > 0 ? us : 0) * 1000u);
	wk->compute_t0 = t0;
	wk->compute_t1 = now_ns();
	ns = wk->compute_t1 - t0;
	wk->compute_ns += ns;
	if (whole)
		op_done(wk, f, t0, 0);
	return FO_OK;
}
