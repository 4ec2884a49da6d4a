/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun record's table of options (its --help, the man page's paragraph
 * and the completion's words, cmd/usage.c).  A module of its own, so
 * that the usage does not need the command.
 */
#ifndef FBRUN_CMD_RECORDOPTS_H
#define FBRUN_CMD_RECORDOPTS_H

struct optable;

/* the rows' indexes, as optable_next returns them */
enum {
	RECORD_OPT_OUTPUT,
	RECORD_OPT_MODEL,
	RECORD_OPT_HELP,
};

extern const struct optable recordopts;

#endif
