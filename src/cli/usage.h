/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What the tables of subcommands and options print: --help, the man
 * pages' OPTIONS and the bash completion's words.
 */
#ifndef FBRUN_CLI_USAGE_H
#define FBRUN_CLI_USAGE_H

#include <stdio.h>

/* fbrun --help. */
void cli_usage(FILE *out);
/*
 * --help-options=WHAT, used by the build: "man" (fbrun.1's OPTIONS),
 * "mpi-man" (fbrun-mpi.1's), "completion" (the completion's words),
 * "names" (each option and where it goes, for tests/options.sh).
 * Returns 0, or -1 after a message for an unknown WHAT.
 */
int cli_usage_options(FILE *out, const char *what);

#endif
