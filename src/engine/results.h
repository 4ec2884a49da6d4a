/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
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
#include "util/diskstat.h"

struct flowop_result {
	const struct ir_flowop *f;
	const char *label; /* f->label: the name in every report */
	struct fstats s; /* merged over every worker */
	uint64_t rd_bytes, wr_bytes; /* s.bytes, if it reads or writes */
};

/* A fileset's tree as laid out (fileset_mean_width and _depth). */
struct tree_shape {
	bool known; /* the fileset was laid out */
	uint64_t dirs;
	double mean_width, mean_depth;
};

/* One process's part of a job run by many (fbrun-mpi's ranks). */
struct rank_result {
	char host[64];
	double secs; /* its own measured time */
	uint64_t io_ops, io_bytes, io_lat_ns; /* as the IO Summary counts */
	uint64_t p99_ns, max_ns; /* of its I/O operations */
	uint64_t cpu_ns; /* its user + system CPU time in the run */
	uint64_t errors; /* failed operations of every flowop */
};

struct results {
	const struct workload *w;
	struct tree_shape *trees; /* per IR fileset */
	time_t started; /* wall clock, for the JSON */
	uint64_t seed; /* --seed: the one the run drew its numbers from */
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
	/*
	 * A job of many processes: each one's figures, in rank order (NULL
	 * for one process), and the rank whose end ended the run for all
	 * (--stonewall), or -1.
	 */
	struct rank_result *ranks;
	size_t nranks;
	int stopped_by;
	/*
	 * What the filesets' block devices did in the measured run (NULL
	 * without filesets); in a job, rank 0's own.
	 */
	struct diskstat_set *disks;
};

struct results *results_collect(const struct run *run);
void results_free(struct results *r);

/*
 * One process's results as text for another process to merge (the
 * counters exactly, histograms included); malloc'd, its length in *len.
 */
char *results_serialise(const struct results *r, const char *host,
			size_t *len);
/*
 * A job's results from its n processes' serialised texts, in rank
 * order: counters summed (the job's histogram is the sum of theirs), the
 * time the longest of theirs, each one's figures in ranks[].  The tree
 * shapes and start time are those of mine, the calling process's.  NULL
 * with the reason in err if a text is malformed.
 */
struct results *results_merge(const struct results *mine,
			      char *const *texts, size_t n, char *err,
			      size_t errlen);

#endif
