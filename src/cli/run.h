/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The script of the command line, checked, then dumped or run. */
#ifndef FBRUN_CLI_RUN_H
#define FBRUN_CLI_RUN_H

struct cli_options;

/* Returns the exit code: 0 ok, 1 run failure, 2 usage or script error. */
int cli_run(const struct cli_options *o);

#endif
