/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Executes a compiled workload: the top-level statements in order
 * (echo, system, sleep, create files, run), the filesets' lifetime, and
 * each run's results handed to the caller's deliver hook.  Returns an exit status: 0 ok, 1 the run failed, 2 a
 * fileset could not be used safely.
 */
#ifndef FBRUN_ENGINE_H
#define FBRUN_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/sys/peers.h"
#include "engine/worker/arrivals.h"
#include "lang/datapat.h"
#include "lang/ir.h"

struct ivlog;
struct results;

struct engine_opts {
	const char *script; /* for messages and the JSON */
	/* the file the script was read from; NULL for a text or stdin */
	const char *script_file;
	uint64_t runtime_s; /* 0: the script's run time */
	uint64_t interval_s; /* --interval: 0 if not given */
	uint64_t warmup_s; /* --warmup: run this long before measuring */
	double steady_pct; /* --steady: the tolerance in percent, 0: off */
	bool interval_flowops; /* --interval-flowops */
	bool keep; /* leave the filesets on disk */
	bool force; /* preallocate even when it will not fit */
	/* --allow-device-writes: write flowops may write a block device */
	bool allow_device_writes;
	/* --force-device: write a device with a file system on it */
	bool force_device;
	bool continue_on_error;
	bool quiet; /* no log lines */
	/* JSON or CSV on standard output: the run's lines go to stderr */
	bool data_on_stdout;
	const char *output; /* -o: checked against the filesets' trees */
	/*
	 * --seed: every random number of the run comes from it (the trees'
	 * layout, preallocation, each thread's draws); 0, the default, lays
	 * out filebench's trees (doc/running.md, "Random numbers and --seed").
	 */
	uint64_t seed;
	/* --interval-log: the series as CSV while the run goes, or NULL */
	struct ivlog *ivlog;
	/*
	 * A run of a series (fbrun bonnie's phases): its filesets carry
	 * reuse, so the next run finds them; they are removed after a failed
	 * run, or after this one if it is the series' last.
	 */
	bool series, series_last;
	/*
	 * Every fileset of the series is reused, whether its script says
	 * reuse or not (--repeat without --fresh).
	 */
	bool series_reuse;
	/*
	 * The series is over though its last run did not know it (fbrun
	 * curve's search): nothing runs; the trees series_reuse kept are
	 * taken and removed.
	 */
	bool series_end;
	/*
	 * --cache-limit: the run's process in a memory cgroup bounded to
	 * this many bytes, the filesets dropped from the page cache before
	 * the run (0: neither)
	 */
	uint64_t cache_limit;
	/* fbrun curve's load in place of the script's rate= */
	struct open_load_opts load;
	/*
	 * The results of each run (or of a run that could not start) go here:
	 * report_deliver prints them, fbrun bonnie keeps its figures.
	 * Returns 0, or -1 after a message (the run then exits 1).
	 */
	int (*deliver)(const struct results *r, void *arg);
	void *deliver_arg;
	struct datapat data; /* --data: for filesets and flowops without one */
	const struct engine_peers *peers; /* NULL: alone (peers_solo) */
};

int engine_run(const struct workload *w, const struct engine_opts *o);

#endif
