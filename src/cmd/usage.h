/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What the tables of subcommands and options print: --help, the man
 * pages' OPTIONS and the bash completion's words.
 */
#ifndef FBRUN_CMD_USAGE_H
#define FBRUN_CMD_USAGE_H

#include <stdio.h>

struct cli_options;

/* fbrun --help. */
void cmd_usage(FILE *out);
/*
 * --help-options=WHAT, used by the build: "man" (fbrun.1's OPTIONS),
 * "mpi-man" (fbrun-mpi.1's), "completion" (the completion's words),
 * "names" (each option and where it goes, for tests/options.sh).
 * Returns 0, or -1 after a message for an unknown WHAT.
 */
int cmd_usage_options(FILE *out, const char *what);
/*
 * fbrun's options read into o (cli_options_parse), and what they print
 * that lists the subcommands done here: --help, --help-options, the
 * usage after an unknown option or a missing script.  Returns 0 to
 * run, 1 when an option did all there was to do, -1 after a usage error.
 */
int cmd_usage_parse(int argc, char **argv, struct cli_options *o);

#endif
