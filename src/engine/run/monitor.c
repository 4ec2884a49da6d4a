/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Reading the counters of running workers.
 *
 * Each worker is the only writer of its struct fstats, and it stores
 * count, bytes and errors with relaxed atomic stores (plain 64-bit moves
 * on x86-64 and aarch64).  The monitor reads them with relaxed atomic
 * loads: a read is never torn and never older than the one before it for
 * the same counter, so every interval's count is a true, non-negative
 * difference.  Nothing orders the counters against each other, so a
 * sample may see an operation's count before its bytes; the next sample
 * sees both.  The workers pay nothing: no lock, no fence, no syscall.
 */
#include "engine/run/monitor.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/worker/worker.h"
#include "results/results.h"
#include "util/util.h"

struct monitor {
	const struct worker *workers;
	size_t nworkers;
	uint64_t start_ns;
	size_t nfo;
	const char **labels; /* the flowops' labels, as in the report */
	bool *io; /* per flowop: counted in the IO Summary */
	uint64_t last_ns; /* time of the previous take */
	uint64_t *fo_total; /* per flowop: operations as of the last take */
	uint64_t ops, bytes, errors; /* totals as of the last take */
	struct interval cur;
	bool latency; /* read the histograms too */
	bool open; /* an open loop's: its response times' as well */
	/* the I/O ops' latencies, then with open their response times */
	struct hseries {
		struct hist prev, now; /* summed at the last take and this */
		struct hist diff; /* the interval's own: now less prev */
	} lat, resp;
	/* a job's series (monitor_set_job): per flowop, its operations */
	uint64_t *job_total;
	uint64_t job_ns; /* the end of the job's previous interval */
	struct interval *series;
	size_t n, cap;
	int shown; /* width of the progress line on screen, 0 if none */
};

struct monitor *monitor_new(const struct workload *w,
			    const struct worker *workers, size_t nworkers,
			    uint64_t start_ns)
{
	struct monitor *s = xcalloc(1, sizeof(*s));
	size_t n = w->nflowops ? w->nflowops : 1;

	s->workers = workers;
	s->nworkers = nworkers;
	s->start_ns = start_ns;
	s->nfo = w->nflowops;
	s->labels = xcalloc(n, sizeof(*s->labels));
	s->io = xcalloc(n, sizeof(*s->io));
	s->fo_total = xcalloc(n, sizeof(uint64_t));
	s->cur.fo_ops = xcalloc(n, sizeof(uint64_t));
	s->last_ns = start_ns;
	for (size_t k = 0; k < nworkers; k++)
		s->open = s->open || workers[k].rated;
	for (size_t f = 0; f < s->nfo; f++) {
		const struct ir_flowop *fo = w->flowops[f];

		s->labels[f] = fo->label;
		s->io[f] = (ir_flowop_flags(fo) & FF_IO) != 0;
	}
	return s;
}

void monitor_intervals_free(struct interval *iv, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(iv[i].fo_ops);
	free(iv);
}

void monitor_latency(struct monitor *s)
{
	s->latency = true;
}

bool monitor_open(const struct monitor *s)
{
	return s->open;
}

static void hist_free(struct hist *h)
{
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		free(h->group[g]);
}

/* A worker's histogram of flowop f: its latencies', or its response times'. */
static const struct hist *hist_of(const struct worker *wk, size_t f, bool resp)
{
	const struct resp *r;

	if (!resp)
		return &wk->stats[f].hist;
	r = __atomic_load_n(&wk->stats[f].resp, __ATOMIC_ACQUIRE);
	return r ? &r->hist : NULL;
}

/*
 * The interval's quantiles of one series: the measuring workers' I/O
 * histograms summed, less the sum at the previous take.  The buckets
 * only grow (a worker is read once its warm-up is over), so the
 * difference is the interval's own histogram.
 */
