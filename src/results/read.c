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

/* A "histogram" array's buckets added to h; those not of ours left out. */
static void read_histogram(struct hist *h, const json_t *a)
{
	for (size_t k = 0; k < json_array_size(a); k++) {
		const json_t *b = json_array_get(a, k);
		uint64_t from = rd_u64(b, "from_ns"), lo, hi;
		unsigned sub, g = hist_index(from, &sub);

		hist_bucket_range(g, sub, &lo, &hi);
		if (lo != from || !rd_u64(b, "count"))
			continue;
		if (!h->group[g])
			hist_alloc_group(h, g);
		h->group[g][sub] += rd_u64(b, "count");
	}
}

/* An open loop's "response_ns", when the flowop has one. */
static void read_response(struct fstats *s, const json_t *o)
{
	struct resp *rp;

	if (!json_is_object(o))
		return;
	fstats_resp_alloc(s);
	rp = s->resp;
	rp->count = rd_u64(o, "count");
	rp->sum = rd_u64(o, "sum");
	rp->max = rd_u64(o, "max");
	rp->min = rp->count ? rd_u64(o, "min") : UINT64_MAX;
	read_histogram(&rp->hist, rd_get(o, "histogram"));
}

/* The counters of a flowop, its histogram and failures included. */
static void read_counters(struct fstats *s, const json_t *fo)
{
	const json_t *lat = rd_get(fo, "latency_ns");
	const json_t *e = rd_get(fo, "errnos");
	unsigned nerr = 0;

	s->count = rd_u64(fo, "ops");
	s->bytes = rd_u64(fo, "bytes");
	s->cpu_samples = rd_u64(fo, "cpu_samples");
	s->cpu_ns = rd_u64(fo, "cpu_ns");
	s->errors = rd_u64(fo, "errors");
	s->verify_errors = rd_u64(fo, "verify_errors");
	s->mismatches = rd_u64(fo, "mismatches");
	s->err_other = rd_u64(fo, "errors_other");
	s->waits = rd_u64(fo, "waits");
	s->wait_ns = rd_u64(fo, "wait_ns");
	s->lat_sum = rd_u64(lat, "sum");
	s->lat_max = rd_u64(lat, "max");
	s->lat_min = s->count ? rd_u64(lat, "min") : UINT64_MAX;
	read_histogram(&s->hist, rd_get(fo, "histogram"));
	read_response(s, rd_get(fo, "response_ns"));
	for (size_t k = 0; k < json_array_size(e) && nerr < FSTATS_ERRNOS;
	     k++) {
		const json_t *x = json_array_get(e, k);

		if (!json_is_integer(rd_get(x, "errno")) || !rd_u64(x, "count"))
			continue;
		s->err_no[nerr] = (int)json_integer_value(rd_get(x, "errno"));
		s->err_count[nerr++] = rd_u64(x, "count");
	}
}

static const char *const q_keys[RESULTS_NQ] = { "p50", "p90", "p99",
						 "p99.9" };

static void read_flowop(struct flowop_result *fr, const json_t *fo)
{
	fr->label = rd_str_dup(fo, "name");
	fr->name = rd_str_dup(fo, "flowop");
	fr->type = rd_str_dup(fo, "type");
	fr->thread = rd_str_dup(fo, "thread");
	fr->process = rd_str_dup(fo, "process");
	fr->data = rd_str_dup(fo, "data");
	fr->mean = rd_flag(fo, "sample_mean");
	fr->rd_bytes = rd_u64(fo, "read_bytes");
	fr->wr_bytes = rd_u64(fo, "write_bytes");
	fr->pass_ops = rd_u64(fo, "pass_ops");
	fr->replays = rd_get(fo, "mismatches") != NULL;
	fr->row_ops = rd_u64(fo, "row_ops");
	fr->loadfile = rd_get(fo, "loadfile_bytes") != NULL;
	fr->loadfile_bytes = rd_u64(fo, "loadfile_bytes");
	read_counters(&fr->s, fo);
	/* as the file has them: an older file's histogram may be partial */
	for (int q = 0; q < RESULTS_NQ; q++) {
		fr->q[q] = rd_u64(rd_get(fo, "latency_ns"), q_keys[q]);
		fr->rq[q] = rd_u64(rd_get(fo, "response_ns"), q_keys[q]);
	}
}

