/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The results model, its derived figures and a job's merge (results.h). */
#include "results/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/shown.h"
#include "util/statistics.h"
#include "util/util.h"

struct results *results_new(size_t nfo, size_t nfilesets)
{
	struct results *r = xcalloc(1, sizeof(*r));

	r->nfo = nfo;
	r->fo = xcalloc(nfo ? nfo : 1, sizeof(*r->fo));
	for (size_t i = 0; i < nfo; i++)
		fstats_init(&r->fo[i].s);
	r->nfilesets = nfilesets;
	r->filesets = xcalloc(nfilesets ? nfilesets : 1, sizeof(*r->filesets));
	fstats_init(&r->io);
	r->stopped_by = -1;
	return r;
}

static void flowop_clear(struct flowop_result *fr)
{
	free(fr->label);
	free(fr->name);
	free(fr->type);
	free(fr->thread);
	free(fr->process);
	free(fr->data);
	fstats_release(&fr->s);
}

void results_free(struct results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfo; i++)
		flowop_clear(&r->fo[i]);
	for (size_t i = 0; i < r->nfilesets; i++) {
		free(r->filesets[i].name);
		free(r->filesets[i].path);
		free(r->filesets[i].data);
	}
	for (size_t i = 0; i < r->nvars; i++) {
		free(r->vars[i].name);
		free(r->vars[i].value);
	}
	for (size_t i = 0; i < r->niv; i++)
		free(r->iv[i].fo_ops);
	fstats_release(&r->io);
	for (size_t i = 0; i < r->narr; i++) {
		free(r->arr[i].name);
		free(r->arr[i].thread);
		free(r->arr[i].process);
		free(r->arr[i].arrivals);
	}
	free(r->arr);
	for (size_t i = 0; i < r->nacc; i++) {
		free(r->acc[i].thread);
		free(r->acc[i].process);
	}
	free(r->acc);
	free(r->iv);
	free(r->vars);
	free(r->ranks);
	free(r->filesets);
	diskstat_free(r->disks);
	results_shown_free(r->shown, r->nfo);
	free(r->fo);
	free(r);
}

uint64_t results_quantile(const struct fstats *s, double q)
{
	uint64_t v = hist_quantile(&s->hist, q);

	/* a bucket's midpoint can lie past the largest value seen */
	if (!s->count)
		return 0;
	return v > s->lat_max ? s->lat_max : v < s->lat_min ? s->lat_min : v;
}

uint64_t results_resp_quantile(const struct fstats *s, double q)
{
	const struct resp *rp = s->resp;
	uint64_t v;

	if (!rp || !rp->count)
		return 0;
	v = hist_quantile(&rp->hist, q);
	return v > rp->max ? rp->max : v < rp->min ? rp->min : v;
}

bool results_open_loop(const struct results *r)
{
	return r->narr > 0;
}

double results_rate(uint64_t n, double secs)
{
	return secs > 0 ? (double)n / secs : 0;
}

double results_achieved(const struct results *r,
			const struct arrival_result *a)
{
	return results_rate(a->done, r->secs);
}

/* The mean of sum over n ops, in units of `per` ns; 0 without ops. */
static double per_op(uint64_t sum, uint64_t n, double per)
{
	return n ? (double)sum / (double)n / per : 0;
}

/* An open loop's mean response time of s, ms; 0 without one. */
static double resp_ms(const struct fstats *s)
{
	return s->resp ? per_op(s->resp->sum, s->resp->count, 1e6) : 0;
}

/* The figures every printer shows, from the counts (results.h). */
static void derive_figures(struct results *r)
{
	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *fr = &r->fo[i];
		const struct fstats *s = &fr->s;

		fr->fig = (struct results_figures){
			.ops_s = results_rate(s->count, r->secs),
			.mb_s = results_rate(s->bytes, r->secs) / RESULTS_MIB,
			.ms_op = per_op(s->lat_sum, s->count, 1e6),
			.cpu_us = per_op(s->cpu_ns, s->cpu_samples, 1e3),
			.resp_ms = resp_ms(s),
		};
		/* dbench's unit, 10^6 bytes */
		fr->loadfile_mbs =
			results_rate(fr->loadfile_bytes, r->secs) / 1e6;
	}
	r->sum = (struct results_figures){
		.ops_s = results_rate(r->io_ops, r->secs),
		.mb_s = results_rate(r->io_bytes, r->secs) / RESULTS_MIB,
		.ms_op = per_op(r->io_lat_ns, r->io_ops, 1e6),
		.cpu_us = per_op(r->cpu_ns, r->io_ops, 1e3),
		.resp_ms = resp_ms(&r->io),
	};
	r->rd_s = results_rate(r->rd_ops, r->secs);
	r->wr_s = results_rate(r->wr_ops, r->secs);
	for (size_t k = 0; r->ranks && k < r->nranks; k++) {
		struct rank_result *x = &r->ranks[k];

		x->ops_s = results_rate(x->io_ops, x->secs);
		x->mb_s = results_rate(x->io_bytes, x->secs) / RESULTS_MIB;
		x->ms_op = per_op(x->io_lat_ns, x->io_ops, 1e6);
	}
}

