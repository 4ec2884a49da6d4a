/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The merge of the workers' counters into one run's results (results.h). */
#include "engine/results.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/diskstats.h"
#include "engine/fileset.h"
#include "engine/monitor.h"
#include "engine/worker.h"
#include "util/statistics.h"
#include "util/util.h"

/*
 * What follows from the flowops' counters and the measured time: the IO
 * Summary, the waits, the threads inside operations.  The same for one
 * process's workers and for a job's ranks merged.
 */
static void derive(struct results *r)
{
	fstats_release(&r->io);
	fstats_init(&r->io);
	r->io_ops = r->io_bytes = r->io_lat_ns = r->rd_ops = r->wr_ops = 0;
	r->rd_bytes = r->wr_bytes = r->waits = r->wait_ns = 0;
	r->in_ops = 0;
	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *fr = &r->fo[i];
		unsigned ff = flowop_flags(fr->f->type);

		fr->rd_bytes = fr->wr_bytes = 0;
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
}

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
	r->seed = run->opts->seed;
	r->warm_s = (double)run->opts->warmup_ns / 1e9;
	r->warm_done = run->warm_done;
	r->secs = (double)(run->end_ns - run->start_ns) / 1e9;
	r->cpu_ns = (run->cpu_end.user_ns + run->cpu_end.sys_ns) -
		    (run->cpu_start.user_ns + run->cpu_start.sys_ns);
	r->cpu_sys_ns = run->cpu_end.sys_ns - run->cpu_start.sys_ns;
	r->reason = timeline_reason(run->ctl);
	r->stopped_by = (int)run->stopped_by - 1;
	r->nfo = w->nflowops;
	r->fo = xcalloc(r->nfo ? r->nfo : 1, sizeof(*r->fo));
	fstats_init(&r->io);
	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *fr = &r->fo[i];

		fr->f = w->flowops[i];
		fr->label = fr->f->label;
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
			if (warm && (flowop_flags(fr->f->type) & FF_IO)) {
				r->warm_ops += warm->count;
				r->warm_bytes += warm->bytes;
			}
		}
	}
	derive(r);
	r->disks = disks_result(run->disks);
	/* the run's own failure comes before any its threads met */
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
	free(r->ranks);
	free(r->trees);
	diskstat_free(r->disks);
	free(r->fo);
	free(r);
}

/* A line's text on one line: what follows a key in the serialised form. */
static void put_text(FILE *f, const char *key, const char *text)
{
	fprintf(f, "%s ", key);
	for (const char *p = text; *p; p++)
		fputc(*p == '\n' ? ' ' : *p, f);
	fputc('\n', f);
}

char *results_serialise(const struct results *r, const char *host,
			size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL; /* the merge then says this rank's are missing */
	fprintf(f, "results v1\n");
	put_text(f, "host", host);
	fprintf(f, "secs %a\ncpu %" PRIu64 " %" PRIu64 "\nnworkers %zu\n"
		   "reason %d\nwarm %a %d %" PRIu64 " %" PRIu64 "\nnfo %zu\n",
		r->secs, r->cpu_ns, r->cpu_sys_ns, r->nworkers, (int)r->reason,
		r->warm_s, (int)r->warm_done, r->warm_ops, r->warm_bytes, r->nfo);
	put_text(f, "note", r->note);
	put_text(f, "error", r->error);
	for (size_t i = 0; i < r->nfo; i++)
		fstats_write(f, &r->fo[i].s);
	fprintf(f, "end\n");
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The text after "key " on a line of its own, into out. */
static int get_text(FILE *f, const char *key, char *out, size_t len)
{
	char *line = NULL;
	size_t cap = 0, klen = strlen(key);
	ssize_t n = getline(&line, &cap, f);
	int rc = -1;

	if (n > (ssize_t)klen && line[n - 1] == '\n' &&
	    !strncmp(line, key, klen) && line[klen] == ' ') {
		line[n - 1] = '\0';
		snprintf(out, len, "%s", line + klen + 1);
		rc = 0;
	}
	free(line);
	return rc;
}

/* One process's text into part (its counters) and rr (its figures). */
static int read_part(const char *text, struct results *part,
		     struct rank_result *rr)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char word[16] = "";
	int reason = 0, warm_done = 0, ok;
	size_t nfo = SIZE_MAX, i = 0;

	if (!f)
		return -1;
	ok = fscanf(f, "results v1\n") == 0 &&
	     !get_text(f, "host", rr->host, sizeof(rr->host)) &&
	     fscanf(f, "secs %la\ncpu %" SCNu64 " %" SCNu64 "\nnworkers %zu\n"
		       "reason %d\nwarm %la %d %" SCNu64 " %" SCNu64 "\nnfo %zu\n",
		    &part->secs, &part->cpu_ns, &part->cpu_sys_ns,
		    &part->nworkers, &reason, &part->warm_s, &warm_done,
		    &part->warm_ops, &part->warm_bytes, &nfo) == 10 &&
	     nfo == part->nfo && reason >= STOP_NONE && reason <= STOP_SIGNAL &&
	     !get_text(f, "note", part->note, sizeof(part->note)) &&
	     !get_text(f, "error", part->error, sizeof(part->error));
	part->reason = (enum stop_reason)reason;
	part->warm_done = warm_done != 0;
	for (i = 0; ok && i < nfo; i++)
		ok = fstats_read(f, &part->fo[i].s) == 0;
	ok = ok && fscanf(f, "%15s", word) == 1 && !strcmp(word, "end");
	fclose(f);
	if (!ok)
		return -1;
	rr->secs = part->secs;
	derive(part);
	rr->io_ops = part->io_ops;
	rr->io_bytes = part->io_bytes;
	rr->io_lat_ns = part->io_lat_ns;
	rr->p99_ns = hist_quantile(&part->io.hist, 0.99);
	rr->max_ns = part->io.count ? part->io.lat_max : 0;
	rr->cpu_ns = part->cpu_ns;
	for (i = 0; i < part->nfo; i++)
		rr->errors += part->fo[i].s.errors;
	return 0;
}

