/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * libFuzzer harness: any bytes as a results file through fbrun compare's
 * reader (jansson, then the model), and what it reads through the rest of
 * compare: the run matched with itself, the text table and the HTML page.
 * Build with ./configure CC=clang --enable-fuzz --enable-asan
 * --enable-ubsan, then
 *   tests/fuzz/fuzz-compare -max_total_time=30 CORPUS tests/fuzz/corpus-compare
 * Inputs that break it go to tests/fuzz/corpus-compare, which `make check`
 * replays (tests/fuzz-regress.sh).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/html.h"
#include "compare/match.h"
#include "compare/model.h"
#include "compare/read.h"
#include "compare/table.h"
#include "util/msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct cmp_run runs[2] = { { .path = "a.json", .label = "a" },
				   { .path = "b.json", .label = "b" } };
	struct cmp c = { .nruns = 2, .runs = runs };
	char err[512];

	if (!sink) {
		sink = fopen("/dev/null", "w");
		/* cmp_match reports on stderr, through msg */
		msg_program("fuzz-compare");
	}
	if (cmp_read_text(&runs[0], "a.json", (const char *)data, size, err,
			  sizeof(err)) == 0 &&
	    cmp_read_text(&runs[1], "b.json", (const char *)data, size, err,
			  sizeof(err)) == 0 &&
	    cmp_match(&c, false) == 0) {
		cmp_table(sink, &c);
		html_write("/dev/null", &c);
	}
	cmp_rows_free(&c);
	cmp_run_clear(&runs[0]);
	cmp_run_clear(&runs[1]);
	return 0;
}
