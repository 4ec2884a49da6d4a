/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The words of the option table (cli/option_list.h) and its ids, for
 * the files that read it: the parser (options.c) and the printers
 * (usage.c).
 */
#ifndef FBRUN_CLI_TABLE_H
#define FBRUN_CLI_TABLE_H

#include <getopt.h>

/* whether an option takes a value, as getopt_long says it */
enum {
	ARG_NONE = no_argument,
	ARG_REQUIRED = required_argument,
	ARG_OPTIONAL = optional_argument,
};

/* the programs that take an option */
enum {
	P_HIDDEN = 0, /* none lists it: for the build */
	P_FBRUN = 1,
	P_MPI = 2,
	P_ALL = P_FBRUN | P_MPI,
};

enum cli_opt_id {
#define OPTION(id, ...) OPT_##id,
#include "cli/option_list.h"
#undef OPTION
	OPT_COUNT
};

/* getopt_long's value for an option without a letter */
#define OPT_LONG_BASE 256

#endif
