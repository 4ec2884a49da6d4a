/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * --repeat N: the results of N runs of one workload collected as they
 * finish, each run's IO Summary line printed then, and at the end the
 * per-flowop mean, standard deviation and 95% confidence interval
 * (doc/compare.md has the statistics and the JSON).
 */
#ifndef FBRUN_REPORT_REPEAT_H
#define FBRUN_REPORT_REPEAT_H

#include <stddef.h>
#include <stdio.h>

#include "results/results.h"
#include "report/report.h"

struct repeat;

/* For `want` runs, printed as dest says (its format, -o). */
struct repeat *repeat_new(const struct report_dest *dest, size_t want);
void repeat_free(struct repeat *rp);
/*
 * engine_opts' deliver hook for each run (arg: the struct repeat).
 * Returns 0, or -1 after a message.
 */
int repeat_deliver(const struct results *r, void *arg);
/* The runs collected so far. */
size_t repeat_count(const struct repeat *rp);
/*
 * The statistics of the runs collected: the table on standard output
 * (or the JSON or CSV the format asks for), and -o.  0, or -1 after a
 * message.
 */
int repeat_finish(struct repeat *rp);

#endif
