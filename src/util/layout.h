/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The lines of the classic text table (the seed's layout), shared by the
 * printer of a run (report/report.c) and fbrun report (compare/replay.c),
 * which prints a saved run again: one set of formats, so the two cannot
 * drift apart.
 */
#ifndef FBRUN_LAYOUT_H
#define FBRUN_LAYOUT_H

#include <inttypes.h>
#include <stdio.h>

/* label, ops/s, mb/s, ms/op, us/op-cpu */
#define LAYOUT_FLOWOP "%-20s %8.0fops/s %5.1fmb/s %8.1fms/op %8.0fus/op-cpu\n"
/* ops, ops/s, reads/s, writes/s, mb/s, us cpu/op, ms latency */
#define LAYOUT_SUMMARY_LINE                                                 \
	"IO Summary: %13" PRIu64 " ops %.1f ops/s, (%.0f/%.0f r/w) "        \
	"%5.1fmb/s, %6.0fus cpu/op, %5.1fms latency\n"
#define LAYOUT_SUMMARY "\n" LAYOUT_SUMMARY_LINE
#define LAYOUT_LAT_HEAD "\n%-20s %10s %10s %10s %10s %10s %10s %10s\n"
/* label, count, mean, p50, p90, p99, p99.9, max (ms) */
#define LAYOUT_LAT_ROW                                                      \
	"%-20s %10" PRIu64 " %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n"
/* threads in operations, threads */
#define LAYOUT_IN_OPS                                                       \
	"\nThreads in operations: %.1f of %zu (ops/s x ms/op, summed over "   \
	"flowops)\n"
/* --warmup: its length, the I/O operations it did */
#define LAYOUT_WARMUP                                                       \
	"\nWarm-up: %.0f s before the measured run, %" PRIu64 " I/O ops not "   \
	"counted\n"
/* --steady: "yes" or "no", intervals, deviation %, mean ops/s, tolerance % */
#define LAYOUT_STEADY                                                       \
	"\nSteady state: %s, the last third's %zu intervals are within "       \
	"%.1f%% of their mean of %.1f ops/s (tolerance %g%%)\n"
#define LAYOUT_STEADY_NONE                                                  \
	"\nSteady state: not judged, %zu intervals in the last third (2 or "   \
	"more needed)\n"
#define LAYOUT_HIST_HEAD "\nLatency histogram of %s (ms: from, to, count)\n"
#define LAYOUT_HIST_ROW "  %12.6f %12.6f %10" PRIu64 "\n"
/* label, mean, samples */
#define LAYOUT_MEAN "\n%s: mean %.1f over %" PRIu64 " samples\n"
#define LAYOUT_WAITS_HEAD                                                   \
	"\nWaits for an entry (none free in the wanted state):\n"
#define LAYOUT_WAITS_ROW "%-20s %" PRIu64 " waits, %.3f s\n"
#define LAYOUT_ERRORS_HEAD "\nErrors:\n"
#define LAYOUT_ERRORS_ROW "%-20s %" PRIu64 " failed:"
#define LAYOUT_ERRNO " %s (%" PRIu64 ")"
#define LAYOUT_ERR_OTHER " other (%" PRIu64 ")"
#define LAYOUT_VERIFY_HEAD                                                  \
	"\nVerify errors (reads of data fbrun did not write):\n"
#define LAYOUT_VERIFY_ROW "%-20s %" PRIu64 " verify errors\n"
#define LAYOUT_CSV_HEAD                                                     \
	"name,type,thread,ops,ops_per_s,mb_per_s,ms_per_op,us_per_op_cpu,"   \
	"bytes,read_bytes,write_bytes,errors,p50_ms,p90_ms,p99_ms,p99_9_ms,"  \
	"max_ms\n"
/* after name,type,thread: ops ... max_ms */
#define LAYOUT_CSV_ROW                                                      \
	",%" PRIu64 ",%.3f,%.3f,%.6f,%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64   \
	",%" PRIu64 ",%.6f,%.6f,%.6f,%.6f,%.6f\n"

/*
 * One rank of a job (fbrun-mpi) as its line in the per-rank table: the
 * counts the line is computed from, so that the run (report/ranks.c) and
 * fbrun report (compare/replay.c) print it from the same numbers.
 */
struct layout_rank {
	const char *host;
	double secs; /* its own measured time */
	uint64_t ops, bytes, lat_ns; /* its I/O operations, as the IO Summary */
	uint64_t p99_ns, errors;
};

/* How many distinct host names the ranks have. */
size_t layout_rank_hosts(const struct layout_rank *k, size_t n);
/*
 * The per-rank table, the spread of the ranks' ops/s and, when
 * stonewall_rank >= 0, the line naming the rank whose work ended the run
 * (--stonewall).  Nothing for n == 0.
 */
void layout_ranks(FILE *out, const struct layout_rank *k, size_t n,
		  int stonewall_rank);

#endif