static void take_series(struct monitor *s, struct hseries *hs, bool resp,
			uint64_t *p50, uint64_t *p99)
{
	struct hist *d = &hs->diff, swap;

	for (unsigned g = 0; g < HIST_GROUPS; g++)
		if (hs->now.group[g])
			memset(hs->now.group[g], 0, HIST_SUB * sizeof(uint64_t));
	for (size_t f = 0; f < s->nfo; f++) {
		if (!s->io[f])
			continue;
		for (size_t k = 0; k < s->nworkers; k++) {
			const struct hist *h;

			if (!atomic_load_explicit(&s->workers[k].measuring,
						  memory_order_acquire) ||
			    !(h = hist_of(&s->workers[k], f, resp)))
				continue;
			for (unsigned g = 0; g < HIST_GROUPS; g++) {
				uint64_t *p = __atomic_load_n(&h->group[g],
							      __ATOMIC_ACQUIRE);

				if (!p)
					continue;
				if (!hs->now.group[g])
					hs->now.group[g] = xcalloc(
						HIST_SUB, sizeof(uint64_t));
				for (unsigned b = 0; b < HIST_SUB; b++)
					hs->now.group[g][b] += __atomic_load_n(
						&p[b], __ATOMIC_RELAXED);
			}
		}
	}
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		if (!hs->now.group[g]) {
			if (d->group[g])
				memset(d->group[g], 0, HIST_SUB * sizeof(uint64_t));
			continue;
		}
		if (!d->group[g])
			d->group[g] = xcalloc(HIST_SUB, sizeof(uint64_t));
		for (unsigned b = 0; b < HIST_SUB; b++) {
			uint64_t was = hs->prev.group[g] ? hs->prev.group[g][b] :
							   0;

			d->group[g][b] = hs->now.group[g][b] > was ?
						 hs->now.group[g][b] - was :
						 0;
		}
	}
	*p50 = hist_quantile(d, 0.5);
	*p99 = hist_quantile(d, 0.99);
	swap = hs->prev;
	hs->prev = hs->now;
	hs->now = swap;
}

static void series_free(struct hseries *hs)
{
	hist_free(&hs->prev);
	hist_free(&hs->now);
	hist_free(&hs->diff);
}

void monitor_free(struct monitor *s)
{
	if (!s)
		return;
	series_free(&s->lat);
	series_free(&s->resp);
	free(s->job_total);
	monitor_intervals_free(s->series, s->n);
	free(s->cur.fo_ops);
	free(s->fo_total);
	free(s->io);
	free(s->labels);
	free(s);
}

const struct interval *monitor_take(struct monitor *s, uint64_t now)
{
	uint64_t ops = 0, bytes = 0, errors = 0;

	for (size_t f = 0; f < s->nfo; f++) {
		uint64_t n = 0, b = 0;

		for (size_t k = 0; k < s->nworkers; k++) {
			struct fstats *st = &s->workers[k].stats[f];

			/* still in its warm-up: its counters drop to 0 soon */
			if (!atomic_load_explicit(&s->workers[k].measuring,
						  memory_order_acquire))
				continue;
			n += __atomic_load_n(&st->count, __ATOMIC_RELAXED);
			b += __atomic_load_n(&st->bytes, __ATOMIC_RELAXED);
			errors += __atomic_load_n(&st->errors, __ATOMIC_RELAXED);
		}
		s->cur.fo_ops[f] = n - s->fo_total[f];
		s->fo_total[f] = n;
		if (s->io[f]) {
			ops += n;
			bytes += b;
		}
	}
	if (s->latency)
		take_series(s, &s->lat, false, &s->cur.p50_ns, &s->cur.p99_ns);
	if (s->latency && s->open)
		take_series(s, &s->resp, true, &s->cur.rp50_ns,
			    &s->cur.rp99_ns);
	s->cur.t_s = (double)(now - s->start_ns) / 1e9;
	s->cur.secs = (double)(now - s->last_ns) / 1e9;
	s->cur.ops = ops - s->ops;
	s->cur.bytes = bytes - s->bytes;
	s->cur.errors = errors - s->errors;
	s->ops = ops;
	s->bytes = bytes;
	s->errors = errors;
	s->last_ns = now;
	return &s->cur;
}

