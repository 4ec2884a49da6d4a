/*
 * Counters read while the run goes on: the time series of --interval and
 * psrun, and the live progress line.  The main thread reads the workers'
 * per-flowop counters without a lock (see sampler.c for why that is
 * sound); the workers do nothing extra for it.
 */
#ifndef FBRUN_SAMPLER_H
#define FBRUN_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct run;

/* What happened between two samples. */
struct interval {
	double t_s; /* its end, seconds since the run started */
	double secs; /* its length */
	uint64_t ops, bytes; /* of the I/O flowops, as in the IO Summary */
	uint64_t errors; /* failed operations of every flowop */
	uint64_t *fo_ops; /* per flowop id: completed operations */
};

struct sampler;

struct sampler *sampler_new(const struct run *run);
void sampler_free(struct sampler *s);

/*
 * Read the counters at time now (ns, CLOCK_MONOTONIC): the interval since
 * the previous take (or the start).  Valid until the next take.
 */
const struct interval *sampler_take(struct sampler *s, uint64_t now);
/* Add the interval just taken to the series. */
void sampler_keep(struct sampler *s);
/* Every flowop's operations since the start, as of the last take. */
const uint64_t *sampler_totals(const struct sampler *s);

/* Hand the series over (the caller frees it with intervals_free). */
struct interval *sampler_steal(struct sampler *s, size_t *n);
void intervals_free(struct interval *iv, size_t n);

/* One --interval line, and with flowops one line per flowop after it. */
void sampler_print_line(const struct sampler *s, FILE *out, bool flowops);
/* psrun's report: per flowop, ops/s over the interval or since the start. */
void sampler_print_psrun(const struct sampler *s, FILE *out, bool reset);

/* The status line on a terminal: redrawn in place, then erased. */
void sampler_progress(struct sampler *s, FILE *tty, double total_s);
void sampler_progress_clear(struct sampler *s, FILE *tty);

#endif
