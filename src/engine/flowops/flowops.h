/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The flowops as the run sees them: the engine's table from the one list
 * (each flowop's function and the hooks of its per-thread state), running
 * one, and what the thread's flowops need before and after the run.
 */
#ifndef FBRUN_FLOWOPS_H
#define FBRUN_FLOWOPS_H

#include "engine/worker/worker.h"
#include "lang/flowop.h"
#include "lang/ir.h"

typedef enum fo_result (*flowop_fn)(struct worker *, const struct ir_flowop *);

/* A flowop_list.h row's engine columns. */
struct flowops_table {
	flowop_fn run; /* the op, once */
	/* NULL, or its per-thread state in wk->fostate[id]: -1 failed it */
	int (*prepare)(struct worker *wk, const struct ir_flowop *f);
	void (*release)(void *state); /* NULL, or that state freed */
};

extern const struct flowops_table flowops_table[FO_NTYPES];

/* Run one flowop once (iters handled by the caller); inline: once per op. */
static inline enum fo_result flowop_exec(struct worker *wk,
					 const struct ir_flowop *f)
{
	return flowops_table[f->type].run(wk, f);
}

/*
 * Allocate and fill the random and compress=N pools of the thread's write
 * flowops before the clock starts (a flowop writing by fd to a fileset
 * with another pattern makes its own on first use).
 */
void flowops_prepare_data(struct worker *wk);

/*
 * Run the prepare hook of each of the thread's flowops that has one,
 * before the clock starts.  -1: a flowop failed, recorded as its error.
 */
int flowops_prepare(struct worker *wk);
/* Free that state with the release hooks (after the thread ended). */
void flowops_release(struct worker *wk);

#endif