/* The IO Summary's sums, the quantiles, the waits and more: counters'. */
static void derive_counts(struct results *r)
{
	static const double qs[RESULTS_NQ] = { 0.5, 0.9, 0.99, 0.999 };

	fstats_release(&r->io);
	r->io_ops = r->io_bytes = r->io_lat_ns = r->rd_ops = r->wr_ops = 0;
	r->rd_bytes = r->wr_bytes = r->waits = r->wait_ns = 0;
	r->in_ops = 0;
	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *fr = &r->fo[i];

		fr->rd_bytes = fr->wr_bytes = 0;
		for (int q = 0; q < RESULTS_NQ; q++) {
			fr->q[q] = results_quantile(&fr->s, qs[q]);
			fr->rq[q] = results_resp_quantile(&fr->s, qs[q]);
		}
		r->waits += fr->s.waits;
		r->wait_ns += fr->s.wait_ns;
		if (!fr->composite && r->secs > 0)
			r->in_ops += (double)fr->s.lat_sum / 1e9 / r->secs;
		if (fr->reads)
			fr->rd_bytes = fr->s.bytes;
		else if (fr->writes)
			fr->wr_bytes = fr->s.bytes;
		if (!fr->io)
			continue;
		fstats_merge(&r->io, &fr->s);
		r->io_ops += fr->s.count;
		r->io_bytes += fr->s.bytes;
		r->io_lat_ns += fr->s.lat_sum;
		r->rd_bytes += fr->rd_bytes;
		r->wr_bytes += fr->wr_bytes;
		if (fr->reads)
			r->rd_ops += fr->s.count;
		else if (fr->writes)
			r->wr_ops += fr->s.count;
	}
	for (int q = 0; q < RESULTS_NQ; q++) {
		r->io_q[q] = results_quantile(&r->io, qs[q]);
		r->io_rq[q] = results_resp_quantile(&r->io, qs[q]);
	}
	for (size_t i = 0; i < r->narr; i++) {
		struct arrival_result *a = &r->arr[i];

		a->held = !a->dropped &&
			  (double)a->done >= 0.95 * (double)a->offered;
	}
}

void results_derive(struct results *r, enum results_basis from)
{
	if (from == RESULTS_FROM_COUNTERS)
		derive_counts(r);
	derive_figures(r);
}

void results_judge_steady(struct results *r, uint64_t interval_ns)
{
	double *x = xcalloc(r->niv ? r->niv : 1, sizeof(*x));
	double min = (double)interval_ns / 2e9;
	size_t all = r->niv, n = 0;

	/* a last interval shorter than half of one has too few ops to say */
	if (all && (r->iv[all - 1].secs < min || r->iv[all - 1].secs <= 0))
		all--;
	for (size_t i = all - (all + 2) / 3; i < all; i++)
		x[n++] = (double)r->iv[i].ops / r->iv[i].secs;
	r->steady.n = n;
	r->steady.judged = n >= 2;
	r->steady.steady = st_steady(x, n, r->steady.tol, &r->steady.mean,
				     &r->steady.dev);
	free(x);
}

static const char *const end_names[] = {
	[RESULTS_END_NONE] = "none", [RESULTS_END_TIMEOUT] = "timeout",
	[RESULTS_END_DONE] = "done", [RESULTS_END_ERROR] = "error",
	[RESULTS_END_SIGNAL] = "signal",
};

const char *results_end_name(enum results_end why)
{
	return (size_t)why < ARRAY_SIZE(end_names) ? end_names[why] : "none";
}

int results_end_parse(const char *name, enum results_end *why)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(end_names); i++)
		if (!strcmp(name, end_names[i])) {
			*why = (enum results_end)i;
			return 0;
		}
	return -1;
}

