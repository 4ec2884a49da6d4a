/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * replay with streams=parallel: one pass with each recorded stream
 * (process or thread) in a thread of its own, all at once.  A stream's
 * ops run in its own recorded order, one after the other in its thread,
 * as the recorded process made them; between streams there is no order
 * but the one pace= gives (each op no earlier than its time).  Each
 * thread counts its ops in counters of its own, per op type, added to
 * the worker's rows when the pass ends (the worker's counters have one
 * writer); the rows' CPU is not sampled.  The streams' handles are
 * theirs already; each thread keeps its own parent directory, dropped
 * when any stream renamed or removed something since (moves), and the
 * data buffer is shared: what it holds is never looked at.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/flowops/flowops_int.h"
#include "engine/sys/timeline.h"
#include "util/util.h"

/* The stop flag is looked at every this many ops of a stream. */
#define STRAND_STOP_EVERY 256

/* One stream's thread. */
struct strand {
	struct worker *wk;
	struct replay r; /* the replay's, with a parent and mismatches of its own */
	size_t stream;
	uint64_t start; /* the pass's */
	bool go_on; /* --continue-on-error */
	atomic_bool *halt; /* set by a stream's failure without go_on */
	struct fstats st[TOP_COUNT]; /* per op type */
	/* its first unexpected failure: reported by the worker */
	int err;
	const struct trace_op *err_op;
	const char *inherit; /* or the handle open before it that failed */
	bool stopped;
	pthread_t th;
};

static void *strand_run(void *arg)
{
	struct strand *sd = arg;
	const struct ir_flowop *f = sd->r.f;
	const struct trace_op *ops = trace_stream_ops(sd->r.t, sd->stream);
	size_t n = trace_stream_nops(sd->r.t, sd->stream);

	/* no order with the parent that opened them: they may not be there */
	if (n && (sd->err = op_replay_inherit(&sd->r, sd->stream,
					      &sd->inherit)) != 0) {
		if (!sd->go_on)
			atomic_store_explicit(sd->halt, true,
					      memory_order_relaxed);
		return NULL;
	}
	sd->inherit = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct trace_op *op = &ops[i];
		uint64_t t0, bytes;
		int err;

		if (i % STRAND_STOP_EVERY == 0 && i &&
		    (sd->stopped = timeline_flag_set(sd->wk->stop)))
			break;
		/* another stream failed: the pass ends, as in one sequence */
		if (atomic_load_explicit(sd->halt, memory_order_relaxed))
			break;
		if (f->pace > 0 && op->time_ns > 0 &&
		    (sd->stopped = !op_replay_pace(sd->wk->stop, f->pace, op,
						   sd->start)))
			break;
		t0 = now_ns();
		err = op_replay_call(&sd->r, sd->stream, op, &bytes);
		/* one through a link out of the tree counts, as a mismatch */
		if (!err || op_replay_expected(op, err) ||
		    (err == EXDEV && !op->err)) {
			uint64_t lat = now_ns() - t0;

			fstats_add(&sd->st[op->type], lat, bytes);
			/* the pass's lag: set before its streams started */
			if (sd->wk->rated)
				fstats_resp(&sd->st[op->type],
					    lat + sd->wk->lag_ns);
		}
		if (op->type == TOP_RENAME || op->type == TOP_RMDIR ||
		    op->type == TOP_DELTREE)
			atomic_fetch_add_explicit(sd->r.moves, 1,
						  memory_order_relaxed);
		if (op_replay_expected(op, err))
			continue;
		if (!err || op_replay_outside(&sd->r, op, err)) {
			sd->st[op->type].mismatches++;
			if (!err)
				op_replay_mismatch(&sd->r, op);
			continue;
		}
		/* the first is op_fail's to count, with its message */
		if (sd->err_op) {
			fstats_error(&sd->st[op->type], err);
		} else {
			sd->err = err;
			sd->err_op = op;
		}
		if (!sd->go_on) {
			atomic_store_explicit(sd->halt, true,
					      memory_order_relaxed);
			break;
		}
	}
	/* the stream's process exited: what it held closes */
	op_replay_close_stream(&sd->r, sd->stream);
	return NULL;
}

