/*
 * A run's results: the workers' counters merged once, after the run, into
 * plain figures that the printers (report/) and fbrun bonnie only read.
 */
#ifndef FBRUN_RESULTS_H
#define FBRUN_RESULTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "engine/monitor.h"
#include "engine/run.h"
#include "engine/stats.h"
#include "lang/ir.h"

struct flowop_result {
	const struct ir_flowop *f;
	char label[128]; /* name, or thread/name when the name repeats */
	struct fstats s; /* merged over every worker */
	uint64_t rd_bytes, wr_bytes; /* s.bytes, if it reads or writes */
};

/* A fileset's tree as laid out (fileset_mean_width and _depth). */
struct tree_shape {
	bool known; /* the fileset was laid out */
	uint64_t dirs;
	double mean_width, mean_depth;
};

struct results {
	const struct workload *w;
	struct tree_shape *trees; /* per IR fileset */
	time_t started; /* wall clock, for the JSON */
	double secs; /* the measured interval */
	/*
	 * --warmup: its length asked for (0 without), whether it ended
	 * before the run did, and the I/O it did, not counted in the rest.
	 */
	double warm_s;
	bool warm_done;
	uint64_t warm_ops, warm_bytes;
	struct flowop_result *fo; /* per flowop id, in definition order */
	size_t nfo;
	size_t nworkers;
	uint64_t cpu_ns; /* process user + system time during the run */
	uint64_t cpu_sys_ns; /* the system part of it: time in syscalls */
	enum stop_reason reason;
	char note[256]; /* why the run ended early, if it did */
	char error[PATH_MAX + 512]; /* the first failure (its path and more) */
	/* IO Summary */
	uint64_t io_ops, io_bytes, rd_ops, wr_ops, io_lat_ns;
	uint64_t rd_bytes, wr_bytes;
	struct fstats io; /* the I/O flowops' counters together */
	/*
	 * Little's law: the threads inside a timed operation on average,
	 * the sum over flowops of ops/s x mean latency (composites left out:
	 * their children are counted).  Near nworkers in a closed loop.
	 */
	double in_ops;
	uint64_t waits, wait_ns; /* every flowop's blocks for an entry */
	struct interval *iv; /* --interval or psrun samples, in time order */
	size_t niv;
	bool iv_latency; /* the samples carry p50_ns and p99_ns */
	/*
	 * --steady: whether the I/O ops/s of the intervals in the last third
	 * of the run are within steady_tol (a fraction) of their mean.
	 */
	struct steady {
		double tol; /* 0: not asked */
		size_t n; /* the intervals judged */
		bool judged; /* 2 or more */
		bool steady;
		double mean, dev; /* ops/s; the largest deviation, a fraction */
	} steady;
};

struct results *results_collect(const struct run *run);
void results_free(struct results *r);

#endif
