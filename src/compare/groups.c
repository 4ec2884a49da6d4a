/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Two groups of runs compared (groups.h): for each flowop and figure the
 * runs' values, their mean and interval per group, and Welch's test of the
 * second group against the first (util/statistics).
 */
#include "compare/groups.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare/match.h"
#include "compare/read.h"
#include "compare/table.h"
#include "util/msg.h"
#include "util/statistics.h"
#include "util/util.h"

#define LEVEL 0.95
#define ALPHA 0.05
#define GNAME_W 24

const enum cmp_metric groups_metrics[GROUPS_NMETRICS] = {
	CM_OPS, CM_MB, CM_MS, CM_P99, CM_RP99
};

int groups_read(struct cmp *c, struct cmp_group *g, size_t ng)
{
	for (size_t k = 0; k < ng; k++) {
		g[k].first = c->nruns;
		g[k].nruns = 0;
		for (size_t i = 0; i < g[k].npaths; i++) {
			struct cmp_run *r;
			size_t n;
			int rc = cmp_read_runs(g[k].paths[i], &r, &n);

			/* what was read is freed with the rest, even on -1 */
			c->runs = xrealloc(c->runs,
					   (c->nruns + n) * sizeof(*c->runs));
			if (n)
				memcpy(&c->runs[c->nruns], r, n * sizeof(*r));
			c->nruns += n;
			g[k].nruns += n;
			free(r);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

void groups_cell_by(const struct cmp *c, const struct cmp_group *g,
		    groups_value_fn value, const void *arg,
		    struct groups_cell *gc)
{
	for (int k = 0; k < 2; k++) {
		gc->x[k] = xcalloc(g[k].nruns + 1, sizeof(double));
		gc->n[k] = 0;
		for (size_t i = 0; i < g[k].nruns; i++)
			if (value(c, g[k].first + i, arg, &gc->x[k][gc->n[k]]))
				gc->n[k]++;
		st_summarise(gc->x[k], gc->n[k], LEVEL, &gc->s[k]);
	}
	st_welch(&gc->s[0], &gc->s[1], LEVEL, &gc->w);
	gc->significant = gc->w.valid && gc->w.p < ALPHA;
}

struct row_fig {
	size_t row;
	enum cmp_metric m;
};

/* A row's figure in a run (a flowop that never ran has no latency). */
static bool row_value(const struct cmp *c, size_t run, const void *arg,
		      double *v)
{
	const struct row_fig *rf = arg;

	return cmp_value(c->rows[rf->row].fo[run], rf->m, v);
}

void groups_cell(const struct cmp *c, const struct cmp_group *g, size_t row,
		 enum cmp_metric m, struct groups_cell *gc)
{
	struct row_fig rf = { row, m };

	groups_cell_by(c, g, row_value, &rf, gc);
}

const size_t groups_summary[GROUPS_NSUMMARY] = { 0, 1, 2, 3, 4 };

static bool summary_value(const struct cmp *c, size_t run, const void *arg,
			  double *v)
{
	return cmp_summary_value(&c->runs[run], *(const size_t *)arg, v);
}

void groups_summary_cell(const struct cmp *c, const struct cmp_group *g,
			 size_t i, struct groups_cell *gc)
{
	groups_cell_by(c, g, summary_value, &i, gc);
}

void groups_cell_free(struct groups_cell *c)
{
	free(c->x[0]);
	free(c->x[1]);
}

static void mean_ci(FILE *out, const struct st_summary *s, int prec)
{
	char buf[64];

	if (!s->n)
		snprintf(buf, sizeof(buf), "-");
	else if (s->n < 2)
		snprintf(buf, sizeof(buf), "%.*f", prec, s->mean);
	else
		snprintf(buf, sizeof(buf), "%.*f +- %.*f", prec, s->mean, prec,
			 s->half);
	fprintf(out, " %*s", GNAME_W, buf);
}

const char *groups_verdict(const struct groups_cell *c)
{
	switch (c->w.why) {
	case ST_FEW:
		return "not tested (2 runs a side needed)";
	case ST_ZERO_MEAN:
		return "not tested (a mean of 0)";
	case ST_NO_SPREAD:
		return "not tested (no spread: cannot judge)";
	case ST_TESTED:
		break;
	}
	return c->significant ? "significant" : "within noise";
}

bool groups_has_ratio(const struct groups_cell *c)
{
	return c->w.valid || c->w.why == ST_NO_SPREAD;
}

void groups_ratio(char *buf, size_t len, const struct groups_cell *c)
{
	if (c->w.valid)
		snprintf(buf, len, "%.2fx [%.2f, %.2f]", c->w.ratio,
			 c->w.ratio_lo, c->w.ratio_hi);
	else if (groups_has_ratio(c))
		snprintf(buf, len, "%.2fx", c->w.ratio);
	else
		snprintf(buf, len, "-");
}

/* What --common left out, as the table of runs says it. */
static void print_notes(FILE *out, const struct cmp *c)
{
	if (!c->same_script)
		fprintf(out, "The runs are of different scripts.\n");
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].nleft) {
			fprintf(out, "Compared: the %zu flowop%s every run "
				     "has\n",
				c->nrows, c->nrows == 1 ? "" : "s");
			break;
		}
}

bool groups_any(const struct cmp *c, enum cmp_metric m)
{
	double v;

	for (size_t row = 0; row < c->nrows; row++)
		for (size_t i = 0; i < c->nruns; i++)
			if (cmp_value(c->rows[row].fo[i], m, &v))
				return true;
	return false;
}

int groups_prec(const struct groups_cell *gc, int prec)
{
	const double means[2] = { gc->s[0].mean, gc->s[1].mean };
	const bool has[2] = { gc->s[0].n > 0, gc->s[1].n > 0 };

	return cmp_prec(means, has, 2, prec);
}

/* A line of a table; nothing when no run has the figure. */
static void print_cell(FILE *out, const char *name,
		       const struct groups_cell *gc, int prec)
{
	char ratio[64];

	if (!gc->n[0] && !gc->n[1])
		return;
	/* small means get the digits to show them, as side by side */
	prec = groups_prec(gc, prec);
	fprintf(out, "%-20s", name);
	mean_ci(out, &gc->s[0], prec);
	mean_ci(out, &gc->s[1], prec);
	groups_ratio(ratio, sizeof(ratio), gc);
	fprintf(out, "  %-24s ", ratio);
	if (gc->w.valid)
		fprintf(out, "%8.3g", gc->w.p);
	else
		fprintf(out, "%8s", "-");
	fprintf(out, "  %s\n", groups_verdict(gc));
}

/* A table's head: its title, then the columns. */
static void print_head(FILE *out, const char *title,
		       const struct cmp_group *g)
{
	char head[2][64];

	for (int k = 0; k < 2; k++)
		snprintf(head[k], sizeof(head[k]), "%s (%zu)", g[k].label,
			 g[k].nruns);
	fprintf(out, "\n%-20s %*s %*s  %-24s %8s  %s\n", title, GNAME_W,
		head[0], GNAME_W, head[1], "ratio [95% interval]", "p",
		"verdict");
}

/* The IO Summary's table, a line per figure (files that have it). */
bool groups_has_summary(const struct cmp *c)
{
	double v;

	for (size_t i = 0; i < c->nruns; i++)
		for (size_t s = 0; s < GROUPS_NSUMMARY; s++)
			if (cmp_summary_value(&c->runs[i], groups_summary[s],
					      &v))
				return true;
	return false;
}

static void print_summary(FILE *out, const struct cmp *c,
			  const struct cmp_group *g)
{
	if (!groups_has_summary(c))
		return;
	print_head(out, "IO Summary", g);
	for (size_t i = 0; i < GROUPS_NSUMMARY; i++) {
		struct groups_cell gc;

		groups_summary_cell(c, g, groups_summary[i], &gc);
		print_cell(out, cmp_summary[groups_summary[i]].name, &gc,
			   cmp_summary[groups_summary[i]].prec);
		groups_cell_free(&gc);
	}
}

/* At most this many of a group's values of a variable are named. */
#define MAX_VALUES 4

/* A group's values of a variable that differs, each once. */
static void group_values(FILE *out, const struct cmp_diff *d,
			 const struct cmp_group *g)
{
	size_t shown = 0;

	for (size_t r = g->first; r < g->first + g->nruns; r++) {
		bool seen = false;

		for (size_t p = g->first; p < r && !seen; p++)
			seen = strcmp(d->values[p], d->values[r]) == 0;
		if (seen)
			continue;
		if (shown == MAX_VALUES) {
			fputs(", ...", out);
			break;
		}
		fprintf(out, "%s %s", shown++ ? "," : "", d->values[r]);
	}
}

/*
 * What differs between the runs (--data, mount options, variables), as
 * the table of runs says it, with each group's values.
 */
static void print_variables(FILE *out, const struct cmp *c,
			    const struct cmp_group *g)
{
	size_t n;
	struct cmp_diff *d = cmp_diffs(c, &n);

	if (n)
		fprintf(out, "Variables that differ:\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %s:", d[i].name);
		for (int k = 0; k < 2; k++) {
			fprintf(out, "%s %s:", k ? " |" : "", g[k].label);
			group_values(out, &d[i], &g[k]);
		}
		fputc('\n', out);
	}
	cmp_diffs_free(d, n);
}

