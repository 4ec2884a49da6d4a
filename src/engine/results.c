/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The workers' counters merged into one run's results (results.h). */
#include "engine/results.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fileset/fileset.h"
#include "engine/run/diskstats.h"
#include "engine/run/monitor.h"
#include "engine/worker/arrivals.h"
#include "engine/worker/worker.h"
#include "lang/datapat.h"
#include "lang/flowop.h"
#include "lang/ir.h"
#include "trace/trace.h"
#include "util/sha256.h"
#include "util/source.h"
#include "util/util.h"

static char *data_name(struct datapat p)
{
	char buf[32];

	if (p.kind == DATA_DEFAULT)
		return NULL;
	datapat_format(buf, sizeof(buf), p);
	return xstrdup(buf);
}

/* What the script says of each flowop, fileset and variable: copies. */
static void describe(struct results *r, const struct run *run)
{
	const struct workload *w = run->w;

	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *fr = &r->fo[i];
		const struct ir_flowop *f = w->flowops[i];
		const struct ir_thread *t = &w->threads[f->thread];
		unsigned ff = ir_flowop_flags(f);

		fr->label = xstrdup(f->label);
		fr->name = xstrdup(f->name);
		fr->type = xstrdup(f->type < FO_NTYPES ?
					   flowop_info[f->type].name :
					   f->composite);
		fr->thread = xstrdup(t->name);
		fr->process = xstrdup(w->processes[t->process].name);
		fr->data = data_name(f->data);
		fr->io = ff & FF_IO;
		fr->reads = ff & FF_READ;
		fr->writes = ff & FF_WRITE;
		fr->replays = flowop_flags(f->type) & FF_TRACE;
		fr->mean = ff & FF_MEAN;
		fr->composite = ir_flowop_holds_others(f);
	}
	for (size_t i = 0; i < w->nfilesets; i++) {
		struct fileset_result *fs = &r->filesets[i];
		const struct fileset *laid = run->filesets ? run->filesets[i] :
							     NULL;

		fs->name = xstrdup(w->filesets[i].name);
		fs->path = xstrdup(w->filesets[i].path);
		fs->entries = w->filesets[i].entries;
		fs->data = data_name(w->filesets[i].data);
		if (laid) {
			fs->known = true;
			fs->dirs = fileset_ndirs(laid);
			fs->mean_width = fileset_mean_width(laid);
			fs->mean_depth = fileset_mean_depth(laid);
		}
	}
	r->vars = xcalloc(w->nvars + 1, sizeof(*r->vars));
	for (r->nvars = 0; r->nvars < w->nvars; r->nvars++) {
		const struct ir_var *v = &w->vars[r->nvars];
		char buf[256];

		ir_value_format(buf, sizeof(buf), w, &v->value);
		r->vars[r->nvars] = (struct var_result){
			xstrdup(v->name),
			xstrdup(v->value.kind == IRV_STR ? v->value.s : buf)
		};
	}
	r->lathist = w->lathist;
	if (w->src)
		sha256_hex(source_text(w->src), source_len(w->src),
			   r->script_sha256);
}

static enum results_end end_of(enum stop_reason why)
{
	switch (why) {
	case STOP_TIMEOUT: return RESULTS_END_TIMEOUT;
	case STOP_DONE: return RESULTS_END_DONE;
	case STOP_ERROR: return RESULTS_END_ERROR;
	case STOP_SIGNAL: return RESULTS_END_SIGNAL;
	case STOP_NONE: break;
	}
	return RESULTS_END_NONE;
}

/* The monitor's series, moved into the model. */
static void take_series(struct results *r, struct monitor *m)
{
	size_t n;
	struct interval *iv = monitor_steal(m, &n);

	if (!iv)
		return; /* no series: the JSON has no "intervals" */
	r->iv = xcalloc(n ? n : 1, sizeof(*r->iv));
	for (r->niv = 0; r->niv < n; r->niv++) {
		const struct interval *s = &iv[r->niv];

		r->iv[r->niv] = (struct interval_result){
			.t_s = s->t_s, .secs = s->secs, .ops = s->ops,
			.bytes = s->bytes, .errors = s->errors,
			.p50_ns = s->p50_ns, .p99_ns = s->p99_ns,
			.rp50_ns = s->rp50_ns, .rp99_ns = s->rp99_ns,
			.fo_ops = s->fo_ops
		};
		iv[r->niv].fo_ops = NULL; /* the model's now */
	}
	monitor_intervals_free(iv, n);
}

