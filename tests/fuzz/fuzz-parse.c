/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * libFuzzer harness: any bytes through the scanner, the parser and the
 * compiler.  Nothing is executed, so it is safe to fuzz.  Build with
 * ./configure CC=clang --enable-fuzz --enable-asan --enable-ubsan, copy
 * the .f files of tests/parse, tests/errors and workloads into a corpus
 * directory (tests/run-all.sh does), then
 *   tests/fuzz/fuzz-parse -max_total_time=60 CORPUS tests/fuzz/corpus
 * Inputs that break it go to tests/fuzz/corpus, which `make check` replays.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/compile.h"
#include "lang/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	static const struct cli_define defs[] = { { "nfiles", "10" } };
	struct compile_opts opts = { .defines = defs, .ndefines = 1,
				     .tmpdir = "/tmp" };
	struct source *src;
	struct ast_stmt *prog;
	struct diag *d;
	struct workload *w;

	if (!sink)
		sink = fopen("/dev/null", "w");
	src = source_from_string("fuzz.f", (const char *)data, size);
	opts.cli_src = src;
	d = diag_new(sink, 20);
	if (parse_script(src, d, &prog) == 0) {
		w = compile_workload(prog, src, &opts, d);
		if (w)
			workload_dump(sink, w);
		workload_free(w);
		ast_dump(sink, src, prog);
		ast_stmt_free(prog);
	}
	diag_free(d);
	source_free(src);
	return 0;
}
