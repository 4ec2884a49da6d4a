/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun compare's options, one row each, in --help's order:
 *
 *   OPTION(ID, long name, short letter or 0, no_argument |
 *          required_argument | optional_argument, the value's name,
 *          OPTABLE_ flags, --help's text (a line per \n))
 *
 * The parser (cmd/compare.c), --help, the man page's COMPARE OPTIONS and the
 * bash completion's words all come from these rows (util/optable.h).
 */
OPTION(LABEL, "label", 'l', required_argument, "NAME", 0,
	"name the next run's column (repeat, in file order;\n"
	"default: the file name without .json)")
OPTION(HTML, "html", 0, required_argument, "FILE", 0,
	"also write an HTML page with charts to FILE")
OPTION(COMMON, "common", 0, no_argument, NULL, 0,
	"compare only the flowops every run has")
OPTION(FORMAT, "format", 0, required_argument, "FORMAT", 0,
	"on standard output: text (the table), json or csv")
OPTION(FAIL, "fail-if-worse", 0, required_argument, "PCT", 0,
	"exit 1 if a flowop is worse than the first run by more\n"
	"than PCT% (groups: and significantly so), 2 if a figure\n"
	"cannot be judged")
OPTION(METRIC, "metric", 0, required_argument, "WHICH", 0,
	"what --fail-if-worse compares: ops (ops/s, the default),\n"
	"latency (ms/op), p99 or response (an open loop's p99\n"
	"response time)")
OPTION(HELP, "help", 'h', no_argument, NULL, 0,
	"show this help")
