/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun compare: its options, and the steps in order: each file read into
 * the model (read), the runs matched (match), the text table (table) and
 * the page (html).  Ratios are to the first run.
 */
#include "cmd/compare.h"
#include "compare/curves.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/export.h"
#include "compare/gate.h"
#include "compare/groups.h"
#include "compare/html.h"
#include "compare/match.h"
#include "compare/model.h"
#include "compare/read.h"
#include "compare/table.h"
#include "compare/verdict.h"
#include "util/format.h"
#include "util/jsonw.h"
#include "util/msg.h"
#include "util/optable.h"
#include "util/outfile.h"
#include "util/util.h"

struct cmp_opts {
	const char **labels;
	size_t nlabels, cap;
	const char *html;
	bool common;
	enum format format;
	struct cmp_gate gate;
	const char *metric; /* --metric, checked with --fail-if-worse */
	cmp_kind_fn kind; /* compare_main's */
};

enum cmp_opt_id {
#define OPTION(id, ...) CMP_OPT_##id,
#include "cmd/compare_option_list.h"
#undef OPTION
};

static const struct optable_row cmp_rows[] = {
#define OPTION OPTABLE_ROW
#include "cmd/compare_option_list.h"
#undef OPTION
};

const struct optable compare_options = {
	.command = "compare",
	OPTABLE_TABLE(cmp_rows),
	.style = OPTABLE_LIST,
	.column = 21,
	.wrap = 22,
	.head = "usage: fbrun compare [options] A.json B.json [C.json ...]\n"
		"       fbrun compare [options] A1.json A2.json ... -- "
		"B1.json B2.json ...\n"
		"\n",
	.tail = "\n"
		"Ratios are to the first run.  Groups of runs (split by --, or "
		"files written\nwith fbrun --repeat) are compared by their "
		"means, with 95% intervals and\nWelch's t-test; --label names "
		"the groups.  Exit status: 0 ok, 1 a flowop\nworse than "
		"--fail-if-worse allows (or a run that did not finish), 2 "
		"usage,\nbad input or a figure --fail-if-worse cannot "
		"judge.\n",
};

static void usage(FILE *out)
{
	optable_usage(out, &compare_options);
}

static char *default_label(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	return xstrndup(base, n);
}

/* An option of compare_options into o (optable_take). */
static int take(void *arg, int row, char *v)
{
	struct cmp_opts *o = arg;

	switch (row) {
	case CMP_OPT_LABEL:
		if (!v[0])
			return fb_error("--label needs a non-empty name");
		o->labels = grow_array(o->labels, &o->cap, o->nlabels + 1,
				       sizeof(*o->labels));
		o->labels[o->nlabels++] = v;
		break;
	case CMP_OPT_HTML:
		o->html = v;
		break;
	case CMP_OPT_COMMON:
		o->common = true;
		break;
	case CMP_OPT_FORMAT:
		return format_parse(v, FOR_COMPARE, &o->format);
	case CMP_OPT_FAIL:
		if (gate_pct(v, &o->gate.pct) < 0)
			return -1;
		o->gate.on = true;
		break;
	case CMP_OPT_METRIC:
		o->metric = v;
		break;
	}
	return 0;
}

/* Returns -1 to exit 2, 1 to exit 0 (--help), 0 to go on. */
static int parse_args(int argc, char **argv, struct cmp_opts *o)
{
	char *why;
	int rc = optable_parse(&compare_options, argc, argv, take, o);

	if (rc)
		return rc;
	if (o->metric && !o->gate.on)
		return fb_error("--metric needs --fail-if-worse");
	if (gate_metric(o->metric ? o->metric : "ops", &o->gate.m) < 0)
		return -1;
	if (argc - optind < 2) {
		fb_error("compare needs at least two results files");
		usage(stderr);
		return -1;
	}
	if (o->nlabels > (size_t)(argc - optind))
		return fb_error("%zu labels for %d files", o->nlabels,
				argc - optind);
	/* before reading anything: the page goes nowhere but a file */
	if (o->html && (why = outfile_unusable(o->html))) {
		fb_error("--html '%s' %s", o->html, why);
		free(why);
		return -1;
	}
	for (int i = optind; o->html && i < argc; i++)
		if (outfile_same(o->html, argv[i]))
			return fb_error("--html '%s' is a results file compare "
					"reads; refusing to replace it",
					o->html);
	return 0;
}

static void runs_text(FILE *out, const struct cmp *c,
		      const struct cmp_gate *gt)
{
	cmp_table(out, c);
}

static void groups_text(FILE *out, const struct cmp *c,
			const struct cmp_group *g, const struct cmp_gate *gt)
{
	groups_table(out, c, g);
	verdict_print(out, c, g);
}

/*
 * What a comparison prints, for each row of util/format_list.h compare
 * prints: runs side by side, or two groups (curves.c has the curves').
 */
