#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The license.  LICENSE is the Apache License 2.0 word for word, goes into
# the tarball and is installed with the documents.  Every source, script,
# test, build and workload file has, once each in its first 10 lines, the
# SPDX line and the project's copyright line.  Exempt are the files that
# cannot hold a comment or whose lines are counted: the golden tests'
# scripts and expected outputs (tests/parse, tests/errors, tests/warnings:
# their line numbers are in the expected messages), the traces the trace
# readers are tested on (tests/trace: recorded, or bad on purpose, with
# their expected messages), the trace and the script fbrun model must make
# of it (tests/model), the fuzz corpora,
# JSON, the documents (README, *.md) and git's own files; an exempt file
# that has one of the two lines has both.  In a git checkout every file,
# committed or not yet, falls under one rule or the other; in a tarball
# (make distcheck) the files that need the lines are checked.
. "${srcdir:-.}/tests/lib.sh"

spdx='SPDX-License-Identifier: Apache-2.0'
copy='Copyright 2026 The fbrun authors'
apache_sha256=cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30

# --- LICENSE ------------------------------------------------------------------
lic=$srcdir/LICENSE
if [ ! -f "$lic" ]; then
	fail "LICENSE is in the source tree"
elif command -v sha256sum >/dev/null 2>&1; then
	check "LICENSE is the Apache License 2.0, word for word" \
		test "$(sha256sum <"$lic" | cut -d' ' -f1)" = "$apache_sha256"
else
	check "LICENSE is the Apache License 2.0 (no sha256sum: its key lines)" \
		grep -q 'END OF TERMS AND CONDITIONS' "$lic"
	check "... version 2.0" grep -q 'Version 2.0, January 2004' "$lic"
fi
sed -n '/^dist_doc_DATA =/,/^$/p' "$srcdir/Makefile.am" >"$TMP/docs"
check "LICENSE is installed with the documents, so it is in the tarball too" \
	grep -q '^[[:space:]]*LICENSE[[:space:]]' "$TMP/docs"

# --- the header ---------------------------------------------------------------
# "header" for a file that needs the two lines, "exempt", or nothing when
# no rule says (a kind of file this test does not know yet)
rule() {
	case $1 in
	tests/parse/* | tests/errors/* | tests/warnings/* | tests/fuzz/corpus*/*)
		echo exempt ;;
	tests/trace/* | tests/model/*) echo exempt ;;
	*.md | README | LICENSE | *.json | .gitignore | .gitattributes)
		echo exempt ;;
	debian/rules) echo header ;;
	debian/*) echo exempt ;;
	# what bison and flex made of parser.y and lexer.l (in a tarball)
	grammar/parser.[ch] | grammar/lexer.c) echo exempt ;;
	src/*.[ch] | grammar/*.[chyl] | configure.ac | Makefile.am) echo header ;;
	tests/*.sh | tests/*.py | tests/*.supp | tests/unit/*.[ch]) echo header ;;
	tests/tools/*.[ch]) echo header ;;
	tests/fuzz/*.c | bench/*.[cfh] | bench/*.sh | examples/*.sh | examples/*.f)
		echo header ;;
	workloads/*.f | doc/*.[1-8].in | .ci/* | contrib/*) echo header ;;
	*) [ "$(head -c 2 "$srcdir/$1")" != '#!' ] || echo header ;;
	esac
}

if [ -e "$srcdir/.git" ] && command -v git >/dev/null 2>&1 &&
	git -C "$srcdir" rev-parse --git-dir >/dev/null 2>&1; then
	git=true
	git -C "$srcdir" -c core.quotepath=off ls-files --cached --others \
		--exclude-standard >"$TMP/files"
else
	# a tarball: its own folders only, never a build directory in it
	git=false
	(cd "$srcdir" && for d in configure.ac Makefile.am src grammar tests \
		workloads bench examples doc .ci contrib; do
		[ ! -e "$d" ] || find "$d" -type f
	done) >"$TMP/files"
fi

checked=0 bad=0 unknown=0
while IFS= read -r f; do
	[ -f "$srcdir/$f" ] || continue # removed, not yet committed
	# how often each line is there in the first 10, and what comes before
	# it on its line (the comment leader, the same for both)
	awk -v spdx="$spdx" -v copy="$copy" 'NR <= 10 {
		if ((i = index($0, spdx))) { ns++; ps = substr($0, 1, i - 1) }
		if ((i = index($0, copy))) { nc++; pc = substr($0, 1, i - 1) }
	} END { print ns + 0, nc + 0; print ps; print pc }' "$srcdir/$f" >"$TMP/head"
	{ read -r s c; IFS= read -r ps; IFS= read -r pc; } <"$TMP/head"
	why=""
	case $(rule "$f") in
	header)
		checked=$((checked + 1))
		if [ "$s" -ne 1 ] || [ "$c" -ne 1 ]; then
			why="the SPDX and copyright lines, once each in its first 10 lines ($s and $c)"
		fi
		;;
	exempt)
		if [ "$s" -ne "$c" ] || [ "$s" -gt 1 ]; then
			why="both license lines or neither, once ($s and $c)"
		fi
		;;
	*)
		if $git; then
			unknown=$((unknown + 1))
			fail "$f: no rule of tests/license.sh says whether it needs the license lines"
		fi
		continue
		;;
	esac
	if [ -z "$why" ] && [ "$s" -eq 1 ]; then
		case $f in
		*.[1-8].in | *.[1-8]) want='.\" ' ;;
		*) want=$ps ;;
		esac
		if [ -z "$ps" ] || [ "$ps" != "$pc" ] || [ "$ps" != "$want" ]; then
			why="the license lines in comments, both alike ('$ps', '$pc')"
		fi
	fi
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		fail "$f: $why"
	fi
done <"$TMP/files"

check "the files that need the license lines were found ($checked)" \
	test "$checked" -gt 200
[ "$bad" -eq 0 ] && pass "each of them has both lines, once each, at its top"
if $git; then
	[ "$unknown" -eq 0 ] && pass "every file of the checkout falls under a rule"
else
	skip "every file falls under a rule: not a git checkout"
fi
done_testing
