/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun curve --levels NAME=V1,V2,... (curve_int.h): the script run at
 * each value of one of its variables, as -D NAME=V gives it, with the
 * objective judged at each; the headline is the last value, in the order
 * given, that meets it before one misses it.  With accelerators=1,2,4,8
 * and au>=90%, the most accelerators the storage keeps busy enough
 * (MLPerf Storage's figure).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run.h"
#include "cmd/curve_int.h"
#include "engine/engine.h"
#include "engine/sys/timeline.h"
#include "report/report.h"
#include "util/msg.h"
#include "util/util.h"

/* engine_opts.deliver: a run's figures for the level being run. */
static int var_deliver(const struct results *r, void *arg)
{
	struct curve_cmd *k = arg;
	struct var_level *l = &k->vl[k->vat];
	struct au_summary au;
	double obj;

	if (r->reason == RESULTS_END_SIGNAL || r->reason == RESULTS_END_ERROR ||
	    r->reason == RESULTS_END_NONE) {
		if (r->error[0])
			fb_error("%s", r->error);
		return 0;
	}
	results_au(r, &au);
	l->nruns++;
	l->ops += r->sum.ops_s;
	if (au.n) {
		l->au_min += au.min;
		l->au_mean += au.mean;
		l->nau++;
	}
	obj = k->c->has_objective ? objective_value(&k->c->obj, r) : -1;
	if (obj >= 0) {
		l->obj += obj;
		l->nobj++;
	}
	fprintf(k->lines, "curve: %s=%s", k->var, l->value);
	if (k->repeat > 1)
		fprintf(k->lines, ", run %u of %u", k->run_no, k->repeat);
	fputs(": ", k->lines);
	report_summary_line(k->lines, r);
	if (au.n)
		fprintf(k->lines, "  accelerators: %.1f%% min of %zu\n", au.min,
			au.n);
	fflush(k->lines);
	return 0;
}

/* cli_options.runner: --repeat's runs of the level's workload. */
static int var_runner(const struct cli_options *o, const struct workload *w,
		      struct engine_opts *eo, void *arg)
{
	struct curve_cmd *k = arg;

	if (curve_check(k, w, eo) < 0)
		return FB_EXIT_USAGE;
	if (!k->c->script)
		k->c->script = xstrdup(eo->script ? eo->script : "");
	k->c->per_level_s = (double)eo->runtime_s;
	k->c->warmup_s = (double)eo->warmup_s;
	k->repeat = o->repeat ? (unsigned)o->repeat : 1;
	eo->deliver = var_deliver;
	eo->deliver_arg = k;
	for (unsigned i = 0; i < k->repeat; i++) {
		int rc;

		k->run_no = i + 1;
		rc = engine_run(w, eo);
		if (rc != 0 || timeline_signalled)
			return rc ? rc : FB_EXIT_RUN;
	}
	return FB_EXIT_OK;
}

static double mean(double sum, size_t n)
{
	return n ? sum / (double)n : 0;
}

/* A level's verdict: met, missed, or none when it has no figure. */
static int verdict(const struct curve_cmd *k, const struct var_level *l)
{
	if (!k->c->has_objective || !l->nobj)
		return -1;
	return objective_met(&k->c->obj, mean(l->obj, l->nobj));
}

static void print_table(const struct curve_cmd *k, size_t done)
{
	char name[128];
	ptrdiff_t best = -1;

	printf("\n%-16s %12s %12s %12s%s\n", k->var, "au min %", "au mean %",
	       "ops/s", k->c->has_objective ? "  slo" : "");
	for (size_t i = 0; i < done; i++) {
		const struct var_level *l = &k->vl[i];
		int v = verdict(k, l);

		if (l->nau)
			printf("%-16s %12.1f %12.1f %12.1f", l->value,
			       mean(l->au_min, l->nau), mean(l->au_mean, l->nau),
			       mean(l->ops, l->nruns));
		else
			printf("%-16s %12s %12s %12.1f", l->value, "-", "-",
			       mean(l->ops, l->nruns));
		if (k->c->has_objective)
			printf("  %s", v < 0 ? "-" : v ? "met" : "not");
		putchar('\n');
	}
	if (!k->c->has_objective)
		return;
	for (size_t i = 0; i < done && verdict(k, &k->vl[i]) == 1; i++)
		best = (ptrdiff_t)i;
	objective_name(&k->c->obj, name, sizeof(name));
	if (best >= 0)
		printf("Objective %s (the %s): met up to %s=%s%s\n",
		       k->c->obj.text, name, k->var, k->vl[best].value,
		       done < k->nvl ? " (interrupted)" : "");
	else
		printf("Objective %s (the %s): not met at %s=%s\n",
		       k->c->obj.text, name, k->var,
		       done ? k->vl[0].value : "?");
}

int curve_var_main(struct curve_cmd *k, struct cli_options *o)
{
	size_t n = o->ndefines, done = 0;
	int rc = FB_EXIT_OK;
	bool met = false;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(o->defines[i].name, k->var)) {
			fb_error("-D %s and --levels %s=... both set $%s: give "
				 "its values in --levels only",
				 k->var, k->var, k->var);
			return FB_EXIT_USAGE;
		}
	if (k->output || k->html || k->format != FORMAT_TEXT) {
		fb_error("--levels %s=...: the levels' table is on standard "
			 "output only; -o, --html and --format are for levels "
			 "of load",
			 k->var);
		return FB_EXIT_USAGE;
	}
	k->lines = stdout;
	o->runner = var_runner;
	o->runner_arg = k;
	o->defines = grow_array(o->defines, &o->cap, n + 1,
				sizeof(*o->defines));
	for (; done < k->nvl && rc == FB_EXIT_OK && !timeline_signalled;
	     done++) {
		k->vat = done;
		o->defines[n] = (struct cli_define){ k->var, k->vl[done].value };
		o->ndefines = n + 1;
		rc = cli_run(o);
	}
	o->ndefines = n;
	if (rc != FB_EXIT_OK && done)
		done--; /* the level that failed has no verdict */
	if (rc == FB_EXIT_USAGE)
		return rc;
	print_table(k, done);
	for (size_t i = 0; i < done; i++)
		met = met || verdict(k, &k->vl[i]) == 1;
	if (k->c->has_objective && !met && rc == FB_EXIT_OK) {
		fb_error("no level met the objective %s", k->c->obj.text);
		rc = FB_EXIT_RUN;
	}
	return rc;
}
