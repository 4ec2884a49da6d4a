/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun's own options: getopt_long's array made from the table
 * (cli/option_list.h), each value checked as it is read, then the
 * options that need one another.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/lists.h"
#include "cli/options.h"
#include "cli/table.h"
#include "lang/catalog.h"
#include "lang/datapat.h"
#include "report/build.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/util.h"

#define MAX_REPEAT 10000

static const struct {
	const char *name;
	int letter, arg;
} opt_rows[] = {
#define OPTION(id, name, letter, arg, ...) { name, letter, arg },
#include "cli/option_list.h"
#undef OPTION
};

/* getopt_long's array and its letters (":D:t:o:qhV"), from the table */
static void getopt_table(struct option *longopts, char *letters)
{
	*letters++ = ':';
	for (int i = 0; i < OPT_COUNT; i++) {
		int c = opt_rows[i].letter;

		longopts[i] = (struct option){ opt_rows[i].name, opt_rows[i].arg,
					       NULL, c ? c : OPT_LONG_BASE + i };
		if (!c)
			continue;
		*letters++ = (char)c;
		if (opt_rows[i].arg != ARG_NONE)
			*letters++ = ':';
		if (opt_rows[i].arg == ARG_OPTIONAL)
			*letters++ = ':';
	}
	longopts[OPT_COUNT] = (struct option){ NULL, 0, NULL, 0 };
	*letters = '\0';
}

/* The row getopt_long's c names, or -1 (not an option of the table). */
static int option_id(int c)
{
	if (c >= OPT_LONG_BASE && c < OPT_LONG_BASE + OPT_COUNT)
		return c - OPT_LONG_BASE;
	for (int i = 0; i < OPT_COUNT; i++)
		if (opt_rows[i].letter && opt_rows[i].letter == c)
			return i;
	return -1;
}

static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z') ||
			(s[0] >= 'a' && s[0] <= 'z')))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= 'a' && s[i] <= 'z')))
			return false;
	return true;
}

static int add_define(struct cli_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	const char *name = arg[0] == '$' ? arg + 1 : arg;

	if (!eq || !valid_name(name, (size_t)(eq - name))) {
		fb_error("-D expects NAME=VALUE with NAME a variable name, "
			 "got '%s'",
			 arg);
		return -1;
	}
	o->defines = grow_array(o->defines, &o->cap, o->ndefines + 1,
				sizeof(*o->defines));
	o->defines[o->ndefines].name = xstrndup(name, (size_t)(eq - name));
	o->defines[o->ndefines].value = eq + 1;
	o->ndefines++;
	return 0;
}

/* A whole number of seconds, 1 to MAX_SECONDS, for option opt. */
static int seconds_arg(const char *opt, const char *arg, uint64_t *out)
{
	int64_t n;

	if (parse_int(arg, strlen(arg), &n) != NUM_OK || n <= 0 ||
	    n > MAX_SECONDS) {
		fb_error("%s expects 1 to %lld seconds, got '%s'", opt,
			 (long long)MAX_SECONDS, arg);
		return -1;
	}
	*out = (uint64_t)n;
	return 0;
}

/*
 * --cache-limit SIZE: at least 16 MiB, below which the run's own
 * allocations alone would meet the bound.
 */
static int cache_limit_arg(const char *arg, uint64_t *out)
{
	int64_t n;

	if (parse_int(arg, strlen(arg), &n) != NUM_OK || n < (16 << 20)) {
		fb_error("--cache-limit expects a size of 16m or more (k, m, g "
			 "or t), got '%s'",
			 arg);
		return -1;
	}
	*out = (uint64_t)n;
	return 0;
}

/* --steady[=PCT]: 10% unless given, 1 to 100. */
static int steady_arg(const char *arg, double *out)
{
	int64_t n;

	if (!arg) {
		*out = 10;
		return 0;
	}
	if (parse_int(arg, strlen(arg), &n) != NUM_OK || n < 1 || n > 100)
		return fb_error("--steady=PCT expects a percentage from 1 to "
				"100, got '%s'",
				arg);
	*out = (double)n;
	return 0;
}

