/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* fbrun compare's text output: the runs, what differs, the table (table.h). */
#include "compare/table.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Display width of UTF-8 text: one column per character. */
static int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *out, const char *s, int width, bool right)
{
	int n = width - text_width(s);

	if (right)
		fprintf(out, "%*s%s", n > 0 ? n : 0, "", s);
	else
		fprintf(out, "%s%*s", s, n > 0 ? n : 0, "");
}

/*
 * Variables (-D values or defaults) that differ explain many differences;
 * so do --data and the mount options (compression on or off).
 */
static void print_variables(FILE *out, const struct cmp *c)
{
	size_t n;
	struct cmp_diff *d = cmp_diffs(c, &n);

	if (n)
		fprintf(out, "Variables that differ:\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %s:", d[i].name);
		for (size_t p = 0; p < c->nruns; p++)
			fprintf(out, "%s %s", p ? " |" : "", d[i].values[p]);
		fputc('\n', out);
	}
	cmp_diffs_free(d, n);
}

void cmp_table_runs(FILE *out, const struct cmp *c)
{
	int lw = 0;

	for (size_t i = 0; i < c->nruns; i++)
		if (text_width(c->runs[i].label) > lw)
			lw = text_width(c->runs[i].label);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct cmp_run *r = &c->runs[i];
		char fs[512];

		cmp_run_fs(r, fs, sizeof(fs));
		fputs("  ", out);
		pad(out, r->label, lw, false);
		fprintf(out, "  %s, %s, %s (%.0f cpus), %s, %.1f s",
			r->script ? r->script : "?", fs,
			r->kernel ? r->kernel : "?", r->cpus,
			r->started ? r->started : "?", r->seconds);
		if (r->ended_by && strcmp(r->ended_by, "timeout") &&
		    strcmp(r->ended_by, "done"))
			fprintf(out, ", ended by %s", r->ended_by);
		if (r->error)
			fprintf(out, ", error: %s", r->error);
		fputc('\n', out);
	}
}

static void print_header(FILE *out, const struct cmp *c)
{
	fprintf(out, "Runs (ratios are to the first, %s):\n", c->runs[0].label);
	cmp_table_runs(out, c);
	if (!c->same_script)
		fprintf(out, "The runs are of different scripts.\n");
	for (size_t i = 0; i < c->nruns; i++) {
		if (!c->runs[i].nleft)
			continue;
		fprintf(out, "Compared: the %zu flowop%s every run has; left "
			     "out:", c->nrows, c->nrows == 1 ? "" : "s");
		for (size_t k = 0; k < c->nruns; k++)
			fprintf(out, "%s %zu of %s's %zu", k ? "," : "",
				c->runs[k].nleft, c->runs[k].label,
				c->runs[k].nflowops);
		fputc('\n', out);
		break;
	}
	print_variables(out, c);
	fputc('\n', out);
}

struct cell {
	char val[40];
	char ratio[16];
};

static void fill_cells(struct cell *cells, const bool *ok, const double *v,
		       size_t nruns, int prec)
{
	prec = cmp_prec(v, ok, nruns, prec);
	for (size_t i = 0; i < nruns; i++) {
		struct cell *ce = &cells[i];

		if (!ok[i]) {
			snprintf(ce->val, sizeof(ce->val), "-");
			continue;
		}
		snprintf(ce->val, sizeof(ce->val), "%.*f", prec, v[i]);
		if (i > 0 && ok[0])
			cmp_ratio(ce->ratio, sizeof(ce->ratio), v[i], v[0]);
	}
}

static bool any_au(const struct cmp *c)
{
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].has_au)
			return true;
	return false;
}

/* The AI workloads' service metric: each run's least busy accelerator. */
static void au_row(struct cell *cells, const struct cmp *c, bool *ok,
		   double *v)
{
	for (size_t i = 0; i < c->nruns; i++) {
		ok[i] = c->runs[i].has_au;
		v[i] = c->runs[i].au;
	}
	fill_cells(cells, ok, v, c->nruns, 1);
}