struct results *results_merge(const struct results *mine,
			      char *const *texts, size_t n, char *err,
			      size_t errlen)
{
	const struct workload *w = mine->w;
	struct results *r = xcalloc(1, sizeof(*r));
	struct results part = { .w = w, .nfo = mine->nfo };

	r->w = w;
	r->trees = xcalloc(w->nfilesets ? w->nfilesets : 1, sizeof(*r->trees));
	memcpy(r->trees, mine->trees,
	       (w->nfilesets ? w->nfilesets : 1) * sizeof(*r->trees));
	r->started = mine->started;
	r->seed = mine->seed;
	r->reason = mine->reason;
	r->stopped_by = mine->stopped_by;
	r->nfo = mine->nfo;
	r->fo = xcalloc(r->nfo ? r->nfo : 1, sizeof(*r->fo));
	fstats_init(&r->io);
	for (size_t i = 0; i < r->nfo; i++) {
		r->fo[i].f = mine->fo[i].f;
		r->fo[i].label = mine->fo[i].label;
		fstats_init(&r->fo[i].s);
	}
	part.fo = xcalloc(r->nfo ? r->nfo : 1, sizeof(*part.fo));
	for (size_t i = 0; i < r->nfo; i++)
		part.fo[i].f = mine->fo[i].f;
	fstats_init(&part.io);
	r->ranks = xcalloc(n ? n : 1, sizeof(*r->ranks));
	r->nranks = n;
	for (size_t k = 0; k < n; k++) {
		if (!texts[k] || read_part(texts[k], &part, &r->ranks[k]) < 0) {
			snprintf(err, errlen,
				 "the results of rank %zu cannot be read", k);
			for (size_t i = 0; i < part.nfo; i++)
				fstats_release(&part.fo[i].s);
			fstats_release(&part.io);
			free(part.fo);
			results_free(r);
			return NULL;
		}
		for (size_t i = 0; i < r->nfo; i++) {
			fstats_merge(&r->fo[i].s, &part.fo[i].s);
			fstats_release(&part.fo[i].s);
		}
		if (part.secs > r->secs)
			r->secs = part.secs;
		r->cpu_ns += part.cpu_ns;
		r->cpu_sys_ns += part.cpu_sys_ns;
		/* every rank's warm-up is the same length; done when all's is */
		r->warm_s = part.warm_s;
		r->warm_done = k == 0 ? part.warm_done :
					r->warm_done && part.warm_done;
		r->warm_ops += part.warm_ops;
		r->warm_bytes += part.warm_bytes;
		r->nworkers += part.nworkers;
		if (part.error[0] && !r->error[0])
			snprintf(r->error, sizeof(r->error), "rank %zu: %.*s", k,
				 (int)sizeof(r->error) - 32, part.error);
		if (part.note[0] && !r->note[0])
			snprintf(r->note, sizeof(r->note), "rank %zu: %.200s", k,
				 part.note);
	}
	fstats_release(&part.io);
	free(part.fo);
	derive(r);
	/* the series is the job's already: rank 0 kept the ranks' sums */
	if (mine->niv)
		r->iv = xcalloc(mine->niv, sizeof(*r->iv));
	for (r->niv = 0; r->niv < mine->niv; r->niv++) {
		struct interval *iv = &r->iv[r->niv];

		*iv = mine->iv[r->niv];
		iv->fo_ops = xcalloc(r->nfo ? r->nfo : 1, sizeof(uint64_t));
		memcpy(iv->fo_ops, mine->iv[r->niv].fo_ops,
		       r->nfo * sizeof(uint64_t));
	}
	r->iv_latency = mine->iv_latency;
	r->steady = mine->steady;
	r->disks = diskstat_dup(mine->disks);
	return r;
}
