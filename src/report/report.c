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

#include "report/build.h"
#include "report/sysinfo.h"
#include "results/ranks.h"
#include "results/write.h"
#include "util/diskstat.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/util.h"

/* The lines of the classic text table (the seed's layout). */
/* label, ops/s, mb/s, ms/op, us/op-cpu */
#define LAYOUT_FLOWOP "%-20s %8.0fops/s %5.1fmb/s %8.1fms/op %8.0fus/op-cpu\n"
/* the same for a rate under 1 op/s, which whole numbers show as 0 or 1 */
#define LAYOUT_FLOWOP_SLOW                                                  \
	"%-20s %8.2fops/s %5.1fmb/s %8.1fms/op %8.0fus/op-cpu\n"
/*
 * a replay's own row when the run ended inside its first pass: its rows'
 * ops as a share of one pass's, rather than 0 passes a second
 */
#define LAYOUT_FLOWOP_PART "%-20s no pass finished: %.0f%% of one done\n"
/* a dbench loadfile's replay: dbench's unit, 10^6 bytes a second */
#define LAYOUT_THROUGHPUT                                                   \
	"Throughput %.3f MB/sec (%s: the loadfile's reads and writes, "       \
	"dbench's MB)\n"
/* ops, ops/s, reads/s, writes/s, mb/s, us cpu/op, ms latency */
#define LAYOUT_SUMMARY_LINE                                                 \
	"IO Summary: %13" PRIu64 " ops %.1f ops/s, (%.0f/%.0f r/w) "        \
	"%5.1fmb/s, %6.0fus cpu/op, %5.1fms latency\n"
/* least %, accelerators, mean %, ">=" or "<", threshold %, pass/fail */
#define LAYOUT_AU                                                           \
	"Accelerator utilisation: %.1f%% min of %zu (mean %.1f%%) %s %d%%: "   \
	"%s\n"
#define LAYOUT_LAT_HEAD "\n%-20s %10s %10s %10s %10s %10s %10s %10s\n"
/* label, count, mean, p50, p90, p99, p99.9, max (ms) */
#define LAYOUT_LAT_ROW                                                      \
	"%-20s %10" PRIu64 " %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n"
#define LAYOUT_RESP_NOTE                                                    \
	"\nOpen loop: latency above is each op's own (its service time); "     \
	"response time\ncounts from when its arrival was due (coordinated "     \
	"omission corrected)\n"
#define LAYOUT_ARR_HEAD "\n%-20s %10s %10s %10s %10s %10s %10s %10s\n"
/* source, offered/s, achieved/s, arrivals, late, dropped, unserved, wake */
#define LAYOUT_ARR_ROW                                                      \
	"%-20s %10.1f %10.1f %10" PRIu64 " %10" PRIu64 " %10" PRIu64         \
	" %10" PRIu64 " %10.3f\n"
/* source, achieved/s, offered/s, dropped, late */
#define LAYOUT_ARR_SHORT                                                    \
	"%s did not hold its rate: %.1f of %.1f arrivals/s done, %" PRIu64    \
	" dropped, %" PRIu64 " late\n"
/* threads in operations, threads */
#define LAYOUT_IN_OPS                                                       \
	"\nThreads in operations: %.1f of %zu (ops/s x ms/op, summed over "   \
	"flowops)\n"
/* --warmup: its length, the I/O operations it did */
#define LAYOUT_WARMUP                                                       \
	"\nWarm-up: %.0f s before the measured run, %" PRIu64 " I/O ops not "   \
	"counted\n"
/* --steady: "yes" or "no", intervals, deviation %, mean ops/s, tolerance % */
#define LAYOUT_STEADY                                                       \
	"\nSteady state: %s, the last third's %zu intervals are within "       \
	"%.1f%% of their mean of %.1f ops/s (tolerance %g%%)\n"
#define LAYOUT_STEADY_NONE                                                  \
	"\nSteady state: not judged, %zu intervals in the last third (2 or "   \
	"more needed)\n"