static void print_table(FILE *out, const struct cmp *c)
{
	size_t shown = 0, nlines, line = 0, summary;
	bool has_au = any_au(c);
	struct cell *cells;
	const char **names, **metrics;
	int *vw = xcalloc(c->nruns, sizeof(*vw));
	int *rw = xcalloc(c->nruns, sizeof(*rw));
	double *v = xcalloc(c->nruns, sizeof(*v));
	bool *ok = xcalloc(c->nruns, sizeof(*ok));
	int nw = (int)strlen("IO Summary"), mw = (int)strlen("metric");

	for (int m = 0; m < CM_COUNT; m++)
		shown += compare_model_shown(c, m);
	summary = c->nrows * shown;
	nlines = summary + CMP_NSUMMARY + has_au;
	cells = xcalloc(nlines * c->nruns, sizeof(*cells));
	names = xcalloc(nlines, sizeof(*names));
	metrics = xcalloc(nlines, sizeof(*metrics));
	for (size_t r = 0; r < c->nrows; r++) {
		for (int m = 0; m < CM_COUNT; m++) {
			if (!compare_model_shown(c, m))
				continue;
			for (size_t i = 0; i < c->nruns; i++)
				ok[i] = cmp_value(c->rows[r].fo[i], m, &v[i]);
			fill_cells(&cells[line * c->nruns], ok, v, c->nruns,
				   cmp_metrics[m].prec);
			names[line] = c->rows[r].name;
			metrics[line++] = cmp_metrics[m].name;
		}
	}
	for (size_t s = 0; s < CMP_NSUMMARY; s++, line++) {
		for (size_t i = 0; i < c->nruns; i++)
			ok[i] = cmp_summary_value(&c->runs[i], s, &v[i]);
		fill_cells(&cells[line * c->nruns], ok, v, c->nruns,
			   cmp_summary[s].prec);
		names[line] = "IO Summary";
		metrics[line] = cmp_summary[s].name;
	}
	if (has_au) {
		au_row(&cells[line * c->nruns], c, ok, v);
		names[line] = "Accelerators";
		metrics[line++] = "au %";
	}
	for (size_t i = 0; i < c->nruns; i++)
		vw[i] = text_width(c->runs[i].label);
	for (size_t k = 0; k < nlines; k++) {
		if (text_width(names[k]) > nw)
			nw = text_width(names[k]);
		if (text_width(metrics[k]) > mw)
			mw = text_width(metrics[k]);
		for (size_t i = 0; i < c->nruns; i++) {
			const struct cell *ce = &cells[k * c->nruns + i];

			if ((int)strlen(ce->val) > vw[i])
				vw[i] = (int)strlen(ce->val);
			if ((int)strlen(ce->ratio) + 3 > rw[i])
				rw[i] = (int)strlen(ce->ratio) + 3;
		}
	}
	pad(out, "flowop", nw, false);
	fputs("  ", out);
	pad(out, "metric", mw, false);
	for (size_t i = 0; i < c->nruns; i++) {
		fputs("  ", out);
		pad(out, c->runs[i].label, vw[i], true);
		if (i + 1 < c->nruns)
			fprintf(out, "%*s", rw[i], "");
	}
	fputc('\n', out);
	for (size_t k = 0; k < nlines; k++) {
		if (k == summary)
			fputc('\n', out);
		pad(out, names[k], nw, false);
		fputs("  ", out);
		pad(out, metrics[k], mw, false);
		for (size_t i = 0; i < c->nruns; i++) {
			const struct cell *ce = &cells[k * c->nruns + i];
			char r[24] = "";

			if (ce->ratio[0])
				snprintf(r, sizeof(r), " (%s)", ce->ratio);
			fputs("  ", out);
			pad(out, ce->val, vw[i], true);
			/* no trailing blanks after the last column */
			if (i + 1 < c->nruns)
				pad(out, r, rw[i], false);
			else
				fputs(r, out);
		}
		fputc('\n', out);
	}
	free(cells);
	free(names);
	free(metrics);
	free(vw);
	free(rw);
	free(v);
	free(ok);
}

void cmp_table(FILE *out, const struct cmp *c)
{
	print_header(out, c);
	print_table(out, c);
	/* the runs alone cannot tell a difference from the machine's noise */
	fprintf(out,
		"\nNote: one run a side gives no estimate of the noise: on a "
		"busy machine two\nruns of one set-up can differ by a third.  "
		"Run each side with --repeat N and\ncompare the files, or give "
		"several runs a side (A1.json A2.json -- B1.json\nB2.json): "
		"compare then says which differences are more than noise.\n");
}
