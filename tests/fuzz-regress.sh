#!/bin/sh
# Inputs the fuzzer once broke fbrun with (tests/fuzz/corpus): each must
# now be checked cleanly, exit 0 or 2, never crash or hang.
. "${srcdir:-.}/tests/lib.sh"

n=$(ls "$srcdir"/tests/fuzz/corpus | wc -l)
check "the corpus holds inputs ($n)" test "$n" -gt 0
for f in "$srcdir"/tests/fuzz/corpus/*; do
	[ -f "$f" ] || continue
	rc=0
	timeout 10 "$FBRUN" --parse-only "$f" >/dev/null 2>&1 || rc=$?
	if [ "$rc" -eq 0 ] || [ "$rc" -eq 2 ]; then
		pass "$(basename "$f"): exit $rc"
	else
		fail "$(basename "$f"): exit $rc"
	fi
done
done_testing
