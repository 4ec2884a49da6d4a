/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A results file, parsed by jansson, into the model (read.h). */
#define _DEFAULT_SOURCE /* timegm */
#include "results/read.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/read_int.h"
#include "util/msg.h"
#include "util/schema_version.h"
#include "util/util.h"

#define READ_FLAGS (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

static const json_t *get(const json_t *o, const char *key)
{
	return json_object_get(o, key);
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(get(o, key));
}

/* A count: exact when the file has it as an integer. */
static uint64_t u64(const json_t *o, const char *key)
{
	const json_t *v = get(o, key);
	double d;

	if (json_is_integer(v))
		return json_integer_value(v) > 0 ?
			       (uint64_t)json_integer_value(v) : 0;
	d = json_number_value(v);
	return d > 0 && d < 1.8e19 ? (uint64_t)d : 0;
}

/* A figure's whole part as a count, 0 if absurd. */
static uint64_t whole(double v)
{
	return v > 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

/* Nanoseconds from a figure in ms or s scaled to ns: rounded. */
static uint64_t ns_of(double v)
{
	return whole(v + 0.5);
}

static bool flag(const json_t *o, const char *key)
{
	return json_is_true(get(o, key));
}

static char *str_dup(const json_t *o, const char *key)
{
	const char *s = json_string_value(get(o, key));

	return s ? xstrdup(s) : NULL;
}

static void str_copy(char *out, size_t len, const json_t *o, const char *key)
{
	const char *s = json_string_value(get(o, key));

	snprintf(out, len, "%s", s ? s : "");
}

/* The counters of a flowop, its histogram and failures included. */
static void read_counters(struct fstats *s, const json_t *fo)
{
	const json_t *lat = get(fo, "latency_ns"), *h = get(fo, "histogram");
	const json_t *e = get(fo, "errnos");
	unsigned nerr = 0;

	s->count = u64(fo, "ops");
	s->bytes = u64(fo, "bytes");
	s->cpu_samples = u64(fo, "cpu_samples");
	s->cpu_ns = u64(fo, "cpu_ns");
	s->errors = u64(fo, "errors");
	s->verify_errors = u64(fo, "verify_errors");
	s->mismatches = u64(fo, "mismatches");
	s->err_other = u64(fo, "errors_other");
	s->waits = u64(fo, "waits");
	s->wait_ns = u64(fo, "wait_ns");
	s->lat_sum = u64(lat, "sum");
	s->lat_max = u64(lat, "max");
	s->lat_min = s->count ? u64(lat, "min") : UINT64_MAX;
	for (size_t k = 0; k < json_array_size(h); k++) {
		const json_t *b = json_array_get(h, k);
		uint64_t from = u64(b, "from_ns"), lo, hi;
		unsigned sub, g = hist_index(from, &sub);

		hist_bucket_range(g, sub, &lo, &hi);
		if (lo != from || !u64(b, "count"))
			continue; /* not a bucket of ours */
		if (!s->hist.group[g])
			hist_alloc_group(&s->hist, g);
		s->hist.group[g][sub] += u64(b, "count");
	}
	for (size_t k = 0; k < json_array_size(e) && nerr < FSTATS_ERRNOS;
	     k++) {
		const json_t *x = json_array_get(e, k);

		if (!json_is_integer(get(x, "errno")) || !u64(x, "count"))
			continue;
		s->err_no[nerr] = (int)json_integer_value(get(x, "errno"));
		s->err_count[nerr++] = u64(x, "count");
	}
}

static const char *const q_keys[RESULTS_NQ] = { "p50", "p90", "p99",
						 "p99.9" };

static void read_flowop(struct flowop_result *fr, const json_t *fo)
{
	fr->label = str_dup(fo, "name");
	fr->name = str_dup(fo, "flowop");
	fr->type = str_dup(fo, "type");
	fr->thread = str_dup(fo, "thread");
	fr->process = str_dup(fo, "process");
	fr->data = str_dup(fo, "data");
	fr->mean = flag(fo, "sample_mean");
	fr->rd_bytes = u64(fo, "read_bytes");
	fr->wr_bytes = u64(fo, "write_bytes");
	read_counters(&fr->s, fo);
	/* as the file has them: an older file's histogram may be partial */
	for (int q = 0; q < RESULTS_NQ; q++)
		fr->q[q] = u64(get(fo, "latency_ns"), q_keys[q]);
}

static void read_filesets(struct results *r, const json_t *fss)
{
	for (size_t i = 0; i < r->nfilesets; i++) {
		const json_t *o = json_array_get(fss, i);
		struct fileset_result *fs = &r->filesets[i];

		fs->name = str_dup(o, "name");
		fs->path = str_dup(o, "path");
		fs->entries = (int64_t)u64(o, "entries");
		fs->data = str_dup(o, "data");
		fs->known = json_is_number(get(o, "dirs"));
		fs->dirs = u64(o, "dirs");
		fs->mean_width = num(o, "mean_width");
		fs->mean_depth = num(o, "mean_depth");
	}
}

static void read_vars(struct results *r, const json_t *vars)
{
	const char *key;
	json_t *v;

	/* json_object_size is 0 for anything but an object */
	r->vars = xcalloc(json_object_size(vars) + 1, sizeof(*r->vars));
	json_object_foreach((json_t *)vars, key, v) {
		const char *s = json_string_value(v);

		r->vars[r->nvars++] = (struct var_result){
			xstrdup(key), xstrdup(s ? s : "")
		};
	}
}

static void read_intervals(struct results *r, const json_t *ivs)
{
	if (!json_is_array(ivs))
		return;
	r->iv = xcalloc(json_array_size(ivs) + 1, sizeof(*r->iv));
	for (r->niv = 0; r->niv < json_array_size(ivs); r->niv++) {
		const json_t *o = json_array_get(ivs, r->niv);
		const json_t *fos = get(o, "flowops");
		struct interval_result *iv = &r->iv[r->niv];

		iv->t_s = num(o, "t_s");
		iv->secs = num(o, "seconds");
		iv->ops = u64(o, "ops");
		iv->bytes = u64(o, "bytes");
		iv->errors = u64(o, "errors");
		if (json_is_number(get(o, "p50_ms")))
			r->iv_latency = true;
		iv->p50_ns = ns_of(num(o, "p50_ms") * 1e6);
		iv->p99_ns = ns_of(num(o, "p99_ms") * 1e6);
		iv->fo_ops = xcalloc(r->nfo + 1, sizeof(uint64_t));
		for (size_t f = 0; f < r->nfo; f++)
			iv->fo_ops[f] = u64(json_array_get(fos, f), "ops");
	}
}

static void read_steady(struct steady *s, const json_t *o)
{
	s->tol = num(o, "tolerance_pct") / 100;
	s->judged = flag(o, "judged");
	s->steady = flag(o, "steady");
	s->n = (size_t)u64(o, "intervals");
	s->mean = num(o, "mean_ops_per_sec");
	s->dev = num(o, "max_deviation_pct") / 100;
}

/* The IO Summary as the file has it (no histogram: its quantiles). */
static void read_summary(struct results *r, const json_t *o)
{
	const json_t *lat = get(o, "latency_ns");

	r->io_ops = r->io.count = u64(o, "ops");
	r->rd_ops = u64(o, "reads");
	r->wr_ops = u64(o, "writes");
	r->rd_bytes = u64(o, "read_bytes");
	r->wr_bytes = u64(o, "write_bytes");
	r->io_bytes = r->io.bytes = u64(o, "bytes");
	r->io.errors = u64(o, "errors");
	r->io.verify_errors = u64(o, "verify_errors");
	r->cpu_ns = u64(o, "cpu_ns");
	r->cpu_sys_ns = ns_of(num(o, "cpu_sys_seconds") * 1e9);
	r->io_lat_ns = r->io.lat_sum = u64(lat, "sum");
	r->io.lat_max = u64(lat, "max");
	for (int q = 0; q < RESULTS_NQ; q++)
		r->io_q[q] = u64(lat, q_keys[q]);
	r->in_ops = num(o, "threads_in_ops");
	r->waits = u64(o, "waits");
	/* the flowops' sum, exactly (the summary has it in seconds) */
	for (size_t i = 0; i < r->nfo; i++)
		r->wait_ns += r->fo[i].s.wait_ns;
}

static const char *text_or(const json_t *o, const char *key)
{
	const char *s = json_string_value(get(o, key));

	return s ? s : "?";
}

/* The device named by a slave's "slave_of", before it in the array. */
static int holder(const struct diskstat_set *s, const json_t *o)
{
	const char *name = json_string_value(get(o, "slave_of"));

	for (size_t i = 0; name && i < s->ndev; i++)
		if (strcmp(s->dev[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void read_dev(struct diskstat_set *s, const json_t *o)
{
	const json_t *fs = get(o, "filesets");
	int up = holder(s, o);
	struct diskstat *d = diskstat_add(s, text_or(o, "name"));
	struct diskstat_counts *c = &d->d;
	const char *parent = json_string_value(get(o, "parent"));

	d->major = (unsigned)u64(o, "major");
	d->minor = (unsigned)u64(o, "minor");
	d->slave_of = up;
	snprintf(d->parent, sizeof(d->parent), "%s", parent ? parent : "");
	for (size_t k = 0; k < json_array_size(fs); k++) {
		const char *f = json_string_value(json_array_get(fs, k));

		diskstat_add_fileset(d, f ? f : "?");
	}
	d->secs = num(o, "seconds");
	c->rd_ios = u64(o, "read_ios");
	c->rd_merges = u64(o, "read_merges");
	c->rd_sectors = u64(o, "read_sectors");
	c->rd_ticks = u64(o, "read_ticks_ms");
	c->wr_ios = u64(o, "write_ios");
	c->wr_merges = u64(o, "write_merges");
	c->wr_sectors = u64(o, "write_sectors");
	c->wr_ticks = u64(o, "write_ticks_ms");
	c->in_queue = u64(o, "in_queue_ms");
	c->io_ticks = u64(o, "io_ticks_ms");
	d->has_dc = json_is_number(get(o, "discard_ios"));
	d->has_fl = json_is_number(get(o, "flush_ios"));
	c->dc_ios = u64(o, "discard_ios");
	c->fl_ios = u64(o, "flush_ios");
}

/* "disk_stats" and "disk_stats_none"; NULL for a file without them. */
static struct diskstat_set *read_disks(const json_t *root)
{
	const json_t *devs = get(root, "disk_stats");
	const json_t *none = get(root, "disk_stats_none");
	struct diskstat_set *s;

	if (!json_is_array(devs))
		return NULL; /* a run without filesets, or from before them */
	s = xcalloc(1, sizeof(*s));
	for (size_t i = 0; i < json_array_size(devs); i++)
		if (json_is_object(json_array_get(devs, i)))
			read_dev(s, json_array_get(devs, i));
	for (size_t i = 0; i < json_array_size(none); i++) {
		const json_t *o = json_array_get(none, i);

		diskstat_add_none(s, text_or(o, "fileset"),
				  text_or(o, "reason"));
	}
	return s;
}

/*
 * A job's ranks (fbrun-mpi).  A file from before "latency_ns" in a rank
 * has its rounded ms_per_op and p99_ms: the table from those is close,
 * not the same.
 */
static void read_ranks(struct results *r, const json_t *root)
{
	const json_t *ks = get(root, "ranks");
	const json_t *by = get(get(root, "mpi"), "stopped_by_rank");

	/* the rank that ended the run (--stonewall), if one did */
	r->stopped_by = -1;
	if (json_is_number(by) && json_number_value(by) >= 0 &&
	    json_number_value(by) < 1e9)
		r->stopped_by = (int)json_number_value(by);
	if (!json_is_array(ks))
		return;
	r->ranks = xcalloc(json_array_size(ks) + 1, sizeof(*r->ranks));
	for (r->nranks = 0; r->nranks < json_array_size(ks); r->nranks++) {
		const json_t *k = json_array_get(ks, r->nranks);
		const json_t *lat = get(k, "latency_ns");
		struct rank_result *x = &r->ranks[r->nranks];

		snprintf(x->host, sizeof(x->host), "%s", text_or(k, "host"));
		x->secs = num(k, "seconds");
		x->io_ops = u64(k, "ops");
		x->io_bytes = u64(k, "bytes");
		x->errors = u64(k, "errors");
		x->io_lat_ns = json_is_number(get(lat, "sum")) ?
				       u64(lat, "sum") :
				       whole(num(k, "ms_per_op") * 1e6 *
					     (double)x->io_ops);
		x->p99_ns = json_is_number(get(lat, "p99")) ?
				    u64(lat, "p99") :
				    whole(num(k, "p99_ms") * 1e6);
		x->max_ns = u64(lat, "max");
	}
}

static void read_run(struct results *r, const json_t *root)
{
	const json_t *warm = get(root, "warmup");
	const char *when = json_string_value(get(root, "started"));
	struct tm tm = { 0 };

	if (when && strptime(when, "%Y-%m-%dT%H:%M:%SZ", &tm))
		r->started = timegm(&tm);
	r->seed = u64(root, "seed");
	r->secs = num(root, "seconds");
	if (results_end_parse(json_string_value(get(root, "ended_by")),
			      &r->reason) < 0)
		r->reason = RESULTS_END_NONE;
	str_copy(r->note, sizeof(r->note), root, "note");
	str_copy(r->error, sizeof(r->error), root, "error");
	str_copy(r->script_sha256, sizeof(r->script_sha256), root,
		 "script_sha256");
	r->nworkers = (size_t)u64(root, "threads");
	r->lathist = flag(root, "latency_histograms");
	r->warm_s = num(warm, "seconds");
	r->warm_done = flag(warm, "completed");
	r->warm_ops = u64(warm, "ops");
	r->warm_bytes = u64(warm, "bytes");
}

/* "N.M", each part 1 to 9 digits: its major in *major. */
static bool version_major(const char *s, unsigned long *major)
{
	size_t a = strspn(s, "0123456789"), b;

	if (a < 1 || a > 9 || s[a] != '.')
		return false;
	b = strspn(s + a + 1, "0123456789");
	if (b < 1 || b > 9 || s[a + 1 + b])
		return false;
	*major = strtoul(s, NULL, 10);
	return true;
}

int results_read_version(const char *name, const json_t *root, char *err,
			  size_t errlen)
{
	const json_t *v = get(root, "schema_version");
	const char *s = json_string_value(v);
	unsigned long major;

	if (!v)
		return 0;
	if (!s || !version_major(s, &major)) {
		snprintf(err, errlen, "%s: \"schema_version\" is not a string "
			 "\"MAJOR.MINOR\"", name);
		return -1;
	}
	if (major > SCHEMA_MAJOR) {
		snprintf(err, errlen, "%s: schema_version %s is newer than this "
			 "fbrun reads (%d.x and older): read it with a newer "
			 "fbrun", name, s, SCHEMA_MAJOR);
		return -1;
	}
	return 0;
}

/*
 * The series keeps a count per flowop per interval: a hand-made file of
 * many flowops and many empty intervals would ask for far more memory
 * than its size.  Each count fbrun writes takes over 16 bytes of the
 * file ({"name":"","ops":0}), so *cells, the file's bytes / 16 to begin
 * with and shared by a --repeat file's runs, is never short for a file
 * fbrun wrote.
 */
static int series_fits(const json_t *ivs, size_t nfo, size_t *cells,
		       const char *name, char *err, size_t errlen)
{
	size_t niv = json_array_size(ivs);

	if (niv && nfo > *cells / niv) {
		snprintf(err, errlen, "%s: %zu intervals of %zu flowops each "
			 "are more counts than the file can hold: not a file "
			 "fbrun wrote", name, niv, nfo);
		return -1;
	}
	*cells -= niv * nfo;
	return 0;
}

/* The model from a parsed file; NULL with the reason in err. */
static struct results *read_root(const json_t *root, const char *name,
				 size_t *cells, char *err, size_t errlen)
{
	const json_t *fos = get(root, "flowops");
	const json_t *fss = get(root, "filesets");
	struct results *r;

	if (results_read_version(name, root, err, errlen) < 0)
		return NULL;
	if (!json_is_array(fos)) {
		snprintf(err, errlen, "%s is not an fbrun results file (no "
			 "\"flowops\" array); write one with fbrun -o RUN.json",
			 name);
		return NULL;
	}
	for (size_t i = 0; i < json_array_size(fos); i++)
		if (!json_string_value(get(json_array_get(fos, i), "name"))) {
			snprintf(err, errlen, "%s: flowop %zu of %zu has no "
				 "\"name\" string", name, i + 1,
				 json_array_size(fos));
			return NULL;
		}
	if (series_fits(get(root, "intervals"), json_array_size(fos), cells,
			name, err, errlen) < 0)
		return NULL;
	r = results_new(json_array_size(fos), json_array_size(fss));
	read_run(r, root);
	read_filesets(r, fss);
	read_vars(r, get(root, "variables"));
	for (size_t i = 0; i < r->nfo; i++)
		read_flowop(&r->fo[i], json_array_get(fos, i));
	read_intervals(r, get(root, "intervals"));
	if (json_is_object(get(root, "steady")))
		read_steady(&r->steady, get(root, "steady"));
	read_summary(r, get(root, "summary"));
	r->disks = read_disks(root);
	read_ranks(r, root);
	r->shown = results_read_shown(root, r->nfo, r->nvars);
	return r;
}

/* text[0..len) parsed, or NULL with the reason in err. */
static json_t *parse(const char *text, size_t len, const char *name,
		     char *err, size_t errlen)
{
	json_error_t e;
	json_t *root;

	/* editors on some systems add a byte order mark: harmless, skipped */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	/* counts exactly; an integer past int64 (not ours) read as a double */
	root = json_loadb(text, len, READ_FLAGS, &e);
	if (!root)
		root = json_loadb(text, len,
				  READ_FLAGS | JSON_DECODE_INT_AS_REAL, &e);
	if (!root)
		results_read_explain(text, len, &e, name, err, errlen);
	return root;
}

struct results *results_read(const char *text, size_t len, const char *name,
			     char *err, size_t errlen)
{
	json_t *root = parse(text, len, name, err, errlen);
	size_t cells = len / 16;
	struct results *r;

	if (!root)
		return NULL;
	r = read_root(root, name, &cells, err, errlen);
	json_decref(root);
	return r;
}

int results_read_runs(const char *text, size_t len, const char *name,
		      struct results ***runs, size_t *nruns, char *err,
		      size_t errlen)
{
	json_t *root = parse(text, len, name, err, errlen);
	const json_t *reps = get(root, "repeats");
	size_t n = json_array_size(reps) ? json_array_size(reps) : 1;
	size_t cells = len / 16;
	int rc;

	*runs = NULL;
	*nruns = 0;
	if (!root)
		return -1;
	/* the file's own version, before its runs' */
	rc = results_read_version(name, root, err, errlen);
	if (rc == 0)
		*runs = xcalloc(n, sizeof(**runs));
	for (size_t i = 0; i < n && rc == 0; i++) {
		(*runs)[i] = read_root(json_array_size(reps) ?
					       json_array_get(reps, i) : root,
				       name, &cells, err, errlen);
		if (!(*runs)[i])
			rc = -1;
		else
			*nruns = i + 1;
	}
	json_decref(root);
	if (rc < 0) {
		for (size_t i = 0; i < *nruns; i++)
			results_free((*runs)[i]);
		free(*runs);
		*runs = NULL;
		*nruns = 0;
	}
	return rc;
}

char *results_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t n = 0, cap = 0, got;

	if (!f) {
		fb_error("cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	do {
		text = grow_array(text, &cap, n + 65536, 1);
		got = fread(text + n, 1, 65536, f);
		n += got;
		if (n > RESULTS_READ_MAX_SIZE) {
			fclose(f);
			free(text);
			fb_error("'%s' is too large (over %u MiB)", path,
				 RESULTS_READ_MAX_SIZE >> 20);
			return NULL;
		}
	} while (got > 0);
	if (ferror(f)) {
		fb_error("cannot read '%s': %s", path, strerror(errno));
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	*len = n;
	return text;
}
