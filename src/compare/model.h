/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What fbrun compare knows of each run, taken by compare/read out of the
 * model its results file is read into (results/read.h, results/shown.h),
 * and the figures derived from it that the text table and the HTML page
 * share.  Nothing here knows of JSON.
 */
#ifndef FBRUN_COMPARE_MODEL_H
#define FBRUN_COMPARE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"
#include "results/shown.h"

/* The per-flowop figures compared, in table and chart order. */
enum cmp_metric {
	CM_OPS, /* ops/s */
	CM_MB, /* mb/s */
	CM_MS, /* ms/op */
	CM_CPU, /* us/op-cpu */
	CM_P99, /* p99 latency, ms */
	CM_RP99, /* an open loop's p99 response time, ms (compare_model_shown) */
	CM_COUNT,
};

struct cmp_metric_info {
	const char *name; /* as in the text table: "ops/s" */
	const char *title; /* chart heading */
	int prec; /* decimals shown */
	bool higher_better;
	const char *key; /* in compare's JSON and CSV: "ops_per_sec" */
};

extern const struct cmp_metric_info cmp_metrics[CM_COUNT];

/* The IO Summary figures, in results_shown_summary_keys' order. */
enum { CMP_NSUMMARY = RESULTS_NSUMMARY };

struct cmp_summary_info {
	const char *name;
	int prec;
};

extern const struct cmp_summary_info cmp_summary[CMP_NSUMMARY];

/*
 * What a flowop does, by its type, for the verdict of groups: from the
 * flowop table's flags, which compare cannot read (it knows no
 * language), so the caller of compare_main gives the look-up.
 */
enum cmp_kind {
	CK_UNKNOWN, /* no type in the file, or a composite: not in the table */
	CK_NONE, /* no I/O: a delay, a limit, a semaphore, finishon... */
	CK_READ,
	CK_WRITE,
	CK_FLUSH, /* fsync, sync */
	CK_IO, /* other I/O: opens, closes, creates, deletes, stats... */
	CK_COUNT,
};
typedef enum cmp_kind (*cmp_kind_fn)(const char *type);

struct cmp_flowop {
	const char *name; /* the run's model's */
	const char *type; /* "read", a composite's name; NULL if none */
	enum cmp_kind kind; /* CK_UNKNOWN until compare_model_kinds */
	double fig[CM_COUNT];
	bool has[CM_COUNT]; /* false: the run lacks the figure */
	bool idle; /* its "ops" is 0: it did nothing, so has no latency */
	uint64_t errors; /* its failed operations ("errors") */
	/* the "histogram" array's elements, as the file has them */
	const struct results_bucket *hist;
	size_t nhist;
};

/* A script variable; value NULL when the file's is not a string. */
struct cmp_var {
	const char *name, *value;
};

/*
 * One results file: its model (results_read) and what compare takes of
 * it.  Strings are the model's, NULL where the file lacks them.
 */
struct cmp_run {
	const char *path;
	char *label;
	struct results *res;
	const char *script, *script_sha256, *started, *ended_by, *error;
	const char *data, *kernel;
	double cpus, seconds; /* 0 if missing */
	/* the first fileset's */
	const char *fs_type, *mountpoint, *mount_options;
	double summary[CMP_NSUMMARY];
	bool has_summary[CMP_NSUMMARY];
	/* the least busy emulated accelerator's utilisation, % (if any) */
	double au;
	bool has_au;
	struct cmp_flowop *flowops;
	size_t nflowops;
	const struct results_point *iv; /* "intervals", in the file's order */
	size_t niv;
	size_t nleft; /* flowops left out of the comparison (--common) */
	struct cmp_var *vars; /* in the file's order */
	struct cmp_var **vars_sorted; /* by name, for cmp_var */
	size_t nvars;
};

/* One flowop present in every run: its record in each. */
struct cmp_row {
	const char *name;
	const struct cmp_flowop **fo; /* [nruns] */
};

struct cmp {
	size_t nruns;
	struct cmp_run *runs;
	size_t nrows;
	struct cmp_row *rows;
	bool same_script;
};

/* Each flowop's kind, by its type (CK_UNKNOWN without one). */
void compare_model_kinds(struct cmp *c, cmp_kind_fn kind);
/* Sort a run's variables by name (after reading them). */
void cmp_run_index_vars(struct cmp_run *r);
/* What a run owns (its model too); not the run, its path or label. */
void cmp_run_clear(struct cmp_run *r);

/*
 * Whether a metric has rows: every one does, but an open loop's response
 * times, which only a run with rate= has (a closed loop's comparison is
 * as it was).
 */
bool compare_model_shown(const struct cmp *c, enum cmp_metric m);
/* A flowop's figure for a metric; false when the run lacks it. */
bool cmp_value(const struct cmp_flowop *fo, enum cmp_metric m, double *out);
bool cmp_summary_value(const struct cmp_run *r, size_t i, double *out);
/*
 * Decimals to show a row of n values (those with ok[i]) with: prec, or
 * more so that the smallest non-zero one has two significant digits.
 */
int cmp_prec(const double *v, const bool *ok, size_t n, int prec);
/* "1.06x"; "n/a" when the base is 0 and v is not. */
void cmp_ratio(char *buf, size_t len, double v, double base);

/* A run's value of a script variable, "-" if it has none. */
const char *cmp_var(const struct cmp_run *r, const char *name);
/*
 * What differs between the runs besides the flowops, one row each: --data,
 * the mount options, then the script variables ("$dir").  Free with
 * cmp_diffs_free.
 */
struct cmp_diff {
	char *name;
	const char **values; /* per run, owned by the runs */
};
struct cmp_diff *cmp_diffs(const struct cmp *c, size_t *n);
void cmp_diffs_free(struct cmp_diff *d, size_t n);
/*
 * fbrun-mpi's per-rank table of a job as the run printed it (from a blank
 * line); nothing for a run of one process.
 */
void cmp_run_ranks_text(FILE *out, const struct cmp_run *r);
/* Short description of a run's file system: "ext4 on /" or "?". */
void cmp_run_fs(const struct cmp_run *r, char *buf, size_t len);

/*
 * Text from results files must not drive the terminal: C0 and C1 control
 * characters (raw or UTF-8 encoded) become '?' (util/jsonw.h's
 * jw_put_clean keeps a JSON's values).
 */
void cmp_put_clean(FILE *out, const char *s, size_t n);

#endif
