/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The printers: a run's results as text (the seed's layout), CSV and
 * JSON, to standard output and -o (report.h).
 */
#include "config.h"

#include "report/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "report/disks.h"
#include "report/build.h"
#include "util/jsonw.h"
#include "report/ranks.h"
#include "report/sysinfo.h"
#include "util/msg.h"
#include "util/layout.h"
#include "util/outfile.h"
#include "util/schema_version.h"
#include "util/sha256.h"
#include "util/util.h"

#define MIB (1024.0 * 1024.0)

static const char *type_name(const struct ir_flowop *f)
{
	return f->type < FO_NTYPES ? flowop_info[f->type].name : f->composite;
}

static double per_sec(const struct results *r, uint64_t n)
{
	return r->secs > 0 ? (double)n / r->secs : 0;
}

static double ms_per_op(const struct fstats *s)
{
	return s->count ? (double)s->lat_sum / (double)s->count / 1e6 : 0;
}

static double cpu_us_per_op(const struct fstats *s)
{
	return s->cpu_samples ? (double)s->cpu_ns / (double)s->cpu_samples / 1e3 :
				0;
}

/* A bucket's midpoint can lie past the largest value seen: clamp it. */
static uint64_t quantile(const struct fstats *s, double q)
{
	uint64_t v = hist_quantile(&s->hist, q);

	if (!s->count)
		return 0;
	return v > s->lat_max ? s->lat_max : v < s->lat_min ? s->lat_min : v;
}

static void print_errors(FILE *out, const struct results *r)
{
	bool any = false;

	for (size_t i = 0; i < r->nfo; i++) {
		const struct fstats *s = &r->fo[i].s;

		if (!s->errors)
			continue;
		if (!any)
			fprintf(out, LAYOUT_ERRORS_HEAD);
		any = true;
		fprintf(out, LAYOUT_ERRORS_ROW, r->fo[i].label, s->errors);
		for (int k = 0; k < FSTATS_ERRNOS; k++)
			if (s->err_count[k])
				fprintf(out, LAYOUT_ERRNO,
					strerror(s->err_no[k]), s->err_count[k]);
		if (s->err_other)
			fprintf(out, LAYOUT_ERR_OTHER, s->err_other);
		fputc('\n', out);
	}
}

/* The flowops whose reads got data verify did not write, if any did. */
static void print_verify(FILE *out, const struct results *r)
{
	if (!r->io.verify_errors)
		return;
	fprintf(out, LAYOUT_VERIFY_HEAD);
	for (size_t i = 0; i < r->nfo; i++)
		if (r->fo[i].s.verify_errors)
			fprintf(out, LAYOUT_VERIFY_ROW, r->fo[i].label,
				r->fo[i].s.verify_errors);
}

/* The flowops whose picks blocked for an entry, if any did. */
static void print_waits(FILE *out, const struct results *r)
{
	if (!r->waits)
		return;
	fprintf(out, LAYOUT_WAITS_HEAD);
	for (size_t i = 0; i < r->nfo; i++) {
		const struct fstats *s = &r->fo[i].s;

		if (s->waits)
			fprintf(out, LAYOUT_WAITS_ROW, r->fo[i].label, s->waits, s->wait_ns / 1e9);
	}
}

void report_summary_line(FILE *out, const struct results *r)
{
	fprintf(out, LAYOUT_SUMMARY_LINE, r->io_ops, per_sec(r, r->io_ops),
		per_sec(r, r->rd_ops), per_sec(r, r->wr_ops),
		per_sec(r, r->io_bytes) / MIB,
		r->io_ops ? (double)r->cpu_ns / (double)r->io_ops / 1e3 : 0,
		r->io_ops ? (double)r->io_lat_ns / (double)r->io_ops / 1e6 : 0);
}

