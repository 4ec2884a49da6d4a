/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The tables of subcommands and options printed: --help for the user,
 * and for the build the man pages' OPTIONS and the bash completion's
 * words (Makefile.am), so none of them can name an option the program
 * does not have.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "cli/table.h"
#include "cmd/bonnie.h"
#include "cmd/compare.h"
#include "cmd/curveopts.h"
#include "cmd/model.h"
#include "cmd/recordopts.h"
#include "cmd/replayopts.h"
#include "cmd/report.h"
#include "cmd/usage.h"
#include "util/msg.h"
#include "util/optable.h"

/* --help's column of text, and the width of what comes before it */
#define HELP_COLUMN 27
#define HELP_LEFT (HELP_COLUMN - 4)

struct opt_row {
	const char *name;
	int letter, arg;
	const char *argname, *words;
	int progs;
	const char *help, *man, *mpi_man;
};

static const struct opt_row opt_rows[] = {
#define OPTION(id, name, letter, arg, argname, words, progs, help, man, mpi) \
	{ name, letter, arg, argname, words, progs, help, man, mpi },
#include "cli/option_list.h"
#undef OPTION
};

static const struct {
	const char *word, *args, *help;
	bool mpi;
	const struct optable *opts;
} commands[] = {
#define COMMAND(word, args, help, fn, mpi, opts) \
	{ #word, args, help, mpi, &opts },
#include "cmd/command_list.h"
#undef COMMAND
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* One option's lines of --help: its names, then its text a line each. */
static void help_row(FILE *out, const struct opt_row *r)
{
	char left[64];
	const char *line = r->help, *nl;
	int n = snprintf(left, sizeof(left), r->letter ? "-%c, --%s" : "%c   --%s",
			 r->letter ? r->letter : ' ', r->name);

	if (r->arg == ARG_REQUIRED)
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", r->argname);
	else if (r->arg == ARG_OPTIONAL)
		snprintf(left + n, sizeof(left) - (size_t)n, "[=%s]", r->argname);
	if (strlen(left) <= HELP_LEFT)
		fprintf(out, "  %-*s  ", HELP_LEFT, left);
	else
		fprintf(out, "  %s\n%*s", left, HELP_COLUMN, "");
	while ((nl = strchr(line, '\n'))) {
		fprintf(out, "%.*s\n%*s", (int)(nl - line), line, HELP_COLUMN,
			"");
		line = nl + 1;
	}
	fprintf(out, "%s\n", line);
}

void cmd_usage(FILE *out)
{
	fputs("usage: fbrun [options] SCRIPT.f     (SCRIPT '-' reads standard "
	      "input;\n"
	      "                                    a bare name runs a shipped "
	      "workload)\n",
	      out);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "%s %s", commands[i].word,
			 commands[i].args);
		fprintf(out, "       fbrun %-25s  %s (fbrun %s --help)\n", cmd,
			commands[i].help, commands[i].word);
	}
	fputc('\n', out);
	for (int i = 0; i < OPT_COUNT; i++)
		if (opt_rows[i].progs != P_HIDDEN)
			help_row(out, &opt_rows[i]);
	fputs("\nExit status: 0 ok, 1 the run failed or was interrupted (its "
	      "results\n"
	      "are printed), 2 usage or script error.\n",
	      out);
}

