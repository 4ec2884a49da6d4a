/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* What the language has, printed from its tables. */
#ifndef FBRUN_CLI_LISTS_H
#define FBRUN_CLI_LISTS_H

/* --list-flowops: a line per flowop, its name and what it does. */
void cli_lists_flowops(void);
/* --list-attributes: the attribute reference in markdown. */
void cli_lists_attributes(void);

#endif
