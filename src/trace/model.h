/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A synthetic workload fitted to a trace (fbrun model, fbrun record
 * --model): an editable script in the workload language whose filesets
 * and threads do what the recording did, once, with ordinary flowops
 * (doc/running.md, "A synthetic model of a trace").
 */
#ifndef FBRUN_TRACE_MODEL_H
#define FBRUN_TRACE_MODEL_H

#include <stdio.h>

struct trace;

/*
 * Write the script fitted to t on out, its header naming trace_name (the
 * trace's file as the user gave it; the script does not read it).  The
 * same trace gives the same bytes.  0; -1 when t holds no operation the
 * model can do (said on stderr as "fbrun: error: TRACE: ...") or when
 * writing out failed (errno set, nothing said).
 */
int model_write(struct trace *t, const char *trace_name, FILE *out);

#endif
