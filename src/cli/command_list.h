/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun's subcommands, one row each, in --help's order:
 *
 *   COMMAND(word, its arguments as --help shows them, what it does,
 *           the function that runs it (cli/cli.c), whether fbrun-mpi
 *           runs it)
 *
 * A command line that does not start with one of these words runs a
 * script with the options of cli/option_list.h (cli/run.c).  Each
 * subcommand reads its own options and prints its own --help.
 */
COMMAND(compare, "A.json B.json ...", "compare runs", cmd_compare, false)
COMMAND(bonnie, "[bonnie++ options]", "bonnie++'s tests", cmd_bonnie, true)
COMMAND(report, "RUN.json", "a saved run's table again", cmd_report, false)
COMMAND(replay, "[options] TRACE", "a recorded trace replayed", cmd_replay,
	true)
