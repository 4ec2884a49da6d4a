#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Golden tests of the front end, compared byte for byte:
#   tests/parse/X.f  -> X.ast (--dump-ast) and X.ir (--dump-ir), exit 0
#   tests/errors/X.f -> X.err (stderr of --parse-only), exit 2
#   tests/warnings/X.f -> X.err (stderr of --parse-only), exit 0
# UPDATE_GOLDEN=1 rewrites the expected files instead (make update-golden).
. "${srcdir:-.}/tests/lib.sh"

cd "$srcdir/tests"
export TMPDIR=/golden-tmp
for f in parse/*.f; do
	base=${f%.f}
	for kind in ast ir; do
		run_fbrun --dump-$kind "$f"
		if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
			cp "$TMP/out" "$base.$kind"
		fi
		if [ "$rc" -eq 0 ] && cmp -s "$TMP/out" "$base.$kind"; then
			pass "$f --dump-$kind"
		else
			fail "$f --dump-$kind (exit $rc)"
			diff -u "$base.$kind" "$TMP/out" | diag || true
			diag <"$TMP/err"
		fi
	done
done
for f in errors/*.f warnings/*.f; do
	base=${f%.f}
	want=2
	case $f in warnings/*) want=0 ;; esac
	run_fbrun --parse-only "$f"
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$TMP/err" "$base.err"
	fi
	if [ "$rc" -eq "$want" ] && cmp -s "$TMP/err" "$base.err" && [ ! -s "$TMP/out" ]; then
		pass "$f: expected diagnostics, exit $want"
	else
		fail "$f (exit $rc, want $want)"
		diff -u "$base.err" "$TMP/err" | diag || true
	fi
done
done_testing
