/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A run statement's threads: started together, run, stopped, joined.
 * What they share is struct run (run_state.h).
 */
#ifndef FBRUN_RUN_H
#define FBRUN_RUN_H

#include "engine/fileset/fileset.h"
#include "engine/worker/run_state.h"
#include "engine/sys/timeline.h"
#include "engine/worker/worker.h"
#include "lang/ir.h"

/*
 * Run the workload's threads against the created filesets for the IR run
 * statement's time (or opts->runtime_ns).  Fills run->workers' statistics.
 * Returns 0 if the run ended normally (timeout, quit mode, signal), -1 if
 * a flowop failed (the partial statistics are still there).
 */
int run_workload(struct run *run, const struct ir_stmt *st);
/* Free workers, sync points and the timeline (not the filesets). */
void run_release(struct run *run);

#endif
