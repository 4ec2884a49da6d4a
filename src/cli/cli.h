/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The command line: a subcommand from the table of cli/command_list.h,
 * or a script run with fbrun's own options.
 */
#ifndef FBRUN_CLI_CLI_H
#define FBRUN_CLI_CLI_H

struct job;

/*
 * What argv asks for, done; peers is fbrun-mpi's job or NULL (the caller
 * frees it).  Returns the exit code: 0 ok, 1 run failure, 2 usage or
 * script error.
 */
int cli_main(int argc, char **argv, struct job *peers);

#endif
