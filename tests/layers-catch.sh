#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# tests/layers.py catches what it is there to catch: a copy of the sources
# with a header of ours included through <>, a hand-written prototype of
# another folder's function, an extern of its object, and an include
# across the layers fails each rule, and the sources as they are pass.
. "${srcdir:-.}/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "the layer rules: python3 is not installed"
	done_testing
	exit 0
fi
layers() { python3 "$srcdir/tests/layers.py" "$1" >"$TMP/out" 2>&1 || :; }

mkdir "$TMP/tree"
cp -R "$srcdir/src" "$srcdir/grammar" "$TMP/tree/"
layers "$TMP/tree"
if grep -q '^not ok' "$TMP/out"; then
	fail "the sources as they are pass every rule"
	diag <"$TMP/out"
else
	pass "the sources as they are pass every rule"
fi

cat >>"$TMP/tree/src/util/util.c" <<'C'
#include <engine/engine.h>
#include "report/report.h"
extern void report_summary_line(void *out,
				const void *r);
extern volatile int timeline_signalled;
extern char **environ;
C
layers "$TMP/tree"
grepq "an include through <> is refused" \
	'^# src/util/util\.c: <engine/engine\.h>$' "$TMP/out"
grepq "an include across the layers is refused" \
	'^# src/util/util\.c \(util\) includes "report/report\.h" \(report\)$' "$TMP/out"
grepq "a prototype of another file's function is refused" \
	'^# src/util/util\.c: extern void report_summary_line\(void \*out, const void \*r\)$' \
	"$TMP/out"
grepq "an extern of another file's object is refused" \
	'^# src/util/util\.c: extern volatile int timeline_signalled$' "$TMP/out"
check "the C library's environ is not ours" \
	sh -c "! grep -q 'environ' '$TMP/out'"
done_testing
