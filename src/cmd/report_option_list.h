/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun report's options, one row each, in --help's order, in the form
 * of cmd/compare_option_list.h: the parser (cmd/report.c), --help, the man
 * page's REPORT OPTIONS and the bash completion's words come from them.
 */
OPTION(FORMAT, "format", 0, required_argument, "FORMAT", 0,
	"text (the table the run printed), json (the results\n"
	"file, checked), csv or html")
OPTION(HELP, "help", 'h', no_argument, NULL, 0,
	"show this help")
