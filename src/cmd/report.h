/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun report: one results file printed again in the run's own layout,
 * by the run's own printers (doc/compare.md).
 */
#ifndef FBRUN_CMD_REPORT_H
#define FBRUN_CMD_REPORT_H

struct optable;

/* Entry point of "fbrun report ..."; argv[0] is "report".  0 or 2. */
int report_main(int argc, char **argv);

/* its options (cmd/report_option_list.h), for fbrun's man page and completion */
extern const struct optable report_options;

#endif
