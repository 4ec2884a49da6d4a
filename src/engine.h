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

#include "ir.h"

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
	bool continue_on_error;
	bool quiet; /* no log lines */
	enum report_format format; /* of standard output */
	const char *output; /* also write the report here (.json, .csv) */
};

int engine_run(const struct workload *w, const struct engine_opts *o);

#endif
