/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * tracedump: a trace as tests/trace.sh checks it (not installed).
 *
 *   tracedump [-f FORMAT] [-r ROOT] [-w] TRACE
 *
 * Prints the format, per op type the count, the bytes done and the
 * failures, the streams, the ignored calls and the initial state; with
 * -w the trace in fbrun's own format instead.  A bad trace: its located
 * error on stderr, exit 2.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace/trace.h"

static void dump(struct trace *t)
{
	uint64_t count[TOP_COUNT] = { 0 }, bytes[TOP_COUNT] = { 0 },
		 failed[TOP_COUNT] = { 0 };
	const struct trace_entry *e;
	size_t n;

	printf("format %s\n", trace_format_name(trace_format(t)));
	printf("streams %zu\n", trace_nstreams(t));
	for (size_t s = 0; s < trace_nstreams(t); s++) {
		const struct trace_op *ops = trace_stream_ops(t, s);
		size_t inherited = 0;

		for (size_t i = 0; i < trace_stream_nops(t, s); i++) {
			count[ops[i].type]++;
			if (ops[i].err)
				failed[ops[i].type]++;
			else if (ops[i].type == TOP_READ ||
				 ops[i].type == TOP_WRITE)
				bytes[ops[i].type] += (uint64_t)ops[i].result;
		}
		for (size_t h = 0; h < trace_stream_nhandles(t, s); h++)
			inherited += trace_stream_handle(t, s, (int)h)->inherited;
		printf("stream \"%s\" ops %zu handles %zu inherited %zu\n",
		       trace_stream_name(t, s), trace_stream_nops(t, s),
		       trace_stream_nhandles(t, s), inherited);
	}
	for (int i = 0; i < TOP_COUNT; i++)
		if (count[i])
			printf("op %s count %" PRIu64 " bytes %" PRIu64
			       " failed %" PRIu64 "\n",
			       trace_op_name(i), count[i], bytes[i], failed[i]);
	for (size_t i = 0; i < trace_nignored(t); i++) {
		const char *name;
		uint64_t c;

		trace_ignored(t, i, &name, &c);
		printf("ignored %s %" PRIu64 "\n", name, c);
	}
	n = trace_initial(t, &e);
	for (size_t i = 0; i < n; i++) {
		if (e[i].dir)
			printf("initial dir %s\n", trace_path(t, e[i].path));
		else
			printf("initial file %s %" PRId64 "\n",
			       trace_path(t, e[i].path), e[i].size);
	}
}

int main(int argc, char **argv)
{
	struct trace_opts o = { .format = TRACE_AUTO };
	struct trace *t;
	int c, write = 0;

	while ((c = getopt(argc, argv, "f:r:w")) != -1) {
		switch (c) {
		case 'f':
			if (trace_format_parse(optarg, &o.format) < 0) {
				fprintf(stderr, "tracedump: unknown format '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'r':
			o.root = optarg;
			break;
		case 'w':
			write = 1;
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: tracedump [-f FORMAT] [-r ROOT] [-w] TRACE\n");
		return 2;
	}
	t = trace_load(argv[optind], &o);
	if (!t)
		return 2;
	if (write)
		trace_write(t, stdout);
	else
		dump(t);
	trace_free(t);
	return 0;
}
