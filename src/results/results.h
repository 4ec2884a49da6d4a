/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A run's results: the one model of them.  The engine fills it once,
 * after the run (results_collect in engine/results.h); a results file is
 * read back into it (results/read.h) and written from it (results/write.h);
 * a job's processes send theirs to rank 0 as that same file's text
 * (results/gather.h).  Plain data: every name is a copy, nothing points
 * into the script, so a model read from a file is the same as a run's.
 */
#ifndef FBRUN_RESULTS_H
#define FBRUN_RESULTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "results/stats.h"
#include "util/diskstat.h"

struct results_shown;

/* Why the run ended ("ended_by" in the file). */
enum results_end {
	RESULTS_END_NONE,
	RESULTS_END_TIMEOUT,
	RESULTS_END_DONE,
	RESULTS_END_ERROR,
	RESULTS_END_SIGNAL,
};

/* The latency quantiles the text table and the CSV show. */
enum { RESULTS_P50, RESULTS_P90, RESULTS_P99, RESULTS_P999, RESULTS_NQ };

/* mb/s's unit: every "mb" a printer shows is a MiB. */
#define RESULTS_MIB (1024.0 * 1024.0)

/*
 * The figures a flowop's row and the IO Summary show, worked out once by
 * results_derive from the counts; the printers, the writer, --repeat and
 * fbrun curve only read them.
 */
struct results_figures {
	double ops_s, mb_s; /* a second of the measured time */
	double ms_op; /* the mean latency */
	/*
	 * CPU per op: a flowop's, of the ops it sampled; the IO Summary's,
	 * the process's CPU time over the I/O ops
	 */
	double cpu_us;
	double resp_ms; /* an open loop's mean response time; 0 without */
};

struct flowop_result {
	char *label; /* the name in every report */
	char *name; /* the flowop's own name, before its label */
	char *type; /* "read", a composite's name, ... */
	char *thread, *process;
	char *data; /* its data pattern, NULL where none is set */
	/* what it counts as (its FF_* flags, copied by results_collect) */
	bool io, reads, writes, mean, composite;
	/* a replay's flowop or one of its rows: its mismatches always shown
	   (read from a file: the file has them) */
	bool replays;
	struct fstats s; /* merged over every worker */
	uint64_t rd_bytes, wr_bytes; /* s.bytes, if it reads or writes */
	/* s's quantiles, clamped (ns); read from a file, the file's own */
	uint64_t q[RESULTS_NQ];
	/* an open loop's: the response times' (s.resp), 0 without */
	uint64_t rq[RESULTS_NQ];
	/*
	 * A replay's own row (its pass count), 0 for any other: the ops one
	 * pass of all its instances makes and those its rows counted, so a
	 * pass the run cut short says how far it got; of a dbench loadfile,
	 * the bytes of its reads and writes (dbench's MB/sec counts those).
	 */
	uint64_t pass_ops, row_ops;
	bool loadfile;
	uint64_t loadfile_bytes;
	/* derived (results_derive): its row's figures; dbench's MB/sec */
	struct results_figures fig;
	double loadfile_mbs; /* loadfile_bytes a second, in 10^6 bytes */
};

/*
 * An open loop's source (rate=): a thread, each pass of its flowops an
 * arrival (its rate= or its process's), or a flowop, each op of it one.
 * Its arrivals in the measured run: offered = done + dropped + unserved.
 */
struct arrival_result {
	char *name; /* the thread's name, or the flowop's label */
	bool flowop; /* a flowop's rate= */
	char *thread, *process;
	char *arrivals; /* "fixed" or "poisson" */
	double rate; /* offered a second: every instance's (and rank's) */
	uint64_t instances; /* the workers that offer it */
	uint64_t backlog; /* each one's, at most */
	uint64_t offered, done, late, dropped, unserved;
	uint64_t most_waiting; /* the longest one worker's backlog was */
	/* those started on time: how late their threads woke, in all, most */
	uint64_t woken, wake_ns, wake_max_ns;
	bool held; /* derived: none dropped, and done 95% of offered or more */
};

/*
 * An emulated accelerator: an instance of a thread with accelerator=N,
 * busy while its compute flowops run (doc/language.md, "Accelerators and
 * data loading").  Its utilisation is busy_s over its process's measured
 * time, secs.
 */
struct accel_result {
	char *thread, *process;
	unsigned rank; /* its process in an fbrun-mpi job; 0 alone */
	double busy_s, secs;
	int threshold; /* percent it must keep busy to pass */
};

/* The accelerators together: the service metric of an AI workload. */
struct au_summary {
	size_t n;
	double min, mean; /* percent */
	int threshold; /* the highest any asks for */
	bool pass; /* every one at or above its own threshold */
};

/* A fileset as the script defined it and its tree as laid out. */
struct fileset_result {
	char *name, *path;
	int64_t entries;
	char *data; /* its data pattern, NULL where none is set */
	bool known; /* the fileset was laid out: the shape below is its */
	uint64_t dirs;
	double mean_width, mean_depth;
};

/* A script variable as the results file shows it. */
struct var_result {
	char *name, *value;
};

/* One --interval or psrun sample. */
struct interval_result {
	double t_s; /* its end, seconds since the run started */
	double secs; /* its length */
	uint64_t ops, bytes, errors;
	uint64_t p50_ns, p99_ns; /* with latency: the I/O ops' quantiles */
	uint64_t rp50_ns, rp99_ns; /* and an open loop's response times' */
	uint64_t *fo_ops; /* per flowop: completed operations */
};

