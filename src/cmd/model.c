/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun model: the trace read (any format, or the one --format forces),
 * the model fitted and printed into memory, then written whole: to
 * standard output, or to -o's file through util/outfile (checked before
 * the trace is read; never through a symlink or into anything but a
 * regular file, nor over the trace).  A bad trace writes nothing.
 */
#include "cmd/model.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/model.h"
#include "util/msg.h"
#include "util/optable.h"
#include "util/outfile.h"

enum { MODEL_OPT_OUTPUT, MODEL_OPT_FORMAT, MODEL_OPT_HELP };

static const struct optable_row model_rows[] = {
	[MODEL_OPT_OUTPUT] = { "output", 'o', required_argument, "FILE", 0,
			       "write the script to FILE (default: standard\n"
			       "output)" },
	[MODEL_OPT_FORMAT] = { "format", 0, required_argument, "FORMAT", 0,
			       "the trace's format: auto (from its first\n"
			       "lines), strace, dbench, fio or fbrun" },
	[MODEL_OPT_HELP] = { "help", 'h', no_argument, NULL, 0,
			     "show this help" },
};

const struct optable model_options = {
	.command = "model",
	OPTABLE_TABLE(model_rows),
	.style = OPTABLE_LIST,
	.column = 23,
	.wrap = 24,
	.head = "usage: fbrun model [options] TRACE\n"
		"Write a synthetic, editable script that does what TRACE "
		"(strace output, a\n"
		"dbench loadfile, a fio iolog or fbrun's own trace) did to "
		"files, once.\n\n",
	.tail = "\nExit status: 0 ok, 1 the script could not be written, "
		"2 usage or a bad trace.\n",
};

struct text {
	const char *buf;
	size_t len;
};

static void fill(FILE *out, const void *arg)
{
	const struct text *t = arg;

	fwrite(t->buf, 1, t->len, out);
}

/* The script in memory; NULL after saying why (a bad trace: exit 2). */
static char *script(const char *path, enum trace_format format, size_t *len)
{
	struct trace_opts o = { .format = format };
	struct trace *t = trace_load(path, &o);
	char *buf = NULL;
	FILE *mem;
	int rc;

	if (!t)
		return NULL;
	mem = open_memstream(&buf, len);
	if (!mem) {
		fb_error("cannot hold the script: %s", strerror(errno));
		trace_free(t);
		return NULL;
	}
	rc = model_write(t, path, mem);
	if (fclose(mem) != 0 || rc < 0) {
		free(buf);
		buf = NULL;
	}
	trace_free(t);
	return buf;
}

struct model_args {
	const char **output;
	enum trace_format *format;
};

/* An option of model_options into arg's (optable_take). */
static int take(void *arg, int row, char *v)
{
	const struct model_args *a = arg;
	char words[128];

	if (row == MODEL_OPT_OUTPUT)
		*a->output = v;
	else if (row == MODEL_OPT_FORMAT && trace_format_parse(v, a->format) < 0)
		return fb_error("--format expects %s, got '%s'",
				trace_format_words(words, sizeof(words)), v);
	return 0;
}

/* Returns -1 to exit 2, 1 to exit 0 (--help), 0 to go on. */
static int parse_args(int argc, char **argv, const char **output,
		      enum trace_format *format)
{
	struct model_args a = { output, format };
	int rc = optable_parse(&model_options, argc, argv, take, &a);

	if (rc)
		return rc;
	if (argc - optind != 1) {
		fb_error("model needs one trace: fbrun model [options] TRACE");
		optable_usage(stderr, &model_options);
		return -1;
	}
	return 0;
}

int model_file(const char *path, enum trace_format format,
		   const char *output)
{
	struct text text;
	char *buf = script(path, format, &text.len);
	int rc = FB_EXIT_OK;

	if (!buf)
		return FB_EXIT_USAGE;
	text.buf = buf;
	if (output) {
		if (outfile_write(output, fill, &text) < 0)
			rc = FB_EXIT_RUN;
	} else if (fwrite(buf, 1, text.len, stdout) != text.len ||
		   fflush(stdout) != 0) {
		fb_error("cannot write the script: %s", strerror(errno));
		rc = FB_EXIT_RUN;
	}
	free(buf);
	return rc;
}

int model_main(int argc, char **argv)
{
	enum trace_format format = TRACE_AUTO;
	const char *output = NULL;
	char *why;
	int rc = parse_args(argc, argv, &output, &format);

	if (rc != 0)
		return rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	if (output && (why = outfile_unusable(output))) {
		fb_error("-o '%s' %s", output, why);
		free(why);
		return FB_EXIT_USAGE;
	}
	if (output && outfile_same(output, argv[optind])) {
		fb_error("-o '%s' is the trace the model is made from; "
			 "refusing to replace it",
			 output);
		return FB_EXIT_USAGE;
	}
	return model_file(argv[optind], format, output);
}
