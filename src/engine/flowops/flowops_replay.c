/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * replay: a trace (define trace) replayed whole by each thread instance,
 * in a tree of its own, replay-<flowop id>-<instance>, in the fileset's
 * root (fileset_remove takes those trees as fbrun's).  Before the clock
 * the tree is made with the state the trace expects at its start; each
 * pass after the first empties it and makes that state again, untimed.
 * The streams' ops run in the order they were recorded in (by their
 * times, each stream's own order kept), or stream after stream when the
 * trace has no times; with pace=, each no earlier than its time divided
 * by the pace after the pass began, waited for outside its timed window.
 * Each op is timed and counted in its type's row
 * (<name>.open, <name>.read, ...); the flowop's own row counts passes.
 * An op that failed in the recording with errno E and fails with E here
 * is counted as done; one that succeeds is counted too, and said as a
 * mismatch when the thread ends; any other failure is an error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"
#include "engine/sys/timeline.h"
#include "util/msg.h"
#include "util/util.h"

/* The data buffer: the largest read or write, up to this. */
#define REPLAY_BUF_MAX ((size_t)16 << 20)
/*
 * The rows' CPU time: the first ops of each row, then one op in this
 * many of a pass, read inside their windows (op_start, op_done).
 */
#define REPLAY_CPU_FIRST 8
#define REPLAY_CPU_EVERY 64
/* The stop flag is looked at every this many ops, and while pacing. */
#define REPLAY_STOP_EVERY 256

/*
 * Whether to stop making the initial state: a signal (looked at as
 * fileset creation does, before the clock: the run's flag is raised only
 * once it runs) or the run stopped.
 */
static bool stopping(const struct worker *wk)
{
	return timeline_signalled || timeline_flag_set(wk->stop);
}

/* Write size bytes of the buffer's into fd; 1 if a stop cut it short. */
static int fill(const struct worker *wk, struct replay *rp, int fd,
		int64_t size)
{
	for (int64_t done = 0; done < size;) {
		size_t n = (size_t)(size - done) < rp->buflen ?
				   (size_t)(size - done) :
				   rp->buflen;
		ssize_t w;

		if (stopping(wk))
			return 1;
		w = write(fd, rp->buf, n);
		if (w <= 0)
			return w < 0 ? -1 : (errno = EIO, -1);
		done += w;
	}
	return 0;
}

/* A stop while the initial state is made: said, the pass not run. */
static enum fo_result stopped_initial(struct replay *rp, size_t made,
				      size_t n)
{
	fb_warning("replay %s (instance %u): interrupted while making the "
		   "trace's initial state (%zu of %zu entries made); they "
		   "are removed with its tree",
		   rp->f->name, rp->instance, made, n);
	return FO_NORSC;
}

/*
 * The state the trace expects at its start, in the (empty) tree; FO_NORSC
 * if a stop cut it short (what was made goes with the tree, which is
 * fbrun's).
 */
static enum fo_result make_initial(struct worker *wk, struct replay *rp)
{
	const struct trace_entry *ent;
	size_t n = trace_initial((struct trace *)rp->t, &ent);

	for (size_t i = 0; i < n; i++) {
		const char *p = trace_path(rp->t, ent[i].path);
		int fd, cut = 0;

		if (i % REPLAY_STOP_EVERY == 0 && stopping(wk))
			return stopped_initial(rp, i, n);
		if (strcmp(p, ".") == 0)
			continue;
		if (ent[i].dir) {
			fd = op_replay_open(rp, p, TRACE_O_DIRECTORY, 0);
			if (fd < 0 && errno == ENOENT) {
				/* its parent was made before it, beneath */
				char *dir = xstrdup(p), *slash = strrchr(dir, '/');
				int pfd = rp->dirfd;

				if (slash) {
					*slash = '\0';
					pfd = fileset_open_beneath(rp->dirfd, dir,
								   O_PATH | O_DIRECTORY, 0);
				}
				fd = pfd < 0 ? -1 :
					       mkdirat(pfd, slash ? slash + 1 : p,
						       0755);
				if (slash && pfd >= 0)
					close(pfd);
				free(dir);
				if (fd == 0)
					continue;
			}
		} else {
			fd = op_replay_open(rp, p,
					    TRACE_O_WRITE | TRACE_O_CREAT |
						    TRACE_O_EXCL,
					    0644);
			if (fd >= 0 &&
			    (cut = fill(wk, rp, fd, ent[i].size)) != 0) {
				int e = errno;

				close(fd);
				if (cut > 0)
					return stopped_initial(rp, i, n);
				errno = e;
				fd = -1;
			}
		}
		if (fd < 0)
			return op_fail(wk, rp->f, errno,
				       "replay %s: cannot make '%s' of the "
				       "trace's initial state",
				       rp->f->name, p);
		close(fd);
	}
	return FO_OK;
}

/* A step with the time it is replayed at, for the sort. */
/* The replay order: the trace's (trace_order), for every pass. */
static void make_order(struct replay *rp)
{
	rp->order = trace_order(rp->t, &rp->nsteps);
}

/* Close what the streams hold open. */
static void close_all(struct replay *rp)
{
	for (size_t s = 0; s < trace_nstreams(rp->t); s++)
		op_replay_close_stream(rp, s);
}

static enum fo_result open_inherited(struct worker *wk, struct replay *rp,
				     size_t s)
{
	const char *p = NULL;
	int err = op_replay_inherit(rp, s, &p);

	if (!err)
		return FO_OK;
	return op_fail(wk, rp->f, err,
		       "replay %s: cannot open '%s', open before the stream "
		       "began",
		       rp->f->name, p);
}

/* The largest read or write of the trace, within REPLAY_BUF_MAX. */
static size_t buffer_size(const struct trace *t)
{
	size_t most = 65536;

	for (size_t s = 0; s < trace_nstreams(t); s++) {
		const struct trace_op *ops = trace_stream_ops(t, s);

		for (size_t i = 0; i < trace_stream_nops(t, s); i++)
			if ((ops[i].type == TOP_READ || ops[i].type == TOP_WRITE) &&
			    (uint64_t)ops[i].length > most)
				most = ops[i].length > (int64_t)REPLAY_BUF_MAX ?
					       REPLAY_BUF_MAX :
					       (size_t)ops[i].length;
	}
	return most;
}

/* The replay's own tree in the fileset's root, made empty; -1, errno. */
static int make_tree(struct worker *wk, struct replay *rp)
{
	int root = fileset_rootfd(fs_of(wk, rp->f->fileset.index));
	char name[64];

	snprintf(name, sizeof(name), "replay-%d-%u", rp->f->id, rp->instance);
	/* one kept from an earlier run (reuse) is fbrun's: emptied */
	if (mkdirat(root, name, 0755) < 0 && errno != EEXIST)
		return -1;
	rp->dirfd = fileset_open_beneath(root, name, O_RDONLY | O_DIRECTORY, 0);
	if (rp->dirfd < 0)
		return -1;
	return op_replay_rmtree(rp, rp->dirfd, ".");
}

int op_replay_prepare(struct worker *wk, const struct ir_flowop *f)
{
	struct replay *rp = xcalloc(1, sizeof(*rp));

	rp->t = wk->w->traces[f->trace.index].trace;
	rp->f = f;
	rp->instance = wk->instance;
	rp->pfd = -1;
	rp->buflen = buffer_size(rp->t);
	rp->buf = xcalloc(1, rp->buflen);
	rp->fds = xcalloc(trace_nstreams(rp->t) + 1, sizeof(*rp->fds));
	for (size_t s = 0; s < trace_nstreams(rp->t); s++) {
		size_t nh = trace_stream_nhandles(rp->t, s);

		rp->fds[s] = xmalloc((nh ? nh : 1) * sizeof(int));
		for (size_t h = 0; h < nh; h++)
			rp->fds[s][h] = -1;
	}
	make_order(rp);
	wk->fostate[f->id] = rp;
	if (make_tree(wk, rp) < 0) {
		op_fail(wk, f, errno,
			"replay %s: cannot make its directory in fileset %s",
			f->name, fileset_name(fs_of(wk, f->fileset.index)));
		return -1;
	}
	/* stopped: the run ends before it starts, and the tree goes */
	return make_initial(wk, rp) == FO_ERROR ? -1 : 0;
}

void op_replay_free(void *state)
{
	struct replay *rp = state;

	if (rp->mismatches)
		fb_warning("replay %s (instance %u): %" PRIu64 " operation%s "
			   "that failed in the recording succeeded; the "
			   "first: %s",
			   rp->f->name, rp->instance, rp->mismatches,
			   rp->mismatches == 1 ? "" : "s",
			   rp->mismatch ? rp->mismatch : "?");
	if (rp->outside)
		fb_warning("replay %s (instance %u): %" PRIu64 " operation%s "
			   "through a symbolic link the recording made to "
			   "outside its root failed, not followed out of the "
			   "replay's tree; the first: %s",
			   rp->f->name, rp->instance, rp->outside,
			   rp->outside == 1 ? "" : "s",
			   rp->outside_first ? rp->outside_first : "?");
	close_all(rp);
	op_replay_forget(rp);
	if (rp->dirfd > 0)
		close(rp->dirfd);
	for (size_t s = 0; s < trace_nstreams(rp->t); s++)
		free(rp->fds[s]);
	free(rp->fds);
	free(rp->buf);
	free(rp->order);
	free(rp->mismatch);
	free(rp->outside_first);
	free(rp);
}

/* The outcome of one op against the recording's. */
static enum fo_result judge(struct worker *wk, struct replay *rp,
			    const struct ir_flowop *row,
			    const struct trace_op *op, int err, uint64_t t0,
			    uint64_t bytes)
{
	enum fo_result r;
	char *what;

	if (op_replay_expected(op, err)) {
		op_done(wk, row, t0, bytes);
		return FO_OK;
	}
	if (err == 0 || op_replay_outside(rp, op, err)) {
		op_done(wk, row, t0, bytes);
		wk->stats[row->id].mismatches++;
		if (!err)
			op_replay_mismatch(rp, op);
		return FO_OK;
	}
	what = op_replay_describe(rp, op);
	if (op->err)
		r = op_fail(wk, row, err, "replay %s: %s failed (recorded: %s)",
			    rp->f->name, what,
			    trace_errno_name(op->err) ? trace_errno_name(op->err) :
							strerror(op->err));
	else
		r = op_fail(wk, row, err, "replay %s: %s failed", rp->f->name,
			    what);
	free(what);
	return r;
}

/* Back to the start: the tree emptied and the initial state made again. */
static enum fo_result reset(struct worker *wk, struct replay *rp)
{
	close_all(rp);
	op_replay_forget(rp);
	if (op_replay_rmtree(rp, rp->dirfd, ".") < 0)
		return op_fail(wk, rp->f, errno,
			       "replay %s: cannot empty its directory for the "
			       "next pass",
			       rp->f->name);
	return make_initial(wk, rp);
}

/* One pass in one sequence, started at tp; *stopped if a stop cut it. */
static enum fo_result run_sequence(struct worker *wk, struct replay *rp,
				   uint64_t tp, bool *stopped)
{
	const struct ir_flowop *f = rp->f;
	bool go_on = wk->run->opts->continue_on_error;
	enum fo_result r = FO_OK;

	for (size_t k = 0; k < rp->nsteps; k++) {
		const struct trace_step *st = &rp->order[k];
		const struct trace_op *op =
			&trace_stream_ops(rp->t, st->stream)[st->op];
		const struct ir_flowop *row;
		uint64_t bytes, t0;
		int err;

		if (k % REPLAY_STOP_EVERY == 0 && k &&
		    (*stopped = timeline_flag_set(wk->stop)))
			break;
		if (f->pace > 0 && op->time_ns > 0 &&
		    (*stopped = !op_replay_pace(wk->stop, f->pace, op, tp)))
			break;
		if (st->op == 0 &&
		    (r = open_inherited(wk, rp, st->stream)) != FO_OK &&
		    !go_on)
			break;
		/*
		 * a pass can outlast the warm-up: its ops after the warm-up's
		 * end are measured, as any flowop's next op would be
		 */
		if (__builtin_expect(wk->warming, 0) &&
		    atomic_load_explicit(&wk->run->warm_gen,
					 memory_order_relaxed))
			worker_warm_end(wk);
		row = wk->w->flowops[f->replay_rows[op->type]];
		wk->sampling = k % REPLAY_CPU_EVERY == 0 ||
			       wk->stats[row->id].cpu_samples < REPLAY_CPU_FIRST;
		t0 = op_start(wk);
		err = op_replay_call(rp, st->stream, op, &bytes);
		r = judge(wk, rp, row, op, err, t0, bytes);
		/* its process exited: what it held closes, as in the recording */
		if (st->op + 1 == trace_stream_nops(rp->t, st->stream))
			op_replay_close_stream(rp, st->stream);
		if (r != FO_OK && !go_on)
			break;
	}
	return r;
}

enum fo_result fo_replay(struct worker *wk, const struct ir_flowop *f)
{
	struct replay *rp = wk->fostate[f->id];
	bool go_on = wk->run->opts->continue_on_error;
	enum fo_result r = FO_OK;
	bool stopped = false;
	uint64_t tp;

	if (f->value.kind != IRV_NONE) {
		int64_t most = op_int(wk, &f->value);

		if (most > 0 && rp->passes >= (uint64_t)most)
			return op_norsc(wk, "flowop %s: the trace replayed %" PRIu64
					" times", f->name, rp->passes);
	}
	if (rp->passes && (r = reset(wk, rp)) != FO_OK)
		return r;
	/* the rows' CPU is sampled below, not the pass's */
	wk->sampling = false;
	tp = op_start(wk);
	if (f->streams == IR_STREAMS_PARALLEL)
		r = op_replay_parallel(wk, rp, tp, &stopped);
	else
		r = run_sequence(wk, rp, tp, &stopped);
	wk->sampling = false; /* a failed op leaves it set */
	rp->passes++;
	/* a pass the end of the run cut short is not one */
	if ((r == FO_OK || go_on) && !stopped)
		op_done(wk, f, tp, 0);
	close_all(rp);
	return go_on ? FO_OK : r;
}
