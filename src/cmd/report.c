/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun report: one saved run printed again as the run printed it: the
 * file read back into the results model (results/read.h) and printed by
 * report_text and report_csv, or compare's page for one run (report.h).
 */
#include "cmd/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/html.h"
#include "compare/match.h"
#include "compare/model.h"
#include "compare/read.h"
#include "report/curve_print.h"
#include "report/report.h"
#include "results/curve.h"
#include "results/read.h"
#include "util/format.h"
#include "util/jsonw.h"
#include "util/msg.h"
#include "util/optable.h"
#include "util/util.h"

enum rep_opt_id {
#define OPTION(id, ...) REP_OPT_##id,
#include "cmd/report_option_list.h"
#undef OPTION
};

static const struct optable_row rep_rows[] = {
#define OPTION OPTABLE_ROW
#include "cmd/report_option_list.h"
#undef OPTION
};

const struct optable report_options = {
	.command = "report",
	OPTABLE_TABLE(rep_rows),
	.style = OPTABLE_LIST,
	.column = 23,
	.wrap = 24,
	.head = "usage: fbrun report [options] RUN.json\n\n",
	.tail = "\nExit status: 0 ok, 2 usage or bad input.\n",
};

static void usage(FILE *out)
{
	optable_usage(out, &report_options);
}

/* An option of report_options: --format into arg (optable_take). */
static int take(void *arg, int row, char *v)
{
	return row == REP_OPT_FORMAT ? format_parse(v, FOR_REPORT, arg) : 0;
}

/* Returns -1 to exit 2, 1 to exit 0 (--help), 0 to go on. */
static int parse_args(int argc, char **argv, enum format *fmt)
{
	int rc = optable_parse(&report_options, argc, argv, take, fmt);

	if (rc)
		return rc;
	if (argc - optind != 1) {
		fb_error("report needs one results file");
		usage(stderr);
		return -1;
	}
	return 0;
}

static void curve_page(FILE *out, const struct curve *cv)
{
	const char *name = cv->script ? cv->script : "";
	struct curve *one = (struct curve *)cv;

	html_curve_page(out, &one, &name, 1);
}

/*
 * The printers of each row of util/format_list.h report prints: a run's
 * from the results model (NULL: from compare's, or the file itself for
 * JSON), a curve's from the curve read back.
 */
static const struct printer {
	void (*run)(FILE *out, const struct results *r);
	void (*curve)(FILE *out, const struct curve *cv);
} printers[FORMAT_COUNT] = {
	[FORMAT_TEXT] = { report_text, curve_print_text },
	[FORMAT_JSON] = { NULL, NULL },
	[FORMAT_CSV] = { report_csv, curve_print_csv },
	[FORMAT_HTML] = { NULL, curve_page },
};

/*
 * Built in memory so that text from the file is cleaned on the way out.
 * One of r (a run's printer), cv (a curve's) and c (the page) is given.
 */
static int print(const struct results *r, const struct curve *cv,
		 const struct cmp *c, enum format fmt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return fb_error("cannot build the report: %s", strerror(errno));
	if (cv)
		printers[fmt].curve(mem, cv);
	else if (r)
		printers[fmt].run(mem, r);
	else
		html_page(mem, c);
	if (fclose(mem) != 0) {
		free(text);
		return fb_error("cannot build the report: %s", strerror(errno));
	}
	if (fmt == FORMAT_HTML)
		fwrite(text, 1, len, stdout); /* html_page escapes its text */
	else
		cmp_put_clean(stdout, text, len);
	free(text);
	if (fflush(stdout) != 0 || ferror(stdout))
		return fb_error("cannot write the report");
	return 0;
}

/*
 * The results file itself, once read as any other: the same document the
 * run wrote with -o or printed with --format json (its byte order mark
 * left out).  C1 characters in its strings become \u escapes, the same
 * values.
 */
static int print_json(struct cmp *c)
{
	char *text;
	size_t len, bom;
	int rc = FB_EXIT_USAGE;

	if (cmp_read_file_text(&c->runs[0], &text, &len) < 0)
		return rc;
	bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	if (cmp_match(c, false) == 0) {
		jw_put_clean(stdout, text + bom, len - bom);
		if (fflush(stdout) != 0 || ferror(stdout))
			fb_error("cannot write the report");
		else
			rc = FB_EXIT_OK;
	}
	free(text);
	return rc;
}

/*
 * The run's own table or CSV from the model its file is read into; a
 * curve's (fbrun curve -o), its table, CSV or page.
 */
static int print_run(const char *path, enum format fmt)
{
	char err[512], *text;
	size_t len;
	struct results *r;
	struct curve *cv = NULL;
	bool bad = false;
	int rc = FB_EXIT_USAGE;

	if (!(text = results_read_file(path, &len)))
		return rc;
	r = results_read(text, len, path, err, sizeof(err));
	if (r)
		cv = results_read_curve(text, len, err, sizeof(err), &bad);
	free(text);
	if (!r)
		fb_error("%s", err);
	else if (bad)
		fb_error("%s: %s", path, err);
	else if (cv && print(NULL, cv, NULL, fmt) == 0)
		rc = FB_EXIT_OK;
	else if (cv)
		;
	else if (!r->nfo) /* as compare says it of a run with none */
		fb_error("the runs have no flowop in common");
	else if (print(r, NULL, NULL, fmt) == 0)
		rc = FB_EXIT_OK;
	curve_free(cv);
	results_free(r);
	return rc;
}

/* Whether the file at path holds a curve (a bad one too: print_run says). */
static bool has_curve(const char *path)
{
	size_t len;
	char *text = results_read_file(path, &len), err[256];
	bool bad = false;
	struct curve *cv = text ? results_read_curve(text, len, err, sizeof(err),
					     &bad) :
				  NULL;

	free(text);
	curve_free(cv);
	return cv || bad;
}

int report_main(int argc, char **argv)
{
	enum format fmt = FORMAT_TEXT;
	struct cmp c = { 0 };
	struct cmp_run run = { 0 };
	int rc = parse_args(argc, argv, &fmt);

	if (rc)
		return rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	/* a run's own printer, or a curve's for a file that holds one */
	if (printers[fmt].run ||
	    (printers[fmt].curve && has_curve(argv[optind])))
		return print_run(argv[optind], fmt);
	run.path = argv[optind];
	run.label = xstrdup(strrchr(run.path, '/') ? strrchr(run.path, '/') + 1 :
						    run.path);
	c.nruns = 1;
	c.runs = &run;
	rc = FB_EXIT_USAGE;
	if (fmt == FORMAT_JSON)
		rc = print_json(&c);
	else if (cmp_read_file(&run) == 0 && cmp_match(&c, false) == 0 &&
		 print(NULL, NULL, &c, fmt) == 0)
		rc = FB_EXIT_OK;
	cmp_rows_free(&c);
	free(run.label);
	cmp_run_clear(&run);
	return rc;
}
