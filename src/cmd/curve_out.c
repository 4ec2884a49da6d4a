/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What curve.c, curve_run.c and curve_var.c share, below them: a value's
 * error under a caret, the script checked against the objectives before
 * the first level, and the curve printed and written after the last.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/curve_int.h"
#include "compare/html.h"
#include "lang/ir.h"
#include "report/curve_print.h"
#include "report/report.h"
#include "util/diag.h"
#include "util/jsonw.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/schema_version.h"
#include "util/util.h"

/* A value's error, with the value shown under a caret ("--slo:1:4"). */
void curve_value_error(const char *opt, const char *value, size_t at,
		       size_t len, const char *msg)
{
	struct source *src = source_from_string(opt, value, strlen(value));
	struct diag *d = diag_new(stderr, 1);

	diag_error(d, src, (struct loc){ (int)at, (int)(at + len) }, "%s",
		   msg);
	diag_free(d);
	source_free(src);
}

/* The script's run time, where no -t or --per-level says. */
static uint64_t script_runtime(const struct workload *w)
{
	for (size_t i = 0; i < w->nstmts; i++)
		if (w->stmts[i].kind == IS_RUN)
			return (uint64_t)w->stmts[i].n;
	return 60; /* as a script without one runs */
}

/* Whether flowop f's ops have response times in the curve's runs. */
static bool timed(const struct workload *w, const struct ir_flowop *f)
{
	const struct ir_thread *t = &w->threads[f->thread];
	bool any = false;

	for (size_t i = 0; i < w->nflowops; i++)
		any = any || w->flowops[i]->rate.per_sec > 0;
	for (size_t i = 0; i < w->nthreads; i++)
		any = any || w->threads[i].rate.per_sec > 0;
	for (size_t i = 0; i < w->nprocesses; i++)
		any = any || w->processes[i].rate.per_sec > 0;
	if (!any) /* every thread's passes are arrivals */
		return true;
	if (t->rate.per_sec > 0 || w->processes[t->process].rate.per_sec > 0)
		return true;
	for (size_t i = t->flowop_first; i < t->flowop_end; i++)
		if (w->flowops[i]->rate.per_sec > 0)
			return true;
	return false;
}

/* The objective's flowop, in the script and in an open loop. */
static int check_flowop(const struct objective *obj, const struct workload *w)
{
	const char *name = obj->flowop;
	size_t at = (size_t)(strstr(obj->text, name) - obj->text);
	const char *hint, **labels;
	char msg[300];

	for (size_t i = 0; i < w->nflowops; i++) {
		if (strcmp(w->flowops[i]->label, name))
			continue;
		if (timed(w, w->flowops[i]))
			return 0;
		snprintf(msg, sizeof(msg), "flowop '%s' is not in an open loop: "
			 "its thread has no rate= and none of its flowops has",
			 name);
		curve_value_error("--slo", obj->text, at, strlen(name), msg);
		return -1;
	}
	labels = xcalloc(w->nflowops + 1, sizeof(*labels));
	for (size_t i = 0; i < w->nflowops; i++)
		labels[i] = w->flowops[i]->label;
	hint = did_you_mean(name, labels, w->nflowops, sizeof(*labels));
	if (hint)
		snprintf(msg, sizeof(msg), "no flowop named '%s' in the script; "
			 "did you mean '%s'?", name, hint);
	else
		snprintf(msg, sizeof(msg), "no flowop named '%s' in the script",
			 name);
	free(labels);
	curve_value_error("--slo", obj->text, at, strlen(name), msg);
	return -1;
}

int curve_check(struct curve_cmd *k, const struct workload *w,
		struct engine_opts *eo)
{
	uint64_t per = eo->runtime_s ? eo->runtime_s : script_runtime(w);

	if (k->c->has_objective && k->c->obj.flowop &&
	    check_flowop(&k->c->obj, w) < 0)
		return -1;
	/* a warm-up at each level: a fifth of its run, 1 s at least */
	if (!eo->warmup_s)
		eo->warmup_s = per / 5 ? per / 5 : 1;
	eo->runtime_s = per;
	return 0;
}

/* The file's JSON: the last run's object, with the curve in it. */
static void print_json(FILE *out, const struct curve_cmd *k)
{
	struct json j;

	jw_reopen(out, k->last_json);
	jw_member(out, "curve");
	jw_init(&j, out);
	curve_write(&j, NULL, k->c);
	fputs("\n}\n", out);
}

static void print_csv(FILE *out, const struct curve_cmd *k)
{
	curve_print_csv(out, k->c);
}

static void print_text(FILE *out, const struct curve_cmd *k)
{
	curve_print_text(out, k->c);
}

/* The printers of each row of util/format_list.h a run prints. */
typedef void curve_printer(FILE *out, const struct curve_cmd *k);

static curve_printer *const printers[FORMAT_COUNT] = {
	[FORMAT_TEXT] = print_text,
	[FORMAT_JSON] = print_json,
	[FORMAT_CSV] = print_csv,
};

static void fill_output(FILE *out, const void *arg)
{
	const struct curve_cmd *k = arg;

	printers[format_of_path(k->output, FOR_RUN)](out, k);
}

static void fill_html(FILE *out, const void *arg)
{
	const struct curve_cmd *k = arg;
	const char *name = k->c->script;

	html_curve_page(out, &k->c, &name, 1);
}

int curve_output(struct curve_cmd *k)
{
	int rc = k->rc;
	bool any = k->c->nlevels || k->c->max.nruns;

	if (!any) {
		fb_error("no run of the curve completed: nothing to print");
		return rc ? rc : FB_EXIT_RUN;
	}
	if (k->format == FORMAT_TEXT)
		fputc('\n', stdout);
	if (k->format != FORMAT_JSON || k->last_json)
		printers[k->format](stdout, k);
	if (k->output &&
	    (format_of_path(k->output, FOR_RUN) != FORMAT_JSON ||
	     k->last_json) &&
	    outfile_write(k->output, fill_output, k) < 0 && !rc)
		rc = FB_EXIT_RUN;
	if (k->html && outfile_write(k->html, fill_html, k) < 0 && !rc)
		rc = FB_EXIT_RUN;
	if (k->c->has_objective && k->c->slo.searched && !k->c->slo.met &&
	    !k->c->interrupted) {
		fb_error("no rate met the objective %s", k->c->obj.text);
		if (!rc)
			rc = FB_EXIT_RUN;
	}
	return rc;
}
