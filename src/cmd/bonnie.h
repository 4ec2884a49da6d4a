/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* fbrun bonnie ...: bonnie++'s tests with its options (bonnie/ runs them). */
#ifndef FBRUN_CMD_BONNIE_H
#define FBRUN_CMD_BONNIE_H

struct engine_peers;
struct optable;

/*
 * `fbrun bonnie ...`: argv[0] is "bonnie".  With peers (fbrun-mpi), every
 * rank runs the tests at once in <dir>/rank-N and rank 0 prints the job's
 * figures, then each rank's.  Returns the exit status.
 */
int bonnie_main(int argc, char **argv, const struct engine_peers *peers);

/* its options (cmd/bonnie_option_list.h), for fbrun's man page and completion */
extern const struct optable bonnie_options;

#endif
