/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The results file written (write.h). */
#include "results/write.h"

#include <string.h>
#include <time.h>

#include "util/schema_version.h"
#include "util/util.h"

static const char *text(const char *s)
{
	return s ? s : "";
}

static void write_histogram(struct json *j, const struct hist *h)
{
	uint64_t lo, hi, count;
	unsigned pos = 0;

	jw_array(j, "histogram");
	while (hist_next(h, &pos, &lo, &hi, &count)) {
		jw_object(j, NULL);
		jw_u64(j, "from_ns", lo);
		jw_u64(j, "to_ns", hi);
		jw_u64(j, "count", count);
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

static void write_errnos(struct json *j, const struct fstats *s)
{
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

static const double qs[] = { 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999 };
static const char *const qn[] = { "p50", "p90", "p95", "p99", "p99.9",
				   "p99.99" };

/*
 * Times as "latency_ns" and "response_ns" hold them: the least (0 when
 * none), the mean, their sum, the largest and the quantiles of qs, each
 * q(s, qs[i]).
 */
static void write_times(struct json *j, const struct fstats *s,
			uint64_t count, uint64_t min, uint64_t sum,
			uint64_t max,
			uint64_t (*q)(const struct fstats *, double))
{
	jw_u64(j, "min", count ? min : 0);
	jw_num(j, "mean", count ? (double)sum / (double)count : 0);
	jw_u64(j, "sum", sum);
	jw_u64(j, "max", max);
	for (size_t i = 0; i < ARRAY_SIZE(qs); i++)
		jw_u64(j, qn[i], q(s, qs[i]));
}

/* An open loop's response times: "response_ns", beside "latency_ns". */
static void write_response(struct json *j, const struct fstats *s)
{
	const struct resp *rp = s->resp;

	if (!rp)
		return;
	jw_object(j, "response_ns");
	jw_u64(j, "count", rp->count);
	write_times(j, s, rp->count, rp->min, rp->sum, rp->max,
		    results_resp_quantile);
	write_histogram(j, &rp->hist);
	jw_end(j, '}');
}

static void write_flowop(struct json *j, const struct flowop_result *fr)
{
	const struct fstats *s = &fr->s;

	jw_object(j, NULL);
	jw_str(j, "name", text(fr->label));
	jw_str(j, "flowop", text(fr->name));
	jw_str(j, "type", text(fr->type));
	jw_str(j, "thread", text(fr->thread));
	jw_str(j, "process", text(fr->process));
	jw_u64(j, "ops", s->count);
	jw_num(j, "ops_per_sec", fr->fig.ops_s);
	jw_u64(j, "bytes", s->bytes);
	jw_num(j, "mb_per_sec", fr->fig.mb_s);
	jw_num(j, "ms_per_op", fr->fig.ms_op);
	jw_num(j, "cpu_us_per_op", fr->fig.cpu_us);
	jw_u64(j, "cpu_samples", s->cpu_samples);
	jw_u64(j, "cpu_ns", s->cpu_ns);
	jw_u64(j, "read_bytes", fr->rd_bytes);
	jw_u64(j, "write_bytes", fr->wr_bytes);
	jw_u64(j, "errors", s->errors);
	jw_u64(j, "verify_errors", s->verify_errors);
	/* a replay's rows always: other flowops cannot have any */
	if (s->mismatches || fr->replays)
		jw_u64(j, "mismatches", s->mismatches);
	if (s->err_other)
		jw_u64(j, "errors_other", s->err_other);
	/* a replay's own row (1.3) */
	if (fr->pass_ops) {
		jw_u64(j, "pass_ops", fr->pass_ops);
		jw_u64(j, "row_ops", fr->row_ops);
	}
	if (fr->loadfile)
		jw_u64(j, "loadfile_bytes", fr->loadfile_bytes);
	jw_u64(j, "waits", s->waits);
	jw_num(j, "wait_seconds", s->wait_ns / 1e9);
	jw_u64(j, "wait_ns", s->wait_ns);
	if (fr->mean)
		jw_bool(j, "sample_mean", true);
	if (fr->data)
		jw_str(j, "data", fr->data);
	jw_object(j, "latency_ns");
	write_times(j, s, s->count, s->lat_min, s->lat_sum, s->lat_max,
		    results_quantile);
	jw_end(j, '}');
	write_histogram(j, &s->hist);
	write_response(j, s);
	if (s->errors)
		write_errnos(j, s);
	jw_end(j, '}');
}

/* The open loop's sources and their arrivals (results.h). */
static void write_arrivals(struct json *j, const struct results *r)
{
	jw_array(j, "arrivals");
	for (size_t i = 0; i < r->narr; i++) {
		const struct arrival_result *a = &r->arr[i];

		jw_object(j, NULL);
		jw_str(j, "name", text(a->name));
		jw_str(j, "source", a->flowop ? "flowop" : "thread");
		jw_str(j, "thread", text(a->thread));
		jw_str(j, "process", text(a->process));
		jw_str(j, "arrivals", text(a->arrivals));
		/* all its digits: a curve's levels are read back from it */
		jw_exact(j, "rate", a->rate);
		jw_u64(j, "instances", a->instances);
		jw_u64(j, "backlog", a->backlog);
		jw_u64(j, "offered", a->offered);
		jw_u64(j, "done", a->done);
		jw_u64(j, "late", a->late);
		jw_u64(j, "dropped", a->dropped);
		jw_u64(j, "unserved", a->unserved);
		jw_u64(j, "most_waiting", a->most_waiting);
		jw_object(j, "wake_ns");
		jw_u64(j, "count", a->woken);
		jw_u64(j, "sum", a->wake_ns);
		jw_u64(j, "max", a->wake_max_ns);
		jw_end(j, '}');
		jw_num(j, "achieved_per_sec", results_achieved(r, a));
		jw_bool(j, "held", a->held);
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

/*
 * The emulated accelerators and their summary: the service metric of the
 * AI workloads.  busy and seconds exact: a job's rank 0 reads them back.
 */
static void write_accels(struct json *j, const struct results *r)
{
	struct au_summary au;

	results_au(r, &au);
	jw_object(j, "accelerators");
	jw_u64(j, "count", au.n);
	jw_num(j, "utilisation_min_pct", au.min);
	jw_num(j, "utilisation_mean_pct", au.mean);
	jw_u64(j, "threshold_pct", (uint64_t)au.threshold);
	jw_bool(j, "pass", au.pass);
	jw_array(j, "each");
	for (size_t i = 0; i < r->nacc; i++) {
		const struct accel_result *a = &r->acc[i];

		jw_object(j, NULL);
		jw_str(j, "thread", text(a->thread));
		jw_str(j, "process", text(a->process));
		jw_u64(j, "rank", a->rank);
		jw_exact(j, "busy_seconds", a->busy_s);
		jw_exact(j, "seconds", a->secs);
		jw_num(j, "utilisation_pct", results_au_pct(a));
		jw_u64(j, "threshold_pct", (uint64_t)a->threshold);
		jw_end(j, '}');
	}
	jw_end(j, ']');
	jw_end(j, '}');
}

/* Where the run was measured: the machine and each fileset's file system. */
static void write_system(struct json *j, const struct results *r,
			 const struct results_meta *m)
{
	jw_object(j, "system");
	jw_str(j, "kernel", text(m->kernel));
	jw_str(j, "machine", text(m->machine));
	jw_i64(j, "cpus", m->cpus);
	jw_u64(j, "memory_bytes", m->memory);
	jw_end(j, '}');
	jw_array(j, "filesets");
	for (size_t i = 0; i < r->nfilesets; i++) {
		const struct fileset_result *fs = &r->filesets[i];
		const struct results_fsinfo *fi = m->fs ? &m->fs[i] : NULL;

		jw_object(j, NULL);
		jw_str(j, "name", text(fs->name));
		jw_str(j, "path", text(fs->path));
		jw_i64(j, "entries", fs->entries);
		if (fs->known) {
			jw_u64(j, "dirs", fs->dirs);
			jw_num(j, "mean_width", fs->mean_width);
			jw_num(j, "mean_depth", fs->mean_depth);
		}
		jw_str(j, "fs_type", text(fi ? fi->type : NULL));
		jw_str(j, "mountpoint", text(fi ? fi->mountpoint : NULL));
		jw_str(j, "device", text(fi ? fi->device : NULL));
		jw_str(j, "mount_options", text(fi ? fi->options : NULL));
		if (fs->data)
			jw_str(j, "data", fs->data);
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

/* The --interval or psrun time series. */
static void write_intervals(struct json *j, const struct results *r)
{
	jw_array(j, "intervals");
	for (size_t i = 0; i < r->niv; i++) {
		const struct interval_result *iv = &r->iv[i];

		jw_object(j, NULL);
		jw_num(j, "t_s", iv->t_s);
		jw_num(j, "seconds", iv->secs);
		jw_u64(j, "ops", iv->ops);
		jw_num(j, "ops_per_s", results_rate(iv->ops, iv->secs));
		jw_num(j, "mb_per_s",
		       results_rate(iv->bytes, iv->secs) / RESULTS_MIB);
		jw_u64(j, "bytes", iv->bytes);
		jw_u64(j, "errors", iv->errors);
		if (r->iv_latency) {
			jw_num(j, "p50_ms", iv->p50_ns / 1e6);
			jw_num(j, "p99_ms", iv->p99_ns / 1e6);
		}
		if (r->iv_open) {
			jw_num(j, "resp_p50_ms", iv->rp50_ns / 1e6);
			jw_num(j, "resp_p99_ms", iv->rp99_ns / 1e6);
		}
		jw_array(j, "flowops");
		for (size_t f = 0; f < r->nfo; f++) {
			jw_object(j, NULL);
			jw_str(j, "name", text(r->fo[f].label));
			jw_u64(j, "ops", iv->fo_ops ? iv->fo_ops[f] : 0);
			jw_end(j, '}');
		}
		jw_end(j, ']');
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

/* "build": {"version", "features": {name: what it is, or false}}. */
static void write_build(struct json *j, const struct results_meta *m)
{
	jw_object(j, "build");
	jw_str(j, "version", text(m->version));
	jw_object(j, "features");
	for (size_t f = 0; f < m->nfeatures; f++) {
		if (m->features[f].value)
			jw_str(j, m->features[f].name, m->features[f].value);
		else
			jw_bool(j, m->features[f].name, false);
	}
	jw_end(j, '}');
	jw_end(j, '}');
}

static void write_steady(struct json *j, const struct steady *s)
{
	jw_object(j, "steady");
	jw_exact(j, "tolerance_pct", s->tol * 100);
	jw_bool(j, "judged", s->judged);
	jw_bool(j, "steady", s->steady);
	jw_u64(j, "intervals", s->n);
	jw_exact(j, "mean_ops_per_sec", s->mean);
	jw_exact(j, "max_deviation_pct", s->dev * 100);
	jw_end(j, '}');
}

static void write_summary(struct json *j, const struct results *r,
			  bool exact)
{
	jw_object(j, "summary");
	jw_u64(j, "ops", r->io_ops);
	jw_u64(j, "reads", r->rd_ops);
	jw_u64(j, "writes", r->wr_ops);
	jw_u64(j, "read_bytes", r->rd_bytes);
	jw_u64(j, "write_bytes", r->wr_bytes);
	jw_u64(j, "errors", r->io.errors);
	jw_u64(j, "cpu_ns", r->cpu_ns);
	/* the IO Summary's latency: what its CSV row needs */
	jw_object(j, "latency_ns");
	jw_u64(j, "sum", r->io.lat_sum);
	jw_u64(j, "p50", r->io_q[RESULTS_P50]);
	jw_u64(j, "p90", r->io_q[RESULTS_P90]);
	jw_u64(j, "p99", r->io_q[RESULTS_P99]);
	jw_u64(j, "p99.9", r->io_q[RESULTS_P999]);
	jw_u64(j, "max", r->io.lat_max);
	jw_end(j, '}');
	if (r->io.resp) {
		jw_object(j, "response_ns");
		jw_u64(j, "count", r->io.resp->count);
		jw_u64(j, "sum", r->io.resp->sum);
		jw_u64(j, "p50", r->io_rq[RESULTS_P50]);
		jw_u64(j, "p90", r->io_rq[RESULTS_P90]);
		jw_u64(j, "p99", r->io_rq[RESULTS_P99]);
		jw_u64(j, "p99.9", r->io_rq[RESULTS_P999]);
		jw_u64(j, "max", r->io.resp->max);
		jw_end(j, '}');
	}
	jw_num(j, "ops_per_sec", r->sum.ops_s);
	jw_num(j, "reads_per_sec", r->rd_s);
	jw_num(j, "writes_per_sec", r->wr_s);
	jw_u64(j, "bytes", r->io_bytes);
	jw_num(j, "mb_per_sec", r->sum.mb_s);
	jw_num(j, "cpu_us_per_op", r->sum.cpu_us);
	jw_num(j, "ms_per_op", r->sum.ms_op);
	/* the process's CPU time in the run; user is fbrun's own share */
	jw_num(j, "cpu_user_seconds", (double)(r->cpu_ns - r->cpu_sys_ns) / 1e9);
	(exact ? jw_exact : jw_num)(j, "cpu_sys_seconds",
				    (double)r->cpu_sys_ns / 1e9);
	/* Little's law, against the top level's threads (doc/running.md) */
	jw_exact(j, "threads_in_ops", r->in_ops);
	jw_u64(j, "waits", r->waits);
	jw_num(j, "wait_seconds", r->wait_ns / 1e9);
	jw_u64(j, "verify_errors", r->io.verify_errors);
	jw_end(j, '}');
}

static void write_dev(struct json *j, const struct diskstat_set *s,
		      const struct diskstat *d)
{
	const struct diskstat_counts *c = &d->d;

	jw_object(j, NULL);
	jw_str(j, "name", d->name);
	jw_u64(j, "major", d->major);
	jw_u64(j, "minor", d->minor);
	if (d->parent[0])
		jw_str(j, "parent", d->parent);
	if (d->slave_of >= 0)
		jw_str(j, "slave_of", s->dev[d->slave_of].name);
	jw_array(j, "filesets");
	for (size_t k = 0; k < d->nfilesets; k++)
		jw_str(j, NULL, d->filesets[k]);
	jw_end(j, ']');
	jw_exact(j, "seconds", d->secs);
	jw_u64(j, "read_ios", c->rd_ios);
	jw_u64(j, "read_merges", c->rd_merges);
	jw_u64(j, "read_sectors", c->rd_sectors);
	jw_u64(j, "read_bytes", c->rd_sectors * 512);
	jw_u64(j, "read_ticks_ms", c->rd_ticks);
	jw_u64(j, "write_ios", c->wr_ios);
	jw_u64(j, "write_merges", c->wr_merges);
	jw_u64(j, "write_sectors", c->wr_sectors);
	jw_u64(j, "write_bytes", c->wr_sectors * 512);
	jw_u64(j, "write_ticks_ms", c->wr_ticks);
	jw_u64(j, "in_queue_ms", c->in_queue);
	jw_u64(j, "io_ticks_ms", c->io_ticks);
	jw_num(j, "util_pct", diskstat_util(d));
	if (d->has_dc)
		jw_u64(j, "discard_ios", c->dc_ios);
	if (d->has_fl)
		jw_u64(j, "flush_ios", c->fl_ios);
	jw_end(j, '}');
}

/* "disk_stats": [...] and "disk_stats_none": [...], when r has them. */
static void write_disks(struct json *j, const struct diskstat_set *s)
{
	if (!s)
		return;
	jw_array(j, "disk_stats");
	for (size_t i = 0; i < s->ndev; i++)
		write_dev(j, s, &s->dev[i]);
	jw_end(j, ']');
	jw_array(j, "disk_stats_none");
	for (size_t i = 0; i < s->nnone; i++) {
		jw_object(j, NULL);
		jw_str(j, "fileset", s->none[i].fileset);
		jw_str(j, "reason", s->none[i].why);
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

/* "mpi": {ranks, hosts, stopped_by_rank} and "ranks": [...]. */
static void write_ranks(struct json *j, const struct results *r)
{
	if (!r->ranks)
		return;
	jw_object(j, "mpi");
	jw_u64(j, "ranks", r->nranks);
	jw_u64(j, "hosts", results_rank_hosts(r));
	if (r->stopped_by >= 0)
		jw_i64(j, "stopped_by_rank", r->stopped_by);
	jw_end(j, '}');
	jw_array(j, "ranks");
	for (size_t i = 0; i < r->nranks; i++) {
		const struct rank_result *k = &r->ranks[i];

		jw_object(j, NULL);
		jw_u64(j, "rank", i);
		jw_str(j, "host", k->host);
		/* all its digits: fbrun report prints the table again */
		jw_exact(j, "seconds", k->secs);
		jw_u64(j, "ops", k->io_ops);
		jw_num(j, "ops_per_sec", k->ops_s);
		jw_u64(j, "bytes", k->io_bytes);
		jw_num(j, "mb_per_sec", k->mb_s);
		jw_num(j, "ms_per_op", k->ms_op);
		jw_num(j, "p99_ms", (double)k->p99_ns / 1e6);
		jw_u64(j, "errors", k->errors);
		jw_object(j, "latency_ns");
		jw_u64(j, "sum", k->io_lat_ns);
		jw_u64(j, "p99", k->p99_ns);
		jw_u64(j, "max", k->max_ns);
		jw_end(j, '}');
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

/* What the run was and what ended it: the members before "system". */
static void write_run(struct json *j, const struct results *r,
		      const struct results_meta *m)
{
	char when[64];

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&r->started));
	/* first, so a reader knows what follows (doc/results.schema.json) */
	jw_str(j, "schema_version", SCHEMA_VERSION);
	jw_str(j, "fbrun_version", text(m->version));
	jw_str(j, "script", text(m->script));
	jw_str(j, "started", when);
	jw_u64(j, "seed", r->seed); /* --seed N draws the same numbers */
	write_build(j, m);
	jw_exact(j, "seconds", r->secs);
	jw_str(j, "ended_by", results_end_name(r->reason));
	if (r->note[0])
		jw_str(j, "note", r->note);
	if (r->error[0])
		jw_str(j, "error", r->error);
	jw_u64(j, "threads", r->nworkers);
	if (r->lathist)
		jw_bool(j, "latency_histograms", true);
	if (r->warm_s > 0) {
		jw_object(j, "warmup");
		(m->exact ? jw_exact : jw_num)(j, "seconds", r->warm_s);
		jw_bool(j, "completed", r->warm_done);
		jw_u64(j, "ops", r->warm_ops);
		jw_u64(j, "bytes", r->warm_bytes);
		jw_end(j, '}');
	}
	if (r->cache_limit) {
		jw_object(j, "cache_limit");
		jw_u64(j, "bytes", r->cache_limit);
		jw_str(j, "cgroup", r->cache_cgroup);
		jw_u64(j, "files_dropped", r->cache_files);
		jw_end(j, '}');
	}
	jw_u64(j, "peak_rss_bytes", m->peak_rss);
	jw_str(j, "data", text(m->data)); /* --data, for what sets none */
	if (r->script_sha256[0])
		jw_str(j, "script_sha256", r->script_sha256);
}

void results_write(FILE *out, const struct results *r,
		   const struct results_meta *m)
{
	struct json j;

	jw_init(&j, out);
	jw_object(&j, NULL);
	write_run(&j, r, m);
	write_system(&j, r, m);
	jw_object(&j, "variables");
	for (size_t i = 0; i < r->nvars; i++)
		jw_str(&j, r->vars[i].name, text(r->vars[i].value));
	jw_end(&j, '}');
	jw_array(&j, "flowops");
	for (size_t i = 0; i < r->nfo; i++)
		write_flowop(&j, &r->fo[i]);
	jw_end(&j, ']');
	if (r->narr)
		write_arrivals(&j, r);
	if (r->nacc)
		write_accels(&j, r);
	if (r->iv)
		write_intervals(&j, r);
	if (r->steady.tol > 0)
		write_steady(&j, &r->steady);
	write_summary(&j, r, m->exact);
	write_disks(&j, r->disks);
	write_ranks(&j, r);
	jw_end(&j, '}');
}
