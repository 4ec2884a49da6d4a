/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun model [-o FILE] [--format FORMAT] TRACE: a synthetic script
 * fitted to a trace (trace/model.h), on standard output or in FILE.
 */
#ifndef FBRUN_CLI_MODEL_H
#define FBRUN_CLI_MODEL_H

struct optable;

extern const struct optable cli_model_options;

/* The command: 0, 1 when writing failed, 2 for usage or a bad trace. */
int cli_model_main(int argc, char **argv);

#endif
