/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The runs compare reads; figures its table and page share (model.h). */
#include "compare/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/ranks.h"
#include "util/util.h"

const struct cmp_metric_info cmp_metrics[CM_COUNT] = {
	[CM_OPS] = { "ops/s", "Operations per second", 1, true,
		     "ops_per_sec" },
	[CM_MB] = { "mb/s", "Throughput (MiB/s)", 1, true, "mb_per_sec" },
	[CM_MS] = { "ms/op", "Mean latency (ms/op)", 3, false, "ms_per_op" },
	[CM_CPU] = { "us/op-cpu", "CPU per operation (us)", 1, false,
		     "cpu_us_per_op" },
	[CM_P99] = { "p99 ms", "99th percentile latency (ms)", 3, false,
		     "p99_ms" },
	[CM_RP99] = { "resp p99 ms", "99th percentile response time (ms)", 3,
		      false, "response_p99_ms" },
};

void compare_model_kinds(struct cmp *c, cmp_kind_fn kind)
{
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t f = 0; f < c->runs[i].nflowops; f++) {
			struct cmp_flowop *fo = &c->runs[i].flowops[f];

			fo->kind = fo->type && kind ? kind(fo->type) :
						      CK_UNKNOWN;
		}
}

bool compare_model_shown(const struct cmp *c, enum cmp_metric m)
{
	if (m != CM_RP99)
		return true;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t f = 0; f < c->runs[i].nflowops; f++)
			if (c->runs[i].flowops[f].has[CM_RP99])
				return true;
	return false;
}

/* named as results_shown_summary_keys has them */
const struct cmp_summary_info cmp_summary[CMP_NSUMMARY] = {
	{ "ops/s", 1 },	    { "reads/s", 1 }, { "writes/s", 1 },
	{ "mb/s", 1 },	    { "ms/op", 3 },   { "us/op-cpu", 1 },
};

static int cmp_var_name(const void *a, const void *b)
{
	const struct cmp_var *x = *(const struct cmp_var *const *)a;
	const struct cmp_var *y = *(const struct cmp_var *const *)b;

	return strcmp(x->name, y->name);
}

void cmp_run_index_vars(struct cmp_run *r)
{
	free(r->vars_sorted);
	r->vars_sorted = xcalloc(r->nvars ? r->nvars : 1,
				 sizeof(*r->vars_sorted));
	for (size_t i = 0; i < r->nvars; i++)
		r->vars_sorted[i] = &r->vars[i];
	qsort(r->vars_sorted, r->nvars, sizeof(*r->vars_sorted),
	      cmp_var_name);
}

void cmp_run_clear(struct cmp_run *r)
{
	struct cmp_run keep = { .path = r->path, .label = r->label };

	results_free(r->res);
	free(r->flowops);
	free(r->vars);
	free(r->vars_sorted);
	*r = keep;
}

bool cmp_value(const struct cmp_flowop *fo, enum cmp_metric m, double *out)
{
	if (!fo->has[m])
		return false;
	*out = fo->fig[m];
	return true;
}

bool cmp_summary_value(const struct cmp_run *r, size_t i, double *out)
{
	if (!r->has_summary[i])
		return false;
	*out = r->summary[i];
	return true;
}

void cmp_ratio(char *buf, size_t len, double v, double base)
{
	double r;

	if (base == 0) {
		snprintf(buf, len, v == 0 ? "1.00x" : "n/a");
		return;
	}
	r = v / base;
	if (r >= 99.995)
		snprintf(buf, len, "%.0fx", r);
	else if (r > 0 && r < 0.005)
		snprintf(buf, len, "<0.01x");
	else
		snprintf(buf, len, "%.2fx", r);
}

int cmp_prec(const double *v, const bool *ok, size_t n, int prec)
{
	double small = 0;

	for (size_t i = 0; i < n; i++)
		if (ok[i] && v[i] != 0 && (!small || fabs(v[i]) < small))
			small = fabs(v[i]);
	/* the smallest value gets at least two significant digits */
	if (small && small < pow(10, 1 - prec)) {
		int d = 1 - (int)floor(log10(small));

		prec = d > 12 ? 12 : d;
	}
	return prec;
}

