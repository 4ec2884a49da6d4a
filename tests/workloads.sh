#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Every shipped workload must parse and compile cleanly.
. "${srcdir:-.}/tests/lib.sh"

for f in "$srcdir"/workloads/*.f "$srcdir"/workloads/scale/*.f \
	"$srcdir"/workloads/ai/*.f "$srcdir"/workloads/spec/*.f; do
	run_fbrun --parse-only "$f"
	if [ "$rc" -eq 0 ] && ! grep -q 'error:' "$TMP/err"; then
		pass "$(basename "$f") parses"
	else
		fail "$(basename "$f") parses (exit $rc)"
		diag <"$TMP/err"
	fi
done
done_testing