#define LAYOUT_HIST_HEAD "\nLatency histogram of %s (ms: from, to, count)\n"
#define LAYOUT_HIST_ROW "  %12.6f %12.6f %10" PRIu64 "\n"
/* label, mean, samples */
#define LAYOUT_MEAN "\n%s: mean %.1f over %" PRIu64 " samples\n"
#define LAYOUT_WAITS_HEAD                                                   \
	"\nWaits for an entry (none free in the wanted state):\n"
#define LAYOUT_WAITS_ROW "%-20s %" PRIu64 " waits, %.3f s\n"
#define LAYOUT_ERRORS_HEAD "\nErrors:\n"
#define LAYOUT_ERRORS_ROW "%-20s %" PRIu64 " failed:"
#define LAYOUT_ERRNO " %s (%" PRIu64 ")"
#define LAYOUT_ERR_OTHER " other (%" PRIu64 ")"
#define LAYOUT_VERIFY_HEAD                                                  \
	"\nVerify errors (reads of data fbrun did not write):\n"
#define LAYOUT_VERIFY_ROW "%-20s %" PRIu64 " verify errors\n"
#define LAYOUT_MISMATCH_HEAD                                                \
	"\nReplay mismatches (ops that failed in the recording, not here):\n"
#define LAYOUT_MISMATCH_ROW "%-20s %" PRIu64 " mismatches\n"
#define LAYOUT_CSV_HEAD                                                     \
	"name,type,thread,ops,ops_per_s,mb_per_s,ms_per_op,us_per_op_cpu,"   \
	"bytes,read_bytes,write_bytes,errors,p50_ms,p90_ms,p99_ms,p99_9_ms,"  \
	"max_ms"
/* after name,type,thread: ops ... max_ms */
#define LAYOUT_CSV_ROW                                                      \
	",%" PRIu64 ",%.3f,%.3f,%.6f,%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64   \
	",%" PRIu64 ",%.6f,%.6f,%.6f,%.6f,%.6f"

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

