/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun's own options (not a subcommand's): read from the command line
 * through the table of cli/option_list.h, each value checked.
 */
#ifndef FBRUN_CLI_OPTIONS_H
#define FBRUN_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "lang/compile.h"
#include "util/format.h"

struct job;

enum cli_action {
	ACT_RUN,
	ACT_PARSE_ONLY,
	ACT_DUMP_AST,
	ACT_DUMP_IR,
};

struct cli_options {
	enum cli_action action;
	struct engine_opts run;
	enum format format; /* --format */
	struct cli_define *defines;
	size_t ndefines, cap;
	bool define_unused_warn; /* --define-unused=warn */
	const char *script;
	/* the script's text when it is fbrun's own (fbrun replay), or NULL */
	const char *script_text;
	struct job *peers; /* fbrun-mpi's job, or NULL */
	const char *help_options; /* --help-options=WHAT */
	bool stonewall;
	uint64_t repeat; /* --repeat N: 0 if not given */
	bool fresh; /* --fresh: the filesets made anew for each run */
	const char *interval_log; /* --interval-log FILE, or NULL */
	/*
	 * What runs the checked workload in place of a run or --repeat's
	 * (fbrun curve's levels), with the engine's options as a run's;
	 * returns the exit code.  NULL: a run.
	 */
	int (*runner)(const struct cli_options *o, const struct workload *w,
		      struct engine_opts *eo, void *arg);
	void *runner_arg;
};

/*
 * What cli_options_parse leaves to its caller, which has the table of
 * subcommands that fbrun's --help lists (cmd/usage.c).
 */
enum {
	CLI_HELP = 2, /* --help: fbrun's usage on standard output */
	CLI_HELP_OPTIONS = 3, /* --help-options=o->help_options */
	CLI_USAGE = -2, /* a usage error, said; fbrun's usage to follow */
};

/*
 * Fill o from argv (o->peers set by the caller).  Returns 0 to run, 1
 * when an option did all there was to do (--list-flowops, --version,
 * ...), -1 after a usage error, or one of the above.
 */
int cli_options_parse(int argc, char **argv, struct cli_options *o);
/* What parsing allocated (not o->peers). */
void cli_options_release(struct cli_options *o);

#endif
