/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The verdict of two groups of runs (verdict.h). */
#include "compare/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* At most this many flowops are named per kind in the notes. */
#define MAX_NAMED 8
/* The lines: the IO Summary's two, two of reads, two of writes. */
#define MAX_LINES 6

/* How a kind's flowops make one figure of a run. */
enum agg {
	AGG_MB, /* the sum of their mb/s */
	AGG_MS, /* their mean latency: ms/op weighted by ops/s */
};

struct kind_fig {
	unsigned kinds; /* 1 << CK_* */
	enum agg agg;
};

/* Whether a row is of one of the kinds: its first run's type decides. */
static bool of_kind(const struct cmp *c, size_t row, unsigned kinds)
{
	return kinds & (1u << c->rows[row].fo[0]->kind);
}

static bool kind_value(const struct cmp *c, size_t run, const void *arg,
		       double *v)
{
	const struct kind_fig *kf = arg;
	double sum = 0, ops_sum = 0;

	for (size_t row = 0; row < c->nrows; row++) {
		const struct cmp_flowop *fo = c->rows[row].fo[run];
		double x, ops;

		if (!of_kind(c, row, kf->kinds))
			continue;
		if (kf->agg == AGG_MB) {
			if (!cmp_value(fo, CM_MB, &x))
				return false;
			sum += x;
		} else if (cmp_value(fo, CM_OPS, &ops) &&
			   cmp_value(fo, CM_MS, &x)) {
			/* a flowop that did nothing has no latency */
			sum += ops * x;
			ops_sum += ops;
		}
	}
	if (kf->agg == AGG_MB) {
		*v = sum;
		return true;
	}
	*v = ops_sum > 0 ? sum / ops_sum : 0;
	return ops_sum > 0;
}

static bool summary_value(const struct cmp *c, size_t run, const void *arg,
			  double *v)
{
	return cmp_summary_value(&c->runs[run], *(const size_t *)arg, v);
}

/*
 * A line, kept when a run has the figure and it is not 0 in both groups
 * (the write mb/s of a workload that only reads).
 */
static void add(struct verdict *v, const struct cmp *c,
		const struct cmp_group *g, const char *what, int prec,
		bool higher_better, groups_value_fn value, const void *arg)
{
	struct verdict_line *l = &v->line[v->n];

	groups_cell_by(c, g, value, arg, &l->gc);
	if ((!l->gc.n[0] && !l->gc.n[1]) ||
	    (l->gc.s[0].mean == 0 && l->gc.s[1].mean == 0)) {
		groups_cell_free(&l->gc);
		return;
	}
	snprintf(l->what, sizeof(l->what), "%s", what);
	l->prec = groups_prec(&l->gc, prec);
	l->higher_better = higher_better;
	v->n++;
}

/* The IO Summary's figures in the verdict: ops/s and ms/op (cmp_summary). */
static const size_t summary_ops = 0, summary_ms = 4;

struct verdict *verdict_new(const struct cmp *c, const struct cmp_group *g)
{
	struct verdict *v = xcalloc(1, sizeof(*v));
	const unsigned reads = 1u << CK_READ;
	const unsigned writes = 1u << CK_WRITE | 1u << CK_FLUSH;
	const struct kind_fig rd_mb = { reads, AGG_MB };
	const struct kind_fig rd_ms = { reads, AGG_MS };
	const struct kind_fig wr_mb = { writes, AGG_MB };
	const struct kind_fig wr_ms = { writes, AGG_MS };
	char what[48];
	size_t nwrites = 0, nflushes = 0;

	for (size_t row = 0; row < c->nrows; row++) {
		enum cmp_kind kind = c->rows[row].fo[0]->kind;
		struct verdict_kind *k;

		nwrites += kind == CK_WRITE;
		nflushes += kind == CK_FLUSH;
		/* an upload is its writes and their fsyncs: one list */
		k = &v->kind[kind == CK_FLUSH ? CK_WRITE : kind];
		k->rows = xrealloc(k->rows, (k->n + 1) * sizeof(*k->rows));
		k->rows[k->n++] = row;
	}
	snprintf(v->writes_name, sizeof(v->writes_name), "%s",
		 !nflushes ? "writes" :
		 !nwrites  ? "fsyncs" :
			     "writes+fsyncs");
	v->line = xcalloc(MAX_LINES, sizeof(*v->line));
	add(v, c, g, "IO Summary ops/s", cmp_summary[summary_ops].prec, true,
	    summary_value, &summary_ops);
	add(v, c, g, "IO Summary ms/op", cmp_summary[summary_ms].prec, false,
	    summary_value, &summary_ms);
	if (v->kind[CK_READ].n) {
		add(v, c, g, "reads mb/s", cmp_metrics[CM_MB].prec, true,
		    kind_value, &rd_mb);
		add(v, c, g, "reads ms/op", cmp_metrics[CM_MS].prec, false,
		    kind_value, &rd_ms);
	}
	if (v->kind[CK_WRITE].n) {
		snprintf(what, sizeof(what), "%s mb/s", v->writes_name);
		add(v, c, g, what, cmp_metrics[CM_MB].prec, true, kind_value,
		    &wr_mb);
		snprintf(what, sizeof(what), "%s ms/op", v->writes_name);
		add(v, c, g, what, cmp_metrics[CM_MS].prec, false, kind_value,
		    &wr_ms);
	}
	return v;
}