size_t results_rank_hosts(const struct results *r)
{
	size_t hosts = 0;

	for (size_t i = 0; i < r->nranks; i++) {
		size_t j = 0;

		while (j < i && strcmp(r->ranks[j].host, r->ranks[i].host))
			j++;
		hosts += j == i;
	}
	return hosts;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

double results_au_pct(const struct accel_result *a)
{
	return a->secs > 0 ? 100.0 * a->busy_s / a->secs : 0;
}

void results_au(const struct results *r, struct au_summary *s)
{
	double sum = 0;

	*s = (struct au_summary){ .n = r->nacc, .pass = true };
	for (size_t i = 0; i < r->nacc; i++) {
		const struct accel_result *a = &r->acc[i];
		double au = results_au_pct(a);

		if (i == 0 || au < s->min)
			s->min = au;
		sum += au;
		if (a->threshold > s->threshold)
			s->threshold = a->threshold;
		/* to the shown tenth: 89.96% shown as 90.0% passes 90 */
		if (au + 0.05 < a->threshold)
			s->pass = false;
	}
	s->mean = r->nacc ? sum / (double)r->nacc : 0;
	s->pass = s->pass && r->nacc > 0;
}

void results_add_accel(struct results *r, const struct accel_result *a)
{
	struct accel_result *d;

	r->acc = xrealloc(r->acc, (r->nacc + 1) * sizeof(*r->acc));
	d = &r->acc[r->nacc++];
	*d = *a;
	d->thread = dup_or_null(a->thread);
	d->process = dup_or_null(a->process);
}

/* What describes the run, not its counters: mine's, copied. */
static void copy_description(struct results *r, const struct results *mine)
{
	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *d = &r->fo[i];
		const struct flowop_result *s = &mine->fo[i];

		d->label = dup_or_null(s->label);
		d->name = dup_or_null(s->name);
		d->type = dup_or_null(s->type);
		d->thread = dup_or_null(s->thread);
		d->process = dup_or_null(s->process);
		d->data = dup_or_null(s->data);
		d->io = s->io;
		d->reads = s->reads;
		d->writes = s->writes;
		d->replays = s->replays;
		d->mean = s->mean;
		d->composite = s->composite;
		d->loadfile = s->loadfile;
	}
	for (size_t i = 0; i < r->nfilesets; i++) {
		struct fileset_result *d = &r->filesets[i];

		*d = mine->filesets[i];
		d->name = dup_or_null(d->name);
		d->path = dup_or_null(d->path);
		d->data = dup_or_null(d->data);
	}
	r->vars = xcalloc(mine->nvars + 1, sizeof(*r->vars));
	for (r->nvars = 0; r->nvars < mine->nvars; r->nvars++)
		r->vars[r->nvars] = (struct var_result){
			xstrdup(mine->vars[r->nvars].name),
			xstrdup(mine->vars[r->nvars].value)
		};
	r->lathist = mine->lathist;
	memcpy(r->script_sha256, mine->script_sha256, sizeof(r->script_sha256));
	r->started = mine->started;
	r->seed = mine->seed;
	r->reason = mine->reason;
	r->stopped_by = mine->stopped_by;
	/* the series is the job's already: rank 0 kept the ranks' sums */
	if (mine->niv)
		r->iv = xcalloc(mine->niv, sizeof(*r->iv));
	for (r->niv = 0; r->niv < mine->niv; r->niv++) {
		struct interval_result *iv = &r->iv[r->niv];

		*iv = mine->iv[r->niv];
		iv->fo_ops = xcalloc(r->nfo ? r->nfo : 1, sizeof(uint64_t));
		memcpy(iv->fo_ops, mine->iv[r->niv].fo_ops,
		       r->nfo * sizeof(uint64_t));
	}
	r->iv_latency = mine->iv_latency;
	r->iv_open = mine->iv_open;
	r->steady = mine->steady;
	r->disks = diskstat_dup(mine->disks);
	r->arr = xcalloc(mine->narr ? mine->narr : 1, sizeof(*r->arr));
	for (r->narr = 0; r->narr < mine->narr; r->narr++) {
		struct arrival_result *d = &r->arr[r->narr];
		const struct arrival_result *s = &mine->arr[r->narr];

		d->name = dup_or_null(s->name);
		d->flowop = s->flowop;
		d->thread = dup_or_null(s->thread);
		d->process = dup_or_null(s->process);
		d->arrivals = dup_or_null(s->arrivals);
		d->backlog = s->backlog;
	}
}

