/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* compare's JSON and CSV (export.h). */
#include "compare/export.h"

#include <math.h>
#include <stdlib.h>

#include "compare/verdict.h"
#include "util/jsonw.h"
#include "util/util.h"

static void jstr(struct json *j, const char *key, const char *v)
{
	if (v)
		jw_str(j, key, v);
	else
		jw_null(j, key);
}

/* A number, or null where a run lacks it (ok false). */
static void jnum(struct json *j, const char *key, bool ok, double v)
{
	if (ok)
		jw_num(j, key, v);
	else
		jw_null(j, key);
}

/* v / base as cmp_ratio says it: 1 for two zeros, none for a zero base. */
static bool ratio(bool ok, double v, bool base_ok, double base, double *r)
{
	if (!ok || !base_ok || (base == 0 && v != 0))
		return false;
	*r = base == 0 ? 1 : v / base;
	return true;
}

static void json_runs_list(struct json *j, const struct cmp *c,
			   const struct cmp_group *g)
{
	jw_array(j, "runs");
	for (size_t i = 0; i < c->nruns; i++) {
		const struct cmp_run *r = &c->runs[i];
		char fs[512];

		cmp_run_fs(r, fs, sizeof(fs));
		jw_object(j, NULL);
		jw_str(j, "label", r->label);
		for (int k = 0; g && k < 2; k++)
			if (i >= g[k].first && i < g[k].first + g[k].nruns)
				jw_str(j, "group", g[k].label);
		jw_str(j, "path", r->path);
		jstr(j, "script", r->script);
		jw_str(j, "file_system", fs);
		jstr(j, "kernel", r->kernel);
		jw_num(j, "cpus", r->cpus);
		jstr(j, "started", r->started);
		jw_num(j, "seconds", r->seconds);
		jstr(j, "ended_by", r->ended_by);
		jstr(j, "error", r->error);
		jw_end(j, '}');
	}
	jw_end(j, ']');
	jw_bool(j, "same_script", c->same_script);
}

static void json_differences(struct json *j, const struct cmp *c)
{
	size_t n;
	struct cmp_diff *d = cmp_diffs(c, &n);

	jw_array(j, "differences");
	for (size_t i = 0; i < n; i++) {
		jw_object(j, NULL);
		jw_str(j, "name", d[i].name);
		jw_array(j, "values");
		for (size_t p = 0; p < c->nruns; p++)
			jw_str(j, NULL, d[i].values[p]);
		jw_end(j, ']');
		jw_end(j, '}');
	}
	jw_end(j, ']');
	cmp_diffs_free(d, n);
}

/* A figure's values and ratios to the first run, ok[i] where present. */
static void json_figure(struct json *j, const char *key, size_t n,
			const double *v, const bool *ok)
{
	double r = 0;

	jw_object(j, key);
	jw_array(j, "values");
	for (size_t i = 0; i < n; i++)
		jnum(j, NULL, ok[i], v[i]);
	jw_end(j, ']');
	jw_array(j, "ratios");
	for (size_t i = 0; i < n; i++) {
		bool has = ratio(ok[i], v[i], ok[0], v[0], &r);

		jnum(j, NULL, has, r);
	}
	jw_end(j, ']');
	jw_end(j, '}');
}

static void json_gate_head(struct json *j, const struct cmp_gate *gt,
			   const struct gate_tally *t)
{
	static const char *const words[CM_COUNT] = {
		[CM_OPS] = "ops", [CM_MS] = "latency", [CM_P99] = "p99",
		[CM_RP99] = "response"
	};

	if (!gt->on)
		return;
	jw_object(j, "gate");
	jw_str(j, "metric", words[gt->m] ? words[gt->m] : "?");
	jw_str(j, "figure", cmp_metrics[gt->m].key);
	jw_num(j, "limit_pct", gt->pct);
	jw_u64(j, "failed", t->fails);
	jw_u64(j, "refused", t->refused);
	jw_str(j, "verdict", gate_word(gate_overall(t)));
	jw_end(j, '}');
}