static const struct printer {
	void (*runs)(FILE *out, const struct cmp *c, const struct cmp_gate *gt);
	void (*groups)(FILE *out, const struct cmp *c,
		       const struct cmp_group *g, const struct cmp_gate *gt);
} printers[FORMAT_COUNT] = {
	[FORMAT_TEXT] = { runs_text, groups_text },
	[FORMAT_JSON] = { export_runs_json, export_groups_json },
	[FORMAT_CSV] = { export_runs_csv, export_groups_csv },
};

/* The runs side by side, or groups g if not NULL, in the format asked for. */
static void fill(FILE *out, const struct cmp_opts *o, const struct cmp *c,
		 const struct cmp_group *g)
{
	if (g)
		printers[o->format].groups(out, c, g, &o->gate);
	else
		printers[o->format].runs(out, c, &o->gate);
}

/*
 * Text from the files, built in memory so that it is cleaned on the way
 * out: control characters would drive the terminal.  JSON keeps its
 * values: they become \u escapes there.
 */
static int put(FILE *to, const char *what, const char *text, size_t len,
	       bool json)
{
	if (json)
		jw_put_clean(to, text, len);
	else
		cmp_put_clean(to, text, len);
	if (fflush(to) != 0 || ferror(to))
		return fb_error("cannot write the %s", what);
	return 0;
}

/*
 * The comparison on standard output, then --fail-if-worse's verdict on
 * standard error: 0, 1 if a flowop failed it, 2 if it could not judge
 * (and none failed), -1 after saying why.
 */
static int write_table(const struct cmp_opts *o, const struct cmp *c,
		       const struct cmp_group *g)
{
	char *text = NULL, *lines = NULL;
	size_t len = 0, nlines = 0;
	enum gate_verdict verdict = GATE_PASS;
	struct gate_tally t;
	FILE *mem = open_memstream(&text, &len);
	FILE *err = mem ? open_memstream(&lines, &nlines) : NULL;
	int rc = 0;

	if (!mem || !err) {
		if (mem)
			fclose(mem);
		free(text);
		return fb_error("cannot build the table: %s", strerror(errno));
	}
	fill(mem, o, c, g);
	if (o->gate.on)
		verdict = g ? gate_report_groups(err, &o->gate, c, g, &t) :
			      gate_report_runs(err, &o->gate, c, &t);
	/* both streams are closed whatever the first one says */
	bool bad = fclose(mem) != 0;
	bad = (fclose(err) != 0) || bad;
	if (bad)
		rc = fb_error("cannot build the table: %s", strerror(errno));
	if (rc == 0)
		rc = put(stdout, "table", text, len, o->format == FORMAT_JSON);
	if (rc == 0)
		rc = put(stderr, "verdict", lines, nlines, false);
	free(text);
	free(lines);
	return rc < 0		       ? -1 :
	       verdict == GATE_FAIL   ? 1 :
	       verdict == GATE_REFUSE ? 2 :
					0;
}

/* The runs of c, their labels and the rows made of them. */
static void cmp_free_runs(struct cmp *c)
{
	for (size_t i = 0; i < c->nruns; i++) {
		free(c->runs[i].label);
		cmp_run_clear(&c->runs[i]);
	}
	cmp_rows_free(c);
	free(c->runs);
}

/*
 * Whether any of the files holds repeated runs (fbrun --repeat): 1 or 0,
 * or -1 after saying why a file cannot be read (said once, here).
 */
static int any_repeats(char **paths, size_t n)
{
	int any = 0;

	for (size_t i = 0; i < n && any == 0; i++) {
		struct cmp_run *r;
		size_t nr;

		if (cmp_read_runs(paths[i], &r, &nr) < 0)
			any = -1;
		else if (nr > 1)
			any = 1;
		for (size_t k = 0; k < nr; k++)
			cmp_run_clear(&r[k]);
		free(r);
	}
	return any;
}

/*
 * Groups: the files between "--" (group_of, by argv pointer), or each
 * file its own group when none was given.
 */
