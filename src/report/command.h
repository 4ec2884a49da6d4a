/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun report: one results file printed again in the run's own layout,
 * by the run's own printers (doc/compare.md).
 */
#ifndef FBRUN_REPORT_COMMAND_H
#define FBRUN_REPORT_COMMAND_H

struct optable;

/* Entry point of "fbrun report ..."; argv[0] is "report".  0 or 2. */
int report_command(int argc, char **argv);

/* its options (report/option_list.h), for fbrun's man page and completion */
extern const struct optable report_command_options;

#endif
