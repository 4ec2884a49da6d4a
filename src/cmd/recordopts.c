/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* fbrun record's table of options (recordopts.h). */
#include "cmd/recordopts.h"

#include <getopt.h>
#include <stddef.h>

#include "util/optable.h"

/* in the order of the enum in recordopts.h */
static const struct optable_row record_rows[] = {
	[RECORD_OPT_OUTPUT] = { "output", 'o', required_argument, "NAME", 0,
				"write NAME.trace and NAME.f (default:\n"
				"fbrun-record)" },
	[RECORD_OPT_MODEL] = { "model", 0, no_argument, NULL, 0,
			       "NAME.f: a synthetic script fitted to the\n"
			       "trace (fbrun model), not a replay of it" },
	[RECORD_OPT_HELP] = { "help", 'h', no_argument, NULL, 0,
			      "show this help" },
};

const struct optable recordopts = {
	.command = "record",
	OPTABLE_TABLE(record_rows),
	.style = OPTABLE_LIST,
	.column = 23,
	.wrap = 24,
	.in_order = true,
	.head = "usage: fbrun record [-o NAME] [--model] [--] COMMAND "
		"[ARGS...]\n"
		"Run COMMAND under strace in this directory and write "
		"what it did to files:\n"
		"NAME.trace (strace's output) and NAME.f, a workload that "
		"replays it\n"
		"(fbrun NAME.f), or with --model one fitted to it.\n\n",
	.tail = "\nBoth files are made new beside their names and renamed "
		"over them: only a\n"
		"regular file (or none) is replaced.  The summary says what "
		"the trace holds.\n"
		"Recording ends when the command exits (what it left running "
		"is let go,\n"
		"untraced) or at SIGINT, SIGTERM or SIGHUP (cut short, what "
		"was recorded\n"
		"is written).\n"
		"Exit status: 0 the command exited 0, 1 it failed or was "
		"killed or the\n"
		"recording was cut short (the files are written), 2 no "
		"strace, a bad option\n"
		"or output, or a trace fbrun cannot read (NAME.trace is kept "
		"to look at).\n",
};
