/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun compare: several JSON results files of one workload side by side,
 * as a text table and optionally as an HTML page (doc/compare.md).
 */
#ifndef FBRUN_CMD_COMPARE_H
#define FBRUN_CMD_COMPARE_H

#include "compare/model.h"

struct optable;

/*
 * Entry point of "fbrun compare ..."; argv[0] is "compare".  0, 1 or 2.
 * kind: what a flowop of a type does (the flowop table's), for the
 * verdict of groups.
 */
int compare_main(int argc, char **argv, cmp_kind_fn kind);

/* its options (cmd/compare_option_list.h), for fbrun's man page and completion */
extern const struct optable compare_options;

#endif