void verdict_free(struct verdict *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		groups_cell_free(&v->line[i].gc);
	for (int k = 0; k < CK_COUNT; k++)
		free(v->kind[k].rows);
	free(v->line);
	free(v);
}

int verdict_faster(const struct verdict_line *l)
{
	double a = l->gc.s[0].mean, b = l->gc.s[1].mean;

	if (!l->gc.n[0] || !l->gc.n[1] || a == b)
		return -1;
	return (b > a) == l->higher_better ? 1 : 0;
}

void verdict_says(char *buf, size_t len, const struct verdict_line *l,
		  const struct cmp_group *g)
{
	int f = verdict_faster(l);
	char better[160] = "the same means";

	if (f >= 0)
		snprintf(better, sizeof(better), "%s's mean better",
			 g[f].label);
	switch (l->gc.w.why) {
	case ST_FEW:
		snprintf(buf, len, "cannot judge: 2 runs a side needed");
		break;
	case ST_ZERO_MEAN:
		snprintf(buf, len, "cannot judge: a mean of 0");
		break;
	case ST_NO_SPREAD:
		snprintf(buf, len, "cannot judge: no spread (%s)", better);
		break;
	case ST_TESTED:
		if (l->gc.significant && f >= 0)
			snprintf(buf, len, "%s faster, significant",
				 g[f].label);
		else
			snprintf(buf, len, "within noise (%s)", better);
		break;
	}
}

const char *verdict_kind_name(const struct verdict *v, enum cmp_kind k)
{
	switch (k) {
	case CK_READ:
		return "reads";
	case CK_WRITE:
	case CK_FLUSH:
		return v->writes_name;
	case CK_IO:
		return "other I/O, in the IO Summary";
	case CK_NONE:
		return "left out, no I/O";
	case CK_UNKNOWN:
	case CK_COUNT:
		break;
	}
	return "left out, of no type this fbrun knows (a composite, or a "
	       "file without types)";
}

/* A kind's flowops, named (the first MAX_NAMED). */
static void names(FILE *out, const struct verdict_kind *k,
		  const struct cmp *c)
{
	for (size_t i = 0; i < k->n && i < MAX_NAMED; i++)
		fprintf(out, "%s %s", i ? "," : "", c->rows[k->rows[i]].name);
	if (k->n > MAX_NAMED)
		fprintf(out, " and %zu more", k->n - MAX_NAMED);
}

static void verdict_text(FILE *out, const struct verdict *v,
			 const struct cmp *c, const struct cmp_group *g)
{
	/* the order of the notes (fsyncs are with the writes) */
	static const enum cmp_kind order[] = { CK_READ, CK_WRITE, CK_IO,
					       CK_NONE, CK_UNKNOWN };
	int w[2];

	fprintf(out, "\nVerdict (%s against %s: the ratio of the means, its "
		     "95%% interval, Welch's t-test at the 5%% level):\n",
		g[1].label, g[0].label);
	if (!v->n)
		fprintf(out, "  no figure to judge\n");
	for (int k = 0; k < 2; k++) {
		w[k] = (int)strlen(g[k].label);
		w[k] = w[k] < 12 ? 12 : w[k];
	}
	if (v->n)
		fprintf(out, "  %-22s %*s %*s  %s\n", "", w[0], g[0].label,
			w[1], g[1].label, "ratio [95% interval]");
	for (size_t i = 0; i < v->n; i++) {
		const struct verdict_line *l = &v->line[i];
		char ratio[64], says[256];

		groups_ratio(ratio, sizeof(ratio), &l->gc);
		verdict_says(says, sizeof(says), l, g);
		fprintf(out, "  %-22s", l->what);
		for (int k = 0; k < 2; k++)
			if (l->gc.n[k])
				fprintf(out, " %*.*f", w[k], l->prec,
					l->gc.s[k].mean);
			else
				fprintf(out, " %*s", w[k], "-");
		fprintf(out, "  %-22s %s\n", ratio, says);
	}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!v->kind[order[i]].n)
			continue;
		fprintf(out, "  %s:", verdict_kind_name(v, order[i]));
		names(out, &v->kind[order[i]], c);
		fputc('\n', out);
	}
}

void verdict_print(FILE *out, const struct cmp *c, const struct cmp_group *g)
{
	struct verdict *v = verdict_new(c, g);

	verdict_text(out, v, c, g);
	verdict_free(v);
}
