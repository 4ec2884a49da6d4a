#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bench/peers, fbrun against its peer programs: what it refuses (a peer
# it does not know, a count that is not one, an option it does not take,
# no fbrun), its help, a dry run that gives each peer its command or the
# reason it is skipped and runs nothing, and one run of the raw peer of
# a pair of 1 s runs per case: the table's header and a row with numbers
# for each of its cases, nothing left behind.  No figure is judged: they
# are speeds.
. "${srcdir:-.}/tests/lib.sh"

peers=$srcdir/bench/peers
all="raw fio dbench bonnie filebench"
# bp ARGS...: bench/peers, its output in $TMP/out and $TMP/err, its
# status in $rc
bp() {
	rc=0
	TMPDIR=$TMP sh "$peers" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
}

bp -b "$FBRUN" nosuch raw
check "an unknown peer: exit 2" [ "$rc" -eq 2 ]
grepq "... named, with the peers there are" \
	"^bench/peers: unknown peer 'nosuch' \(raw fio dbench bonnie filebench\)$" \
	"$TMP/err"
for bad in 0 x -2 1.5 ''; do
	bp -b "$FBRUN" -p "$bad" raw
	check "-p '$bad': exit 2" [ "$rc" -eq 2 ]
	grepq "... says it wants a positive integer" \
		"^bench/peers: -p wants a positive integer, not '$bad'$" "$TMP/err"
done
bp -b "$FBRUN" -t 2s raw
check "-t 2s: exit 2" [ "$rc" -eq 2 ]
bp -b "$FBRUN" -q raw
check "an option it does not take: exit 2, with the usage on stderr" \
	eval '[ "$rc" -eq 2 ] && grep -q "^  *-p PAIRS" "$TMP/err"'
bp -b "$TMP/no-fbrun" raw
check "no fbrun there: exit 2" [ "$rc" -eq 2 ]
grepq "... says where it looked" "^bench/peers: no fbrun at $TMP/no-fbrun " \
	"$TMP/err"
bp -h
check "-h: exit 0" [ "$rc" -eq 0 ]
n=0
for p in $all; do
	grep -q "^  $p  *bench/" "$TMP/out" && n=$((n + 1))
done
check "... the help says what each of the 5 peers runs" [ "$n" -eq 5 ]

# the dry run: a line per peer, a command or the reason it is skipped
bp -n -p 2 -t 5 -b "$FBRUN"
check "a dry run: exit 0" [ "$rc" -eq 0 ]
n=0
for p in $all; do
	[ "$(grep -c "^$p: " "$TMP/out")" -eq 1 ] && n=$((n + 1))
done
check "... one line for each of the 5 peers" [ "$n" -eq 5 ]
grepq "... the raw peer's command: bench/run with its pairs and seconds" \
	"^raw: (no C compiler|env \"?FBRUN=.* sh \"?.*/bench/run\"? -p 2 -s 5 -m .* pread meta seq)$" \
	"$TMP/out"
if command -v filebench >/dev/null; then
	grepq "... filebench on PATH: bench/fidelity without bonnie" \
		"^filebench: python3 .*/bench/fidelity -p 2 -s 5 -n " "$TMP/out"
else
	grepq "... filebench not on PATH: skipped, and says so" \
		"^filebench: not on PATH$" "$TMP/out"
fi
check "... runs nothing: no table" eval '! grep -q "^peer " "$TMP/out"'
check "... and leaves nothing behind" \
	eval '[ -z "$(find "$TMP" -mindepth 1 -maxdepth 1 -name "fbrun-peers.*")" ]'

# one run of the raw peer: bench/run's raw loops, compiled, on a tmpfs
if ! command -v "${CC:-cc}" >/dev/null; then
	skip "the raw peer: no C compiler (${CC:-cc})"
elif ! $is_root && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" != tmpfs ]; then
	skip "the raw peer: no tmpfs (not root, no /dev/shm)"
else
	bp -p 1 -t 1 -b "$FBRUN" raw
	check "the raw peer, 1 pair of 1 s runs: exit 0" [ "$rc" -eq 0 ]
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	grepq "... the table's header" \
		'^peer +case +figure +fbrun/peer +\[min-max\] +load$' "$TMP/out"
	num='[0-9][0-9.e+-]*'
	n=0
	for c in pread/1thr pread/2thr stat/1thr stat/2thr stat/16thr open/1thr \
		open/2thr open/16thr create/1thr create/2thr create/16thr \
		seq/putc seq/write seq/rewrite seq/getc seq/read; do
		grep -Eq "^raw +$c +(ops|iter|MiB)/s +$num +\[$num-$num\] +$num-$num$" \
			"$TMP/out" && n=$((n + 1))
	done
	check "... a row with numbers for each of its 16 cases" [ "$n" -eq 16 ]
	[ "$n" -eq 16 ] || diag <"$TMP/out"
	check "... and leaves no directory of its own or bench/run's behind" \
		eval '[ -z "$(find "$TMP" -mindepth 1 -maxdepth 1 -name "fbrun-*")" ]'
fi
done_testing