void export_runs_json(FILE *out, const struct cmp *c, const struct cmp_gate *gt)
{
	double *v = xcalloc(c->nruns, sizeof(*v));
	bool *ok = xcalloc(c->nruns, sizeof(*ok));
	struct gate_tally t;
	struct json j;

	jw_init(&j, out);
	jw_object(&j, NULL);
	jw_str(&j, "comparison", "runs");
	jw_str(&j, "base", c->runs[0].label);
	json_runs_list(&j, c, NULL);
	json_differences(&j, c);
	jw_array(&j, "flowops");
	for (size_t row = 0; row < c->nrows; row++) {
		jw_object(&j, NULL);
		jw_str(&j, "name", c->rows[row].name);
		for (int m = 0; m < CM_COUNT; m++) {
			if (!compare_model_shown(c, m))
				continue;
			for (size_t i = 0; i < c->nruns; i++)
				ok[i] = cmp_value(c->rows[row].fo[i], m, &v[i]);
			json_figure(&j, cmp_metrics[m].key, c->nruns, v, ok);
		}
		if (gt->on) {
			jw_object(&j, "gate");
			jw_array(&j, "verdicts");
			for (size_t i = 0; i < c->nruns; i++) {
				struct gate_cell g;

				gate_runs(gt, c, row, i, &g);
				jstr(&j, NULL, g.v ? gate_word(g.v) : NULL);
			}
			jw_end(&j, ']');
			jw_array(&j, "worse_pct");
			for (size_t i = 0; i < c->nruns; i++) {
				struct gate_cell g;

				gate_runs(gt, c, row, i, &g);
				jnum(&j, NULL,
				     g.v != GATE_NONE && !g.why[0],
				     g.worse_pct);
			}
			jw_end(&j, ']');
			jw_end(&j, '}');
		}
		jw_end(&j, '}');
	}
	jw_end(&j, ']');
	jw_object(&j, "summary");
	for (size_t s = 0; s < CMP_NSUMMARY; s++) {
		for (size_t i = 0; i < c->nruns; i++)
			ok[i] = cmp_summary_value(&c->runs[i], s, &v[i]);
		json_figure(&j, results_shown_summary_keys[s], c->nruns, v,
			    ok);
	}
	jw_end(&j, '}');
	if (gt->on)
		gate_report_runs(NULL, gt, c, &t);
	json_gate_head(&j, gt, &t);
	jw_end(&j, '}');
	free(v);
	free(ok);
}

static void csv_num(FILE *out, bool ok, double v)
{
	fputc(',', out);
	if (ok && isinf(v)) /* an unbounded interval */
		fputs(v > 0 ? "inf" : "-inf", out);
	else if (ok && isfinite(v))
		fprintf(out, JW_NUM, v); /* the figures as the JSON has them */
}

/* One CSV row of runs side by side. */
static void csv_run_row(FILE *out, const char *name, const char *metric,
			const char *run, bool ok, double v, bool base_ok,
			double base, const struct gate_cell *g)
{
	double r = 0;

	csv_put(out, name);
	fputc(',', out);
	csv_put(out, metric);
	fputc(',', out);
	csv_put(out, run);
	csv_num(out, ok, v);
	ok = ratio(ok, v, base_ok, base, &r);
	csv_num(out, ok, r);
	fprintf(out, ",%s", gate_word(g->v));
	csv_num(out, g->v != GATE_NONE && !g->why[0], g->worse_pct);
	fputc('\n', out);
}

void export_runs_csv(FILE *out, const struct cmp *c, const struct cmp_gate *gt)
{
	static const struct gate_cell none = { .v = GATE_NONE };

	fputs("flowop,metric,run,value,ratio,gate,worse_pct\n", out);
	for (size_t row = 0; row < c->nrows; row++)
		for (int m = 0; m < CM_COUNT; m++) {
			double base, v;
			bool base_ok = cmp_value(c->rows[row].fo[0], m, &base);

			if (!compare_model_shown(c, m))
				continue;
			for (size_t i = 0; i < c->nruns; i++) {
				struct gate_cell g = none;
				bool ok = cmp_value(c->rows[row].fo[i], m, &v);

				if ((enum cmp_metric)m == gt->m)
					gate_runs(gt, c, row, i, &g);
				csv_run_row(out, c->rows[row].name,
					    cmp_metrics[m].key,
					    c->runs[i].label, ok, v, base_ok,
					    base, &g);
			}
		}
	for (size_t s = 0; s < CMP_NSUMMARY; s++) {
		double base, v;
		bool base_ok = cmp_summary_value(&c->runs[0], s, &base);

		for (size_t i = 0; i < c->nruns; i++) {
			bool ok = cmp_summary_value(&c->runs[i], s, &v);

			csv_run_row(out, "IO Summary",
				    results_shown_summary_keys[s],
				    c->runs[i].label, ok, v, base_ok, base,
				    &none);
		}
	}
}

