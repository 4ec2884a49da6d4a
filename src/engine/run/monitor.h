/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Counters read while the run goes on: the time series of --interval and
 * psrun, and the live progress line.  The main thread reads the workers'
 * per-flowop counters without a lock (see monitor.c for why that is
 * sound); the workers do nothing extra for it.
 */
#ifndef FBRUN_MONITOR_H
#define FBRUN_MONITOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/ir.h"

struct worker;

/* What happened between two samples. */
struct interval {
	double t_s; /* its end, seconds since the run started */
	double secs; /* its length */
	uint64_t ops, bytes; /* of the I/O flowops, as in the IO Summary */
	uint64_t errors; /* failed operations of every flowop */
	/* with monitor_latency: the I/O ops' latency quantiles, 0 if none */
	uint64_t p50_ns, p99_ns;
	/* and an open loop's, their response times' */
	uint64_t rp50_ns, rp99_ns;
	uint64_t *fo_ops; /* per flowop id: completed operations */
};

struct monitor;

/* Reading workers[0..nworkers) of w's run, which started at start_ns. */
struct monitor *monitor_new(const struct workload *w,
			    const struct worker *workers, size_t nworkers,
			    uint64_t start_ns);
void monitor_free(struct monitor *s);
/*
 * Also read the I/O flowops' latency histograms at each take, for the
 * interval's p50 and p99 (--interval; the main thread's work only).
 */
void monitor_latency(struct monitor *s);

/* Whether the run is an open loop's (its workers have arrivals). */
bool monitor_open(const struct monitor *s);

/*
 * Read the counters at time now (ns, CLOCK_MONOTONIC): the interval since
 * the previous take (or the start).  Valid until the next take.
 */
const struct interval *monitor_take(struct monitor *s, uint64_t now);
/* Add the interval just taken to the series. */
void monitor_keep(struct monitor *s);
/* Every flowop's operations since the start, as of the last take. */
const uint64_t *monitor_totals(const struct monitor *s);

/*
 * A job of many processes (fbrun-mpi): each one's interval just taken as
 * monitor_job_len numbers, which add up across the processes; on the
 * process that keeps the job's series, monitor_set_job makes their sums
 * the interval just taken, ending t_ns after the job's start (its
 * length from the previous one's end), to keep and print as any other.
 */
size_t monitor_job_len(const struct monitor *s);
void monitor_job_counts(const struct monitor *s, uint64_t *out);
void monitor_set_job(struct monitor *s, const uint64_t *sum, uint64_t t_ns);

/* Hand the series over (the caller frees it with monitor_intervals_free). */
struct interval *monitor_steal(struct monitor *s, size_t *n);
void monitor_intervals_free(struct interval *iv, size_t n);

/* One --interval line, and with flowops one line per flowop after it. */
void monitor_print_line(const struct monitor *s, FILE *out, bool flowops);
/*
 * The same as CSV (--interval-log): the header, and the interval's row,
 * numbered with the run's number.
 */
void monitor_csv_head(const struct monitor *s, FILE *out, bool flowops);
void monitor_csv_row(const struct monitor *s, FILE *out, bool flowops,
		     unsigned run);
/* psrun's report: per flowop, ops/s over the interval or since the start. */
void monitor_print_psrun(const struct monitor *s, FILE *out, bool reset);

/* The status line on a terminal: redrawn in place, then erased. */
void monitor_progress(struct monitor *s, FILE *tty, double total_s);
void monitor_progress_clear(struct monitor *s, FILE *tty);

#endif
