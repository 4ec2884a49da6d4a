/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun model [-o FILE] [--format FORMAT] TRACE: a synthetic script
 * fitted to a trace (trace/model.h), on standard output or in FILE.
 */
#ifndef FBRUN_CMD_MODEL_H
#define FBRUN_CMD_MODEL_H

#include "trace/trace.h"

struct optable;

extern const struct optable model_options;

/* The command: 0, 1 when writing failed, 2 for usage or a bad trace. */
int model_main(int argc, char **argv);

/*
 * The model of the trace at path (read as format says) written to output
 * (NULL: standard output), as the command does after its options: for
 * fbrun record --model.  The same exit codes; output must have passed
 * outfile_unusable.
 */
int model_file(const char *path, enum trace_format format,
		   const char *output);

#endif