static int compare_groups(const struct cmp_opts *o, char **files, size_t n,
			  char **orig, const size_t *group_of, size_t norig,
			  size_t ngroups)
{
	static const char *const names[] = { "A", "B" };
	struct cmp_group g[2] = { { 0 } };
	struct cmp c = { 0 };
	char *own[2] = { NULL, NULL };
	int rc = FB_EXIT_USAGE, table = 0;

	if (ngroups != 2) {
		fb_error("compare takes two groups of runs, got %zu", ngroups);
		return FB_EXIT_USAGE;
	}
	if (o->nlabels > 2) {
		fb_error("%zu labels for 2 groups", o->nlabels);
		return FB_EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = i;

		for (size_t j = 0; norig && j < norig; j++)
			if (orig[j] == files[i])
				k = group_of[j];
		if (k >= 2)
			continue;
		g[k].paths = xrealloc(g[k].paths,
				      (g[k].npaths + 1) * sizeof(char *));
		g[k].paths[g[k].npaths++] = files[i];
	}
	for (int k = 0; k < 2; k++) {
		if (!g[k].npaths) {
			fb_error("group %s has no files", names[k]);
			goto out;
		}
		if ((size_t)k < o->nlabels)
			g[k].label = o->labels[k];
		else if (!norig)
			g[k].label = own[k] = default_label(g[k].paths[0]);
		else
			g[k].label = names[k];
	}
	if (groups_read(&c, g, 2) < 0)
		goto out;
	compare_model_kinds(&c, o->kind);
	/* each run named after its group, in the table of runs */
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < g[k].nruns; i++)
			c.runs[g[k].first + i].label =
				xasprintf("%s#%zu", g[k].label, i + 1);
	if (groups_match(&c, g, 2, o->common) < 0 ||
	    (table = write_table(o, &c, g)) < 0)
		goto out;
	if (o->html && groups_html(o->html, &c, g) < 0)
		goto out;
	rc = table == 2 ? FB_EXIT_USAGE : table ? FB_EXIT_RUN : FB_EXIT_OK;
out:
	cmp_free_runs(&c);
	for (int k = 0; k < 2; k++) {
		free(g[k].paths);
		free(own[k]);
	}
	return rc;
}

/* Runs side by side: each file one run, ratios to the first. */
static int compare_runs(const struct cmp_opts *o, char **files, size_t n)
{
	struct cmp c = { .nruns = n };
	int rc = FB_EXIT_USAGE, table = 0;

	c.runs = xcalloc(c.nruns, sizeof(*c.runs));
	for (size_t i = 0; i < c.nruns; i++) {
		c.runs[i].path = files[i];
		c.runs[i].label = i < o->nlabels ? xstrdup(o->labels[i]) :
						   default_label(files[i]);
	}
	for (size_t i = 0; i < c.nruns; i++)
		if (cmp_read_file(&c.runs[i]) < 0)
			goto out;
	if (cmp_match(&c, o->common) < 0 ||
	    (table = write_table(o, &c, NULL)) < 0)
		goto out;
	if (o->html && html_write(o->html, &c) < 0)
		goto out;
	rc = table == 2 ? FB_EXIT_USAGE : table ? FB_EXIT_RUN : FB_EXIT_OK;
out:
	cmp_free_runs(&c);
	return rc;
}

/* Load curves side by side (compare/curves.h). */
static int compare_curves(const struct cmp_opts *o, char **files, size_t n)
{
	char **labels = xcalloc(n, sizeof(*labels));
	int rc;

	if (o->gate.on) {
		free(labels);
		fb_error("--fail-if-worse compares runs, not load curves");
		return FB_EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++)
		labels[i] = i < o->nlabels ? xstrdup(o->labels[i]) :
					     default_label(files[i]);
	rc = curves_compare(files, n, (const char *const *)labels, o->format,
			    o->html);
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	return rc;
}

int compare_main(int argc, char **argv, cmp_kind_fn kind)
{
	struct cmp_opts o = { .kind = kind };
	/* argv without its "--": the group each argument is in */
	char **av = xcalloc((size_t)argc + 1, sizeof(*av));
	char **orig = xcalloc((size_t)argc + 1, sizeof(*orig));
	size_t *group_of = xcalloc((size_t)argc + 1, sizeof(*group_of));
	size_t nsep = 0, nfiles;
	int ac = 0, rc, groups, curves;

	for (int i = 0; i < argc; i++) {
		if (i > 0 && strcmp(argv[i], "--") == 0) {
			nsep++;
			continue;
		}
		group_of[ac] = nsep;
		orig[ac] = argv[i]; /* getopt permutes av, not this */
		av[ac++] = argv[i];
	}
	rc = parse_args(ac, av, &o);
	if (rc) {
		rc = rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
		goto out;
	}
	nfiles = (size_t)(ac - optind);
	curves = nsep ? 0 : curves_all(av + optind, nfiles);
	if (curves > 0) {
		rc = compare_curves(&o, av + optind, nfiles);
		goto out;
	}
	groups = curves < 0 ? -1 : nsep ? 1 : any_repeats(av + optind, nfiles);
	if (groups < 0)
		rc = FB_EXIT_USAGE;
	else if (groups)
		rc = compare_groups(&o, av + optind, nfiles, nsep ? orig : NULL,
				    group_of, nsep ? (size_t)ac : 0,
				    nsep ? nsep + 1 : nfiles);
	else
		rc = compare_runs(&o, av + optind, nfiles);
out:
	free(o.labels);
	free(av);
	free(orig);
	free(group_of);
	return rc;
}