void monitor_keep(struct monitor *s)
{
	struct interval *iv;

	s->series = grow_array(s->series, &s->cap, s->n + 1, sizeof(*s->series));
	iv = &s->series[s->n++];
	*iv = s->cur;
	iv->fo_ops = xcalloc(s->nfo ? s->nfo : 1, sizeof(uint64_t));
	memcpy(iv->fo_ops, s->cur.fo_ops, s->nfo * sizeof(uint64_t));
}

const uint64_t *monitor_totals(const struct monitor *s)
{
	return s->fo_total;
}

struct interval *monitor_steal(struct monitor *s, size_t *n)
{
	struct interval *iv = s->series;

	*n = s->n;
	s->series = NULL;
	s->n = s->cap = 0;
	return iv;
}

/*
 * A job's interval as numbers that add up across its processes: the I/O
 * ops, bytes, errors, each flowop's ops, then with monitor_latency every
 * bucket of the interval's histogram (a group no op reached is 0s), and
 * an open loop's response times' after it.
 */
enum { JOB_OPS, JOB_BYTES, JOB_ERRORS, JOB_FLOWOPS };
#define JOB_HIST ((size_t)HIST_GROUPS * HIST_SUB)

size_t monitor_job_len(const struct monitor *s)
{
	return JOB_FLOWOPS + s->nfo +
	       (s->latency ? JOB_HIST * (s->open ? 2 : 1) : 0);
}

static void hist_out(const struct hist *d, uint64_t *h)
{
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		if (d->group[g])
			memcpy(h + (size_t)g * HIST_SUB, d->group[g],
			       HIST_SUB * sizeof(uint64_t));
		else
			memset(h + (size_t)g * HIST_SUB, 0,
			       HIST_SUB * sizeof(uint64_t));
	}
}

void monitor_job_counts(const struct monitor *s, uint64_t *out)
{
	uint64_t *h = out + JOB_FLOWOPS + s->nfo;

	out[JOB_OPS] = s->cur.ops;
	out[JOB_BYTES] = s->cur.bytes;
	out[JOB_ERRORS] = s->cur.errors;
	memcpy(out + JOB_FLOWOPS, s->cur.fo_ops, s->nfo * sizeof(uint64_t));
	if (s->latency)
		hist_out(&s->lat.diff, h);
	if (s->latency && s->open)
		hist_out(&s->resp.diff, h + JOB_HIST);
}

/* A job's summed histogram's quantiles (its groups only borrowed). */
static void job_quantiles(const uint64_t *h, uint64_t *p50, uint64_t *p99)
{
	struct hist d = { 0 };

	for (unsigned g = 0; g < HIST_GROUPS; g++)
		d.group[g] = (uint64_t *)h + (size_t)g * HIST_SUB;
	*p50 = hist_quantile(&d, 0.5);
	*p99 = hist_quantile(&d, 0.99);
}

void monitor_set_job(struct monitor *s, const uint64_t *sum, uint64_t t_ns)
{
	const uint64_t *h = sum + JOB_FLOWOPS + s->nfo;

	if (!s->job_total)
		s->job_total = xcalloc(s->nfo ? s->nfo : 1, sizeof(uint64_t));
	/* a rank's clock a little behind the last one's: no negative time */
	if (t_ns < s->job_ns)
		t_ns = s->job_ns;
	s->cur.t_s = (double)t_ns / 1e9;
	s->cur.secs = (double)(t_ns - s->job_ns) / 1e9;
	s->job_ns = t_ns;
	s->cur.ops = sum[JOB_OPS];
	s->cur.bytes = sum[JOB_BYTES];
	s->cur.errors = sum[JOB_ERRORS];
	for (size_t f = 0; f < s->nfo; f++) {
		s->cur.fo_ops[f] = sum[JOB_FLOWOPS + f];
		s->job_total[f] += s->cur.fo_ops[f];
	}
	if (s->latency)
		job_quantiles(h, &s->cur.p50_ns, &s->cur.p99_ns);
	if (s->latency && s->open)
		job_quantiles(h + JOB_HIST, &s->cur.rp50_ns, &s->cur.rp99_ns);
}