/* The first failure, the run's own before any its threads met. */
static void first_failure(struct results *r, const struct run *run)
{
	snprintf(r->error, sizeof(r->error), "%s", run->error);
	for (size_t k = 0; k < run->nworkers; k++) {
		const struct worker *wk = &run->workers[k];

		const char *what = wk->err_what ? wk->err_what :
				   "(no memory was left for the message)";

		if (wk->err_flowop >= 0 && !r->error[0])
			snprintf(r->error, sizeof(r->error),
				 "flowop %s failed: %s: %s",
				 r->fo[wk->err_flowop].label, what,
				 strerror(wk->err_no));
		else if (wk->err_flowop < 0 && wk->err_no && !r->error[0])
			snprintf(r->error, sizeof(r->error), "%s: %s", what,
				 strerror(wk->err_no));
		if (wk->done && !r->note[0]) {
			snprintf(r->note, sizeof(r->note), "%s", wk->norsc_why);
			r->note_done = wk->finished;
		}
	}
}

/* One worker's arrivals of a source added to it. */
static void add_arrivals(struct arrival_result *d, const struct arrivals *a)
{
	if (!d->arrivals) {
		d->arrivals = xstrdup(a->rate <= 0 ? "closed" :
				      a->poisson   ? "poisson" :
						     "fixed");
		d->backlog = a->limit;
	}
	d->rate += a->rate;
	d->instances++;
	d->offered += a->n.offered;
	d->done += a->n.done;
	d->late += a->n.late;
	d->dropped += a->n.dropped;
	d->unserved += a->n.unserved;
	if (a->n.most_waiting > d->most_waiting)
		d->most_waiting = a->n.most_waiting;
	d->woken += a->n.woken;
	d->wake_ns += a->n.wake_ns;
	if (a->n.wake_max_ns > d->wake_max_ns)
		d->wake_max_ns = a->n.wake_max_ns;
}

/*
 * The open loop's sources: each thread whose passes are arrivals, then
 * each flowop with rate= of its own, in the script's order.
 */
static void collect_arrivals(struct results *r, const struct run *run)
{
	const struct workload *w = run->w;
	size_t n = w->nthreads + w->nflowops;
	ptrdiff_t *at = xcalloc(n ? n : 1, sizeof(*at)); /* index + 1 */

	for (size_t k = 0; k < run->nworkers; k++) {
		const struct worker *wk = &run->workers[k];

		if (wk->pass)
			at[wk->thread_index] = 1;
		for (size_t i = 0; wk->fo_arr && i < w->nflowops; i++)
			if (wk->fo_arr[i])
				at[w->nthreads + i] = 1;
	}
	for (size_t i = 0; i < n; i++)
		if (at[i])
			at[i] = (ptrdiff_t)++r->narr;
	r->arr = xcalloc(r->narr ? r->narr : 1, sizeof(*r->arr));
	for (size_t i = 0; i < n; i++) {
		struct arrival_result *d;
		const struct ir_thread *t;

		if (!at[i])
			continue;
		d = &r->arr[at[i] - 1];
		d->flowop = i >= w->nthreads;
		t = &w->threads[d->flowop ? w->flowops[i - w->nthreads]->thread :
					    (int)i];
		d->name = xstrdup(d->flowop ? w->flowops[i - w->nthreads]->label :
					      t->name);
		d->thread = xstrdup(t->name);
		d->process = xstrdup(w->processes[t->process].name);
	}
	for (size_t k = 0; k < run->nworkers; k++) {
		const struct worker *wk = &run->workers[k];

		/* a worker that never saw the warm-up end: all warm-up */
		if (run->warm_done && wk->warming)
			continue;
		if (wk->pass)
			add_arrivals(&r->arr[at[wk->thread_index] - 1], wk->pass);
		for (size_t i = 0; wk->fo_arr && i < w->nflowops; i++)
			if (wk->fo_arr[i])
				add_arrivals(&r->arr[at[w->nthreads + i] - 1],
					     wk->fo_arr[i]);
	}
	free(at);
}

/*
 * A replay's own row: one pass's ops (every instance's), its rows' ops,
 * and of a dbench loadfile its reads' and writes' bytes, as measured.
 */
