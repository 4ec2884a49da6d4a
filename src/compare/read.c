/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Results files read by results/read.h, and compare's model (read.h)
 * taken from theirs.
 */
#include "compare/read.h"

#include <stdlib.h>

#include "results/read.h"
#include "results/shown.h"
#include "util/msg.h"
#include "util/util.h"

/* A flowop's figures, where they apply and the file has them. */
static void take_flowop(struct cmp_flowop *f, const struct flowop_result *fr,
			const struct results_shown_fo *sf)
{
	static const enum results_fig figs[CM_COUNT] = {
		[CM_OPS] = RESULTS_FIG_OPS_PER_SEC,
		[CM_MB] = RESULTS_FIG_MB_PER_SEC,
		[CM_MS] = RESULTS_FIG_MS_PER_OP,
		[CM_CPU] = RESULTS_FIG_CPU_US_PER_OP,
		[CM_P99] = RESULTS_FIG_P99_NS,
		[CM_RP99] = RESULTS_FIG_P99_NS, /* the model's, below */
	};
	const struct results_num *ops = &sf->fig[RESULTS_FIG_OPS];
	const struct results_num *samples = &sf->fig[RESULTS_FIG_CPU_SAMPLES];

	f->name = fr->label;
	f->type = fr->type;
	f->idle = ops->has && ops->v == 0;
	f->errors = fr->s.errors;
	for (int m = 0; m < CM_COUNT; m++) {
		/* a flowop that never ran has no latency or CPU cost, not 0 */
		if (m != CM_OPS && m != CM_MB && ops->has && ops->v == 0)
			continue;
		if (m == CM_CPU && samples->has && samples->v == 0)
			continue;
		f->has[m] = sf->fig[figs[m]].has;
		f->fig[m] = sf->fig[figs[m]].v;
	}
	if (f->has[CM_P99])
		f->fig[CM_P99] /= 1e6;
	/* an open loop's, as its file has it ("response_ns") */
	f->has[CM_RP99] = fr->s.resp && fr->s.resp->count;
	f->fig[CM_RP99] = (double)fr->rq[RESULTS_P99] / 1e6;
	f->hist = sf->hist;
	f->nhist = sf->nhist;
}

/* The run r->res holds, in compare's terms. */
static void take(struct cmp_run *r)
{
	const struct results *res = r->res;
	const struct results_shown *s = res->shown;

	r->script = s->script;
	r->script_sha256 = s->script_sha256;
	r->started = s->started;
	r->ended_by = s->ended_by;
	r->error = s->error;
	r->data = s->data;
	r->kernel = s->kernel;
	r->cpus = s->cpus;
	r->seconds = res->secs;
	r->fs_type = s->fs_type;
	r->mountpoint = s->mountpoint;
	r->mount_options = s->mount_options;
	for (size_t i = 0; i < CMP_NSUMMARY; i++) {
		r->has_summary[i] = s->summary[i].has;
		r->summary[i] = s->summary[i].v;
	}
	if (res->nacc) {
		struct au_summary au;

		results_au(res, &au);
		r->au = au.min;
		r->has_au = true;
	}
	r->iv = s->iv;
	r->niv = s->niv;
	r->vars = xcalloc(res->nvars + 1, sizeof(*r->vars));
	for (r->nvars = 0; r->nvars < res->nvars; r->nvars++)
		r->vars[r->nvars] = (struct cmp_var){
			res->vars[r->nvars].name,
			s->var_string[r->nvars] ? res->vars[r->nvars].value :
						  NULL
		};
	cmp_run_index_vars(r);
	r->flowops = xcalloc(res->nfo + 1, sizeof(*r->flowops));
	for (r->nflowops = 0; r->nflowops < res->nfo; r->nflowops++)
		take_flowop(&r->flowops[r->nflowops], &res->fo[r->nflowops],
			    &s->fo[r->nflowops]);
}

int cmp_read_text(struct cmp_run *r, const char *name, const char *text,
		  size_t len, char *err, size_t errlen)
{
	if (!(r->res = results_read(text, len, name, err, errlen)))
		return -1;
	take(r);
	return 0;
}

int cmp_read_file(struct cmp_run *r)
{
	char *text;
	size_t len;

	if (cmp_read_file_text(r, &text, &len) < 0)
		return -1;
	free(text);
	return 0;
}

int cmp_read_runs(const char *path, struct cmp_run **runs, size_t *nruns)
{
	char err[512], *text;
	struct results **res;
	size_t len;
	int rc;

	*runs = NULL;
	*nruns = 0;
	if (!(text = results_read_file(path, &len)))
		return -1;
	rc = results_read_runs(text, len, path, &res, nruns, err, sizeof(err));
	free(text);
	if (rc < 0)
		return fb_error("%s", err);
	*runs = xcalloc(*nruns, sizeof(**runs));
	for (size_t i = 0; i < *nruns; i++) {
		(*runs)[i].path = path;
		(*runs)[i].res = res[i];
		take(&(*runs)[i]);
	}
	free(res);
	return 0;
}

int cmp_read_file_text(struct cmp_run *r, char **text, size_t *len)
{
	char err[512];

	if (!(*text = results_read_file(r->path, len)))
		return -1;
	if (cmp_read_text(r, r->path, *text, *len, err, sizeof(err)) < 0) {
		free(*text);
		*text = NULL;
		return fb_error("%s", err);
	}
	return 0;
}
