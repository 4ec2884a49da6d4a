/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A subcommand's option table at work (optable.h): getopt_long's array
 * made from the rows, and the rows printed for --help, the man page and
 * the completion.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "util/msg.h"
#include "util/optable.h"

/* getopt_long's value for a row without a letter */
#define OPTABLE_LONG_BASE 256
/* The row getopt_long's c names, or -1. */
static int row_of(const struct optable *t, int c)
{
	if (c >= OPTABLE_LONG_BASE && c < OPTABLE_LONG_BASE + t->nrows)
		return c - OPTABLE_LONG_BASE;
	for (int i = 0; i < t->nrows; i++)
		if (t->rows[i].letter && t->rows[i].letter == c)
			return i;
	return -1;
}

int optable_next(const struct optable *t, int argc, char **argv)
{
	struct option longopts[OPTABLE_MAX + 1] = { 0 };
	char letters[3 * OPTABLE_MAX + 3], *l = letters;
	int n = 0, c, i;

	if (t->in_order)
		*l++ = '+';
	*l++ = ':';
	for (i = 0; i < t->nrows; i++) {
		const struct optable_row *r = &t->rows[i];
		int v = r->letter ? r->letter : OPTABLE_LONG_BASE + i;

		if (r->name)
			longopts[n++] = (struct option){ r->name, r->arg, NULL,
							 v };
		if (!r->letter)
			continue;
		*l++ = (char)r->letter;
		if (r->arg != no_argument)
			*l++ = ':';
		if (r->arg == optional_argument)
			*l++ = ':';
	}
	*l = '\0';
	opterr = 0;
	c = getopt_long(argc, argv, letters, longopts, NULL);
	if (c == -1)
		return OPTABLE_END;
	if (c == ':') {
		msg_bad_option(c, argv, optind);
		return OPTABLE_ERROR;
	}
	i = row_of(t, c);
	if (i < 0) {
		msg_bad_option(c, argv, optind);
		optable_usage(stderr, t);
		return OPTABLE_ERROR;
	}
	if (t->rows[i].name && strcmp(t->rows[i].name, "help") == 0) {
		optable_usage(stdout, t);
		return OPTABLE_HELP;
	}
	return i;
}

int optable_parse(const struct optable *t, int argc, char **argv,
		  optable_take *take, void *arg)
{
	int ch;

	optind = 1;
	while ((ch = optable_next(t, argc, argv)) >= 0)
		if (take(arg, ch, optarg) < 0)
			return -1;
	return ch == OPTABLE_END ? 0 : ch == OPTABLE_HELP ? 1 : -1;
}

/* "-l, --label", "    --html" (LIST) or "-d", "--csv-format" (others) */
static int names(char *buf, size_t len, const struct optable_row *r,
		 bool list)
{
	if (r->letter && r->name)
		return snprintf(buf, len, "-%c, --%s", r->letter, r->name);
	if (r->letter)
		return snprintf(buf, len, "-%c", r->letter);
	return snprintf(buf, len, list ? "    --%s" : "--%s", r->name);
}

/* One row of a LIST usage: its names and value, then its text. */
static void list_row(FILE *out, const struct optable *t,
		     const struct optable_row *r)
{
	char left[96];
	const char *line = r->help, *nl;
	int n = names(left, sizeof(left), r, true);

	if (r->arg == required_argument)
		n += snprintf(left + n, sizeof(left) - (size_t)n, " %s",
			      r->argname);
	else if (r->arg == optional_argument)
		n += snprintf(left + n, sizeof(left) - (size_t)n, "[=%s]",
			      r->argname);
	n += 2; /* the indent */
	if (n < t->column)
		fprintf(out, "  %s%*s", left, t->column - n, "");
	else if (n <= t->wrap)
		fprintf(out, "  %s  ", left);
	else
		fprintf(out, "  %s\n%*s", left, t->column, "");
	while ((nl = strchr(line, '\n'))) {
		fprintf(out, "%.*s\n%*s", (int)(nl - line), line, t->column,
			"");
		line = nl + 1;
	}
	fprintf(out, "%s\n", line);
}

/* A SYNOPSIS usage: "[-d dir]" a row, lines broken where rows say. */
static void synopsis(FILE *out, const struct optable *t)
{
	int indent = (int)strlen(t->head) + 1;

	fputs(t->head, out);
	for (int i = 0; i < t->nrows; i++) {
		const struct optable_row *r = &t->rows[i];
		char name[64];

		if (r->flags & OPTABLE_HIDDEN)
			continue;
		names(name, sizeof(name), r, false);
		if (r->flags & OPTABLE_BREAK)
			fprintf(out, "\n%*s[%s", indent, "", name);
		else
			fprintf(out, " [%s", name);
		if (r->arg == required_argument)
			fprintf(out, " %s]", r->argname);
		else if (r->arg == optional_argument)
			fprintf(out, "[%s]]", r->argname);
		else
			fputc(']', out);
	}
	fputc('\n', out);
}

void optable_usage(FILE *out, const struct optable *t)
{
	if (t->style == OPTABLE_SYNOPSIS) {
		synopsis(out, t);
	} else {
		fputs(t->head, out);
		for (int i = 0; i < t->nrows; i++)
			if (!(t->rows[i].flags & OPTABLE_HIDDEN))
				list_row(out, t, &t->rows[i]);
	}
	fputs(t->tail, out);
}

/* Text as troff prints it: "-" a minus sign, "\" itself. */
static void man_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', out);
		fputc(*s == '\\' ? 'e' : *s, out);
	}
}

void optable_man(FILE *out, const struct optable *t)
{
	for (int i = 0; i < t->nrows; i++) {
		const struct optable_row *r = &t->rows[i];
		char name[64];

		if (r->flags & OPTABLE_HIDDEN)
			continue;
		names(name, sizeof(name), r, false);
		fputs(r->arg == no_argument ? ".TP\n.B \"" : ".TP\n.BI \"", out);
		man_text(out, name);
		if (r->arg == required_argument)
			fputs(" \" \"", out);
		else if (r->arg == optional_argument)
			fputs("[\" \"", out);
		if (r->arg != no_argument)
			man_text(out, r->argname);
		fputs(r->arg == optional_argument ? "\" \"]\"\n" : "\"\n", out);
		man_text(out, r->help);
		fputc('\n', out);
	}
}

void optable_completion(FILE *out, const struct optable *t)
{
	const char *sep = "";

	for (int i = 0; i < t->nrows; i++) {
		const struct optable_row *r = &t->rows[i];
		int value = r->arg == required_argument;

		if (r->flags & OPTABLE_HIDDEN)
			continue;
		if (r->name)
			fprintf(out, "%s--%s %d", sep, r->name, value);
		if (r->letter)
			fprintf(out, "%s-%c %d", r->name ? "\n" : sep,
				r->letter, value);
		sep = "\n";
	}
}

void optable_names(FILE *out, const struct optable *t)
{
	static const char *const args[] = { [no_argument] = "none",
					     [required_argument] = "required",
					     [optional_argument] = "optional" };

	for (int i = 0; i < t->nrows; i++) {
		const struct optable_row *r = &t->rows[i];

		if (r->flags & OPTABLE_HIDDEN)
			continue;
		fprintf(out, "option %s %s%s %s%c %s\n", t->command,
			r->name ? "--" : "-", r->name ? r->name : "",
			r->letter ? "-" : "", r->letter ? r->letter : '-',
			args[r->arg]);
	}
}
