/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What a replay step needs in both orders, one stream at a time
 * (flowops_replay.c) or the streams in parallel (flowops_replay_par.c):
 * an op described and judged against the recording, a stream's handles
 * opened as inherited and closed, and the wait for an op's time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"
#include "engine/sys/timeline.h"
#include "util/util.h"

void op_replay_close_stream(struct replay *rp, size_t s)
{
	for (size_t h = 0; h < trace_stream_nhandles(rp->t, s); h++) {
		if (rp->fds[s][h] >= 0)
			close(rp->fds[s][h]);
		rp->fds[s][h] = -1;
	}
}

/*
 * The handles open before stream s began, opened as they were, when its
 * first op comes: a child's are often what its parent opened for it in
 * the same pass (a shell's redirection), not there when the pass starts.
 * 0, or the errno with *path the one that failed.
 */
int op_replay_inherit(struct replay *rp, size_t s, const char **path)
{
	for (size_t h = 0; h < trace_stream_nhandles(rp->t, s); h++) {
		const struct trace_handle *th =
			trace_stream_handle(rp->t, s, (int)h);
		unsigned flags = th->flags &
				 ~(TRACE_O_CREAT | TRACE_O_EXCL | TRACE_O_TRUNC);

		if (!th->inherited)
			continue;
		*path = trace_path(rp->t, th->path);
		rp->fds[s][h] = op_replay_open(rp, *path, flags, 0);
		if (rp->fds[s][h] < 0)
			return errno;
	}
	return 0;
}

char *op_replay_describe(const struct replay *rp, const struct trace_op *op)
{
	return xasprintf("%s%s%s%s (trace line %d)", trace_op_name(op->type),
			 op->path >= 0 ? " '" : "",
			 op->path >= 0 ? trace_path(rp->t, op->path) : "",
			 op->path >= 0 ? "'" : "", op->line);
}

bool op_replay_expected(const struct trace_op *op, int err)
{
	/*
	 * dbench's FIND_FIRST that matched nothing is a readdir of the
	 * pattern's directory recorded as ENOENT, the pattern not kept: a
	 * listing of the directory that succeeds is what it did too
	 */
	return err == op->err || (!err && op->type == TOP_READDIR &&
				  op->handle < 0 && op->err == ENOENT);
}

void op_replay_mismatch(struct replay *rp, const struct trace_op *op)
{
	char *what;

	if (rp->mismatches++)
		return;
	what = op_replay_describe(rp, op);
	rp->mismatch = xasprintf("%s, recorded as failing with %s", what,
				 trace_errno_name(op->err) ?
					 trace_errno_name(op->err) :
					 strerror(op->err));
	free(what);
}

bool op_replay_outside(struct replay *rp, const struct trace_op *op, int err)
{
	if (err != EXDEV || op->err)
		return false;
	if (!rp->outside++)
		rp->outside_first = op_replay_describe(rp, op);
	return true;
}

bool op_replay_pace(const atomic_bool *stop, double pace,
		    const struct trace_op *op, uint64_t start)
{
	double wait = (double)op->time_ns / pace;
	uint64_t room = UINT64_MAX - start, w;

	/*
	 * A tiny pace makes the wait longer than a clock can say (1e5 s at
	 * pace 1e-6 is 1e20 ns): the op is due after the run, not at once,
	 * so the wait is as long as there is (the stop flag ends it).
	 */
	if (!(wait < (double)room) || (w = (uint64_t)wait) > room)
		return timeline_sleep_until(stop, UINT64_MAX);
	return timeline_sleep_until(stop, start + w);
}
