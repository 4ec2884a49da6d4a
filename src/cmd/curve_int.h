/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun curve's inside, shared by curve.c (its command line, its
 * outputs) and curve_run.c (the runs: the closed loops' most, the
 * levels, the objective's search).
 */
#ifndef FBRUN_CMD_CURVE_INT_H
#define FBRUN_CMD_CURVE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/options.h"
#include "results/curve.h"
#include "util/format.h"

/* A level of --levels NAME=...: its value and its runs' sums. */
struct var_level {
	char *value; /* as -D NAME=value gives it */
	size_t nruns, nau, nobj;
	double ops, au_min, au_mean, obj;
};

struct curve_cmd {
	/* the command line */
	double *levels; /* as given: percentages or arrivals a second */
	size_t nlevels;
	bool pct; /* the levels are percentages of the most */
	bool levels_given;
	/* --levels NAME=V1,V2,...: the variable, its values (else NULL) */
	char *var;
	struct var_level *vl;
	size_t nvl, vat; /* vat: the level being run */
	double precision; /* --precision, a fraction */
	int arrivals; /* 1 + IR_ARRIVALS_*, or 0: the script's */
	bool reuse;
	const char *output, *html;
	enum format format;
	/* while it runs */
	struct curve *c;
	unsigned repeat; /* runs at each rate */
	ptrdiff_t target; /* the level the next run is for; -1: the most */
	unsigned run_no; /* its number at that level, from 1 */
	bool ran; /* a run has been made (trees may be kept) */
	FILE *lines; /* where each run's line goes */
	char *last_json; /* the last run's object, when JSON is written */
	bool want_json;
	int rc;
};

/* A value's error, with the value shown under a caret ("--slo:1:4"). */
void curve_value_error(const char *opt, const char *value, size_t at,
		       size_t len, const char *msg);
/*
 * The objective's flowop against the script's, and the levels' time and
 * warm-up from it; -1 after saying what is wrong (curve.c).
 */
int curve_check(struct curve_cmd *k, const struct workload *w,
		struct engine_opts *eo);
/* The curve on standard output, -o and --html; the exit code (curve.c). */
int curve_output(struct curve_cmd *k);

/*
 * --levels NAME=...: the script at each value, o's -D options and one
 * more; the exit code (curve_var.c).
 */
int curve_var_main(struct curve_cmd *k, struct cli_options *o);

/*
 * cli_options.runner: the curve's runs of the checked workload w, with
 * the engine's options eo as a run's.  The exit code.
 */
int curve_runner(const struct cli_options *o, const struct workload *w,
		 struct engine_opts *eo, void *arg);

#endif
