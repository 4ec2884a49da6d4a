/* The merge of the workers' counters into one run's results (results.h). */
#include "engine/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fileset.h"
#include "engine/monitor.h"
#include "engine/worker.h"
#include "util/statistics.h"
#include "util/util.h"

/*
 * --steady: the last third of the intervals (rounded up), a last one
 * shorter than half an interval left out (too few ops to say much).
 */
static void judge_steady(struct results *r, uint64_t interval_ns)
{
	double *x = xcalloc(r->niv ? r->niv : 1, sizeof(*x));
	double min = (double)interval_ns / 2e9;
	size_t all = r->niv, n = 0;

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

struct results *results_collect(const struct run *run)
{
	const struct workload *w = run->w;
	struct results *r = xcalloc(1, sizeof(*r));

	r->w = w;
	r->trees = xcalloc(w->nfilesets ? w->nfilesets : 1, sizeof(*r->trees));
	for (size_t i = 0; run->filesets && i < w->nfilesets; i++) {
		const struct fileset *fs = run->filesets[i];

		if (fs)
			r->trees[i] = (struct tree_shape){
				true, fileset_ndirs(fs), fileset_mean_width(fs),
				fileset_mean_depth(fs)
			};
	}
	r->nworkers = run->nworkers;
	r->warm_s = (double)run->opts->warmup_ns / 1e9;
	r->warm_done = run->warm_done;
	r->secs = (double)(run->end_ns - run->start_ns) / 1e9;
	r->cpu_ns = (run->cpu_end.user_ns + run->cpu_end.sys_ns) -
		    (run->cpu_start.user_ns + run->cpu_start.sys_ns);
	r->cpu_sys_ns = run->cpu_end.sys_ns - run->cpu_start.sys_ns;
	r->reason = timeline_reason(run->ctl);
	r->nfo = w->nflowops;
	r->fo = xcalloc(r->nfo ? r->nfo : 1, sizeof(*r->fo));
	fstats_init(&r->io);
	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *fr = &r->fo[i];
		unsigned ff;

		fr->f = w->flowops[i];
		ff = flowop_flags(fr->f->type);
		flowop_label(w, fr->f, fr->label, sizeof(fr->label));
		fstats_init(&fr->s);
		for (size_t k = 0; k < run->nworkers; k++) {
			const struct worker *wk = &run->workers[k];
			/* a worker that never saw the warm-up end: all warm-up */
			bool warm_only = run->warm_done && wk->warming;
			const struct fstats *warm = wk->warm ? &wk->warm[i] :
						    warm_only ? &wk->stats[i] :
								NULL;

			if (!warm_only)
				fstats_merge(&fr->s, &wk->stats[i]);
			if (warm && (ff & FF_IO)) {
				r->warm_ops += warm->count;
				r->warm_bytes += warm->bytes;
			}
		}
		r->waits += fr->s.waits;
		r->wait_ns += fr->s.wait_ns;
		if (fr->f->type != FO_COMPOSITE && r->secs > 0)
			r->in_ops += (double)fr->s.lat_sum / 1e9 / r->secs;
		if (ff & FF_READ)
			fr->rd_bytes = fr->s.bytes;
		else if (ff & FF_WRITE)
			fr->wr_bytes = fr->s.bytes;
		if (!(ff & FF_IO))
			continue;
		fstats_merge(&r->io, &fr->s);
		r->io_ops += fr->s.count;
		r->io_bytes += fr->s.bytes;
		r->io_lat_ns += fr->s.lat_sum;
		r->rd_bytes += fr->rd_bytes;
		r->wr_bytes += fr->wr_bytes;
		if (ff & FF_READ)
			r->rd_ops += fr->s.count;
		else if (ff & FF_WRITE)
			r->wr_ops += fr->s.count;
	}
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
		if (wk->done && !r->note[0])
			snprintf(r->note, sizeof(r->note), "%s", wk->norsc_why);
	}
	if (run->monitor)
		r->iv = monitor_steal(run->monitor, &r->niv);
	r->iv_latency = run->opts->interval_ns > 0;
	r->steady.tol = run->opts->steady_tol;
	if (r->steady.tol > 0)
		judge_steady(r, run->opts->interval_ns);
	return r;
}

void results_free(struct results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfo; i++)
		fstats_release(&r->fo[i].s);
	fstats_release(&r->io);
	intervals_free(r->iv, r->niv);
	free(r->trees);
	free(r->fo);
	free(r);
}
