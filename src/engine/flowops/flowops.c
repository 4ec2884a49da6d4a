/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The flowops' table for the engine (flowops.h) and what a thread's
 * flowops need before and after the run.  On top of the families' files;
 * the helpers they all use are below them, in flowops_op.c.
 */
#include "engine/flowops/flowops.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/io/datagen.h"
#include "engine/flowops/flowops_int.h"
#include "engine/io/verify.h"
#include "util/msg.h"
#include "util/util.h"

/* ------------------------------------------------------------ dispatch */

const struct flowops_table flowops_table[FO_NTYPES] = {
#define FLOWOP(id, name, fn, flags, uses, needs, prepare, release, help)        \
	[FO_##id] = { fn, prepare, release },
#include "lang/flowop_list.h"
#undef FLOWOP
};

void flowops_prepare_data(struct worker *wk)
{
	const struct workload *w = wk->w;
	const struct datapat none = { DATA_DEFAULT, 0 };

	for (size_t i = 0; i < w->nflowops; i++) {
		const struct ir_flowop *f = w->flowops[i];
		struct datapat p;

		if (f->thread != wk->thread_index || f->type == FO_COMPOSITE ||
		    !(flowop_info[f->type].uses & FA(DATA)))
			continue;
		p = datapat_pick(f->data,
				 f->fileset.index >= 0 ?
					 w->filesets[f->fileset.index].data :
					 none,
				 wk->run->opts->data);
		/* only the pools cost more than an allocation */
		if (p.kind != DATA_RANDOM && p.kind != DATA_COMPRESS)
			continue;
		wk->gens[f->id] = datagen_new(p, op_seed_of(wk, f));
		datagen_next(wk->gens[f->id],
			     f->iosize.kind == IRV_INT && f->iosize.i > 0 &&
					     (uint64_t)f->iosize.i <= SIZE_MAX ?
				     (size_t)f->iosize.i :
				     1);
	}
}

static int prepare_list(struct worker *wk, struct ir_flowop *const *fl,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ir_flowop *f = fl[i];

		if (f->type == FO_COMPOSITE) {
			if (prepare_list(wk, f->children, f->nchildren) < 0)
				return -1;
		} else if (flowops_table[f->type].prepare && !wk->fostate[f->id] &&
			   flowops_table[f->type].prepare(wk, f) < 0) {
			return -1;
		}
	}
	return 0;
}

int flowops_prepare(struct worker *wk)
{
	return prepare_list(wk, wk->thread->flowops, wk->thread->nflowops);
}

void flowops_release(struct worker *wk)
{
	for (size_t i = 0; wk->fostate && i < wk->w->nflowops; i++) {
		int type = wk->w->flowops[i]->type;

		/* state is made by a prepare hook; its row names the release */
		if (wk->fostate[i] && type < FO_NTYPES &&
		    flowops_table[type].release)
			flowops_table[type].release(wk->fostate[i]);
	}
	free(wk->fostate);
	wk->fostate = NULL;
}
