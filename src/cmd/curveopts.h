/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun curve's own options (its --help, the man page's paragraphs and
 * the completion's words, cmd/usage.c); the rest of its command line is
 * fbrun's options (cmd/curve.c).  A module of its own, so that the usage
 * does not need the command.
 */
#ifndef FBRUN_CMD_CURVEOPTS_H
#define FBRUN_CMD_CURVEOPTS_H

struct optable;

/* The rows of curveopts, in its order. */
enum curve_opt {
	CO_LEVELS,
	CO_SLO,
	CO_PER_LEVEL,
	CO_PRECISION,
	CO_ARRIVALS,
	CO_REUSE,
	CO_OUTPUT,
	CO_FORMAT,
	CO_HTML,
	CO_HELP,
	CO_COUNT,
};

extern const struct optable curveopts;

#endif
