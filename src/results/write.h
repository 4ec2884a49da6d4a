/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The results file: a run's results as JSON (doc/results.schema.json,
 * its version in util/schema_version.h), written for -o and --format
 * json, and as the text a job's processes send to rank 0
 * (results/gather.h).  The one writer of it; results/read.h reads it.
 */
#ifndef FBRUN_RESULTS_WRITE_H
#define FBRUN_RESULTS_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"
#include "util/jsonw.h"

/* A fileset's file system, as the file records it. */
struct results_fsinfo {
	const char *type, *mountpoint, *device, *options;
};

/* A feature of the build: its name, what it is (NULL: not built in). */
struct results_feature {
	const char *name, *value;
};

/*
 * What a results file says besides the results: the run, the script and
 * the machine, found by the caller (report_meta_get) so that the writer
 * only formats.  A member NULL is written as "".
 */
struct results_meta {
	const char *script;
	const char *version; /* "fbrun_version" and the build's */
	const char *data; /* --data */
	uint64_t peak_rss; /* bytes, the process's largest resident set */
	const char *kernel, *machine;
	long cpus;
	uint64_t memory; /* bytes */
	const struct results_fsinfo *fs; /* per fileset */
	const struct results_feature *features;
	size_t nfeatures;
	/*
	 * Every figure that the file rounds for people (the CPU's system
	 * seconds, the warm-up's) written with all its digits instead: a
	 * job's gather, which sums them.
	 */
	bool exact;
};

/* The whole file: r's results and m's description, a line feed after. */
void results_write(FILE *out, const struct results *r,
		   const struct results_meta *m);

#endif
