/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun compare: several JSON results files of one workload side by side,
 * as a text table and optionally as an HTML page (doc/compare.md).
 */
#ifndef FBRUN_COMPARE_H
#define FBRUN_COMPARE_H

struct optable;

/* Entry point of "fbrun compare ..."; argv[0] is "compare".  0 or 2. */
int compare_main(int argc, char **argv);

/* its options (compare/option_list.h), for fbrun's man page and completion */
extern const struct optable compare_options;

#endif
