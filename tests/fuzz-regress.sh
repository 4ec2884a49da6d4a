#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Inputs the fuzzers once broke fbrun with, and their seeds: each script
# in tests/fuzz/corpus must now be checked cleanly, and each file in
# tests/fuzz/corpus-compare read by fbrun compare (against itself) and by
# fbrun report, and each trace of tests/fuzz/corpus-trace read by fbrun
# replay --parse-only: exit 0 or 2, never a crash or a hang.
. "${srcdir:-.}/tests/lib.sh"

# fbrun_on KIND FILE: a script checked, a results file compared with
# itself (compare needs two), or printed again by fbrun report
fbrun_on() {
	if [ "$1" = script ]; then
		timeout 10 "$FBRUN" --parse-only "$2"
	elif [ "$1" = report ]; then
		# the results model's reader (results/read.c), and the printers
		timeout 10 "$FBRUN" report --format csv "$2" &&
			timeout 10 "$FBRUN" report "$2"
	elif [ "$1" = trace ]; then
		# the first byte picks the format, as in fuzz-trace.c
		n=$(od -An -tu1 -N1 "$2" | tr -d ' ')
		tail -c +2 "$2" >"$TMP/trace"
		set -- auto strace dbench fio fbrun
		shift $((${n:-0} % 5))
		timeout 10 "$FBRUN" replay --parse-only -D format="$1" "$TMP/trace"
	else
		timeout 10 "$FBRUN" compare "$2" "$2"
	fi
}

# replay CORPUS-DIR KIND: fbrun_on KIND with each file of the corpus
replay() {
	dir=$1
	shift
	n=$(ls "$dir" | wc -l)
	check "$(basename "$dir") holds inputs ($n)" test "$n" -gt 0
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		rc=0
		fbrun_on "$1" "$f" >/dev/null 2>&1 || rc=$?
		if [ "$rc" -eq 0 ] || [ "$rc" -eq 2 ]; then
			pass "$(basename "$dir")/$(basename "$f"): exit $rc"
		else
			fail "$(basename "$dir")/$(basename "$f"): exit $rc"
		fi
	done
}

replay "$srcdir/tests/fuzz/corpus" script
replay "$srcdir/tests/fuzz/corpus-compare" results
replay "$srcdir/tests/fuzz/corpus-compare" report
replay "$srcdir/tests/fuzz/corpus-trace" trace
done_testing
