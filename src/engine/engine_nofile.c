/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The descriptors the run's replays hold open at once against the limit
 * of open files: the soft limit raised to the hard one when they need
 * more, and the run refused, before anything is made, when even the
 * hard limit is short.
 */
#include "engine/engine_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "trace/trace.h"
#include "util/msg.h"

/* fbrun's own (output, logs, filesets' roots) besides the replays' */
#define NOFILE_BASE 64
/* each replay copy's: its tree, the parent kept, a rename's second, one passing */
#define NOFILE_PER_COPY 4

/* the descriptors every replay of w holds at once, at most */
static uint64_t replay_fds(const struct workload *w)
{
	uint64_t need = 0;

	for (size_t k = 0; k < w->nflowops; k++) {
		const struct ir_flowop *f = w->flowops[k];
		const struct ir_thread *t = &w->threads[f->thread];
		uint64_t copies;

		if (!(ir_flowop_flags(f) & FF_TRACE))
			continue;
		copies = (uint64_t)t->instances *
			 (uint64_t)w->processes[t->process].instances;
		need += copies *
			(trace_max_open(w->traces[f->trace.index].trace,
					f->streams == IR_STREAMS_PARALLEL) +
			 NOFILE_PER_COPY);
	}
	return need;
}

int engine_raise_nofile(struct engine *e)
{
	uint64_t need = replay_fds(e->w);
	struct rlimit rl;

	if (!need)
		return 0;
	need += NOFILE_BASE;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    need <= rl.rlim_cur)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && need > rl.rlim_max) {
		snprintf(e->error, sizeof(e->error),
			 "the replays would hold up to %" PRIu64
			 " files open at once, more than the hard limit of "
			 "open files, %" PRIu64 " (ulimit -Hn); nothing was "
			 "created",
			 need, (uint64_t)rl.rlim_max);
		fb_error("%s", e->error);
		return -1;
	}
	fb_note("the replays would hold up to %" PRIu64 " files open at "
		"once: the limit of open files raised from %" PRIu64
		" to %s", need, (uint64_t)rl.rlim_cur,
		rl.rlim_max == RLIM_INFINITY ? "unlimited" : "the hard limit");
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		snprintf(e->error, sizeof(e->error),
			 "cannot raise the limit of open files to %" PRIu64
			 " for the replays: %s", (uint64_t)rl.rlim_max,
			 strerror(errno));
		fb_error("%s", e->error);
		return -1;
	}
	return 0;
}
