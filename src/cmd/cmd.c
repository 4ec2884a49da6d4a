/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The first word of the command line: a subcommand of the table
 * (cmd/command_list.h) gets the rest, anything else is fbrun's options
 * and a script.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "cli/options.h"
#include "cli/run.h"
#include "cmd/bonnie.h"
#include "cmd/cmd.h"
#include "cmd/compare.h"
#include "cmd/curve.h"
#include "cmd/model.h"
#include "cmd/record.h"
#include "cmd/replay.h"
#include "cmd/report.h"
#include "cmd/usage.h"
#include "engine/io/aioq.h"
#include "lang/flowop.h"
#include "mpi/job.h"
#include "report/build.h"
#include "util/msg.h"

/* What a flowop of a type does, by the flowop table's flags. */
static enum cmp_kind flowop_kind(const char *type)
{
	int t = flowop_lookup(type);
	unsigned ff = flowop_flags(t);

	if (t < 0)
		return CK_UNKNOWN; /* a composite: its flowops have rows */
	if (!(ff & FF_IO))
		return CK_NONE;
	if (ff & FF_READ)
		return CK_READ;
	if (ff & FF_WRITE)
		return CK_WRITE;
	return ff & FF_FLUSH ? CK_FLUSH : CK_IO;
}

/* "fbrun compare A.json B.json ...": runs side by side */
static int cmd_compare(int argc, char **argv, struct job *peers)
{
	return compare_main(argc, argv, flowop_kind);
}

/* "fbrun report RUN.json": a saved run printed again */
static int cmd_report(int argc, char **argv, struct job *peers)
{
	return report_main(argc, argv);
}

/* "fbrun bonnie ...": bonnie++'s tests with its options, on every rank */
static int cmd_bonnie(int argc, char **argv, struct job *peers)
{
	return bonnie_main(argc, argv,
			   peers ? job_engine(peers, false) : NULL);
}

/* "fbrun curve ... SCRIPT": the script at rising loads, in one process */
static int cmd_curve(int argc, char **argv, struct job *peers)
{
	return curve_main(argc, argv);
}

/* "fbrun replay ... TRACE": a trace replayed, on every rank */
static int cmd_replay(int argc, char **argv, struct job *peers)
{
	return replay_main(argc, argv, peers);
}

/* "fbrun record COMMAND ...": a command run under strace, in one process */
static int cmd_record(int argc, char **argv, struct job *peers)
{
	return record_main(argc, argv);
}

/* "fbrun model TRACE": a script fitted to a trace */
static int cmd_model(int argc, char **argv, struct job *peers)
{
	return model_main(argc, argv);
}

static const struct {
	const char *word;
	int (*run)(int argc, char **argv, struct job *peers);
	bool mpi;
} commands[] = {
#define COMMAND(word, args, help, fn, mpi, opts) { #word, fn, mpi },
#include "cmd/command_list.h"
#undef COMMAND
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

int cmd_main(int argc, char **argv, struct job *peers)
{
	struct cli_options o = { .action = ACT_RUN, .peers = peers };
	int rc;

	/* report/ stands below the engine: --version and the JSON ask here */
	build_set_aio(aioq_backend, aioq_features);
	for (size_t i = 0; argc > 1 && i < NCOMMANDS; i++) {
		if (strcmp(argv[1], commands[i].word) != 0)
			continue;
		/* those fbrun-mpi does not run read files in one process */
		if (peers && !commands[i].mpi) {
			msg_mute(job_rank(peers) != 0);
			fb_error("%s runs in one process: run it with fbrun",
				 argv[1]);
			return FB_EXIT_USAGE;
		}
		msg_mute(false);
		return commands[i].run(argc - 1, argv + 1, peers);
	}
	rc = cmd_usage_parse(argc, argv, &o);
	msg_mute(false);
	if (rc == 0)
		rc = cli_run(&o);
	else
		rc = rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	cli_options_release(&o);
	return rc;
}