void cmp_run_fs(const struct cmp_run *r, char *buf, size_t len)
{
	if (!r->fs_type)
		snprintf(buf, len, "?");
	else if (r->mountpoint)
		snprintf(buf, len, "%s on %s", r->fs_type, r->mountpoint);
	else
		snprintf(buf, len, "%s", r->fs_type);
}

/* The run's variable of that name, NULL if it has none. */
static const struct cmp_var *find_var(const struct cmp_run *r,
				      const char *name)
{
	size_t lo = 0, hi = r->nvars;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(r->vars_sorted[mid]->name, name);

		if (!c)
			return r->vars_sorted[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *cmp_var(const struct cmp_run *r, const char *name)
{
	const struct cmp_var *v = find_var(r, name);

	return v && v->value ? v->value : "-";
}

/*
 * Whether variable k of a run differs between the runs (and is not one an
 * earlier run already has: each name is listed once).
 */
static bool var_differs(const struct cmp *c, size_t run, size_t k)
{
	const char *name = c->runs[run].vars[k].name;

	for (size_t p = 0; p < run; p++)
		if (find_var(&c->runs[p], name))
			return false;
	for (size_t p = 1; p < c->nruns; p++)
		if (strcmp(cmp_var(&c->runs[p], name),
			   cmp_var(&c->runs[0], name)) != 0)
			return true;
	return false;
}

/* A run's --data, and its first fileset's mount options. */
static const char *run_data(const struct cmp_run *r)
{
	return r->data ? r->data : "default";
}

static const char *run_mount(const struct cmp_run *r)
{
	return r->mount_options ? r->mount_options : "?";
}

/* Add a row if the runs' values differ; values is taken either way. */
static void add_diff(struct cmp_diff **d, size_t *n, size_t *cap,
		     const struct cmp *c, char *name, const char **values)
{
	for (size_t p = 1; p < c->nruns; p++)
		if (strcmp(values[p], values[0]) != 0) {
			*d = grow_array(*d, cap, *n + 1, sizeof(**d));
			(*d)[(*n)++] = (struct cmp_diff){ name, values };
			return;
		}
	free(name);
	free(values);
}

struct cmp_diff *cmp_diffs(const struct cmp *c, size_t *n)
{
	static const struct {
		const char *name;
		const char *(*get)(const struct cmp_run *);
	} settings[] = { { "--data", run_data },
			 { "mount options", run_mount } };
	struct cmp_diff *d = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++) {
		const char **v = xcalloc(c->nruns, sizeof(*v));

		for (size_t p = 0; p < c->nruns; p++)
			v[p] = settings[i].get(&c->runs[p]);
		add_diff(&d, n, &cap, c, xstrdup(settings[i].name), v);
	}
	for (size_t i = 0; i < c->nruns; i++) {
		for (size_t k = 0; k < c->runs[i].nvars; k++) {
			const char *name = c->runs[i].vars[k].name, **v;

			if (!var_differs(c, i, k))
				continue;
			v = xcalloc(c->nruns, sizeof(*v));
			for (size_t p = 0; p < c->nruns; p++)
				v[p] = cmp_var(&c->runs[p], name);
			add_diff(&d, n, &cap, c, xasprintf("$%s", name), v);
		}
	}
	return d;
}

void cmp_diffs_free(struct cmp_diff *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].name);
		free(d[i].values);
	}
	free(d);
}

void cmp_put_clean(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f) {
			fputc('?', out);
			i++;
		} else if ((ch < 0x20 && ch != '\n') || ch == 0x7f) {
			fputc('?', out);
		} else {
			fputc(ch, out);
		}
	}
}

void cmp_run_ranks_text(FILE *out, const struct cmp_run *r)
{
	bool stonewall = r->res->stopped_by >= 0 && r->ended_by &&
			 strcmp(r->ended_by, "done") == 0;

	results_ranks_text(out, r->res->ranks, r->res->nranks,
			   stonewall ? r->res->stopped_by : -1);
}