/*
 * --seed N: decimal digits only, 0 to 2^63-1, so that the JSON's seed
 * reads back exactly in any reader of 64-bit integers.
 */
static int seed_arg(const char *arg, uint64_t *out)
{
	int64_t n;

	if (!arg[0] || strspn(arg, "0123456789") != strlen(arg) ||
	    parse_int(arg, strlen(arg), &n) != NUM_OK)
		return fb_error("--seed expects a whole number from 0 to "
				"%" PRId64 ", got '%s'",
				INT64_MAX, arg);
	*out = (uint64_t)n;
	return 0;
}

/* --define-unused: whether a -D the script never uses stops the run */
static int define_unused_arg(const char *arg, bool *warn)
{
	if (strcmp(arg, "error") && strcmp(arg, "warn"))
		return fb_error("--define-unused expects error or warn, got "
				"'%s'",
				arg);
	*warn = arg[0] == 'w';
	return 0;
}

static int repeat_arg(const char *arg, uint64_t *out)
{
	int64_t n;

	if (parse_int(arg, strlen(arg), &n) != NUM_OK || n < 2 ||
	    n > MAX_REPEAT)
		return fb_error("--repeat expects 2 to %d runs, got '%s'",
				MAX_REPEAT, arg);
	*out = (uint64_t)n;
	return 0;
}

static int data_arg(const char *arg, struct datapat *out)
{
	char err[160];

	if (datapat_parse(arg, out, err, sizeof(err)) < 0)
		return fb_error("--data %s", err);
	return 0;
}

/* An option without a value; false if id is not one. */
static bool set_flag(struct cli_options *o, int id)
{
	bool *flag;

	switch (id) {
	case OPT_FRESH:
		flag = &o->fresh;
		break;
	case OPT_INTERVAL_FLOWOPS:
		flag = &o->run.interval_flowops;
		break;
	case OPT_KEEP:
		flag = &o->run.keep;
		break;
	case OPT_FORCE:
		flag = &o->run.force;
		break;
	case OPT_ALLOW_DEVICE_WRITES:
		flag = &o->run.allow_device_writes;
		break;
	case OPT_FORCE_DEVICE:
		flag = &o->run.force_device;
		break;
	case OPT_CONTINUE_ON_ERROR:
		flag = &o->run.continue_on_error;
		break;
	case OPT_STONEWALL:
		flag = &o->stonewall;
		break;
	case OPT_QUIET:
		flag = &o->run.quiet;
		break;
	case OPT_PARSE_ONLY:
		o->action = ACT_PARSE_ONLY;
		return true;
	case OPT_DUMP_AST:
		o->action = ACT_DUMP_AST;
		return true;
	case OPT_DUMP_IR:
		o->action = ACT_DUMP_IR;
		return true;
	default:
		return false;
	}
	*flag = true;
	return true;
}

/* An option with a value, checked.  Returns 0 or -1. */
static int set_value(struct cli_options *o, int id, const char *arg)
{
	switch (id) {
	case OPT_DEFINE:
		return add_define(o, arg);
	case OPT_DEFINE_UNUSED:
		return define_unused_arg(arg, &o->define_unused_warn);
	case OPT_RUNTIME:
		return seconds_arg("--runtime", arg, &o->run.runtime_s);
	case OPT_OUTPUT:
		o->run.output = arg;
		return 0;
	case OPT_FORMAT:
		return format_parse(arg, FOR_RUN, &o->format);
	case OPT_INTERVAL:
		return seconds_arg("--interval", arg, &o->run.interval_s);
	case OPT_INTERVAL_LOG:
		o->interval_log = arg;
		return 0;
	case OPT_STEADY:
		return steady_arg(arg, &o->run.steady_pct);
	case OPT_REPEAT:
		return repeat_arg(arg, &o->repeat);
	case OPT_CACHE_LIMIT:
		return cache_limit_arg(arg, &o->run.cache_limit);
	case OPT_WARMUP:
		return seconds_arg("--warmup", arg, &o->run.warmup_s);
	case OPT_DATA:
		return data_arg(arg, &o->run.data);
	case OPT_SEED:
		return seed_arg(arg, &o->run.seed);
	default:
		/* not reached: every row is a flag, a value or an action */
		return fb_error("option %d has no meaning", id);
	}
}

