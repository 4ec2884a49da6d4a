/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A service level objective (fbrun curve --slo): a figure of the
 * response times (a percentile, their mean or their largest) of one
 * flowop or of the IO Summary, held under a bound:
 *
 *   p99<5ms   p99.9(read1)<=20ms   mean<2ms   max(write)<1s
 *
 * or the accelerators' utilisation held over a percentage: au>=90%
 *
 * Parsed without knowing the script; the flowop it names is checked
 * against one (objective_check) before anything runs.
 */
#ifndef FBRUN_RESULTS_OBJECTIVE_H
#define FBRUN_RESULTS_OBJECTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"

/*
 * OBJ_AU: the least busy emulated accelerator's utilisation, held at or
 * over a percentage (au>=90%): higher meets it, not lower.
 */
enum objective_stat { OBJ_QUANTILE, OBJ_MEAN, OBJ_MAX, OBJ_AU };

struct objective {
	char *text; /* as given */
	enum objective_stat stat;
	double q; /* OBJ_QUANTILE: between 0 and 1 */
	char *flowop; /* its label, or NULL: the IO Summary's I/O ops */
	bool or_equal; /* <= rather than < (OBJ_AU: >= rather than >) */
	double bound_ms;
	double bound_pct; /* OBJ_AU's */
};

/*
 * text into *o; -1 with what is wrong in err and where in text, from
 * *at for *len bytes (for a caret under it).
 */
int objective_parse(const char *text, struct objective *o, char *err,
		    size_t errlen, size_t *at, size_t *len);
void objective_release(struct objective *o);

/*
 * The figure in r, ms (OBJ_AU: percent); negative when r has no response
 * time (no accelerator) for it.
 */
double objective_value(const struct objective *o, const struct results *r);
/* Whether the figure v meets the bound. */
bool objective_met(const struct objective *o, double v);
/* "p99 response time of read1" ("... of the I/O ops"), for reports. */
void objective_name(const struct objective *o, char *buf, size_t len);

#endif
