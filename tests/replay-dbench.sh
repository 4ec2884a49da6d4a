#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun replay of dbench's client.txt by 4 clients, one pass each (the
# other half of issue 27's count proof; tests/replay.sh does 1 and 2).
# Facts: each row's ops are the loadfile's lines of that operation,
# counted here from the loadfile itself, times 4, and the reads' and
# writes' bytes are its ReadX and WriteX sizes times 4; 4 passes; no
# error in any row; no operation that failed in the recording succeeds;
# each client's tree ends as the loadfile leaves it (the last Deltree
# empties clients/client1, so the directory "clients" alone).  The same
# counts with calls=dbench (2 clients).  With --warmup, a pass that
# outlasts the warm-up has its later ops measured: each op is counted
# once, in the warm-up or in the results.  A loadfile's replay prints
# dbench's "Throughput N MB/sec" line (its reads' and writes' bytes, 10^6
# a second) and a pass cut short says how far it got; neither for another
# trace.
. "${srcdir:-.}/tests/lib.sh"

# three ops, the last due 100 s after the first: with --pace and -t 1 the
# pass is always cut short after the first two
printf '%s\n' '0.0 NTCreateX "\a.txt" 0x0 0x2 1 NT_STATUS_OK' \
	'0.0 WriteX 1 0 4096 4096 NT_STATUS_OK' \
	'100.0 Close 1 NT_STATUS_OK' >"$TMP/slow.loadfile"
run_fbrun replay -q -t 1 --pace -o "$TMP/slow.json" -D dir="$TMP/slowfs" \
	"$TMP/slow.loadfile"
check "a pass cut short: runs and exits 0" [ "$rc" -eq 0 ]
grepq "... its row says how far it got (2 of 3 ops), not 0ops/s" \
	'^replay +no pass finished: 67% of one done$' "$TMP/out"
grepq "... a loadfile's replay prints dbench's Throughput line" \
	'^Throughput 0\.[0-9]{3} MB/sec \(replay: ' "$TMP/out"
check "... its JSON: one pass's ops, the rows' ops, the write's bytes" \
	eval 'grep -q "\"pass_ops\": 3," "$TMP/slow.json" &&
	grep -q "\"row_ops\": 2," "$TMP/slow.json" &&
	grep -q "\"loadfile_bytes\": 4096" "$TMP/slow.json"'
run_fbrun report "$TMP/slow.json"
check "... fbrun report of it prints both lines again" \
	eval 'grep -q "^replay  *no pass finished: 67%" "$TMP/out" &&
	grep -q "^Throughput " "$TMP/out"'
run_fbrun replay -q -D dir="$TMP/stracefs" "$srcdir/tests/trace/renames.strace"
check "a replay of an strace trace: no Throughput line" \
	eval '[ "$rc" -eq 0 ] && ! grep -q "^Throughput" "$TMP/out"'

client=/usr/share/dbench/client.txt
if [ ! -r "$client" ]; then
	skip "dbench's client.txt is not installed (Debian's dbench package)"
	done_testing
	exit
fi
n=4

# want N: "ROW OPS READ WRITE" per row for N clients from the loadfile,
# dbench's operation names to the rows of doc/trace-format.md's types
want() {
	awk -v n="$1" '
BEGIN {
	t["NTCreateX"] = "open"; t["Close"] = "close"; t["ReadX"] = "read"
	t["WriteX"] = "write"; t["Flush"] = "fsync"
	t["QUERY_PATH_INFORMATION"] = "stat"
	t["QUERY_FILE_INFORMATION"] = "fstat"
	t["QUERY_FS_INFORMATION"] = "statfs"
	t["SET_FILE_INFORMATION"] = "setattr"; t["FIND_FIRST"] = "readdir"
	t["Unlink"] = "unlink"; t["Rename"] = "rename"; t["Mkdir"] = "mkdir"
	t["Rmdir"] = "rmdir"; t["Deltree"] = "deltree"; t["LockX"] = "lock"
	t["UnlockX"] = "unlock"
}
$1 in t {
	r = "replay." t[$1]
	ops[r]++
	if ($1 == "ReadX") rd[r] += $4
	if ($1 == "WriteX") wr[r] += $4
	next
}
NF { print "unknown operation in the loadfile:", $1 }
END {
	for (r in ops)
		printf "%s %.0f %.0f %.0f\n", r, ops[r] * n, rd[r] * n, wr[r] * n
}' "$client" | sort
}

# rows_are WHAT N: the replay rows of $TMP/out are want N's
rows_are() {
	want "$2" >"$TMP/want"
	awk -F, 'NR > 1 && $1 ~ /^replay\./ { print $1, $4, $10, $11 }' \
		"$TMP/out" | sort >"$TMP/got"
	if [ -s "$TMP/got" ] && cmp -s "$TMP/want" "$TMP/got"; then
		pass "$1: each row's ops and bytes are the loadfile's times $2"
	else
		fail "$1: each row's ops and bytes"
		diff "$TMP/want" "$TMP/got" | diag
	fi
}

