#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The README shows what fbrun prints today: its error example byte for
# byte, its result lines in their layout, its usage block option for
# option, and the man page names the installed paths.
. "${srcdir:-.}/tests/lib.sh"

readme=$srcdir/README

# --- the error example ----------------------------------------------------------
# the indented block after "Mistakes are reported", made again from the
# shipped images.f with the same typo
sed -n '/Mistakes are reported/,/^Exit status/p' "$readme" |
	sed -n 's/^    //p' >"$TMP/want"
typo=$(sed -n "s/.*unknown flowop '\([a-z]*\)'.*/\1/p" "$TMP/want")
right=$(sed -n "s/.*did you mean '\([a-z]*\)'.*/\1/p" "$TMP/want")
sed "s/flowop $right name=readfile2/flowop $typo name=readfile2/" \
	"$srcdir/workloads/images.f" >"$TMP/images.f"
rc=0
(cd "$TMP" && "$FBRUN" --parse-only images.f) 2>"$TMP/err" >/dev/null || rc=$?
check "README's error example: exit 2 (exit $rc)" test "$rc" -eq 2
# its first lines: the script's warnings follow
head -n "$(wc -l <"$TMP/want")" "$TMP/err" >"$TMP/got"
if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got"; then
	pass "README's error example is what fbrun prints"
else
	fail "README's error example is what fbrun prints"
	diff "$TMP/want" "$TMP/got" | diag
fi

# --- the result lines -----------------------------------------------------------
# each example line as a pattern: numbers are numbers, spaces are spaces
pattern() {
	printf '%s\n' "$1" | sed -e 's/^ *//' -e 's|[()/.]|\\&|g' \
		-e 's/[0-9][0-9]*\(\\\.[0-9][0-9]*\)\{0,1\}/[0-9]+(\\.[0-9]+)?/g' \
		-e 's/ \{1,\}/ +/g' -e 's/^/^/' -e 's/$/$/'
}
sed -n '/^The results come in the layout/,/^Compare runs/p' "$readme" |
	grep -E '^    (readfile2|IO Summary)' >"$TMP/lines"
check "README shows a flowop line and the IO Summary" test "$(wc -l <"$TMP/lines")" -eq 2
run_fbrun -q -t 1 -D dir="$TMP/img" -D nfiles=20 -D nthreads=1 -D ncreators=1 \
	"$srcdir/workloads/images.f"
check "images.f, tiny: exit 0 (exit $rc)" test "$rc" -eq 0
while IFS= read -r line; do
	p=$(pattern "$line")
	grepq "README's '$(printf '%s' "$line" | sed 's/^ *//' | cut -c1-24)...' has fbrun's layout" "$p" "$TMP/out"
done <"$TMP/lines"
# the Disk stats block's device line, where the run's files are on one
sed -n '/^The results come in the layout/,/^Compare runs/p' "$readme" |
	sed -n '/^    Disk stats (read\/write):$/{n;p;}' >"$TMP/dline"
check "README shows a Disk stats block with a device line" test "$(wc -l <"$TMP/dline")" -eq 1
if grep -Eq '^  [^ ]+: ios=' "$TMP/out"; then
	dev=$(sed -n 's/^ *\([^ :]*\): ios=.*/\1/p' "$TMP/dline")
	p=$(pattern "$(sed "s/$dev:/DEV:/" "$TMP/dline")" | sed 's/^^DEV:/^ +[^ ]+:/')
	grepq "README's Disk stats line has fbrun's layout" "$p" "$TMP/out"
else
	skip "README's Disk stats line: $TMP is on no block device"
fi

# --- the usage block --------------------------------------------------------------
run_fbrun --help
sed -n '/^    fbrun \[options\] SCRIPT/,/^    fbrun bonnie/p' "$readme" |
	grep -oE '^ +(-[A-Za-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' >"$TMP/ropts"
grep -oE '^ +(-[A-Za-z], )?--[a-z-]+' "$TMP/out" | grep -oE -- '--[a-z-]+' >"$TMP/hopts"
check "README's usage lists options ($(wc -l <"$TMP/ropts"))" test -s "$TMP/ropts"
if diff "$TMP/ropts" "$TMP/hopts" >"$TMP/d"; then
	pass "README's usage has every option of --help, in its order"
else
	fail "README's usage has every option of --help, in its order"
	diag <"$TMP/d"
fi

# --- the man page ----------------------------------------------------------------
man=$(dirname "$FBRUN")/doc/fbrun.1
if [ -f "$man" ]; then
	check "the man page names installed paths, not make variables" \
		eval '! grep -q -e "@[a-z]*@" -e "\$(" "$man"'
	grepq "... its FILES section names the workload directory" '/fbrun/workloads' "$man"
	grepq "... and says an interrupted run exits 1" 'interrupted' "$man"
else
	skip "the man page: $man is not built"
	skip "the man page's FILES"
	skip "the man page's exit status"
fi

# --- no path of the machine a document was written on ----------------------
# the roots work trees and CI checkouts live under here, and a build
# tree's own paths; a document shows paths a reader has
docs=$(cd "$srcdir" && find README doc examples bench/RESULTS.md -type f \
	\( -name README -o -name '*.md' -o -name '*.in' \) 2>/dev/null)
if (cd "$srcdir" && grep -nE '(^|[^a-z])/(work|root)/|/build/tests/|/fbrun-test\.[A-Za-z0-9]{6}' $docs) >"$TMP/paths"; then
	fail "README, doc/, examples/ and bench/RESULTS.md show no build machine's path"
	diag <"$TMP/paths"
else
	pass "README, doc/, examples/ and bench/RESULTS.md show no build machine's path"
fi

done_testing
