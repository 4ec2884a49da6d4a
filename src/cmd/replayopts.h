/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun replay's own options: -h alone (its --help, the man page's
 * paragraph and the completion's word, cmd/usage.c); the rest of its
 * command line is fbrun's options (cmd/replay.c).  A module of its own,
 * so that the usage does not need the command.
 */
#ifndef FBRUN_CMD_REPLAYOPTS_H
#define FBRUN_CMD_REPLAYOPTS_H

struct optable;

extern const struct optable replayopts;

#endif