/* One process's part of a job run by many (fbrun-mpi's ranks). */
struct rank_result {
	char host[64];
	double secs; /* its own measured time */
	uint64_t io_ops, io_bytes, io_lat_ns; /* as the IO Summary counts */
	uint64_t p99_ns, max_ns; /* of its I/O operations */
	uint64_t cpu_ns; /* its user + system CPU time in the run */
	uint64_t errors; /* failed operations of every flowop */
	/* derived (results_derive): its row of the per-rank table */
	double ops_s, mb_s, ms_op;
};

struct results {
	struct fileset_result *filesets;
	size_t nfilesets;
	struct var_result *vars;
	size_t nvars;
	bool lathist; /* the script asked for latency histograms */
	char script_sha256[65]; /* hex; "" if the workload has no source */
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
	/*
	 * --cache-limit: the bound in bytes (0 without), the cgroup version
	 * that kept it ("v1", "v2"), the files dropped from the page cache
	 * before the run.
	 */
	uint64_t cache_limit, cache_files;
	char cache_cgroup[4];
	struct flowop_result *fo; /* per flowop, in definition order */
	size_t nfo;
	size_t nworkers;
	uint64_t cpu_ns; /* process user + system time during the run */
	uint64_t cpu_sys_ns; /* the system part of it: time in syscalls */
	enum results_end reason;
	char note[256]; /* why the run ended early, if it did */
	/*
	 * the note is a finish condition met (finishoncount...): the work
	 * was done, not cut short; this process's only (not in the JSON)
	 */
	bool note_done;
	char error[PATH_MAX + 512]; /* the first failure (its path and more) */
	/* IO Summary */
	uint64_t io_ops, io_bytes, rd_ops, wr_ops, io_lat_ns;
	uint64_t rd_bytes, wr_bytes;
	/*
	 * The I/O flowops' counters together; read from a file, only its
	 * scalars (the file keeps no histogram of the summary).
	 */
	struct fstats io;
	uint64_t io_q[RESULTS_NQ]; /* io's quantiles, clamped (ns) */
	uint64_t io_rq[RESULTS_NQ]; /* its response times', if open loop */
	/* derived (results_derive): the IO Summary's figures */
	struct results_figures sum;
	double rd_s, wr_s; /* reads and writes a second */
	/* the emulated accelerators, in worker (and rank) order */
	struct accel_result *acc;
	size_t nacc;
	/* the open loop's sources, in the script's order (NULL: closed) */
	struct arrival_result *arr;
	size_t narr;
	/*
	 * Little's law: the threads inside a timed operation on average,
	 * the sum over flowops of ops/s x mean latency (composites left out:
	 * their children are counted).  Near nworkers in a closed loop.
	 */
	double in_ops;
	uint64_t waits, wait_ns; /* every flowop's blocks for an entry */
	struct interval_result *iv; /* the samples, in time order */
	size_t niv;
	bool iv_latency; /* the samples carry p50_ns and p99_ns */
	bool iv_open; /* and rp50_ns and rp99_ns */
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
	/*
	 * Read from a file: its figures and strings as it shows them
	 * (results/shown.h); NULL in a run's own model.
	 */
	struct results_shown *shown;
};

/* An empty model for nfo flowops (their counters initialised). */
struct results *results_new(size_t nfo, size_t nfilesets);
void results_free(struct results *r);

/* What results_derive works from. */
enum results_basis {
	/*
	 * A run's or a job's counters, the whole truth: the IO Summary's
	 * sums, every quantile, the waits, the threads inside operations
	 * and the sources' held are worked out from them too.
	 */
	RESULTS_FROM_COUNTERS,
	/* A results file's: its sums and quantiles kept as it has them. */
	RESULTS_FROM_FILE,
};

/*
 * What follows from the counts and the measured time: every figure shown
 * (each flowop's and the IO Summary's struct results_figures, the reads
 * and writes a second, a loadfile's MB/sec, each rank's ops/s, mb/s and
 * ms/op) and, from counters, what `from` says.  Called once the model is
 * whole: after a run's collect, a file's read, a job's merge.
 */
void results_derive(struct results *r, enum results_basis from);
/* n a second over secs, 0 unless secs > 0: every rate shown is this. */
double results_rate(uint64_t n, double secs);
/*
 * --steady: judged on the last third of the intervals (rounded up), a
 * last one shorter than half of interval_ns left out.
 */
void results_judge_steady(struct results *r, uint64_t interval_ns);

/* A latency quantile of s in ns, clamped to what was seen; 0 if none. */
uint64_t results_quantile(const struct fstats *s, double q);
/* The same of its response times (an open loop's); 0 if none. */
uint64_t results_resp_quantile(const struct fstats *s, double q);
/* Whether the run has an open loop: response times to show. */
bool results_open_loop(const struct results *r);
/* A source's achieved rate: the arrivals done a second. */
double results_achieved(const struct results *r,
			const struct arrival_result *a);
/* "timeout", "done", ... as "ended_by" has it; and back (-1: unknown). */
const char *results_end_name(enum results_end why);
int results_end_parse(const char *name, enum results_end *why);
/* One accelerator's utilisation, percent. */
double results_au_pct(const struct accel_result *a);
/* The accelerators' summary; n 0 when the run has none. */
void results_au(const struct results *r, struct au_summary *s);
/* Add an accelerator to r (its strings copied). */
void results_add_accel(struct results *r, const struct accel_result *a);

/* How many distinct host names the ranks have. */
size_t results_rank_hosts(const struct results *r);

/*
 * A job's results from its n processes' (parts, in rank order, as read
 * from their texts; mine is the calling process's own): counters summed
 * (the job's histogram is the sum of theirs), the time the longest of
 * theirs, each one's figures in ranks[] (hosts[k] its host).  What
 * describes the script, the series and the devices are mine's.
 */
struct results *results_merge(const struct results *mine,
			      struct results *const *parts,
			      char *const *hosts, size_t n);

#endif