/* A replay's rows whose ops failed in the recording and not here, if any. */
static void print_mismatches(FILE *out, const struct results *r)
{
	bool any = false;

	for (size_t i = 0; i < r->nfo; i++) {
		if (!r->fo[i].s.mismatches)
			continue;
		if (!any)
			fprintf(out, LAYOUT_MISMATCH_HEAD);
		any = true;
		fprintf(out, LAYOUT_MISMATCH_ROW, r->fo[i].label,
			r->fo[i].s.mismatches);
	}
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

void report_disks_text(FILE *out, const struct results *r)
{
	/* a job's bytes are every rank's, the devices rank 0's: no note */
	diskstat_print(out, r->disks, r->nranks <= 1, r->rd_bytes,
		       r->wr_bytes);
}

static void lat_row(FILE *out, const char *label, uint64_t count, double mean,
		    const uint64_t *q, uint64_t max)
{
	fprintf(out, LAYOUT_LAT_ROW, label, count, mean, q[RESULTS_P50] / 1e6,
		q[RESULTS_P90] / 1e6, q[RESULTS_P99] / 1e6,
		q[RESULTS_P999] / 1e6, max / 1e6);
}

/*
 * An open loop's: each flowop's response times, the sources' arrivals,
 * and which of them could not hold their rate.
 */
static void print_open_loop(FILE *out, const struct results *r)
{
	if (!results_open_loop(r))
		return;
	fprintf(out, LAYOUT_RESP_NOTE);
	fprintf(out, LAYOUT_LAT_HEAD, "Response time (ms)", "count", "mean",
		"p50", "p90", "p99", "p99.9", "max");
	for (size_t i = 0; i < r->nfo; i++) {
		const struct resp *rp = r->fo[i].s.resp;

		if (rp && rp->count)
			lat_row(out, r->fo[i].label, rp->count,
				r->fo[i].fig.resp_ms, r->fo[i].rq, rp->max);
	}
	fprintf(out, LAYOUT_ARR_HEAD, "Arrivals", "offered/s", "achieved/s",
		"offered", "late", "dropped", "unserved", "wake ms");
	for (size_t i = 0; i < r->narr; i++) {
		const struct arrival_result *a = &r->arr[i];

		fprintf(out, LAYOUT_ARR_ROW, a->name, a->rate,
			results_achieved(r, a), a->offered, a->late,
			a->dropped, a->unserved,
			a->woken ? (double)a->wake_ns / (double)a->woken / 1e6 :
				   0);
	}
	for (size_t i = 0; i < r->narr; i++) {
		const struct arrival_result *a = &r->arr[i];

		if (!a->held && a->rate > 0) {
			if (i == 0 || r->arr[i - 1].held)
				fputc('\n', out);
			fprintf(out, LAYOUT_ARR_SHORT, a->name,
				results_achieved(r, a), a->rate, a->dropped,
				a->late);
		}
	}
}

void report_summary_line(FILE *out, const struct results *r)
{
	fprintf(out, LAYOUT_SUMMARY_LINE, r->io_ops, r->sum.ops_s, r->rd_s,
		r->wr_s, r->sum.mb_s, r->sum.cpu_us, r->sum.ms_op);
}

/*
 * The AI workloads' service metric, after the IO Summary: the least busy
 * accelerator against the threshold, and in a job each rank's least.
 */
static void print_au(FILE *out, const struct results *r)
{
	struct au_summary au;
	unsigned ranks = 0;

	results_au(r, &au);
	if (!au.n)
		return;
	fprintf(out, LAYOUT_AU, au.min, au.n, au.mean, au.pass ? ">=" : "<",
		au.threshold, au.pass ? "pass" : "fail");
	for (size_t i = 0; i < r->nacc; i++)
		if (r->acc[i].rank + 1 > ranks)
			ranks = r->acc[i].rank + 1;
	for (unsigned k = 0; ranks > 1 && k < ranks; k++) {
		double least = -1;

		for (size_t i = 0; i < r->nacc; i++) {
			double v = results_au_pct(&r->acc[i]);

			if (r->acc[i].rank == k && (least < 0 || v < least))
				least = v;
		}
		fprintf(out, k ? ", %u %.1f%%" : "  least by rank: %u %.1f%%", k,
			least < 0 ? 0 : least);
	}
	if (ranks > 1)
		fputc('\n', out);
}

void report_text(FILE *out, const struct results *r)
{
	fprintf(out, "Per-Operation Breakdown\n");
	for (size_t i = 0; i < r->nfo; i++) {
		const struct flowop_result *fr = &r->fo[i];
		double rate = fr->fig.ops_s;

		if (fr->pass_ops && !fr->s.count)
			fprintf(out, LAYOUT_FLOWOP_PART, fr->label,
				100.0 * (double)fr->row_ops /
					(double)fr->pass_ops);
		else
			fprintf(out,
				rate > 0 && rate < 1 ? LAYOUT_FLOWOP_SLOW :
						       LAYOUT_FLOWOP,
				fr->label, rate, fr->fig.mb_s, fr->fig.ms_op,
				fr->fig.cpu_us);
	}
	fputc('\n', out);
	report_summary_line(out, r);
	for (size_t i = 0; i < r->nfo; i++)
		if (r->fo[i].loadfile)
			fprintf(out, LAYOUT_THROUGHPUT, r->fo[i].loadfile_mbs,
				r->fo[i].label);
	print_au(out, r);
	fprintf(out, LAYOUT_LAT_HEAD, "Latency (ms)", "count", "mean", "p50", "p90", "p99", "p99.9",
		"max");
	for (size_t i = 0; i < r->nfo; i++) {
		const struct fstats *s = &r->fo[i].s;

		if (s->count)
			lat_row(out, r->fo[i].label, s->count,
				r->fo[i].fig.ms_op, r->fo[i].q, s->lat_max);
	}
	print_open_loop(out, r);
	fprintf(out, LAYOUT_IN_OPS, r->in_ops, r->nworkers);
	if (r->warm_s > 0 && r->warm_done)
		fprintf(out, LAYOUT_WARMUP, r->warm_s, r->warm_ops);
	if (r->steady.tol > 0 && r->steady.judged)
		fprintf(out, LAYOUT_STEADY, r->steady.steady ? "yes" : "no",
			r->steady.n, r->steady.dev * 100, r->steady.mean,
			r->steady.tol * 100);
	else if (r->steady.tol > 0)
		fprintf(out, LAYOUT_STEADY_NONE, r->steady.n);
	if (r->lathist) {
		for (size_t i = 0; i < r->nfo; i++) {
			uint64_t lo, hi, count;
			unsigned pos = 0;

			if (!r->fo[i].s.count)
				continue;
			fprintf(out, LAYOUT_HIST_HEAD, r->fo[i].label);
			while (hist_next(&r->fo[i].s.hist, &pos, &lo, &hi,
					 &count))
				fprintf(out, LAYOUT_HIST_ROW, lo / 1e6, hi / 1e6,
					count);
		}
	}
	for (size_t i = 0; i < r->nfo; i++)
		if (r->fo[i].mean && r->fo[i].s.count)
			fprintf(out, LAYOUT_MEAN, r->fo[i].label,
				(double)r->fo[i].s.bytes / (double)r->fo[i].s.count,
				r->fo[i].s.count);
	print_waits(out, r);
	print_errors(out, r);
	print_verify(out, r);
	print_mismatches(out, r);
	results_ranks_text(out, r->ranks, r->ranks ? r->nranks : 0,
			   r->reason == RESULTS_END_DONE ? r->stopped_by : -1);
	report_disks_text(out, r);
}

/* r and m as the results file has them (results/write.h). */
void report_json(FILE *out, const struct results *r,
		 const struct report_meta *m)
{
	struct results_fsinfo *fs = xcalloc(r->nfilesets + 1, sizeof(*fs));
	struct results_feature feat[BUILD_NFEATURES];
	struct results_meta rm = {
		.script = m->script, .version = m->version, .data = m->data,
		.peak_rss = m->peak_rss, .kernel = m->sys.kernel,
		.machine = m->sys.machine, .cpus = m->sys.cpus,
		.memory = m->sys.memory, .fs = fs, .features = feat,
		.nfeatures = BUILD_NFEATURES,
	};

	for (int f = 0; f < BUILD_NFEATURES; f++)
		feat[f] = (struct results_feature){
			build_feature_name((enum build_feature)f),
			build_feature_value((enum build_feature)f)
		};
	for (size_t i = 0; m->fs && i < r->nfilesets; i++)
		fs[i] = (struct results_fsinfo){ m->fs[i].type,
						 m->fs[i].mountpoint,
						 m->fs[i].source,
						 m->fs[i].options };
	results_write(out, r, &rm);
	free(fs);
}

/* An open loop's CSV has its response times after the latencies. */
#define LAYOUT_CSV_RESP_HEAD                                                \
	",resp_p50_ms,resp_p90_ms,resp_p99_ms,resp_p99_9_ms,resp_max_ms"
#define LAYOUT_CSV_RESP ",%.6f,%.6f,%.6f,%.6f,%.6f"

static void csv_row(FILE *out, const struct results *r, const char *name,
		    const char *type, const char *thread,
		    const struct fstats *s, const struct results_figures *fig,
		    const uint64_t *q, const uint64_t *rq, uint64_t rd_bytes,
		    uint64_t wr_bytes)
{
	csv_put(out, name);
	fputc(',', out);
	csv_put(out, type);
	fputc(',', out);
	csv_put(out, thread);
	fprintf(out, LAYOUT_CSV_ROW, s->count, fig->ops_s, fig->mb_s,
		fig->ms_op, fig->cpu_us, s->bytes, rd_bytes, wr_bytes, s->errors,
		q[RESULTS_P50] / 1e6, q[RESULTS_P90] / 1e6, q[RESULTS_P99] / 1e6,
		q[RESULTS_P999] / 1e6, s->lat_max / 1e6);
	if (results_open_loop(r))
		fprintf(out, LAYOUT_CSV_RESP, rq[RESULTS_P50] / 1e6,
			rq[RESULTS_P90] / 1e6, rq[RESULTS_P99] / 1e6,
			rq[RESULTS_P999] / 1e6,
			s->resp ? s->resp->max / 1e6 : 0);
	fputc('\n', out);
}

void report_csv(FILE *out, const struct results *r)
{
	fprintf(out, "%s%s\n", LAYOUT_CSV_HEAD,
		results_open_loop(r) ? LAYOUT_CSV_RESP_HEAD : "");
	for (size_t i = 0; i < r->nfo; i++) {
		const struct flowop_result *fr = &r->fo[i];

		csv_row(out, r, fr->label, fr->type ? fr->type : "",
			fr->thread ? fr->thread : "", &fr->s, &fr->fig, fr->q,
			fr->rq, fr->rd_bytes, fr->wr_bytes);
	}
	/* the summary's counters are its figures' counts (results_derive) */
	csv_row(out, r, "IO Summary", "summary", "", &r->io, &r->sum, r->io_q,
		r->io_rq, r->rd_bytes, r->wr_bytes);
}

/* A run's printers, one for each row of util/format_list.h it prints. */
typedef void run_printer(FILE *out, const struct results *r,
			 const struct report_meta *m);

static void print_text(FILE *out, const struct results *r,
		       const struct report_meta *m)
{
	report_text(out, r);
}

static void print_csv(FILE *out, const struct results *r,
		      const struct report_meta *m)
{
	report_csv(out, r);
}

static run_printer *const printers[FORMAT_COUNT] = {
	[FORMAT_TEXT] = print_text,
	[FORMAT_JSON] = report_json,
	[FORMAT_CSV] = print_csv,
};

/* The process's largest resident set so far (fileset creation included). */
static uint64_t peak_rss(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ?
		       (uint64_t)ru.ru_maxrss * 1024 :
		       0;
}

void report_meta_get(struct report_meta *m, const struct results *r,
		     const char *script, const char *data)
{
	*m = (struct report_meta){ .script = script,
				   .started = r->started,
				   .version = PACKAGE_VERSION,
				   .data = data,
				   .peak_rss = peak_rss() };
	sysinfo_get(&m->sys);
	m->fs = xcalloc(r->nfilesets ? r->nfilesets : 1, sizeof(*m->fs));
	for (size_t i = 0; i < r->nfilesets; i++)
		fsinfo_get(r->filesets[i].path, &m->fs[i]);
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
	enum format fmt;
};

static void fill_output(FILE *out, const void *arg)
{
	const struct output *o = arg;

	printers[o->fmt](out, o->r, o->m);
}

static int write_output(const char *p, const struct results *r,
			const struct report_meta *m)
{
	struct output o = { r, m, format_of_path(p, FOR_RUN) };

	return outfile_write(p, fill_output, &o);
}

int report_deliver(const struct results *r, void *dest)
{
	const struct report_dest *d = dest;
	struct report_meta m = { 0 };
	int rc = 0;

	/* what describes the machine and the script, for a JSON */
	if (d->format == FORMAT_JSON ||
	    format_of_path(d->output, FOR_RUN) == FORMAT_JSON)
		report_meta_get(&m, r, d->script, d->data);
	else
		m = (struct report_meta){ .script = d->script,
					  .started = r->started,
					  .version = PACKAGE_VERSION,
					  .data = d->data };
	printers[d->format](stdout, r, &m);
	if (d->output)
		rc = write_output(d->output, r, &m);
	report_meta_release(&m);
	return rc;
}