/* A part's arrivals added to the job's: its sources are mine's, in order. */
static void merge_arrivals(struct results *r, const struct results *part)
{
	for (size_t i = 0; i < r->narr && i < part->narr; i++) {
		struct arrival_result *d = &r->arr[i];
		const struct arrival_result *s = &part->arr[i];

		d->rate += s->rate;
		d->instances += s->instances;
		d->offered += s->offered;
		d->done += s->done;
		d->late += s->late;
		d->dropped += s->dropped;
		d->unserved += s->unserved;
		if (s->most_waiting > d->most_waiting)
			d->most_waiting = s->most_waiting;
		d->woken += s->woken;
		d->wake_ns += s->wake_ns;
		if (s->wake_max_ns > d->wake_max_ns)
			d->wake_max_ns = s->wake_max_ns;
	}
}

/* A part's own figures, from its counters (what it counts as: mine's). */
static void rank_figures(struct results *part, const struct results *mine,
			 struct rank_result *rr)
{
	for (size_t i = 0; i < part->nfo; i++) {
		part->fo[i].io = mine->fo[i].io;
		part->fo[i].reads = mine->fo[i].reads;
		part->fo[i].writes = mine->fo[i].writes;
		part->fo[i].composite = mine->fo[i].composite;
	}
	results_derive(part, RESULTS_FROM_COUNTERS);
	rr->secs = part->secs;
	rr->io_ops = part->io_ops;
	rr->io_bytes = part->io_bytes;
	rr->io_lat_ns = part->io_lat_ns;
	rr->p99_ns = hist_quantile(&part->io.hist, 0.99);
	rr->max_ns = part->io.count ? part->io.lat_max : 0;
	rr->cpu_ns = part->cpu_ns;
	for (size_t i = 0; i < part->nfo; i++)
		rr->errors += part->fo[i].s.errors;
}

struct results *results_merge(const struct results *mine,
			      struct results *const *parts,
			      char *const *hosts, size_t n)
{
	struct results *r = results_new(mine->nfo, mine->nfilesets);

	copy_description(r, mine);
	r->ranks = xcalloc(n ? n : 1, sizeof(*r->ranks));
	r->nranks = n;
	for (size_t k = 0; k < n; k++) {
		struct results *part = parts[k];

		snprintf(r->ranks[k].host, sizeof(r->ranks[k].host), "%s",
			 hosts[k]);
		rank_figures(part, mine, &r->ranks[k]);
		for (size_t i = 0; i < r->nfo; i++) {
			fstats_merge(&r->fo[i].s, &part->fo[i].s);
			r->fo[i].pass_ops += part->fo[i].pass_ops;
			r->fo[i].row_ops += part->fo[i].row_ops;
			r->fo[i].loadfile_bytes += part->fo[i].loadfile_bytes;
		}
		merge_arrivals(r, part);
		/* each rank's accelerators, AU against its own time */
		for (size_t i = 0; i < part->nacc; i++) {
			struct accel_result a = part->acc[i];

			a.rank = (unsigned)k;
			results_add_accel(r, &a);
		}
		if (part->secs > r->secs)
			r->secs = part->secs;
		r->cpu_ns += part->cpu_ns;
		r->cpu_sys_ns += part->cpu_sys_ns;
		/* every rank's warm-up is the same length; done when all's is */
		r->warm_s = part->warm_s;
		r->warm_done = k == 0 ? part->warm_done :
					r->warm_done && part->warm_done;
		r->warm_ops += part->warm_ops;
		r->warm_bytes += part->warm_bytes;
		/* every rank has the same bound, each its own files */
		r->cache_limit = part->cache_limit;
		memcpy(r->cache_cgroup, part->cache_cgroup,
		       sizeof(r->cache_cgroup));
		r->cache_files += part->cache_files;
		r->nworkers += part->nworkers;
		if (part->error[0] && !r->error[0])
			snprintf(r->error, sizeof(r->error), "rank %zu: %.*s", k,
				 (int)sizeof(r->error) - 32, part->error);
		if (part->note[0] && !r->note[0]) {
			snprintf(r->note, sizeof(r->note), "rank %zu: %.200s", k,
				 part->note);
			/* only this rank's own is known: rank 0 merges */
			r->note_done = k == 0 && mine->note_done;
		}
	}
	results_derive(r, RESULTS_FROM_COUNTERS);
	return r;
}
