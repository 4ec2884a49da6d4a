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

#include "report/json.h"
#include "report/ranks.h"
#include "report/sysinfo.h"
#include "util/msg.h"
#include "util/layout.h"
#include "util/outfile.h"
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
	json_str(j, "data", buf);
}

static void json_flowop(struct json *j, const struct results *r,
			const struct flowop_result *fr)
{
	const struct fstats *s = &fr->s;
	static const double qs[] = { 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999 };
	static const char *const qn[] = { "p50", "p90", "p95", "p99", "p99.9",
					   "p99.99" };

	json_object(j, NULL);
	json_str(j, "name", fr->label);
	json_str(j, "flowop", fr->f->name);
	json_str(j, "type", type_name(fr->f));
	json_str(j, "thread", r->w->threads[fr->f->thread].name);
	json_str(j, "process",
		 r->w->processes[r->w->threads[fr->f->thread].process].name);
	json_u64(j, "ops", s->count);
	json_num(j, "ops_per_sec", per_sec(r, s->count));
	json_u64(j, "bytes", s->bytes);
	json_num(j, "mb_per_sec", per_sec(r, s->bytes) / MIB);
	json_num(j, "ms_per_op", ms_per_op(s));
	json_num(j, "cpu_us_per_op", cpu_us_per_op(s));
	json_u64(j, "cpu_samples", s->cpu_samples);
	json_u64(j, "cpu_ns", s->cpu_ns);
	json_u64(j, "read_bytes", fr->rd_bytes);
	json_u64(j, "write_bytes", fr->wr_bytes);
	json_u64(j, "errors", s->errors);
	json_u64(j, "verify_errors", s->verify_errors);
	if (s->err_other)
		json_u64(j, "errors_other", s->err_other);
	json_u64(j, "waits", s->waits);
	json_num(j, "wait_seconds", s->wait_ns / 1e9);
	json_u64(j, "wait_ns", s->wait_ns);
	if (flowop_flags(fr->f->type) & FF_MEAN)
		json_bool(j, "sample_mean", true);
	json_data(j, fr->f->data);
	json_object(j, "latency_ns");
	json_u64(j, "min", s->count ? s->lat_min : 0);
	json_num(j, "mean", s->count ? (double)s->lat_sum / (double)s->count : 0);
	json_u64(j, "sum", s->lat_sum);
	json_u64(j, "max", s->lat_max);
	for (size_t q = 0; q < ARRAY_SIZE(qs); q++)
		json_u64(j, qn[q], quantile(s, qs[q]));
	json_end(j, '}');
	json_array(j, "histogram");
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		if (!s->hist.group[g])
			continue;
		for (unsigned b = 0; b < HIST_SUB; b++) {
			uint64_t lo, hi;

			if (!s->hist.group[g][b])
				continue;
			hist_bucket_range(g, b, &lo, &hi);
			json_object(j, NULL);
			json_u64(j, "from_ns", lo);
			json_u64(j, "to_ns", hi);
			json_u64(j, "count", s->hist.group[g][b]);
			json_end(j, '}');
		}
	}
	json_end(j, ']');
	if (s->errors) {
		json_array(j, "errnos");
		for (int k = 0; k < FSTATS_ERRNOS; k++) {
			if (!s->err_count[k])
				continue;
			json_object(j, NULL);
			json_i64(j, "errno", s->err_no[k]);
			json_str(j, "message", strerror(s->err_no[k]));
			json_u64(j, "count", s->err_count[k]);
			json_end(j, '}');
		}
		json_end(j, ']');
	}
	json_end(j, '}');
}

/* Where the run was measured: the machine and each fileset's file system. */
static void json_system(struct json *j, const struct results *r,
			const struct report_meta *m)
{
	const struct workload *w = r->w;
	const struct sysinfo_snap *si = &m->sys;

	json_object(j, "system");
	json_str(j, "kernel", si->kernel);
	json_str(j, "machine", si->machine);
	json_i64(j, "cpus", si->cpus);
	json_u64(j, "memory_bytes", si->memory);
	json_end(j, '}');
	json_array(j, "filesets");
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct ir_fileset *fs = &w->filesets[i];
		const struct fsinfo *fi = &m->fs[i];

		json_object(j, NULL);
		json_str(j, "name", fs->name);
		json_str(j, "path", fs->path);
		json_i64(j, "entries", fs->entries);
		if (r->trees[i].known) {
			json_u64(j, "dirs", r->trees[i].dirs);
			json_num(j, "mean_width", r->trees[i].mean_width);
			json_num(j, "mean_depth", r->trees[i].mean_depth);
		}
		json_str(j, "fs_type", fi->type);
		json_str(j, "mountpoint", fi->mountpoint);
		json_str(j, "device", fi->source);
		json_str(j, "mount_options", fi->options);
		json_data(j, fs->data);
		json_end(j, '}');
	}
	json_end(j, ']');
}

/* The --interval or psrun time series. */
static void json_intervals(struct json *j, const struct results *r)
{
	json_array(j, "intervals");
	for (size_t i = 0; i < r->niv; i++) {
		const struct interval *iv = &r->iv[i];
		double secs = iv->secs > 0 ? iv->secs : 0;

		json_object(j, NULL);
		json_num(j, "t_s", iv->t_s);
		json_num(j, "seconds", iv->secs);
		json_u64(j, "ops", iv->ops);
		json_num(j, "ops_per_s", secs ? (double)iv->ops / secs : 0);
		json_num(j, "mb_per_s",
			 secs ? (double)iv->bytes / secs / MIB : 0);
		json_u64(j, "bytes", iv->bytes);
		json_u64(j, "errors", iv->errors);
		if (r->iv_latency) {
			json_num(j, "p50_ms", iv->p50_ns / 1e6);
			json_num(j, "p99_ms", iv->p99_ns / 1e6);
		}
		json_array(j, "flowops");
		for (size_t f = 0; f < r->nfo; f++) {
			json_object(j, NULL);
			json_str(j, "name", r->fo[f].label);
			json_u64(j, "ops", iv->fo_ops[f]);
			json_end(j, '}');
		}
		json_end(j, ']');
		json_end(j, '}');
	}
	json_end(j, ']');
}

