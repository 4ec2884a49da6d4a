/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* fbrun replay's table of options (replayopts.h). */
#include "cmd/replayopts.h"

#include <getopt.h>
#include <stddef.h>

#include "util/optable.h"

static const struct optable_row replay_rows[] = {
	{ "help", 'h', no_argument, NULL, 0, "show this help" },
	{ "pace", 0, optional_argument, "SPEED", 0,
	  "each operation starts no earlier than its recorded time\n"
	  "divided by SPEED (1, the default: the recorded pace; 2:\n"
	  "twice as fast); without it, as fast as the calls go" },
};

const struct optable replayopts = {
	.command = "replay",
	OPTABLE_TABLE(replay_rows),
	.style = OPTABLE_LIST,
	.column = 23,
	.wrap = 24,
	.head = "usage: fbrun replay [options] TRACE\n"
		"Replay TRACE (strace output, a dbench loadfile, a fio iolog "
		"or fbrun's own\n"
		"trace; doc/trace-format.md) with any of fbrun's options "
		"(fbrun --help).\n\n",
	.tail = "\nIts knobs, set with -D NAME=VALUE:\n"
		"  clients  1     clients replaying it at once, each in its "
		"own directory\n"
		"  passes   1     passes each client makes (0: until the run "
		"ends; -t alone\n"
		"                 sets 0)\n"
		"  dir      $tmpdir/fbrun-replay   where the clients' "
		"directories are made\n"
		"  format   auto  strace, dbench, fio or fbrun to force one\n"
		"  calls    recorded   dbench: each loadfile line makes the "
		"calls dbench\n"
		"                      makes for it, its name lookups too\n"
		"The report has a row per operation type: replay.open, "
		"replay.read, ...\n",
};
