/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What a results file shows, as it shows it: the figures rounded as
 * written, whether each is there at all, the strings whole (NULL where
 * the file lacks one or has something else).  fbrun compare sets these
 * side by side; the rest of the model (results.h) holds the counts the
 * figures came from and the figures worked out from them again
 * (results_derive), which need not be the file's digits.
 * Only results_read fills it: a run's own model has none.
 */
#ifndef FBRUN_RESULTS_SHOWN_H
#define FBRUN_RESULTS_SHOWN_H

#include <stdbool.h>
#include <stddef.h>

/* A number of the file, and whether it is one there. */
struct results_num {
	double v;
	bool has;
};

/* A flowop's members read as shown (the counts that decide which apply). */
enum results_fig {
	RESULTS_FIG_OPS, /* "ops" */
	RESULTS_FIG_CPU_SAMPLES, /* "cpu_samples" */
	RESULTS_FIG_OPS_PER_SEC,
	RESULTS_FIG_MB_PER_SEC,
	RESULTS_FIG_MS_PER_OP,
	RESULTS_FIG_CPU_US_PER_OP,
	RESULTS_FIG_P99_NS, /* "latency_ns"'s "p99" */
	RESULTS_NFIG,
};

/* The IO Summary's figures, in results_shown_summary_keys' order. */
enum { RESULTS_NSUMMARY = 6 };

extern const char *const results_shown_summary_keys[RESULTS_NSUMMARY];

/* A "histogram" element as the file has it; -1 for a missing number. */
struct results_bucket {
	double from_ns, to_ns, count;
};

/* An "intervals" point with both numbers: its end (s), its I/O ops/s. */
struct results_point {
	double t, ops;
};

struct results_shown_fo {
	struct results_num fig[RESULTS_NFIG];
	struct results_bucket *hist; /* every element of "histogram" */
	size_t nhist;
};

struct results_shown {
	char *script, *script_sha256, *started, *ended_by, *error, *data;
	char *kernel;
	char *fs_type, *mountpoint, *mount_options; /* the first fileset's */
	double cpus; /* 0 if missing */
	struct results_num summary[RESULTS_NSUMMARY];
	struct results_shown_fo *fo; /* per flowop of the model */
	struct results_point *iv; /* points without both numbers left out */
	size_t niv;
	bool *var_string; /* per variable: the file's value is a string */
};

void results_shown_free(struct results_shown *s, size_t nfo);

#endif