/* ---------------------------------------------------------------- groups */

static void json_group_cell(struct json *j, const struct groups_cell *gc)
{
	jw_array(j, "groups");
	for (int k = 0; k < 2; k++) {
		jw_object(j, NULL);
		jw_u64(j, "n", gc->s[k].n);
		jnum(j, "mean", gc->s[k].n > 0, gc->s[k].mean);
		jnum(j, "sd", gc->s[k].n > 1, gc->s[k].sd);
		jnum(j, "ci95", gc->s[k].n > 1, gc->s[k].half);
		jw_array(j, "values");
		for (size_t i = 0; i < gc->n[k]; i++)
			jw_num(j, NULL, gc->x[k][i]);
		jw_end(j, ']');
		jw_end(j, '}');
	}
	jw_end(j, ']');
	jnum(j, "ratio", groups_has_ratio(gc), gc->w.ratio);
	/* an unbounded end is null too */
	jnum(j, "ratio_low", gc->w.valid, gc->w.ratio_lo);
	jnum(j, "ratio_high", gc->w.valid, gc->w.ratio_hi);
	jnum(j, "p", gc->w.valid, gc->w.p);
	jw_str(j, "verdict", groups_verdict(gc));
}

static void json_groups_head(struct json *j, const struct cmp_group *g)
{
	jw_str(j, "comparison", "groups");
	jw_num(j, "confidence", 0.95);
	jw_array(j, "groups");
	for (int k = 0; k < 2; k++) {
		jw_object(j, NULL);
		jw_str(j, "label", g[k].label);
		jw_u64(j, "runs", g[k].nruns);
		jw_array(j, "files");
		for (size_t i = 0; i < g[k].npaths; i++)
			jw_str(j, NULL, g[k].paths[i]);
		jw_end(j, ']');
		jw_end(j, '}');
	}
	jw_end(j, ']');
}

/* The verdict: its lines, and the flowops of each kind by name. */
static void json_verdict(struct json *j, const struct cmp *c,
			 const struct cmp_group *g)
{
	static const char *const kinds[CK_COUNT] = {
		[CK_UNKNOWN] = "unknown", [CK_NONE] = "no_io",
		[CK_READ] = "reads",	  [CK_WRITE] = "writes",
		[CK_IO] = "other_io",
	};
	struct verdict *v = verdict_new(c, g);

	jw_object(j, "verdict");
	jw_array(j, "lines");
	for (size_t i = 0; i < v->n; i++) {
		const struct verdict_line *l = &v->line[i];
		int f = verdict_faster(l);
		char says[256];

		verdict_says(says, sizeof(says), l, g);
		jw_object(j, NULL);
		jw_str(j, "figure", l->what);
		jw_array(j, "means");
		for (int k = 0; k < 2; k++)
			jnum(j, NULL, l->gc.n[k] > 0, l->gc.s[k].mean);
		jw_end(j, ']');
		jnum(j, "ratio", groups_has_ratio(&l->gc), l->gc.w.ratio);
		jnum(j, "ratio_low", l->gc.w.valid, l->gc.w.ratio_lo);
		jnum(j, "ratio_high", l->gc.w.valid, l->gc.w.ratio_hi);
		jnum(j, "p", l->gc.w.valid, l->gc.w.p);
		jw_str(j, "verdict", groups_verdict(&l->gc));
		jstr(j, "better", f >= 0 ? g[f].label : NULL);
		jw_str(j, "says", says);
		jw_end(j, '}');
	}
	jw_end(j, ']');
	for (int k = 0; k < CK_COUNT; k++) {
		if (!kinds[k])
			continue; /* fsyncs are with the writes */
		jw_array(j, kinds[k]);
		for (size_t i = 0; i < v->kind[k].n; i++)
			jw_str(j, NULL, c->rows[v->kind[k].rows[i]].name);
		jw_end(j, ']');
	}
	jw_end(j, '}');
	verdict_free(v);
}