/*
 * Returns 0 to go on, 1 when the option did all there was to do, -1, or
 * CLI_HELP or CLI_HELP_OPTIONS (cli_options_parse).
 */
static int apply(struct cli_options *o, int id, const char *arg)
{
	if (set_flag(o, id))
		return 0;
	switch (id) {
	case OPT_LIST_FLOWOPS:
		cli_lists_flowops();
		return 1;
	case OPT_LIST_ATTRIBUTES:
		cli_lists_attributes();
		return 1;
	case OPT_LIST_WORKLOADS:
		return catalog_list(stdout) < 0 ? -1 : 1;
	case OPT_SHOW:
		return catalog_show(stdout, arg) < 0 ? -1 : 1;
	case OPT_HELP:
		return CLI_HELP;
	case OPT_VERSION:
		build_print(stdout);
		return 1;
	case OPT_HELP_OPTIONS:
		o->help_options = arg;
		return CLI_HELP_OPTIONS;
	default:
		return set_value(o, id, arg);
	}
}

/*
 * --interval-log FILE needs --interval, and a file of its own: not -o's
 * by any name (outfile_same).
 */
static int interval_log_arg(const struct cli_options *o)
{
	if (!o->interval_log)
		return 0;
	if (!o->interval_log[0])
		return fb_error("--interval-log needs a file name");
	if (!o->run.interval_s)
		return fb_error("--interval-log needs --interval (the lines "
				"it writes)");
	if (o->run.output && outfile_same(o->run.output, o->interval_log))
		return fb_error("--interval-log and -o name one file, '%s'",
				o->interval_log);
	return 0;
}

/* The options that need another, or a job. */
static int check_together(const struct cli_options *o)
{
	if (o->fresh && !o->repeat)
		return fb_error("--fresh needs --repeat");
	if (o->run.steady_pct > 0 && !o->run.interval_s)
		return fb_error("--steady needs --interval (the series it "
				"judges)");
	if (o->run.interval_flowops && !o->run.interval_s)
		return fb_error("--interval-flowops needs --interval");
	if (interval_log_arg(o) < 0)
		return -1;
	if (o->stonewall && !o->peers)
		return fb_error("--stonewall is for fbrun-mpi, whose ranks it "
				"stops together");
	return 0;
}

int cli_options_parse(int argc, char **argv, struct cli_options *o)
{
	struct option longopts[OPT_COUNT + 1];
	char letters[3 * OPT_COUNT + 2];
	int c, rc;

	getopt_table(longopts, letters);
	opterr = 0;
	while ((c = getopt_long(argc, argv, letters, longopts, NULL)) != -1) {
		int id = option_id(c);

		if (c == ':')
			return msg_bad_option(c, argv, optind);
		if (id < 0) {
			msg_bad_option(c, argv, optind);
			return CLI_USAGE;
		}
		rc = apply(o, id, optarg);
		if (rc != 0)
			return rc;
	}
	if (check_together(o) < 0)
		return -1;
	if (optind != argc - 1) {
		fb_error("%s", optind >= argc ? "no script given" :
						"one script at a time");
		return CLI_USAGE;
	}
	o->script = catalog_resolve(argv[optind]);
	return 0;
}

void cli_options_release(struct cli_options *o)
{
	for (size_t i = 0; i < o->ndefines; i++)
		free((char *)o->defines[i].name);
	free(o->defines);
	free((char *)o->script);
	o->defines = NULL;
	o->script = NULL;
}
