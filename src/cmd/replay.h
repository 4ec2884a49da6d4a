/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* fbrun replay TRACE: a trace replayed by a script of fbrun's own. */
#ifndef FBRUN_CMD_REPLAY_H
#define FBRUN_CMD_REPLAY_H

struct job;

/* argv[0] is "replay"; returns the exit code, as cli_run. */
int replay_main(int argc, char **argv, struct job *peers);

#endif