void monitor_print_line(const struct monitor *s, FILE *out, bool flowops)
{
	const struct interval *iv = &s->cur;

	fprintf(out, "interval %8.3f s %10.0f ops/s %8.1f mb/s %6" PRIu64
		     " errors  p50 %.3f ms  p99 %.3f ms",
		iv->t_s, results_rate(iv->ops, iv->secs),
		results_rate(iv->bytes, iv->secs) / RESULTS_MIB, iv->errors,
		iv->p50_ns / 1e6, iv->p99_ns / 1e6);
	if (s->open)
		fprintf(out, "  response p50 %.3f ms  p99 %.3f ms",
			iv->rp50_ns / 1e6, iv->rp99_ns / 1e6);
	fputc('\n', out);
	for (size_t f = 0; flowops && f < s->nfo; f++)
		fprintf(out, "  %-20s %10.0f ops/s\n", s->labels[f],
			results_rate(iv->fo_ops[f], iv->secs));
	fflush(out);
}

void monitor_csv_head(const struct monitor *s, FILE *out, bool flowops)
{
	fputs("run,t_s,seconds,ops,ops_per_s,mb_per_s,errors,p50_ms,p99_ms",
	      out);
	if (s->open)
		fputs(",resp_p50_ms,resp_p99_ms", out);
	for (size_t f = 0; flowops && f < s->nfo; f++) {
		char *col = xasprintf("%s_ops_per_s", s->labels[f]);

		fputc(',', out);
		csv_put(out, col);
		free(col);
	}
	fputc('\n', out);
}

void monitor_csv_row(const struct monitor *s, FILE *out, bool flowops,
		     unsigned run)
{
	const struct interval *iv = &s->cur;

	fprintf(out, "%u,%.3f,%.3f,%" PRIu64 ",%.1f,%.3f,%" PRIu64
		     ",%.6f,%.6f",
		run, iv->t_s, iv->secs, iv->ops,
		results_rate(iv->ops, iv->secs),
		results_rate(iv->bytes, iv->secs) / RESULTS_MIB, iv->errors,
		iv->p50_ns / 1e6, iv->p99_ns / 1e6);
	if (s->open)
		fprintf(out, ",%.6f,%.6f", iv->rp50_ns / 1e6, iv->rp99_ns / 1e6);
	for (size_t f = 0; flowops && f < s->nfo; f++)
		fprintf(out, ",%.1f", results_rate(iv->fo_ops[f], iv->secs));
	fputc('\n', out);
}

void monitor_print_psrun(const struct monitor *s, FILE *out, bool reset)
{
	const struct interval *iv = &s->cur;
	const uint64_t *total = s->job_total ? s->job_total : s->fo_total;

	fprintf(out, "%.3f: interval of %.1f s\n", iv->t_s, iv->secs);
	for (size_t f = 0; f < s->nfo; f++)
		fprintf(out, "%-20s %8.0fops/s\n", s->labels[f],
			reset ? results_rate(iv->fo_ops[f], iv->secs) :
				results_rate(total[f], iv->t_s));
	fflush(out);
}

void monitor_progress(struct monitor *s, FILE *tty, double total_s)
{
	const struct interval *iv = &s->cur;
	int n;

	n = fprintf(tty, "\r%.0f / %.0f s  %.0f ops/s  %.1f mb/s  %" PRIu64
			 " errors",
		    iv->t_s, total_s, results_rate(iv->ops, iv->secs),
		    results_rate(iv->bytes, iv->secs) / RESULTS_MIB, s->errors);
	if (n > 0) {
		/* blank what is left of a longer previous line */
		if (n - 1 < s->shown)
			fprintf(tty, "%*s", s->shown - (n - 1), "");
		if (n - 1 > s->shown)
			s->shown = n - 1;
	}
	fflush(tty);
}

void monitor_progress_clear(struct monitor *s, FILE *tty)
{
	if (!s->shown)
		return;
	fprintf(tty, "\r%*s\r", s->shown, "");
	fflush(tty);
	s->shown = 0;
}
