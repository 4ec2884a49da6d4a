/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Results files, parsed by jansson, into the model (read.h). */
#include "compare/read.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/read_int.h"
#include "results/read.h"
#include "util/msg.h"
#include "util/util.h"

/*
 * Every number is read as a double (as fbrun writes them, whatever their
 * size); \u0000 is allowed in values, which are C strings from here on.
 */
#define READ_FLAGS (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | \
		    JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL)

static char *str_dup(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? xstrdup(s) : NULL;
}

static bool num_get(const json_t *obj, const char *key, double *out)
{
	const json_t *v = json_object_get(obj, key);

	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

static double num_or(const json_t *obj, const char *key, double def)
{
	double v;

	return num_get(obj, key, &v) ? v : def;
}

/* A flowop's or the summary's counts, where the file has them. */
static void read_counts(const json_t *o, struct cmp_counts *n)
{
	static const char *const qk[CQ_COUNT] = { "p50", "p90", "p99",
						  "p99.9" };
	const json_t *lat = json_object_get(o, "latency_ns");

	n->ops = num_or(o, "ops", 0);
	n->bytes = num_or(o, "bytes", 0);
	n->rd_bytes = num_or(o, "read_bytes", 0);
	n->wr_bytes = num_or(o, "write_bytes", 0);
	n->reads = num_or(o, "reads", 0);
	n->writes = num_or(o, "writes", 0);
	n->cpu_ns = num_or(o, "cpu_ns", 0);
	n->cpu_samples = num_or(o, "cpu_samples", 0);
	n->errors = num_or(o, "errors", 0);
	n->err_other = num_or(o, "errors_other", 0);
	n->waits = num_or(o, "waits", 0);
	n->wait_ns = num_or(o, "wait_ns", 0);
	n->verify_errors = num_or(o, "verify_errors", 0);
	n->lat_sum = num_or(lat, "sum", 0);
	n->lat_max = num_or(lat, "max", 0);
	for (int q = 0; q < CQ_COUNT; q++)
		n->q[q] = num_or(lat, qk[q], 0);
}

static void read_errnos(const json_t *fo, struct cmp_flowop *f)
{
	const json_t *e = json_object_get(fo, "errnos");

	f->errnos = xcalloc(json_array_size(e) + 1, sizeof(*f->errnos));
	for (size_t k = 0; k < json_array_size(e); k++) {
		const json_t *x = json_array_get(e, k);

		f->errnos[f->nerrnos++] = (struct cmp_errno){
			str_dup(x, "message"), num_or(x, "count", 0)
		};
	}
}

static void read_flowop(const json_t *fo, struct cmp_flowop *f)
{
	static const char *const keys[CM_COUNT] = {
		[CM_OPS] = "ops_per_sec", [CM_MB] = "mb_per_sec",
		[CM_MS] = "ms_per_op", [CM_CPU] = "cpu_us_per_op",
	};
	const json_t *h = json_object_get(fo, "histogram");
	double ops = num_or(fo, "ops", 1);

	for (int m = 0; m < CM_COUNT; m++) {
		/* a flowop that never ran has no latency or CPU cost, not 0 */
		if (m != CM_OPS && m != CM_MB && ops == 0)
			continue;
		if (m == CM_CPU && num_or(fo, "cpu_samples", 1) == 0)
			continue;
		if (m == CM_P99)
			f->has[m] = num_get(json_object_get(fo, "latency_ns"),
					    "p99", &f->fig[m]);
		else
			f->has[m] = num_get(fo, keys[m], &f->fig[m]);
	}
	if (f->has[CM_P99])
		f->fig[CM_P99] /= 1e6;
	f->type = str_dup(fo, "type");
	f->thread = str_dup(fo, "thread");
	f->sample_mean = json_is_true(json_object_get(fo, "sample_mean"));
	read_counts(fo, &f->n);
	read_errnos(fo, f);
	f->nhist = json_array_size(h);
	f->hist = xcalloc(f->nhist ? f->nhist : 1, sizeof(*f->hist));
	for (size_t k = 0; k < f->nhist; k++) {
		const json_t *b = json_array_get(h, k);

		f->hist[k] = (struct cmp_bucket){ num_or(b, "from_ns", -1),
						  num_or(b, "to_ns", -1),
						  num_or(b, "count", -1) };
	}
}

/* The time series; points without both numbers are left out. */
static void read_intervals(struct cmp_run *r, const json_t *iv)
{
	r->iv = xcalloc(json_array_size(iv) + 1, sizeof(*r->iv));
	for (size_t i = 0; i < json_array_size(iv); i++) {
		const json_t *p = json_array_get(iv, i);
		struct cmp_point pt;

		if (num_get(p, "t_s", &pt.t) && num_get(p, "ops_per_s", &pt.ops))
			r->iv[r->niv++] = pt;
	}
}

static void read_steady(struct cmp_run *r, const json_t *s)
{
	r->steady_tol = num_or(s, "tolerance_pct", 0);
	r->steady_n = num_or(s, "intervals", 0);
	r->steady_mean = num_or(s, "mean_ops_per_sec", 0);
	r->steady_dev = num_or(s, "max_deviation_pct", 0);
	r->steady_judged = json_is_true(json_object_get(s, "judged"));
	r->steady = json_is_true(json_object_get(s, "steady"));
}

/*
 * A job's ranks (fbrun-mpi).  A file from before "latency_ns" in a rank
 * has its rounded ms_per_op and p99_ms: the table from those is close,
 * not the same.
 */
static void read_ranks(struct cmp_run *r, const json_t *root)
{
	const json_t *ks = json_object_get(root, "ranks");

	r->stopped_by = num_or(json_object_get(root, "mpi"),
			       "stopped_by_rank", -1);
	r->ranks = xcalloc(json_array_size(ks) + 1, sizeof(*r->ranks));
	for (size_t i = 0; i < json_array_size(ks); i++) {
		const json_t *k = json_array_get(ks, i);
		const json_t *lat = json_object_get(k, "latency_ns");
		struct cmp_rank *x = &r->ranks[r->nranks++];
		char *host = str_dup(k, "host");

		x->host = host ? host : xstrdup("?");
		x->secs = num_or(k, "seconds", 0);
		x->ops = num_or(k, "ops", 0);
		x->bytes = num_or(k, "bytes", 0);
		x->errors = num_or(k, "errors", 0);
		x->lat_sum = num_or(lat, "sum",
				    num_or(k, "ms_per_op", 0) * 1e6 * x->ops);
		x->p99 = num_or(lat, "p99", num_or(k, "p99_ms", 0) * 1e6);
	}
}

/* The model from a parsed file; -1 with the reason in err. */
static int read_root(struct cmp_run *r, const char *name, const json_t *root,
		     char *err, size_t errlen)
{
	const json_t *fos = json_object_get(root, "flowops");
	const json_t *sys = json_object_get(root, "system");
	const json_t *fs = json_array_get(json_object_get(root, "filesets"), 0);
	const json_t *sum = json_object_get(root, "summary");
	const json_t *vars = json_object_get(root, "variables"), *v;
	const char *key;

	if (results_check_version(name, root, err, errlen) < 0)
		return -1;
	if (!json_is_array(fos)) {
		snprintf(err, errlen, "%s is not an fbrun results file (no "
			 "\"flowops\" array); write one with fbrun -o RUN.json",
			 name);
		return -1;
	}
	r->script = str_dup(root, "script");
	r->script_sha256 = str_dup(root, "script_sha256");
	r->started = str_dup(root, "started");
	r->ended_by = str_dup(root, "ended_by");
	r->error = str_dup(root, "error");
	r->data = str_dup(root, "data");
	r->seconds = num_or(root, "seconds", 0);
	r->threads = num_or(root, "threads", 0);
	r->lathist = json_is_true(json_object_get(root,
						  "latency_histograms"));
	r->in_ops = num_or(sum, "threads_in_ops", 0);
	read_steady(r, json_object_get(root, "steady"));
	read_intervals(r, json_object_get(root, "intervals"));
	r->warm_s = num_or(json_object_get(root, "warmup"), "seconds", 0);
	r->warm_ops = num_or(json_object_get(root, "warmup"), "ops", 0);
	r->warm_done = json_is_true(json_object_get(
		json_object_get(root, "warmup"), "completed"));
	read_counts(sum, &r->io);
	read_ranks(r, root);
	read_disks(r, root);
	r->kernel = str_dup(sys, "kernel");
	r->cpus = num_or(sys, "cpus", 0);
	r->fs_type = str_dup(fs, "fs_type");
	r->mountpoint = str_dup(fs, "mountpoint");
	r->mount_options = str_dup(fs, "mount_options");
	for (size_t i = 0; i < CMP_NSUMMARY; i++)
		r->has_summary[i] = num_get(sum, cmp_summary[i].key,
					    &r->summary[i]);
	/* json_object_size is 0 for anything but an object */
	r->vars = xcalloc(json_object_size(vars) + 1, sizeof(*r->vars));
	json_object_foreach((json_t *)vars, key, v) {
		const char *s = json_string_value(v);

		r->vars[r->nvars++] = (struct cmp_var){
			xstrdup(key), s ? xstrdup(s) : NULL
		};
	}
	cmp_run_index_vars(r);
	r->flowops = xcalloc(json_array_size(fos) + 1, sizeof(*r->flowops));
	for (size_t i = 0; i < json_array_size(fos); i++) {
		const json_t *fo = json_array_get(fos, i);
		const char *fname = json_string_value(json_object_get(fo, "name"));

		if (!fname) {
			snprintf(err, errlen, "%s: flowop %zu of %zu has no "
				 "\"name\" string", name, i + 1,
				 json_array_size(fos));
			return -1;
		}
		r->flowops[i].name = xstrdup(fname);
		r->nflowops = i + 1;
		read_flowop(fo, &r->flowops[i]);
	}
	return 0;
}

/*
 * text[0..len) parsed, or NULL with the reason in err.  Editors on some
 * systems add a byte order mark; it is harmless, and skipped.
 */
static json_t *parse(const char *name, const char *text, size_t len,
		     char *err, size_t errlen)
{
	json_error_t e;
	json_t *root;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	root = json_loadb(text, len, READ_FLAGS, &e);
	if (!root)
		results_read_explain(text, len, &e, name, err, errlen);
	return root;
}

int cmp_read_text(struct cmp_run *r, const char *name, const char *text,
		  size_t len, char *err, size_t errlen)
{
	json_t *root;
	int rc;

	root = parse(name, text, len, err, errlen);
	if (!root)
		return -1;
	rc = read_root(r, name, root, err, errlen);
	json_decref(root);
	return rc;
}

int cmp_read_file(struct cmp_run *r)
{
	char err[512], *text;
	size_t n;
	int rc;

	if (!(text = results_load(r->path, &n)))
		return -1;
	rc = cmp_read_text(r, r->path, text, n, err, sizeof(err));
	free(text);
	return rc < 0 ? fb_error("%s", err) : 0;
}

int cmp_read_runs(const char *path, struct cmp_run **runs, size_t *nruns)
{
	char err[512], *text;
	size_t len, n;
	const json_t *reps;
	json_t *root;
	int rc = 0;

	*runs = NULL;
	*nruns = 0;
	if (!(text = results_load(path, &len)))
		return -1;
	root = parse(path, text, len, err, sizeof(err));
	if (!root) {
		free(text);
		return fb_error("%s", err);
	}
	reps = json_object_get(root, "repeats");
	n = json_array_size(reps) ? json_array_size(reps) : 1;
	*runs = xcalloc(n, sizeof(**runs));
	/* the file's own, before its runs' */
	rc = results_check_version(path, root, err, sizeof(err));
	for (size_t i = 0; i < n && rc == 0; i++) {
		(*runs)[i].path = path;
		*nruns = i + 1;
		rc = read_root(&(*runs)[i], path,
			       json_array_size(reps) ? json_array_get(reps, i) :
						       root,
			       err, sizeof(err));
	}
	json_decref(root);
	free(text);
	return rc < 0 ? fb_error("%s", err) : 0;
}

int cmp_read_file_text(struct cmp_run *r, char **text, size_t *len)
{
	char err[512];

	if (!(*text = results_load(r->path, len)))
		return -1;
	if (cmp_read_text(r, r->path, *text, *len, err, sizeof(err)) < 0) {
		free(*text);
		*text = NULL;
		return fb_error("%s", err);
	}
	return 0;
}