static void replay_progress(struct results *r, const struct workload *w)
{
	for (size_t i = 0; i < r->nfo; i++) {
		const struct ir_flowop *f = w->flowops[i];
		struct flowop_result *fr = &r->fo[i];
		const struct ir_thread *t;
		const struct trace *tr;
		uint64_t ops = 0;

		if (f->type != FO_REPLAY || f->replay_row || f->trace.index < 0)
			continue;
		t = &w->threads[f->thread];
		tr = w->traces[f->trace.index].trace;
		for (size_t s = 0; s < trace_nstreams(tr); s++)
			ops += trace_stream_nops(tr, s);
		fr->pass_ops = ops * (uint64_t)t->instances *
			       (uint64_t)w->processes[t->process].instances;
		fr->loadfile = trace_format(tr) == TRACE_DBENCH;
		for (int k = 0; k < TOP_COUNT; k++) {
			const struct fstats *s;

			if (f->replay_rows[k] < 0)
				continue;
			s = &r->fo[f->replay_rows[k]].s;
			fr->row_ops += s->count;
			if (fr->loadfile && (k == TOP_READ || k == TOP_WRITE))
				fr->loadfile_bytes += s->bytes;
		}
	}
}

/* Each instance of an accelerator thread: its compute time in the run. */
static void collect_accels(struct results *r, const struct run *run)
{
	const struct workload *w = run->w;

	for (size_t k = 0; k < run->nworkers; k++) {
		const struct worker *wk = &run->workers[k];
		const struct ir_thread *t = wk->thread;
		/* one that never saw the warm-up end was idle after it */
		bool warm_only = run->warm_done && wk->warming;
		uint64_t late = wk->compute_t1 > run->end_ns ?
			wk->compute_t1 - (wk->compute_t0 > run->end_ns ?
						  wk->compute_t0 : run->end_ns) :
			0;
		uint64_t busy = wk->compute_ns > late ? wk->compute_ns - late : 0;
		struct accel_result a = {
			.thread = t->name,
			.process = w->processes[t->process].name,
			.rank = run->opts->peers->rank,
			.busy_s = warm_only ? 0 : (double)busy / 1e9,
			.secs = r->secs,
			.threshold = (int)t->accelerator,
		};

		if (t->accelerator)
			results_add_accel(r, &a);
	}
}

struct results *results_collect(const struct run *run)
{
	const struct workload *w = run->w;
	struct results *r = results_new(w->nflowops, w->nfilesets);

	describe(r, run);
	r->nworkers = run->nworkers;
	r->seed = run->opts->seed;
	r->warm_s = (double)run->opts->warmup_ns / 1e9;
	r->warm_done = run->warm_done;
	r->secs = (double)(run->end_ns - run->start_ns) / 1e9;
	r->cpu_ns = (run->cpu_end.user_ns + run->cpu_end.sys_ns) -
		    (run->cpu_start.user_ns + run->cpu_start.sys_ns);
	r->cpu_sys_ns = run->cpu_end.sys_ns - run->cpu_start.sys_ns;
	r->reason = end_of(timeline_reason(run->ctl));
	r->stopped_by = (int)run->stopped_by - 1;
	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *fr = &r->fo[i];

		for (size_t k = 0; k < run->nworkers; k++) {
			const struct worker *wk = &run->workers[k];
			/* a worker that never saw the warm-up end: all warm-up */
			bool warm_only = run->warm_done && wk->warming;
			const struct fstats *warm = wk->warm ? &wk->warm[i] :
						    warm_only ? &wk->stats[i] :
								NULL;

			if (!warm_only)
				fstats_merge(&fr->s, &wk->stats[i]);
			if (warm && fr->io) {
				r->warm_ops += warm->count;
				r->warm_bytes += warm->bytes;
			}
		}
	}
	replay_progress(r, w);
	collect_arrivals(r, run);
	collect_accels(r, run);
	results_derive(r, RESULTS_FROM_COUNTERS);
	r->disks = diskstats_result(run->disks);
	first_failure(r, run);
	if (run->monitor)
		take_series(r, run->monitor);
	r->iv_latency = run->opts->interval_ns > 0;
	r->iv_open = r->iv_latency && run->monitor && monitor_open(run->monitor);
	r->steady.tol = run->opts->steady_tol;
	if (r->steady.tol > 0)
		results_judge_steady(r, run->opts->interval_ns);
	return r;
}