/* A name as troff prints it: each '-' a minus sign, "\-". */
static void man_name(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* The tag line of an option's .TP: its names and its value. */
static void man_tag(FILE *out, const struct opt_row *r)
{
	if (r->letter && r->arg != ARG_NONE) {
		fprintf(out, ".BI \\-%c \" %s\" \"\\fR, \\fP\\-\\-", r->letter,
			r->argname);
		man_name(out, r->name);
		fprintf(out, " \" %s\n", r->argname);
		return;
	}
	fputs(r->letter || r->words || r->arg == ARG_OPTIONAL ? ".BR " :
	      r->arg != ARG_NONE				 ? ".BI " :
								   ".B ",
	      out);
	if (r->letter)
		fprintf(out, "\\-%c \", \" ", r->letter);
	fputs("\\-\\-", out);
	man_name(out, r->name);
	if (r->words)
		fprintf(out, " \" %s\"", r->words);
	else if (r->arg == ARG_OPTIONAL)
		fprintf(out, " [=\\fI%s\\fR]", r->argname);
	else if (r->arg == ARG_REQUIRED)
		fprintf(out, " \" %s\"", r->argname);
	fputc('\n', out);
}

/* The OPTIONS' paragraphs: fbrun.1's, or where fbrun-mpi.1's differ. */
static void man_options(FILE *out, bool mpi)
{
	for (int i = 0; i < OPT_COUNT; i++) {
		const struct opt_row *r = &opt_rows[i];
		const char *text = mpi ? r->mpi_man : r->man;

		if (r->progs == P_HIDDEN || !text)
			continue;
		fputs(".TP\n", out);
		man_tag(out, r);
		fputs(text, out);
	}
	if (mpi)
		return;
	for (size_t i = 0; i < NCOMMANDS; i++) {
		fputs(".SH \"", out);
		for (const char *w = commands[i].word; *w; w++)
			fputc(*w - 'a' + 'A', out);
		fprintf(out, " OPTIONS\"\nThe options of \\fBfbrun %s\\fR.\n",
			commands[i].word);
		optable_man(out, commands[i].opts);
	}
}

/*
 * The bash completion's words: each option and whether a value follows
 * it as the next word (1) or not (0), and the subcommands.
 */
static void completion_words(FILE *out)
{
	const char *sep = "";

	fputs("_fbrun_options='", out);
	for (int i = 0; i < OPT_COUNT; i++) {
		const struct opt_row *r = &opt_rows[i];
		int value = r->arg == ARG_REQUIRED;

		if (r->progs == P_HIDDEN)
			continue;
		fprintf(out, "%s--%s %d", sep, r->name, value);
		if (r->letter)
			fprintf(out, "\n-%c %d", r->letter, value);
		sep = "\n";
	}
	fputs("'\n_fbrun_commands='", out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "%s%s", i ? " " : "", commands[i].word);
	fputs("'\n", out);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		fprintf(out, "_fbrun_%s_options='", commands[i].word);
		optable_completion(out, commands[i].opts);
		fputs("'\n", out);
	}
}

/* For tests/options.sh: a line per option, what the table says of it. */
static void option_names(FILE *out)
{
	static const char *const args[] = { [ARG_NONE] = "none",
					     [ARG_REQUIRED] = "required",
					     [ARG_OPTIONAL] = "optional" };

	for (int i = 0; i < OPT_COUNT; i++) {
		const struct opt_row *r = &opt_rows[i];

		if (r->progs == P_HIDDEN)
			continue;
		fprintf(out, "--%s %s%c %s %s %s\n", r->name,
			r->letter ? "-" : "", r->letter ? r->letter : '-',
			args[r->arg], r->progs == P_MPI ? "fbrun-mpi" : "all",
			r->mpi_man ? "mpi-man" : "-");
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "command %s %s\n", commands[i].word,
			commands[i].mpi ? "all" : "fbrun");
	for (size_t i = 0; i < NCOMMANDS; i++)
		optable_names(out, commands[i].opts);
}

int cmd_usage_options(FILE *out, const char *what)
{
	if (strcmp(what, "man") == 0)
		man_options(out, false);
	else if (strcmp(what, "mpi-man") == 0)
		man_options(out, true);
	else if (strcmp(what, "completion") == 0)
		completion_words(out);
	else if (strcmp(what, "names") == 0)
		option_names(out);
	else
		return fb_error("--help-options expects man, mpi-man, "
				"completion or names, got '%s'",
				what);
	return 0;
}

int cmd_usage_parse(int argc, char **argv, struct cli_options *o)
{
	int rc = cli_options_parse(argc, argv, o);

	switch (rc) {
	case CLI_HELP:
		cmd_usage(stdout);
		return 1;
	case CLI_HELP_OPTIONS:
		return cmd_usage_options(stdout, o->help_options) < 0 ? -1 : 1;
	case CLI_USAGE:
		cmd_usage(stderr);
		return -1;
	default:
		return rc;
	}
}
