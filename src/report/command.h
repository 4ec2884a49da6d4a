/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun report: one results file printed again in the run's own layout,
 * by the run's own printers (doc/compare.md).
 */
#ifndef FBRUN_REPORT_COMMAND_H
#define FBRUN_REPORT_COMMAND_H

/* Entry point of "fbrun report ..."; argv[0] is "report".  0 or 2. */
int report_main(int argc, char **argv);

#endif
