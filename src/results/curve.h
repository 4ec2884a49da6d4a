/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A load curve (fbrun curve; doc/running.md, "Load curves"): the
 * workload run at rising offered rates, each level's figures from its
 * runs' results, the knee, and the highest rate that meets a service
 * level objective.  The model fbrun curve fills, the curve member of a
 * results file (written here, read by results/read.h), and what fbrun
 * report and fbrun compare print.
 */
#ifndef FBRUN_RESULTS_CURVE_H
#define FBRUN_RESULTS_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/objective.h"
#include "results/results.h"
#include "util/jsonw.h"
#include "util/statistics.h"

/* A run's figures, as a level shows them (times in ms, CPU in us). */
enum curve_fig {
	CF_ACHIEVED, /* arrivals done a second */
	CF_OPS, /* the IO Summary's ops a second */
	CF_RESP_P50,
	CF_RESP_P99,
	CF_RESP_P999,
	CF_SVC_P50,
	CF_SVC_P99,
	CF_SVC_P999,
	CF_CPU, /* the IO Summary's us cpu/op */
	CF_OBJECTIVE, /* the objective's figure; negative: none */
	CF_COUNT,
};

struct curve_run {
	double fig[CF_COUNT];
	double secs;
	uint64_t offered, done, dropped;
	bool held; /* every source held its rate */
};

struct curve_level {
	char *name; /* "10%", "2000", or the search's "probe" */
	double rate; /* offered, arrivals a second in all; 0: closed */
	bool probe; /* made by the objective's search */
	struct curve_run *runs;
	size_t nruns, cap;
	/* derived (curve_derive): each figure over the runs */
	struct st_summary sum[CF_COUNT];
	bool met; /* the objective's figure's mean meets it */
	bool surely_met, surely_not; /* so does (does not) its interval */
};

struct curve {
	char *script;
	double per_level_s, warmup_s;
	unsigned repeat;
	char *arrivals; /* "script", "fixed" or "poisson" */
	bool has_max;
	struct curve_level max; /* the closed loops' most */
	struct curve_level *levels; /* in rising rate */
	size_t nlevels, cap;
	ptrdiff_t knee; /* a level, or -1 */
	bool has_objective;
	struct objective obj;
	struct curve_slo {
		bool searched, met, at_max;
		double rate, low, high; /* arrivals a second */
		size_t probes;
	} slo;
	bool interrupted; /* a signal ended it: the levels done so far */
};

/* A figure's name in the JSON ("response_p99_ms"). */
const char *curve_fig_key(enum curve_fig f);

struct curve *curve_new(void);
void curve_free(struct curve *c);

/* A level at rate, placed in rising order; its index. */
size_t curve_add_level(struct curve *c, const char *name, double rate,
		       bool probe);
/* A run's figures from its results (o: the objective, or NULL). */
void curve_run_of(const struct results *r, const struct objective *o,
		  struct curve_run *out);
void curve_level_add_run(struct curve_level *l, const struct curve_run *run);
/* The levels' summaries, what the objective makes of them, the knee. */
void curve_derive(struct curve *c);

/* The curve as an object: the member key of the one j writes, or alone. */
void curve_write(struct json *j, const char *key, const struct curve *c);
#endif