/* A strand's counts into the worker's rows, and their totals. */
static void strand_add(struct worker *wk, struct replay *rp, struct strand *sd)
{
	const struct ir_flowop *f = rp->f;

	for (int ty = 0; ty < TOP_COUNT; ty++) {
		const struct fstats *s = &sd->st[ty];
		const struct ir_flowop *row;

		if (f->replay_rows[ty] < 0 || (!s->count && !s->errors))
			continue;
		row = wk->w->flowops[f->replay_rows[ty]];
		fstats_merge(&wk->stats[row->id], s);
		if (wk->need_totals)
			op_totals_many(wk, row, s->count, s->bytes);
	}
	rp->mismatches += sd->r.mismatches;
	if (!rp->mismatch && sd->r.mismatch) {
		rp->mismatch = sd->r.mismatch;
		sd->r.mismatch = NULL;
	}
	free(sd->r.mismatch);
	rp->outside += sd->r.outside;
	if (!rp->outside_first && sd->r.outside_first) {
		rp->outside_first = sd->r.outside_first;
		sd->r.outside_first = NULL;
	}
	free(sd->r.outside_first);
	op_replay_forget(&sd->r);
}

/* The first stream's failure, as the sequence reports one. */
static enum fo_result strand_fail(struct worker *wk, struct replay *rp,
				  const struct strand *sd)
{
	const struct trace_op *op = sd->err_op;
	const struct ir_flowop *row;
	char *what;
	enum fo_result r;

	if (sd->inherit)
		return op_fail(wk, rp->f, sd->err,
			       "replay %s: cannot open '%s', open before stream "
			       "%zu began",
			       rp->f->name, sd->inherit, sd->stream);
	row = wk->w->flowops[rp->f->replay_rows[op->type]];
	what = op_replay_describe(rp, op);

	if (op->err)
		r = op_fail(wk, row, sd->err,
			    "replay %s: %s failed (recorded: %s)", rp->f->name,
			    what,
			    trace_errno_name(op->err) ? trace_errno_name(op->err) :
							strerror(op->err));
	else
		r = op_fail(wk, row, sd->err, "replay %s: %s failed",
			    rp->f->name, what);
	free(what);
	return r;
}

enum fo_result op_replay_parallel(struct worker *wk, struct replay *rp,
				  uint64_t tp, bool *stopped)
{
	size_t n = trace_nstreams(rp->t), started = 0;
	struct strand *sd = xcalloc(n ? n : 1, sizeof(*sd));
	_Atomic uint64_t moves = 0;
	atomic_bool halt = false;
	enum fo_result r = FO_OK;
	int e = 0;

	for (size_t s = 0; s < n; s++) {
		sd[s].wk = wk;
		sd[s].r = *rp;
		sd[s].r.pdir = NULL;
		sd[s].r.pfd = -1;
		sd[s].r.mismatches = 0;
		sd[s].r.mismatch = NULL;
		sd[s].r.outside = 0;
		sd[s].r.outside_first = NULL;
		sd[s].r.moves = &moves;
		sd[s].halt = &halt;
		sd[s].stream = s;
		sd[s].start = tp;
		sd[s].go_on = wk->run->opts->continue_on_error;
		for (int ty = 0; ty < TOP_COUNT; ty++)
			fstats_init(&sd[s].st[ty]);
	}
	for (; started < n; started++)
		if ((e = pthread_create(&sd[started].th, NULL, strand_run,
					&sd[started])) != 0)
			break;
	for (size_t s = 0; s < started; s++)
		pthread_join(sd[s].th, NULL);
	for (size_t s = 0; s < n; s++) {
		if (s < started)
			strand_add(wk, rp, &sd[s]);
		*stopped = *stopped || sd[s].stopped;
		if (s < started && (sd[s].err_op || sd[s].inherit) &&
		    r == FO_OK)
			r = strand_fail(wk, rp, &sd[s]);
		else if (s < started && sd[s].inherit)
			fstats_error(&wk->stats[rp->f->id], sd[s].err);
		else if (s < started && sd[s].err_op)
			fstats_error(&wk->stats[rp->f->replay_rows
							[sd[s].err_op->type]],
				     sd[s].err);
		for (int ty = 0; ty < TOP_COUNT; ty++)
			fstats_release(&sd[s].st[ty]);
	}
	if (e && r == FO_OK)
		r = op_fail(wk, rp->f, e,
			    "replay %s: cannot start a thread for stream %zu of "
			    "%zu",
			    rp->f->name, started + 1, n);
	free(sd);
	return r;
}
