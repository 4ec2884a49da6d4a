/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The command line: a subcommand from the table of cmd/command_list.h,
 * or a script run with fbrun's own options.
 */
#ifndef FBRUN_CMD_CMD_H
#define FBRUN_CMD_CMD_H

struct job;

/*
 * What argv asks for, done; peers is fbrun-mpi's job or NULL (the caller
 * frees it).  Returns the exit code: 0 ok, 1 run failure, 2 usage or
 * script error.
 */
int cmd_main(int argc, char **argv, struct job *peers);

#endif