void export_groups_json(FILE *out, const struct cmp *c,
			const struct cmp_group *g, const struct cmp_gate *gt)
{
	struct gate_tally t;
	struct json j;

	jw_init(&j, out);
	jw_object(&j, NULL);
	json_groups_head(&j, g);
	json_runs_list(&j, c, g);
	json_differences(&j, c);
	jw_array(&j, "flowops");
	for (size_t row = 0; row < c->nrows; row++) {
		jw_object(&j, NULL);
		jw_str(&j, "name", c->rows[row].name);
		for (int m = 0; m < CM_COUNT; m++) {
			struct groups_cell gc;

			if (!compare_model_shown(c, m))
				continue;
			groups_cell(c, g, row, m, &gc);
			jw_object(&j, cmp_metrics[m].key);
			json_group_cell(&j, &gc);
			jw_end(&j, '}');
			if ((enum cmp_metric)m == gt->m && gt->on) {
				struct gate_cell v;

				gate_groups(gt, c, g, row, &gc, &v);
				jw_object(&j, "gate");
				jstr(&j, "verdict",
				     v.v ? gate_word(v.v) : NULL);
				jnum(&j, "worse_pct",
				     v.v != GATE_NONE && !v.why[0],
				     v.worse_pct);
				jw_end(&j, '}');
			}
			groups_cell_free(&gc);
		}
		jw_end(&j, '}');
	}
	jw_end(&j, ']');
	jw_object(&j, "summary");
	for (size_t i = 0; i < GROUPS_NSUMMARY; i++) {
		struct groups_cell gc;

		groups_summary_cell(c, g, groups_summary[i], &gc);
		jw_object(&j, results_shown_summary_keys[groups_summary[i]]);
		json_group_cell(&j, &gc);
		jw_end(&j, '}');
		groups_cell_free(&gc);
	}
	jw_end(&j, '}');
	json_verdict(&j, c, g);
	if (gt->on)
		gate_report_groups(NULL, gt, c, g, &t);
	json_gate_head(&j, gt, &t);
	jw_end(&j, '}');
}

/* A cell's columns, from first_n to verdict. */
static void csv_group_cell(FILE *out, const struct groups_cell *gc)
{
	for (int k = 0; k < 2; k++) {
		fprintf(out, ",%zu", gc->s[k].n);
		csv_num(out, gc->s[k].n > 0, gc->s[k].mean);
		csv_num(out, gc->s[k].n > 1, gc->s[k].half);
	}
	csv_num(out, groups_has_ratio(gc), gc->w.ratio);
	csv_num(out, gc->w.valid, gc->w.ratio_lo);
	csv_num(out, gc->w.valid, gc->w.ratio_hi);
	csv_num(out, gc->w.valid, gc->w.p);
	fputc(',', out);
	csv_put(out, groups_verdict(gc));
}

void export_groups_csv(FILE *out, const struct cmp *c,
		       const struct cmp_group *g, const struct cmp_gate *gt)
{
	fputs("flowop,metric,first_n,first_mean,first_ci95,second_n,"
	      "second_mean,second_ci95,ratio,ratio_low,ratio_high,p,verdict,"
	      "gate,worse_pct\n",
	      out);
	for (size_t row = 0; row < c->nrows; row++)
		for (int m = 0; m < CM_COUNT; m++) {
			struct groups_cell gc;
			struct gate_cell v = { .v = GATE_NONE };

			if (!compare_model_shown(c, m))
				continue;
			groups_cell(c, g, row, m, &gc);
			if ((enum cmp_metric)m == gt->m)
				gate_groups(gt, c, g, row, &gc, &v);
			csv_put(out, c->rows[row].name);
			fprintf(out, ",%s", cmp_metrics[m].key);
			csv_group_cell(out, &gc);
			fprintf(out, ",%s", gate_word(v.v));
			csv_num(out, v.v != GATE_NONE && !v.why[0],
				v.worse_pct);
			fputc('\n', out);
			groups_cell_free(&gc);
		}
	for (size_t i = 0; i < GROUPS_NSUMMARY; i++) {
		struct groups_cell gc;

		groups_summary_cell(c, g, groups_summary[i], &gc);
		if (!gc.n[0] && !gc.n[1]) {
			groups_cell_free(&gc); /* a figure no run has */
			continue;
		}
		fprintf(out, "IO Summary,%s",
			results_shown_summary_keys[groups_summary[i]]);
		csv_group_cell(out, &gc);
		/* the IO Summary is not checked */
		fputs(",,\n", out);
		groups_cell_free(&gc);
	}
}