void report_text(FILE *out, const struct results *r)
{
	fprintf(out, "Per-Operation Breakdown\n");
	for (size_t i = 0; i < r->nfo; i++) {
		const struct fstats *s = &r->fo[i].s;

		fprintf(out, LAYOUT_FLOWOP, r->fo[i].label, per_sec(r, s->count),
			per_sec(r, s->bytes) / MIB, ms_per_op(s),
			cpu_us_per_op(s));
	}
	fputc('\n', out);
	report_summary_line(out, r);
	fprintf(out, LAYOUT_LAT_HEAD, "Latency (ms)", "count", "mean", "p50", "p90", "p99", "p99.9",
		"max");
	for (size_t i = 0; i < r->nfo; i++) {
		const struct fstats *s = &r->fo[i].s;

		if (!s->count)
			continue;
		fprintf(out, LAYOUT_LAT_ROW, r->fo[i].label, s->count, ms_per_op(s),
			quantile(s, 0.5) / 1e6, quantile(s, 0.9) / 1e6,
			quantile(s, 0.99) / 1e6, quantile(s, 0.999) / 1e6,
			s->lat_max / 1e6);
	}
	fprintf(out, LAYOUT_IN_OPS, r->in_ops, r->nworkers);
	if (r->warm_s > 0 && r->warm_done)
		fprintf(out, LAYOUT_WARMUP, r->warm_s, r->warm_ops);
	if (r->steady.tol > 0 && r->steady.judged)
		fprintf(out, LAYOUT_STEADY, r->steady.steady ? "yes" : "no",
			r->steady.n, r->steady.dev * 100, r->steady.mean,
			r->steady.tol * 100);
	else if (r->steady.tol > 0)
		fprintf(out, LAYOUT_STEADY_NONE, r->steady.n);
	if (r->w->lathist) {
		for (size_t i = 0; i < r->nfo; i++) {
			const struct hist *h = &r->fo[i].s.hist;

			if (!r->fo[i].s.count)
				continue;
			fprintf(out, LAYOUT_HIST_HEAD, r->fo[i].label);
			for (unsigned g = 0; g < HIST_GROUPS; g++) {
				if (!h->group[g])
					continue;
				for (unsigned b = 0; b < HIST_SUB; b++) {
					uint64_t lo, hi;

					if (!h->group[g][b])
						continue;
					hist_bucket_range(g, b, &lo, &hi);
					fprintf(out, LAYOUT_HIST_ROW, lo / 1e6, hi / 1e6, h->group[g][b]);
				}
			}
		}
	}
	for (size_t i = 0; i < r->nfo; i++)
		if ((flowop_flags(r->fo[i].f->type) & FF_MEAN) &&
		    r->fo[i].s.count)
			fprintf(out, LAYOUT_MEAN, r->fo[i].label,
				(double)r->fo[i].s.bytes / (double)r->fo[i].s.count,
				r->fo[i].s.count);
	print_waits(out, r);
	print_errors(out, r);
	print_verify(out, r);
	ranks_text(out, r);
	disks_text(out, r);
}

static const char *reason_name(enum stop_reason why)
{
	switch (why) {
	case STOP_TIMEOUT: return "timeout";
	case STOP_DONE: return "done";
	case STOP_ERROR: return "error";
	case STOP_SIGNAL: return "signal";
	case STOP_NONE: break;
	}
	return "none";
}

/* A data pattern, where one is set. */
static void json_data(struct json *j, struct datapat p)
{
	char buf[32];

	if (p.kind == DATA_DEFAULT)
		return;
	datapat_format(buf, sizeof(buf), p);
	jw_str(j, "data", buf);
}