/* The open loop's sources ("arrivals"), if the run had any. */
static void read_arrivals(struct results *r, const json_t *as)
{
	if (!json_is_array(as))
		return;
	r->arr = xcalloc(json_array_size(as) + 1, sizeof(*r->arr));
	for (r->narr = 0; r->narr < json_array_size(as); r->narr++) {
		const json_t *o = json_array_get(as, r->narr);
		struct arrival_result *a = &r->arr[r->narr];
		const char *src = json_string_value(rd_get(o, "source"));

		/* a file without them: printed as '?' */
		a->name = rd_str_dup(o, "name");
		a->name = a->name ? a->name : xstrdup("?");
		a->flowop = src && !strcmp(src, "flowop");
		a->thread = rd_str_dup(o, "thread");
		a->process = rd_str_dup(o, "process");
		a->arrivals = rd_str_dup(o, "arrivals");
		a->rate = rd_num(o, "rate");
		a->instances = rd_u64(o, "instances");
		a->backlog = rd_u64(o, "backlog");
		a->offered = rd_u64(o, "offered");
		a->done = rd_u64(o, "done");
		a->late = rd_u64(o, "late");
		a->dropped = rd_u64(o, "dropped");
		a->unserved = rd_u64(o, "unserved");
		a->most_waiting = rd_u64(o, "most_waiting");
		a->woken = rd_u64(rd_get(o, "wake_ns"), "count");
		a->wake_ns = rd_u64(rd_get(o, "wake_ns"), "sum");
		a->wake_max_ns = rd_u64(rd_get(o, "wake_ns"), "max");
		a->held = rd_flag(o, "held");
	}
}

/* The emulated accelerators ("accelerators"), if the run had any. */
static void read_accels(struct results *r, const json_t *acc)
{
	const json_t *each = rd_get(acc, "each");

	for (size_t i = 0; i < json_array_size(each); i++) {
		const json_t *o = json_array_get(each, i);
		struct accel_result a = {
			.thread = (char *)json_string_value(rd_get(o, "thread")),
			.process = (char *)json_string_value(rd_get(o, "process")),
			.rank = (unsigned)rd_u64(o, "rank"),
			.busy_s = rd_num(o, "busy_seconds"),
			.secs = rd_num(o, "seconds"),
			.threshold = (int)rd_u64(o, "threshold_pct"),
		};

		results_add_accel(r, &a);
	}
}

static void read_filesets(struct results *r, const json_t *fss)
{
	for (size_t i = 0; i < r->nfilesets; i++) {
		const json_t *o = json_array_get(fss, i);
		struct fileset_result *fs = &r->filesets[i];

		fs->name = rd_str_dup(o, "name");
		fs->path = rd_str_dup(o, "path");
		fs->entries = (int64_t)rd_u64(o, "entries");
		fs->data = rd_str_dup(o, "data");
		fs->known = json_is_number(rd_get(o, "dirs"));
		fs->dirs = rd_u64(o, "dirs");
		fs->mean_width = rd_num(o, "mean_width");
		fs->mean_depth = rd_num(o, "mean_depth");
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
		const json_t *fos = rd_get(o, "flowops");
		struct interval_result *iv = &r->iv[r->niv];

		iv->t_s = rd_num(o, "t_s");
		iv->secs = rd_num(o, "seconds");
		iv->ops = rd_u64(o, "ops");
		iv->bytes = rd_u64(o, "bytes");
		iv->errors = rd_u64(o, "errors");
		if (json_is_number(rd_get(o, "p50_ms")))
			r->iv_latency = true;
		iv->p50_ns = rd_ns_of(rd_num(o, "p50_ms") * 1e6);
		iv->p99_ns = rd_ns_of(rd_num(o, "p99_ms") * 1e6);
		if (json_is_number(rd_get(o, "resp_p50_ms")))
			r->iv_open = true;
		iv->rp50_ns = rd_ns_of(rd_num(o, "resp_p50_ms") * 1e6);
		iv->rp99_ns = rd_ns_of(rd_num(o, "resp_p99_ms") * 1e6);
		iv->fo_ops = xcalloc(r->nfo + 1, sizeof(uint64_t));
		for (size_t f = 0; f < r->nfo; f++)
			iv->fo_ops[f] = rd_u64(json_array_get(fos, f), "ops");
	}
}

static void read_steady(struct steady *s, const json_t *o)
{
	s->tol = rd_num(o, "tolerance_pct") / 100;
	s->judged = rd_flag(o, "judged");
	s->steady = rd_flag(o, "steady");
	s->n = (size_t)rd_u64(o, "intervals");
	s->mean = rd_num(o, "mean_ops_per_sec");
	s->dev = rd_num(o, "max_deviation_pct") / 100;
}