run_fbrun replay -q --keep --format csv -o "$TMP/c.json" -D clients=$n \
	-D passes=1 -D dir="$TMP/fs" "$client"
check "client.txt, $n clients: runs and exits 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || diag <"$TMP/err"
rows_are "client.txt, $n clients" "$n"
cp "$TMP/out" "$TMP/c.csv"
# dbench's MB: the ReadX and WriteX lines' sizes (each moved what it asked)
b=$(awk -v n="$n" '$1 == "ReadX" || $1 == "WriteX" { b += $4 }
	END { printf "%.0f\n", b * n }' "$client")
check "client.txt: the Throughput's bytes are the loadfile's ReadX and WriteX sizes times $n ($b)" \
	grep -q "\"loadfile_bytes\": $b,*\$" "$TMP/c.json"
s=$(sed -n 's/^  "seconds": \([0-9.e+-]*\),$/\1/p' "$TMP/c.json")
want=$(awk -v b="$b" -v s="$s" 'BEGIN { printf "%.3f", b / s / 1e6 }')
run_fbrun report "$TMP/c.json"
grepq "client.txt: Throughput is those bytes over the run's $s s, 10^6 a second ($want)" \
	"^Throughput $want MB/sec " "$TMP/out"
cp "$TMP/c.csv" "$TMP/out"
check "client.txt, $n clients: $n passes" \
	awk -F, -v n="$n" '$1 == "replay" && $4 == n { f = 1 } END { exit !f }' \
	"$TMP/out"
awk -F, 'NR > 1 && $12 != 0 { print $1, $12 }' "$TMP/out" >"$TMP/errors"
if [ -s "$TMP/errors" ]; then
	fail "client.txt, $n clients: no row has an error"
	diag <"$TMP/errors"
else
	pass "client.txt, $n clients: no row has an error"
fi
if grep -q 'succeeded' "$TMP/err"; then
	fail "client.txt, $n clients: no op that failed in the recording succeeds"
	diag <"$TMP/err"
else
	pass "client.txt, $n clients: no op that failed in the recording succeeds"
fi

i=0
while [ "$i" -lt "$n" ]; do
	t=$TMP/fs/replay/replay-0-$i
	(cd "$t" 2>/dev/null && find . -mindepth 1 | sort) >"$TMP/tree"
	printf './clients\n' | cmp -s - "$TMP/tree" &&
		pass "client.txt: client $i's tree is what the loadfile leaves" ||
		{ fail "client.txt: client $i's tree"; diag <"$TMP/tree"; }
	i=$((i + 1))
done

# calls=dbench, 2 clients: the calls dbench makes for each line besides
# its own (tests/replay-opts.sh shows them) change no row's counts
run_fbrun replay -q --format csv -D clients=2 -D passes=1 -D calls=dbench \
	-D dir="$TMP/fs3" "$client"
check "client.txt, calls=dbench, 2 clients: runs and exits 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || diag <"$TMP/err"
rows_are "client.txt, calls=dbench" 2
awk -F, 'NR > 1 && $12 != 0 { print $1, $12 }' "$TMP/out" >"$TMP/errors"
if [ ! -s "$TMP/errors" ] && ! grep -q 'succeeded' "$TMP/err"; then
	pass "client.txt, calls=dbench: no row has an error, no failed op succeeds"
else
	fail "client.txt, calls=dbench: an error, or a failed op succeeded"
	diag <"$TMP/errors"
	diag <"$TMP/err"
fi

# --warmup 1: the warm-up ends during the passes (each takes longer than
# the warm-up here); the ops after its end are counted, not lost with it
if ! command -v python3 >/dev/null 2>&1; then
	skip "--warmup during a pass: python3 is not installed"
	done_testing
	exit
fi
total=$(awk '/^$/ { next } { n++ } END { print n * '"$n"' }' "$client")
run_fbrun replay -q --warmup 1 -o "$TMP/w.json" -D clients=$n -D passes=1 \
	-D dir="$TMP/fs2" "$client"
check "--warmup 1, $n clients: runs and exits 0" [ "$rc" -eq 0 ]
set -- $(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(r["warmup"]["completed"], r["warmup"]["ops"], r["summary"]["ops"])' \
	"$TMP/w.json" 2>/dev/null) x x x
check "--warmup 1: each op counted once, in the warm-up or measured ($2 + $3 = $total)" \
	[ "$(($2 + $3))" -eq "$total" ]
if [ "$1" = True ]; then
	check "--warmup 1: the ops after the warm-up's end are measured (got $3)" \
		[ "$3" -gt 0 ]
else
	skip "--warmup 1: the passes ended before the warm-up did"
fi
done_testing
