/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * libFuzzer harness: any bytes as a trace, read as each format the first
 * byte picks (auto, strace, dbench, fio, fbrun); what reads is asked for
 * its initial state and written in fbrun's own format, which must read
 * back to the same text.  Build with ./configure CC=clang --enable-fuzz
 * --enable-asan --enable-ubsan, then
 *   tests/fuzz/fuzz-trace -max_total_time=30 CORPUS tests/fuzz/corpus-trace
 * Inputs that break it go to tests/fuzz/corpus-trace, which `make check`
 * replays (tests/fuzz-regress.sh).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* t in fbrun's format, in memory (free it) */
static char *written(const struct trace *t, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		abort();
	if (trace_write(t, f) < 0)
		abort();
	fclose(f);
	return text;
}

static const char *after_line2(const char *s)
{
	for (int n = 0; n < 2 && strchr(s, '\n'); n++)
		s = strchr(s, '\n') + 1;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum trace_format formats[] = {
		TRACE_AUTO, TRACE_STRACE, TRACE_DBENCH, TRACE_FIO, TRACE_FBRUN
	};
	static FILE *sink;
	struct trace_opts o = { .root = "/rec" };
	const struct trace_entry *init;
	struct trace *t, *again;
	char *a, *b;
	size_t alen, blen;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (size == 0)
		return 0;
	o.err = sink;
	o.format = formats[data[0] % (sizeof(formats) / sizeof(formats[0]))];
	t = trace_parse("fuzz", (const char *)data + 1, size - 1, &o);
	if (!t)
		return 0;
	trace_initial(t, &init);
	a = written(t, &alen);
	o.format = TRACE_FBRUN;
	again = trace_parse("again", a, alen, &o);
	if (!again) {
		fprintf(stderr, "fbrun's own format did not read back:\n%s", a);
		abort();
	}
	b = written(again, &blen);
	/* the second line, a comment, names the format it was read from */
	if (strcmp(after_line2(a), after_line2(b)) != 0) {
		fprintf(stderr, "read back differently:\n%s---\n%s", a, b);
		abort();
	}
	free(a);
	free(b);
	trace_free(again);
	trace_free(t);
	return 0;
}
