/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun curve [options] SCRIPT (doc/running.md, "Load curves"): its own
 * options taken out of the command line (cmd/curveopts.c), the rest read
 * as fbrun's, the script checked as a run's (cli/run.c), then run at
 * each level by curve_run.c (curve_var.c for the levels of a variable)
 * instead of once; the script checked against the objectives and the
 * curve printed and written by curve_out.c, below them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run.h"
#include "cmd/curve.h"
#include "cmd/curve_int.h"
#include "cmd/curveopts.h"
#include "cmd/usage.h"
#include "lang/ir.h"
#include "report/report.h"
#include "util/msg.h"
#include "util/optable.h"
#include "util/outfile.h"
#include "util/util.h"

/* The levels without --levels: vdbench's curve. */
static const char default_levels[] = "10,50,70,80,90,100%";
/* A level's most: ten times the closed loops' most, or arrivals a second. */
#define MAX_PCT 1000.0
#define MIN_PCT 0.01
#define MAX_ABS ((double)MAX_RATE * 1000)

/*
 * --levels NAME=V1,V2,...: values of a script variable, each a -D value,
 * none empty.
 */
static int parse_var_levels(struct curve_cmd *k, const char *list,
			    size_t eq)
{
	const char *p = list + eq + 1;
	size_t cap = 0;

	for (size_t i = 0; i < eq; i++)
		if (!(list[i] == '_' || (list[i] >= 'a' && list[i] <= 'z') ||
		      (list[i] >= 'A' && list[i] <= 'Z') ||
		      (i && list[i] >= '0' && list[i] <= '9'))) {
			curve_value_error("--levels", list, 0, eq,
				    "a variable's name is a letter or '_', "
				    "then letters, digits or '_'");
			return -1;
		}
	free(k->var);
	k->var = xstrndup(list, eq);
	for (;;) {
		size_t n = strcspn(p, ",");

		if (!n) {
			curve_value_error("--levels", list, (size_t)(p - list), 1,
				    "a level is a value of the variable: "
				    "none may be empty");
			return -1;
		}
		k->vl = grow_array(k->vl, &cap, k->nvl + 1, sizeof(*k->vl));
		k->vl[k->nvl++] = (struct var_level){ .value = xstrndup(p, n) };
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* --levels LIST: rising numbers over 0, all percentages or none. */
static int parse_levels(struct curve_cmd *k, const char *list)
{
	size_t n = strlen(list), cap = 0;
	bool pct = n && list[n - 1] == '%';
	const char *p = list;

	k->nlevels = 0;
	k->pct = pct;
	while (*p) {
		size_t at = (size_t)(p - list);
		char *end;
		double v;

		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno || !(v >= (pct ? MIN_PCT : MIN_RATE)) ||
		    v > (pct ? MAX_PCT : MAX_ABS)) {
			curve_value_error("--levels", list, at, strcspn(p, ","),
				    pct ? "a level is a percentage from 0.01 "
					  "to 1000" :
					  "a level is arrivals a second, from "
					  "0.000001 (end the list with % for "
					  "percentages of the most)");
			return -1;
		}
		if (*end == '%' && end[1]) {
			curve_value_error("--levels", list, (size_t)(end - list), 1,
				    "'%' goes after the last level alone");
			return -1;
		}
		if (*end == '%')
			end++;
		if (k->nlevels && v <= k->levels[k->nlevels - 1]) {
			curve_value_error("--levels", list, at, (size_t)(end - p),
				    "the levels must rise, each over the one "
				    "before");
			return -1;
		}
		k->levels = grow_array(k->levels, &cap, k->nlevels + 1,
				       sizeof(*k->levels));
		k->levels[k->nlevels++] = v;
		if (*end && *end != ',') {
			curve_value_error("--levels", list, (size_t)(end - list), 1,
				    "levels are numbers separated by commas");
			return -1;
		}
		p = *end ? end + 1 : end;
	}
	if (!k->nlevels) {
		curve_value_error("--levels", list, 0, 0, "no level given");
		return -1;
	}
	return 0;
}

static int parse_slo(struct curve_cmd *k, const char *text)
{
	char err[200];
	size_t at, len;

	if (objective_parse(text, &k->c->obj, err, sizeof(err), &at, &len) <
	    0) {
		curve_value_error("--slo", text, at, len, err);
		return -1;
	}
	k->c->has_objective = true;
	return 0;
}

/* One of the curve's own options, with its value; -1 after saying why. */
static int take(struct curve_cmd *k, int id, const char *v)
{
	char *end;

	switch ((enum curve_opt)id) {
	case CO_LEVELS:
		k->levels_given = true;
		if (strchr(v, '='))
			return parse_var_levels(k, v,
						(size_t)(strchr(v, '=') - v));
		return parse_levels(k, v);
	case CO_SLO:
		return parse_slo(k, v);
	case CO_PRECISION:
		errno = 0;
		k->precision = strtod(v, &end) / 100;
		if (*end || errno || !(k->precision >= 0.001 &&
				       k->precision <= 0.5))
			return fb_error("--precision expects a percent from "
					"0.1 to 50, got '%s'", v);
		return 0;
	case CO_ARRIVALS:
		if (strcmp(v, "fixed") && strcmp(v, "poisson"))
			return fb_error("--arrivals expects fixed or poisson, "
					"got '%s'", v);
		k->arrivals = 1 + (strcmp(v, "poisson") ? IR_ARRIVALS_FIXED :
							  IR_ARRIVALS_POISSON);
		free(k->c->arrivals);
		k->c->arrivals = xstrdup(v);
		return 0;
	case CO_FORMAT:
		return format_parse(v, FOR_RUN, &k->format);
	case CO_OUTPUT:
	case CO_HTML: {
		char *why = outfile_unusable(v);

		if (why) {
			fb_error("%s %s", v, why);
			free(why);
			return -1;
		}
		*(id == CO_OUTPUT ? &k->output : &k->html) = v;
		return 0;
	}
	case CO_REUSE:
		k->reuse = true;
		return 0;
	case CO_PER_LEVEL: /* fbrun's -t: read below */
	case CO_HELP:
	case CO_COUNT:
		break;
	}
	return 0;
}

/* The row of curveopts named by arg ("--levels", "--levels=X", "-o"), or -1. */
static int row_of(const char *arg, const char **inline_value)
{
	const struct optable_row *rows = curveopts.rows;

	*inline_value = NULL;
	if (arg[0] != '-')
		return -1;
	for (int i = 0; i < curveopts.nrows; i++) {
		size_t n = rows[i].name ? strlen(rows[i].name) : 0;

		if (arg[1] == '-' && n && !strncmp(arg + 2, rows[i].name, n) &&
		    (!arg[2 + n] || arg[2 + n] == '=')) {
			if (arg[2 + n] == '=')
				*inline_value = arg + 3 + n;
			return i;
		}
		if (arg[1] != '-' && rows[i].letter && arg[1] == rows[i].letter) {
			if (arg[2])
				*inline_value = arg + 2;
			return i;
		}
	}
	return -1;
}

/*
 * The curve's options out of argv into k; the others, and each one's
 * value, into args (fbrun's options, read by cli_options_parse); -1
 * after a usage error, 1 after --help.
 */
static int split_args(struct curve_cmd *k, int argc, char **argv, char **args,
		      int *n)
{
	for (int i = 1; i < argc; i++) {
		const char *v;
		int id = row_of(argv[i], &v);

		if (id < 0) {
			args[(*n)++] = argv[i];
			continue;
		}
		if (id == CO_HELP) {
			optable_usage(stdout, &curveopts);
			return 1;
		}
		if (curveopts.rows[id].arg == no_argument) {
			if (v)
				return fb_error("--%s takes no value",
						curveopts.rows[id].name);
		} else if (!v && (v = i + 1 < argc ? argv[++i] : NULL) == NULL) {
			return fb_error("--%s needs a value: --%s %s",
					curveopts.rows[id].name,
					curveopts.rows[id].name,
					curveopts.rows[id].argname);
		}
		if (id == CO_PER_LEVEL) {
			args[(*n)++] = "-t";
			args[(*n)++] = (char *)v;
		} else if (take(k, id, v) < 0) {
			return -1;
		}
	}
	return 0;
}

/* What fbrun's options may not do in a curve; -1 after saying so. */
static int refuse(const struct cli_options *o)
{
	if (o->interval_log)
		return fb_error("--interval-log follows one run: fbrun curve "
				"writes every level's figures with -o");
	if (o->run.steady_pct > 0)
		return fb_error("--steady judges one run: fbrun curve's levels "
				"each have a warm-up instead");
	return 0;
}

int curve_main(int argc, char **argv)
{
	struct curve_cmd k = { .precision = 0.02, .format = FORMAT_TEXT };
	struct cli_options o = { .action = ACT_RUN };
	char **args = xcalloc((size_t)argc + 2, sizeof(*args));
	int n = 0, rc;

	k.c = curve_new();
	args[n++] = "fbrun";
	rc = split_args(&k, argc, argv, args, &n);
	if (!rc && k.c->has_objective && k.c->obj.stat == OBJ_AU && !k.var)
		rc = fb_error("--slo %s judges the accelerators at each of "
			      "their numbers, not a rate: give --levels "
			      "NAME=V1,V2,... over the script's variable",
			      k.c->obj.text);
	if (!rc && !k.levels_given && !k.c->has_objective)
		rc = parse_levels(&k, default_levels);
	k.want_json = k.format == FORMAT_JSON ||
		      format_of_path(k.output, FOR_RUN) == FORMAT_JSON;
	if (!rc) {
		rc = cmd_usage_parse(n, args, &o);
		if (rc == 0 && refuse(&o) < 0)
			rc = -1;
		if (rc == 0 && k.var) {
			rc = curve_var_main(&k, &o);
		} else if (rc == 0) {
			o.runner = curve_runner;
			o.runner_arg = &k;
			rc = cli_run(&o);
		} else {
			rc = rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
		}
		cli_options_release(&o);
	} else {
		rc = rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	}
	curve_free(k.c);
	for (size_t i = 0; i < k.nvl; i++)
		free(k.vl[i].value);
	free(k.vl);
	free(k.var);
	free(k.levels);
	free(k.last_json);
	free(args);
	return rc;
}