static void json_flowop(struct json *j, const struct results *r,
			const struct flowop_result *fr)
{
	const struct fstats *s = &fr->s;
	static const double qs[] = { 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999 };
	static const char *const qn[] = { "p50", "p90", "p95", "p99", "p99.9",
					   "p99.99" };

	jw_object(j, NULL);
	jw_str(j, "name", fr->label);
	jw_str(j, "flowop", fr->f->name);
	jw_str(j, "type", type_name(fr->f));
	jw_str(j, "thread", r->w->threads[fr->f->thread].name);
	jw_str(j, "process",
		 r->w->processes[r->w->threads[fr->f->thread].process].name);
	jw_u64(j, "ops", s->count);
	jw_num(j, "ops_per_sec", per_sec(r, s->count));
	jw_u64(j, "bytes", s->bytes);
	jw_num(j, "mb_per_sec", per_sec(r, s->bytes) / MIB);
	jw_num(j, "ms_per_op", ms_per_op(s));
	jw_num(j, "cpu_us_per_op", cpu_us_per_op(s));
	jw_u64(j, "cpu_samples", s->cpu_samples);
	jw_u64(j, "cpu_ns", s->cpu_ns);
	jw_u64(j, "read_bytes", fr->rd_bytes);
	jw_u64(j, "write_bytes", fr->wr_bytes);
	jw_u64(j, "errors", s->errors);
	jw_u64(j, "verify_errors", s->verify_errors);
	if (s->err_other)
		jw_u64(j, "errors_other", s->err_other);
	jw_u64(j, "waits", s->waits);
	jw_num(j, "wait_seconds", s->wait_ns / 1e9);
	jw_u64(j, "wait_ns", s->wait_ns);
	if (flowop_flags(fr->f->type) & FF_MEAN)
		jw_bool(j, "sample_mean", true);
	json_data(j, fr->f->data);
	jw_object(j, "latency_ns");
	jw_u64(j, "min", s->count ? s->lat_min : 0);
	jw_num(j, "mean", s->count ? (double)s->lat_sum / (double)s->count : 0);
	jw_u64(j, "sum", s->lat_sum);
	jw_u64(j, "max", s->lat_max);
	for (size_t q = 0; q < ARRAY_SIZE(qs); q++)
		jw_u64(j, qn[q], quantile(s, qs[q]));
	jw_end(j, '}');
	jw_array(j, "histogram");
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		if (!s->hist.group[g])
			continue;
		for (unsigned b = 0; b < HIST_SUB; b++) {
			uint64_t lo, hi;

			if (!s->hist.group[g][b])
				continue;
			hist_bucket_range(g, b, &lo, &hi);
			jw_object(j, NULL);
			jw_u64(j, "from_ns", lo);
			jw_u64(j, "to_ns", hi);
			jw_u64(j, "count", s->hist.group[g][b]);
			jw_end(j, '}');
		}
	}
	jw_end(j, ']');
	if (s->errors) {
		jw_array(j, "errnos");
		for (int k = 0; k < FSTATS_ERRNOS; k++) {
			if (!s->err_count[k])
				continue;
			jw_object(j, NULL);
			jw_i64(j, "errno", s->err_no[k]);
			jw_str(j, "message", strerror(s->err_no[k]));
			jw_u64(j, "count", s->err_count[k]);
			jw_end(j, '}');
		}
		jw_end(j, ']');
	}
	jw_end(j, '}');
}