/* The IO Summary's latency: what its CSV row needs. */
static void json_summary_latency(struct json *j, const struct fstats *s)
{
	json_object(j, "latency_ns");
	json_u64(j, "sum", s->lat_sum);
	json_u64(j, "p50", quantile(s, 0.5));
	json_u64(j, "p90", quantile(s, 0.9));
	json_u64(j, "p99", quantile(s, 0.99));
	json_u64(j, "p99.9", quantile(s, 0.999));
	json_u64(j, "max", s->lat_max);
	json_end(j, '}');
}

void report_json(FILE *out, const struct results *r,
		 const struct report_meta *m)
{
	struct json j;
	char when[64], pat[32];

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&m->started));
	json_init(&j, out);
	json_object(&j, NULL);
	json_str(&j, "fbrun_version", m->version);
	json_str(&j, "script", m->script);
	json_str(&j, "started", when);
	json_exact(&j, "seconds", r->secs);
	json_str(&j, "ended_by", reason_name(r->reason));
	if (r->note[0])
		json_str(&j, "note", r->note);
	if (r->error[0])
		json_str(&j, "error", r->error);
	json_u64(&j, "threads", r->nworkers);
	if (r->w->lathist)
		json_bool(&j, "latency_histograms", true);
	if (r->warm_s > 0) {
		json_object(&j, "warmup");
		json_num(&j, "seconds", r->warm_s);
		json_bool(&j, "completed", r->warm_done);
		json_u64(&j, "ops", r->warm_ops);
		json_u64(&j, "bytes", r->warm_bytes);
		json_end(&j, '}');
	}
	json_u64(&j, "peak_rss_bytes", m->peak_rss);
	datapat_format(pat, sizeof(pat), m->data);
	json_str(&j, "data", pat); /* --data, for what sets none itself */
	if (m->script_sha256[0])
		json_str(&j, "script_sha256", m->script_sha256);
	json_system(&j, r, m);
	json_object(&j, "variables");
	for (size_t i = 0; i < r->w->nvars; i++) {
		char buf[256];

		ir_value_format(buf, sizeof(buf), r->w, &r->w->vars[i].value);
		if (r->w->vars[i].value.kind == IRV_STR)
			json_str(&j, r->w->vars[i].name, r->w->vars[i].value.s);
		else
			json_str(&j, r->w->vars[i].name, buf);
	}
	json_end(&j, '}');
	json_array(&j, "flowops");
	for (size_t i = 0; i < r->nfo; i++)
		json_flowop(&j, r, &r->fo[i]);
	json_end(&j, ']');
	if (r->iv)
		json_intervals(&j, r);
	if (r->steady.tol > 0) {
		json_object(&j, "steady");
		json_exact(&j, "tolerance_pct", r->steady.tol * 100);
		json_bool(&j, "judged", r->steady.judged);
		json_bool(&j, "steady", r->steady.steady);
		json_u64(&j, "intervals", r->steady.n);
		json_exact(&j, "mean_ops_per_sec", r->steady.mean);
		json_exact(&j, "max_deviation_pct", r->steady.dev * 100);
		json_end(&j, '}');
	}
	json_object(&j, "summary");
	json_u64(&j, "ops", r->io_ops);
	json_u64(&j, "reads", r->rd_ops);
	json_u64(&j, "writes", r->wr_ops);
	json_u64(&j, "read_bytes", r->rd_bytes);
	json_u64(&j, "write_bytes", r->wr_bytes);
	json_u64(&j, "errors", r->io.errors);
	json_u64(&j, "cpu_ns", r->cpu_ns);
	json_summary_latency(&j, &r->io);
	json_num(&j, "ops_per_sec", per_sec(r, r->io_ops));
	json_num(&j, "reads_per_sec", per_sec(r, r->rd_ops));
	json_num(&j, "writes_per_sec", per_sec(r, r->wr_ops));
	json_u64(&j, "bytes", r->io_bytes);
	json_num(&j, "mb_per_sec", per_sec(r, r->io_bytes) / MIB);
	json_num(&j, "cpu_us_per_op",
		 r->io_ops ? (double)r->cpu_ns / (double)r->io_ops / 1e3 : 0);
	json_num(&j, "ms_per_op",
		 r->io_ops ? (double)r->io_lat_ns / (double)r->io_ops / 1e6 : 0);
	/* the process's CPU time in the run; user is fbrun's own share */
	json_num(&j, "cpu_user_seconds",
		 (double)(r->cpu_ns - r->cpu_sys_ns) / 1e9);
	json_num(&j, "cpu_sys_seconds", (double)r->cpu_sys_ns / 1e9);
	/* Little's law, against the top level's threads (doc/running.md) */
	json_exact(&j, "threads_in_ops", r->in_ops);
	json_u64(&j, "waits", r->waits);
	json_num(&j, "wait_seconds", r->wait_ns / 1e9);
	json_u64(&j, "verify_errors", r->io.verify_errors);
	json_end(&j, '}');
	ranks_json(&j, r);
	json_end(&j, '}');
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