/* The IO Summary as the file has it (no histogram: its quantiles). */
static void read_summary(struct results *r, const json_t *o)
{
	const json_t *lat = rd_get(o, "latency_ns");

	r->io_ops = r->io.count = rd_u64(o, "ops");
	r->rd_ops = rd_u64(o, "reads");
	r->wr_ops = rd_u64(o, "writes");
	r->rd_bytes = rd_u64(o, "read_bytes");
	r->wr_bytes = rd_u64(o, "write_bytes");
	r->io_bytes = r->io.bytes = rd_u64(o, "bytes");
	r->io.errors = rd_u64(o, "errors");
	r->io.verify_errors = rd_u64(o, "verify_errors");
	r->cpu_ns = rd_u64(o, "cpu_ns");
	r->cpu_sys_ns = rd_ns_of(rd_num(o, "cpu_sys_seconds") * 1e9);
	r->io_lat_ns = r->io.lat_sum = rd_u64(lat, "sum");
	r->io.lat_max = rd_u64(lat, "max");
	for (int q = 0; q < RESULTS_NQ; q++) {
		r->io_q[q] = rd_u64(lat, q_keys[q]);
		r->io_rq[q] = rd_u64(rd_get(o, "response_ns"), q_keys[q]);
	}
	if (json_is_object(rd_get(o, "response_ns"))) {
		fstats_resp_alloc(&r->io);
		r->io.resp->count = rd_u64(rd_get(o, "response_ns"), "count");
		r->io.resp->sum = rd_u64(rd_get(o, "response_ns"), "sum");
		r->io.resp->max = rd_u64(rd_get(o, "response_ns"), "max");
	}
	r->in_ops = rd_num(o, "threads_in_ops");
	r->waits = rd_u64(o, "waits");
	/* the flowops' sum, exactly (the summary has it in seconds) */
	for (size_t i = 0; i < r->nfo; i++)
		r->wait_ns += r->fo[i].s.wait_ns;
}

static void read_run(struct results *r, const json_t *root)
{
	const json_t *warm = rd_get(root, "warmup");
	const json_t *cache = rd_get(root, "cache_limit");
	const char *when = json_string_value(rd_get(root, "started"));
	struct tm tm = { 0 };

	if (when && strptime(when, "%Y-%m-%dT%H:%M:%SZ", &tm))
		r->started = timegm(&tm);
	r->seed = rd_u64(root, "seed");
	r->secs = rd_num(root, "seconds");
	if (results_end_parse(json_string_value(rd_get(root, "ended_by")),
			      &r->reason) < 0)
		r->reason = RESULTS_END_NONE;
	rd_str_copy(r->note, sizeof(r->note), root, "note");
	rd_str_copy(r->error, sizeof(r->error), root, "error");
	rd_str_copy(r->script_sha256, sizeof(r->script_sha256), root,
		 "script_sha256");
	if (cache) {
		r->cache_limit = rd_u64(cache, "bytes");
		r->cache_files = rd_u64(cache, "files_dropped");
		rd_str_copy(r->cache_cgroup, sizeof(r->cache_cgroup), cache,
			    "cgroup");
	}
	r->nworkers = (size_t)rd_u64(root, "threads");
	r->lathist = rd_flag(root, "latency_histograms");
	r->warm_s = rd_num(warm, "seconds");
	r->warm_done = rd_flag(warm, "completed");
	r->warm_ops = rd_u64(warm, "ops");
	r->warm_bytes = rd_u64(warm, "bytes");
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
	const json_t *v = rd_get(root, "schema_version");
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
	const json_t *fos = rd_get(root, "flowops");
	const json_t *fss = rd_get(root, "filesets");
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
		if (!json_string_value(rd_get(json_array_get(fos, i), "name"))) {
			snprintf(err, errlen, "%s: flowop %zu of %zu has no "
				 "\"name\" string", name, i + 1,
				 json_array_size(fos));
			return NULL;
		}
	if (series_fits(rd_get(root, "intervals"), json_array_size(fos), cells,
			name, err, errlen) < 0)
		return NULL;
	r = results_new(json_array_size(fos), json_array_size(fss));
	read_run(r, root);
	read_filesets(r, fss);
	read_vars(r, rd_get(root, "variables"));
	for (size_t i = 0; i < r->nfo; i++)
		read_flowop(&r->fo[i], json_array_get(fos, i));
	read_arrivals(r, rd_get(root, "arrivals"));
	read_accels(r, rd_get(root, "accelerators"));
	read_intervals(r, rd_get(root, "intervals"));
	if (json_is_object(rd_get(root, "steady")))
		read_steady(&r->steady, rd_get(root, "steady"));
	read_summary(r, rd_get(root, "summary"));
	r->disks = results_read_disks(root);
	results_read_ranks(r, root);
	r->shown = results_read_shown(root, r->nfo, r->nvars);
	results_derive(r, RESULTS_FROM_FILE);
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
	const json_t *reps = rd_get(root, "repeats");
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
