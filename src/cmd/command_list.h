/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun's subcommands, one row each, in --help's order:
 *
 *   COMMAND(word, its arguments as --help shows them, what it does,
 *           the function that runs it (cmd/cmd.c), whether fbrun-mpi
 *           runs it, its option table (util/optable.h))
 *
 * A command line that does not start with one of these words runs a
 * script with the options of cli/option_list.h (cli/run.c).  Each
 * subcommand reads its own options, from its own table beside it in
 * cmd/ (cmd/<name>opts.c, or the rows of cmd/<name>_option_list.h),
 * which also gives its --help; fbrun's man page and completion print
 * the tables (cmd/usage.c).
 */
COMMAND(compare, "A.json B.json ...", "compare runs", cmd_compare, false,
	compare_options)
COMMAND(bonnie, "[bonnie++ options]", "bonnie++'s tests", cmd_bonnie, true,
	bonnie_options)
COMMAND(report, "RUN.json", "a saved run's table again", cmd_report, false,
	report_options)
COMMAND(curve, "[options] SCRIPT", "a script at rising loads, to a service level",
	cmd_curve, false, curveopts)
COMMAND(replay, "[options] TRACE", "a recorded trace replayed", cmd_replay,
	true, replayopts)
COMMAND(record, "[-o NAME] [--model] CMD...", "a command's file I/O recorded",
	cmd_record, false, recordopts)
COMMAND(model, "[options] TRACE", "a synthetic script fitted to a trace",
	cmd_model, false, model_options)