void groups_table(FILE *out, const struct cmp *c, const struct cmp_group *g)
{
	fprintf(out, "Groups (%s against %s; 95%% intervals, Welch's t-test "
		     "at the 5%% level):\n",
		g[1].label, g[0].label);
	for (int k = 0; k < 2; k++) {
		const struct cmp_run *r = &c->runs[g[k].first];
		char fs[512];

		cmp_run_fs(r, fs, sizeof(fs));
		fprintf(out, "  %s: %zu run%s from", g[k].label, g[k].nruns,
			g[k].nruns == 1 ? "" : "s");
		for (size_t i = 0; i < g[k].npaths; i++)
			fprintf(out, " %s", g[k].paths[i]);
		fprintf(out, " (%s, %s)\n", r->script ? r->script : "?", fs);
	}
	fprintf(out, "Runs:\n");
	cmp_table_runs(out, c);
	print_notes(out, c);
	print_variables(out, c, g);
	print_summary(out, c, g);
	for (size_t mi = 0; mi < GROUPS_NMETRICS; mi++) {
		enum cmp_metric m = groups_metrics[mi];

		if (!groups_any(c, m))
			continue;
		print_head(out, cmp_metrics[m].name, g);
		for (size_t row = 0; row < c->nrows; row++) {
			struct groups_cell gc;

			groups_cell(c, g, row, m, &gc);
			print_cell(out, c->rows[row].name, &gc,
				   cmp_metrics[m].prec);
			groups_cell_free(&gc);
		}
	}
}

int groups_match(struct cmp *c, const struct cmp_group *g, size_t ng,
		 bool common)
{
	if (ng != 2)
		return fb_error("compare takes two groups of runs, got %zu", ng);
	for (size_t k = 0; k < ng; k++)
		if (!g[k].nruns)
			return fb_error("group %s has no runs", g[k].label);
	/* every run against the first, as runs side by side are */
	return cmp_match(c, common);
}