/* Where the run was measured: the machine and each fileset's file system. */
static void json_system(struct json *j, const struct results *r,
			const struct report_meta *m)
{
	const struct workload *w = r->w;
	const struct sysinfo_snap *si = &m->sys;

	jw_object(j, "system");
	jw_str(j, "kernel", si->kernel);
	jw_str(j, "machine", si->machine);
	jw_i64(j, "cpus", si->cpus);
	jw_u64(j, "memory_bytes", si->memory);
	jw_end(j, '}');
	jw_array(j, "filesets");
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct ir_fileset *fs = &w->filesets[i];
		const struct fsinfo *fi = &m->fs[i];

		jw_object(j, NULL);
		jw_str(j, "name", fs->name);
		jw_str(j, "path", fs->path);
		jw_i64(j, "entries", fs->entries);
		if (r->trees[i].known) {
			jw_u64(j, "dirs", r->trees[i].dirs);
			jw_num(j, "mean_width", r->trees[i].mean_width);
			jw_num(j, "mean_depth", r->trees[i].mean_depth);
		}
		jw_str(j, "fs_type", fi->type);
		jw_str(j, "mountpoint", fi->mountpoint);
		jw_str(j, "device", fi->source);
		jw_str(j, "mount_options", fi->options);
		json_data(j, fs->data);
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

/* The --interval or psrun time series. */
static void json_intervals(struct json *j, const struct results *r)
{
	jw_array(j, "intervals");
	for (size_t i = 0; i < r->niv; i++) {
		const struct interval *iv = &r->iv[i];
		double secs = iv->secs > 0 ? iv->secs : 0;

		jw_object(j, NULL);
		jw_num(j, "t_s", iv->t_s);
		jw_num(j, "seconds", iv->secs);
		jw_u64(j, "ops", iv->ops);
		jw_num(j, "ops_per_s", secs ? (double)iv->ops / secs : 0);
		jw_num(j, "mb_per_s",
			 secs ? (double)iv->bytes / secs / MIB : 0);
		jw_u64(j, "bytes", iv->bytes);
		jw_u64(j, "errors", iv->errors);
		if (r->iv_latency) {
			jw_num(j, "p50_ms", iv->p50_ns / 1e6);
			jw_num(j, "p99_ms", iv->p99_ns / 1e6);
		}
		jw_array(j, "flowops");
		for (size_t f = 0; f < r->nfo; f++) {
			jw_object(j, NULL);
			jw_str(j, "name", r->fo[f].label);
			jw_u64(j, "ops", iv->fo_ops[f]);
			jw_end(j, '}');
		}
		jw_end(j, ']');
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

/* "build": {"version", "features": {name: what it is, or false}}. */
static void json_build(struct json *j)
{
	jw_object(j, "build");
	jw_str(j, "version", PACKAGE_VERSION);
	jw_object(j, "features");
	for (int f = 0; f < BUILD_NFEATURES; f++) {
		const char *v = build_feature_value((enum build_feature)f);

		if (v)
			jw_str(j, build_feature_name((enum build_feature)f),
				 v);
		else
			jw_bool(j, build_feature_name((enum build_feature)f),
				  false);
	}
	jw_end(j, '}');
	jw_end(j, '}');
}

/* The IO Summary's latency: what its CSV row needs. */
static void json_summary_latency(struct json *j, const struct fstats *s)
{
	jw_object(j, "latency_ns");
	jw_u64(j, "sum", s->lat_sum);
	jw_u64(j, "p50", quantile(s, 0.5));
	jw_u64(j, "p90", quantile(s, 0.9));
	jw_u64(j, "p99", quantile(s, 0.99));
	jw_u64(j, "p99.9", quantile(s, 0.999));
	jw_u64(j, "max", s->lat_max);
	jw_end(j, '}');
}

void report_json(FILE *out, const struct results *r,
		 const struct report_meta *m)
{
	struct json j;
	char when[64], pat[32];

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&m->started));
	jw_init(&j, out);
	jw_object(&j, NULL);
	/* first, so a reader knows what follows (doc/results.schema.json) */
	jw_str(&j, "schema_version", SCHEMA_VERSION);
	jw_str(&j, "fbrun_version", m->version);
	jw_str(&j, "script", m->script);
	jw_str(&j, "started", when);
	jw_u64(&j, "seed", r->seed); /* --seed N draws the same numbers */
	json_build(&j);
	jw_exact(&j, "seconds", r->secs);
	jw_str(&j, "ended_by", reason_name(r->reason));
	if (r->note[0])
		jw_str(&j, "note", r->note);
	if (r->error[0])
		jw_str(&j, "error", r->error);
	jw_u64(&j, "threads", r->nworkers);
	if (r->w->lathist)
		jw_bool(&j, "latency_histograms", true);
	if (r->warm_s > 0) {
		jw_object(&j, "warmup");
		jw_num(&j, "seconds", r->warm_s);
		jw_bool(&j, "completed", r->warm_done);
		jw_u64(&j, "ops", r->warm_ops);
		jw_u64(&j, "bytes", r->warm_bytes);
		jw_end(&j, '}');
	}
	jw_u64(&j, "peak_rss_bytes", m->peak_rss);
	datapat_format(pat, sizeof(pat), m->data);
	jw_str(&j, "data", pat); /* --data, for what sets none itself */
	if (m->script_sha256[0])
		jw_str(&j, "script_sha256", m->script_sha256);
	json_system(&j, r, m);
	jw_object(&j, "variables");
	for (size_t i = 0; i < r->w->nvars; i++) {
		char buf[256];

		ir_value_format(buf, sizeof(buf), r->w, &r->w->vars[i].value);
		if (r->w->vars[i].value.kind == IRV_STR)
			jw_str(&j, r->w->vars[i].name, r->w->vars[i].value.s);
		else
			jw_str(&j, r->w->vars[i].name, buf);
	}
	jw_end(&j, '}');
	jw_array(&j, "flowops");
	for (size_t i = 0; i < r->nfo; i++)
		json_flowop(&j, r, &r->fo[i]);
	jw_end(&j, ']');
	if (r->iv)
		json_intervals(&j, r);
	if (r->steady.tol > 0) {
		jw_object(&j, "steady");
		jw_exact(&j, "tolerance_pct", r->steady.tol * 100);
		jw_bool(&j, "judged", r->steady.judged);
		jw_bool(&j, "steady", r->steady.steady);
		jw_u64(&j, "intervals", r->steady.n);
		jw_exact(&j, "mean_ops_per_sec", r->steady.mean);
		jw_exact(&j, "max_deviation_pct", r->steady.dev * 100);
		jw_end(&j, '}');
	}
	jw_object(&j, "summary");
	jw_u64(&j, "ops", r->io_ops);
	jw_u64(&j, "reads", r->rd_ops);
	jw_u64(&j, "writes", r->wr_ops);
	jw_u64(&j, "read_bytes", r->rd_bytes);
	jw_u64(&j, "write_bytes", r->wr_bytes);
	jw_u64(&j, "errors", r->io.errors);
	jw_u64(&j, "cpu_ns", r->cpu_ns);
	json_summary_latency(&j, &r->io);
	jw_num(&j, "ops_per_sec", per_sec(r, r->io_ops));
	jw_num(&j, "reads_per_sec", per_sec(r, r->rd_ops));
	jw_num(&j, "writes_per_sec", per_sec(r, r->wr_ops));
	jw_u64(&j, "bytes", r->io_bytes);
	jw_num(&j, "mb_per_sec", per_sec(r, r->io_bytes) / MIB);
	jw_num(&j, "cpu_us_per_op",
		 r->io_ops ? (double)r->cpu_ns / (double)r->io_ops / 1e3 : 0);
	jw_num(&j, "ms_per_op",
		 r->io_ops ? (double)r->io_lat_ns / (double)r->io_ops / 1e6 : 0);
	/* the process's CPU time in the run; user is fbrun's own share */
	jw_num(&j, "cpu_user_seconds",
		 (double)(r->cpu_ns - r->cpu_sys_ns) / 1e9);
	jw_num(&j, "cpu_sys_seconds", (double)r->cpu_sys_ns / 1e9);
	/* Little's law, against the top level's threads (doc/running.md) */
	jw_exact(&j, "threads_in_ops", r->in_ops);
	jw_u64(&j, "waits", r->waits);
	jw_num(&j, "wait_seconds", r->wait_ns / 1e9);
	jw_u64(&j, "verify_errors", r->io.verify_errors);
	jw_end(&j, '}');
	disks_json(&j, r);
	ranks_json(&j, r);
	jw_end(&j, '}');
}

static void csv_row(FILE *out, const struct results *r, const char *name,
		    const char *type, const char *thread,
		    const struct fstats *s, uint64_t rd_bytes,
		    uint64_t wr_bytes, double cpu_us)
{
	csv_put(out, name);
	fputc(',', out);
	csv_put(out, type);
	fputc(',', out);
	csv_put(out, thread);
	fprintf(out, LAYOUT_CSV_ROW, s->count, per_sec(r, s->count), per_sec(r, s->bytes) / MIB,
		ms_per_op(s), cpu_us, s->bytes, rd_bytes, wr_bytes, s->errors,
		quantile(s, 0.5) / 1e6, quantile(s, 0.9) / 1e6,
		quantile(s, 0.99) / 1e6, quantile(s, 0.999) / 1e6,
		s->lat_max / 1e6);
}

void report_csv(FILE *out, const struct results *r)
{
	fprintf(out, LAYOUT_CSV_HEAD);
	for (size_t i = 0; i < r->nfo; i++) {
		const struct flowop_result *fr = &r->fo[i];

		csv_row(out, r, fr->label, type_name(fr->f),
			r->w->threads[fr->f->thread].name, &fr->s,
			fr->rd_bytes, fr->wr_bytes, cpu_us_per_op(&fr->s));
	}
	csv_row(out, r, "IO Summary", "summary", "", &r->io, r->rd_bytes,
		r->wr_bytes,
		r->io_ops ? (double)r->cpu_ns / (double)r->io_ops / 1e3 : 0);
}

static enum report_format format_of(const char *path)
{
	size_t n = strlen(path);

	if (n > 5 && strcmp(path + n - 5, ".json") == 0)
		return FORMAT_JSON;
	if (n > 4 && strcmp(path + n - 4, ".csv") == 0)
		return FORMAT_CSV;
	return FORMAT_TEXT;
}

static void report(FILE *out, enum report_format fmt, const struct results *r,
		   const struct report_meta *m)
{
	if (fmt == FORMAT_JSON)
		report_json(out, r, m);
	else if (fmt == FORMAT_CSV)
		report_csv(out, r);
	else
		report_text(out, r);
}

/* The process's largest resident set so far (fileset creation included). */
static uint64_t peak_rss(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ?
		       (uint64_t)ru.ru_maxrss * 1024 :
		       0;
}

void report_meta_get(struct report_meta *m, const struct results *r,
		     const char *script, struct datapat data)
{
	const struct workload *w = r->w;

	*m = (struct report_meta){ .script = script,
				   .started = r->started,
				   .version = PACKAGE_VERSION,
				   .data = data,
				   .peak_rss = peak_rss() };
	if (w->src)
		sha256_hex(source_text(w->src), source_len(w->src),
			   m->script_sha256);
	sysinfo_get(&m->sys);
	m->fs = xcalloc(w->nfilesets ? w->nfilesets : 1, sizeof(*m->fs));
	for (size_t i = 0; i < w->nfilesets; i++)
		fsinfo_get(w->filesets[i].path, &m->fs[i]);
}

void report_meta_release(struct report_meta *m)
{
	free(m->fs);
	m->fs = NULL;
}

/* What -o holds: r in the format the file's name asks for. */
struct output {
	const struct results *r;
	const struct report_meta *m;
	enum report_format fmt;
};

static void fill_output(FILE *out, const void *arg)
{
	const struct output *o = arg;

	report(out, o->fmt, o->r, o->m);
}

static int write_output(const char *p, const struct results *r,
			const struct report_meta *m)
{
	struct output o = { r, m, format_of(p) };

	return outfile_write(p, fill_output, &o);
}

int report_deliver(const struct results *r, void *dest)
{
	const struct report_dest *d = dest;
	struct report_meta m = { 0 };
	int rc = 0;

	/* what describes the machine and the script, for a JSON */
	if (d->format == FORMAT_JSON ||
	    (d->output && format_of(d->output) == FORMAT_JSON))
		report_meta_get(&m, r, d->script, d->data);
	else
		m = (struct report_meta){ .script = d->script,
					  .started = r->started,
					  .version = PACKAGE_VERSION,
					  .data = d->data };
	report(stdout, d->format, r, &m);
	if (d->output)
		rc = write_output(d->output, r, &m);
	report_meta_release(&m);
	return rc;
}
