/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* fbrun curve's table of options (curveopts.h). */
#include "cmd/curveopts.h"

#include <getopt.h>
#include <stddef.h>

#include "util/optable.h"

static const struct optable_row curve_rows[CO_COUNT] = {
	[CO_LEVELS] = { "levels", 0, required_argument, "LIST", 0,
	  "the offered rates, rising: percentages of the closed\n"
	  "loops' most (10,50,90%), measured first, or arrivals a\n"
	  "second (500,1000,2000); default 10,50,70,80,90,100%;\n"
	  "or NAME=V1,V2,...: the script at each value of $NAME" },
	[CO_SLO] = { "slo", 0, required_argument, "OBJECTIVE", 0,
	  "find the highest rate whose response times meet it:\n"
	  "p99<5ms, p99.9(FLOWOP)<=20ms, mean<2ms, max<1s; exit 1\n"
	  "when no rate does; au>=90%: the accelerators kept busy\n"
	  "(with --levels NAME=...)" },
	[CO_PER_LEVEL] = { "per-level", 0, required_argument, "SECONDS", 0,
	  "each run's measured time (default: the script's run;\n"
	  "-t sets it too)" },
	[CO_PRECISION] = { "precision", 0, required_argument, "PCT", 0,
	  "--slo's search stops when the rates that meet and miss\n"
	  "the objective are this close, a percent of the most (2)" },
	[CO_ARRIVALS] = { "arrivals", 0, required_argument, "KIND", 0,
	  "fixed or poisson, for every thread (default: each\n"
	  "rate='s own, fixed where the script has none)" },
	[CO_REUSE] = { "reuse", 0, no_argument, NULL, 0,
	  "keep every fileset from one run to the next (without\n"
	  "it, as the script says: those with reuse are kept)" },
	[CO_OUTPUT] = { "output", 'o', required_argument, "FILE", 0,
	  "also write the curve to FILE: JSON (every level, every\n"
	  "run) if *.json, CSV if *.csv, else text" },
	[CO_FORMAT] = { "format", 0, required_argument, "FORMAT", 0,
	  "the curve on standard output: text, json or csv" },
	[CO_HTML] = { "html", 0, required_argument, "FILE", 0,
	  "write a page: response time against throughput, with\n"
	  "the objective's line" },
	[CO_HELP] = { "help", 'h', no_argument, NULL, 0, "show this help" },
};

const struct optable curveopts = {
	.command = "curve",
	OPTABLE_TABLE(curve_rows),
	.style = OPTABLE_LIST,
	.column = 23,
	.wrap = 24,
	.head = "usage: fbrun curve [options] SCRIPT\n"
		"Run SCRIPT at rising offered rates (an open loop: the "
		"rates of its rate=, or\n"
		"of every thread's passes when it has none) and tabulate "
		"throughput against\n"
		"response time; with --slo, find the most load that meets "
		"a service level.\n"
		"Any of fbrun's options apply to each run (fbrun --help): "
		"-D, --seed,\n"
		"--warmup (default: a fifth of each run, 1 s at least), "
		"--repeat N (N runs\n"
		"at each rate, their means and 95% intervals), -q, ...\n\n",
	.tail = "",
};
