/*
 * fbrun compare: read several JSON results files of one workload and show
 * them side by side, as a text table and optionally as an HTML page.
 */
#ifndef FBRUN_COMPARE_H
#define FBRUN_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/jsonread.h"

/* The per-flowop figures compared, in table and chart order. */
enum cmp_metric {
	CM_OPS, /* ops/s */
	CM_MB, /* mb/s */
	CM_MS, /* ms/op */
	CM_CPU, /* us/op-cpu */
	CM_P99, /* p99 latency, ms */
	CM_COUNT,
};

struct cmp_metric_info {
	const char *name; /* as in the text table: "ops/s" */
	const char *title; /* chart heading */
	int prec; /* decimals shown */
	bool higher_better;
};

extern const struct cmp_metric_info cmp_metrics[CM_COUNT];

/* The IO Summary figures, from each file's "summary" object. */
struct cmp_summary_info {
	const char *key; /* member of "summary" */
	const char *name;
	int prec;
};

extern const struct cmp_summary_info cmp_summary[];
extern const size_t cmp_nsummary;

struct cmp_run {
	const char *path;
	char *label;
	struct json_value *root;
	const struct json_value *flowops; /* the "flowops" array */
};

/* One flowop present in every run: its object in each. */
struct cmp_row {
	const char *name;
	const struct json_value **fo; /* [nruns] */
};

struct cmp {
	size_t nruns;
	struct cmp_run *runs;
	size_t nrows;
	struct cmp_row *rows;
	bool same_script;
};

/* Entry point of "fbrun compare ..."; argv[0] is "compare".  0 or 2. */
int compare_main(int argc, char **argv);

/* A flowop's figure for a metric; false when the file lacks it. */
bool cmp_value(const struct json_value *fo, enum cmp_metric m, double *out);
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
 * Whether member k of run's "variables" differs between the runs (and is
 * not one an earlier run already has: each name is listed once).
 */
bool cmp_var_differs(const struct cmp *c, size_t run, size_t k);
/*
 * What differs between the runs besides the flowops, one row each: --data,
 * the mount options, then the script variables ("$dir").  Free with
 * cmp_diffs_free.
 */
struct cmp_diff {
	char *name;
	const char **values; /* per run, owned by the runs' JSON */
};
struct cmp_diff *cmp_diffs(const struct cmp *c, size_t *n);
void cmp_diffs_free(struct cmp_diff *d, size_t n);
/* Short description of a run's file system: "ext4 on /" or "?". */
void cmp_run_fs(const struct cmp_run *r, char *buf, size_t len);

/* The page of --html; 0, or -1 with a message on stderr. */
int html_write(const char *path, const struct cmp *c);

#endif
