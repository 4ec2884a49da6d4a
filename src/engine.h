/*
 * Executes a compiled workload: the top-level statements in order
 * (echo, system, sleep, create files, run), the filesets' lifetime and
 * the report.  Returns an exit status: 0 ok, 1 the run failed, 2 a
 * fileset could not be used safely.
 */
#ifndef FBRUN_ENGINE_H
#define FBRUN_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "datapat.h"
#include "ir.h"

struct results;

enum report_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CSV,
};

struct engine_opts {
	const char *script; /* for messages and the JSON */
	uint64_t runtime_s; /* 0: the script's run time */
	uint64_t interval_s; /* --interval: 0 if not given */
	bool interval_flowops; /* --interval-flowops */
	bool keep; /* leave the filesets on disk */
	bool force; /* preallocate even when it will not fit */
	bool continue_on_error;
	bool quiet; /* no log lines */
	enum report_format format; /* of standard output */
	const char *output; /* also write the report here (.json, .csv) */
	uint64_t seed; /* of the threads' random numbers; 0: from the clock */
	/*
	 * A run of a series (fbrun bonnie's phases): its filesets carry
	 * reuse, so the next run finds them; they are removed after a failed
	 * run, or after this one if it is the series' last.
	 */
	bool series, series_last;
	/* set: the results go here instead of being printed */
	void (*collect)(const struct results *r, void *arg);
	void *collect_arg;
	struct datapat data; /* --data: for filesets and flowops without one */
};

int engine_run(const struct workload *w, const struct engine_opts *o);

#endif
