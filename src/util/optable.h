/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A subcommand's options as a table of rows (each subcommand's beside it
 * in cmd/, compare's, report's and bonnie's in cmd/<name>_option_list.h):
 * the table makes getopt_long's array, reads the command line with the
 * errors every subcommand gives, and prints --help, the man page's
 * paragraphs and the bash completion's words, so none of them can drift
 * from the parser.
 */
#ifndef FBRUN_OPTABLE_H
#define FBRUN_OPTABLE_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* a row's flags */
enum {
	OPTABLE_HIDDEN = 1, /* read, but named by no usage, page or completion */
	OPTABLE_BREAK = 2, /* a synopsis usage starts a new line before it */
};

struct optable_row {
	const char *name; /* the long name, or NULL */
	int letter; /* the short letter, or 0 */
	int arg; /* no_argument, required_argument or optional_argument */
	const char *argname; /* the value's name as usage shows it */
	int flags;
	const char *help; /* --help's text, a line per \n */
};

/*
 * The most rows a table may have: getopt_long's array is on the stack.
 * Each table checks it at compile time (OPTABLE_ROWS).
 */
#define OPTABLE_MAX 32
#define OPTABLE_ROWS(rows)                                                     \
	(sizeof(rows) / sizeof((rows)[0]) +                                   \
	 0 * sizeof(struct { _Static_assert(sizeof(rows) / sizeof((rows)[0]) <= \
						    OPTABLE_MAX,               \
					    "too many option rows"); int x; }))

/*
 * A row of an option_list.h, OPTION(id, name, letter, arg, argname, flags,
 * help), as a struct optable_row: a table's rows are
 *	#define OPTION OPTABLE_ROW
 *	#include "x/option_list.h"
 *	#undef OPTION
 */
#define OPTABLE_ROW(id, name, letter, arg, argname, flags, help) \
	{ name, letter, arg, argname, flags, help },
/* A struct optable's rows and their count, checked (OPTABLE_ROWS). */
#define OPTABLE_TABLE(r) .rows = (r), .nrows = (int)OPTABLE_ROWS(r)

/* how --help lists the options */
enum optable_style {
	OPTABLE_LIST, /* a line per option, its text in a column */
	OPTABLE_SYNOPSIS, /* bonnie++'s "[-d dir] [-q] ..." after the head */
};

struct optable {
	const char *command; /* "compare" */
	const struct optable_row *rows;
	int nrows;
	enum optable_style style;
	/*
	 * OPTABLE_LIST: the text's column; names longer than that get two
	 * spaces up to wrap characters, and a line of their own past it
	 */
	int column, wrap;
	const char *head, *tail; /* --help's text before and after the rows */
	/*
	 * The first operand ends the options: what follows is a command
	 * line of its own (fbrun record's), not options to permute.
	 */
	bool in_order;
};

/* what optable_next returns besides a row's index */
enum {
	OPTABLE_END = -1, /* no more options: optind is the first operand */
	OPTABLE_ERROR = -2, /* a bad option, said (and the usage for unknown) */
	OPTABLE_HELP = -3, /* the "help" row: the usage is on stdout */
};

/*
 * The next option of argv, as getopt_long reads it with the table's
 * array (opterr off; optind set to 1 by the caller before the first):
 * the row's index, with optarg its value, or one of the values above.
 */
int optable_next(const struct optable *t, int argc, char **argv);

/*
 * What optable_parse gives each option it reads: the row's index and its
 * value (NULL for none), with the caller's arg.  0, or -1 after saying
 * what is wrong with it.
 */
typedef int optable_take(void *arg, int row, char *value);

/*
 * Every option of argv read with t, from the first, each given to take:
 * 0 with optind the first operand, 1 after --help (the usage is on
 * stdout), -1 after an error was said.  The subcommands' parsers are
 * this, their take and their check of the operands.
 */
int optable_parse(const struct optable *t, int argc, char **argv,
		  optable_take *take, void *arg);

/* --help's text. */
void optable_usage(FILE *out, const struct optable *t);

/* A .TP paragraph per row for the man page, its text from the help. */
void optable_man(FILE *out, const struct optable *t);

/* "OPTION 1" (a value follows as the next word) or "OPTION 0", a line each. */
void optable_completion(FILE *out, const struct optable *t);

/*
 * For tests/options.sh: "option COMMAND --LONG -L ARG" a line per row,
 * "-" for a name it lacks, ARG none, required or optional.
 */
void optable_names(FILE *out, const struct optable *t);

#endif
