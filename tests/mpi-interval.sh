#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun-mpi --interval, --interval-flowops, --steady and psrun: rank 0
# prints the job's lines, and the JSON's series is the job's: every
# rank's operations are in it, and with the last (partial) interval it
# sums exactly to the job's totals.  Facts only: counts, sums, JSON; the
# number of intervals is bounded by the rounds the run can have had.
. "$srcdir/tests/lib.sh"

MPI_FBRUN=$(dirname "$FBRUN")/fbrun-mpi

why=""
if ! command -v mpirun >/dev/null 2>&1; then
	why="mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
elif [ ! -x "$MPI_FBRUN" ]; then
	why="fbrun-mpi was not built (configure found no mpicc: apt-get install openmpi-bin libopenmpi-dev)"
elif ! command -v python3 >/dev/null 2>&1; then
	why="needs python3 to read the JSON"
fi
if [ -n "$why" ]; then
	skip "fbrun-mpi --interval: $why"
	done_testing
	exit
fi

mpi_setup

# jcheck DESC EXPR: a Python expression on the JSON results r is True
jcheck() {
	if [ ! -f "$TMP/r.json" ]; then
		fail "$1 (no JSON written)"
		return
	fi
	v=$(json "$TMP/r.json" "$2" 2>&1)
	if [ "$v" = True ]; then
		pass "$1"
	else
		fail "$1"
		echo "$v" | diag
	fi
}

# The series as the JSON has it: every field, in time order, the last
# ending with the run, and per flowop summing to each flowop's total.
series_checks() {
	what=$1
	jcheck "$what: the intervals' ops sum to the job's ops" \
		"sum(i['ops'] for i in r['intervals']) == r['summary']['ops']"
	jcheck "$what: per flowop, the intervals' ops sum to its total" \
		"all(sum(i['flowops'][k]['ops'] for i in r['intervals']) == f['ops'] and all(i['flowops'][k]['name'] == f['name'] for i in r['intervals']) for k, f in enumerate(r['flowops']))"
	jcheck "$what: the intervals' bytes and errors sum to the job's" \
		"sum(i['bytes'] for i in r['intervals']) == r['summary']['bytes'] and sum(i['errors'] for i in r['intervals']) == sum(f['errors'] for f in r['flowops'])"
	jcheck "$what: every interval's counts are >= 0, its time stamps rising, its lengths summing to the last" \
		"all(i['ops'] >= 0 and i['bytes'] >= 0 and i['seconds'] >= 0 for i in r['intervals']) and all(a['t_s'] <= b['t_s'] for a, b in zip(r['intervals'], r['intervals'][1:])) and abs(sum(i['seconds'] for i in r['intervals']) - r['intervals'][-1]['t_s']) < 0.01"
	jcheck "$what: the last interval ends with the job (its longest rank's time)" \
		"abs(r['intervals'][-1]['t_s'] - r['seconds']) < 0.001 and abs(r['seconds'] - max(k['seconds'] for k in r['ranks'])) < 0.001"
}

# A fixed count on every rank: 1500 reads, at most 1000 a second (the
# eventgen), so a run of 1.5 s or more on each rank
dir=$TMP/fs
cat >"$TMP/count.f" <<F
set \$dir=$dir
eventgen rate=1000
define fileset name=fs1,path=\$dir,entries=16,size=8k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop eventlimit name=ev
  flowop openfile name=open1,filesetname=fs1,fd=1
  flowop readwholefile name=read1,fd=1,iosize=8k
  flowop closefile name=close1,fd=1
  flowop finishoncount name=fin,value=1500,target=read1 } }
run 600
F
for np in 2 3; do
	rm -f "$TMP/r.json"
	mpi "$np" -q --interval 1 -o "$TMP/r.json" "$TMP/count.f"
	check "$np ranks, --interval 1: exit 0" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	n=$(grep -c '^interval ' "$TMP/out" || :)
	grepq "$np ranks: an interval line as fbrun prints it: time, ops/s, mb/s, errors, p50, p99" \
		'^interval +[0-9]+\.[0-9]{3} s +[0-9]+ ops/s +[0-9]+\.[0-9] mb/s +0 errors  p50 [0-9]+\.[0-9]{3} ms  p99 [0-9]+\.[0-9]{3} ms$' "$TMP/out"
	jcheck "$np ranks: one interval in the JSON per line printed ($n), rank 0 alone prints" \
		"len(r['intervals']) == $n >= 1"
	jcheck "$np ranks: read1 is $np x 1500 in the job's totals and in its series" \
		"[f['ops'] for f in r['flowops'] if f['name'] == 'read1'] == [$((np * 1500))] and sum(i['flowops'][2]['ops'] for i in r['intervals']) == $((np * 1500))"
	series_checks "$np ranks"
	jcheck "$np ranks: at most one interval a second and the last (partial) one" \
		"len(r['intervals']) <= int(r['seconds']) + 1"
	jcheck "$np ranks: p50 and p99 in every interval, p50 <= p99" \
		"all(0 <= i['p50_ms'] <= i['p99_ms'] for i in r['intervals'])"
	check "$np ranks: every rank's tree is removed" test -z "$(ls -A "$dir" 2>/dev/null)"
done

# --stonewall: the first rank done ends the run; the series still sums
rm -f "$TMP/r.json"
mpi 2 -q --stonewall --interval 1 -o "$TMP/r.json" "$TMP/count.f"
check "--stonewall --interval 1: exit 0" test "$rc" -eq 0
series_checks "--stonewall"

# A timed run: the rounds every 0.1 s are the job's clock, so a 3 s run
# with --interval 1 has at most the boundaries at rounds 10 and 20, and
# its last interval: 3 lines (fewer only if rounds came late)
cat >"$TMP/timed.f" <<F
set \$dir=$dir
define fileset name=fs1,path=\$dir,entries=16,size=8k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop openfile name=open1,filesetname=fs1,fd=1
  flowop readwholefile name=read1,fd=1,iosize=8k
  flowop closefile name=close1,fd=1 } }
run 3
F
rm -f "$TMP/r.json"
mpi 2 -q --interval 1 --interval-flowops --interval-log "$TMP/iv.csv" \
	-o "$TMP/r.json" "$TMP/timed.f"
check "3 s, 2 ranks, --interval 1 --interval-flowops: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
n=$(grep -c '^interval ' "$TMP/out" || :)
check "... 1 to 3 interval lines ($n)" test "$n" -ge 1 -a "$n" -le 3
jcheck "... as many intervals in the JSON ($n)" "len(r['intervals']) == $n"
# --interval-log: rank 0 writes the job's rows, once
check "--interval-log: one header, a row per line printed ($n)" \
	test "$(grep -c '^run,' "$TMP/iv.csv")" -eq 1 -a "$(($(wc -l <"$TMP/iv.csv") - 1))" -eq "$n"
ok=$(python3 -c "
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
r = json.load(open(sys.argv[2]))
print(sum(int(x['ops']) for x in rows) == r['summary']['ops'] and
      [int(x['ops']) for x in rows] == [i['ops'] for i in r['intervals']] and
      'read1_ops_per_s' in rows[0])" "$TMP/iv.csv" "$TMP/r.json" || :)
check "--interval-log: the job's series, every rank's ops in it" test "$ok" = True
for f in open1 read1 close1; do
	check "... a line for flowop $f after each interval line" \
		test "$(grep -c "^  $f  *[0-9][0-9]* ops/s\$" "$TMP/out")" -eq "$n"
done
series_checks "3 s"
ln -s "$TMP/nowhere" "$TMP/link.csv"
mpi 2 -q --interval 1 --interval-log "$TMP/link.csv" "$TMP/timed.f"
check "--interval-log a symbolic link, 2 ranks: exit 2, said once (exit $rc)" \
	test "$rc" -eq 2 -a "$(grep -c 'symbolic link' "$TMP/err")" -eq 1

# --warmup: the series is of the measured run only, as in fbrun
rm -f "$TMP/r.json"
mpi 2 -q --warmup 1 -t 2 --interval 1 -o "$TMP/r.json" "$TMP/timed.f"
check "--warmup 1 -t 2 --interval 1, 2 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
jcheck "--warmup: the warm-up's ops are in neither the totals nor the series" \
	"r['warmup']['completed'] and r['warmup']['ops'] > 0 and 1 <= len(r['intervals']) <= 2"
series_checks "--warmup"

# --steady: judged on the job's series, its verdict printed once
rm -f "$TMP/r.json"
mpi 2 --steady=100 --interval 1 -t 6 -o "$TMP/r.json" "$TMP/timed.f"
check "--steady=100 --interval 1 -t 6, 2 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "--steady: its verdict, once" test "$(grep -c '^Steady state: ' "$TMP/out")" -eq 1
# the rule of results.c: the last third of the intervals, rounded up,
# without a last one shorter than half an interval
jcheck "--steady: judged on the JSON's (the job's) series" \
	"(lambda iv: (lambda x: r['steady']['intervals'] == len(x) and (not x or abs(r['steady']['mean_ops_per_sec'] - sum(x) / len(x)) <= 1e-3 * sum(x) / len(x)))([i['ops'] / i['seconds'] for i in iv[len(iv) - (len(iv) + 2) // 3:]]))(r['intervals'][:-1] if r['intervals'][-1]['seconds'] < 0.5 else r['intervals'])"
series_checks "--steady"

# psrun: its reports every period, for the job
sed 's/^run 3$/psrun -1 3/' "$TMP/timed.f" >"$TMP/psrun.f"
rm -f "$TMP/r.json"
mpi 2 -q -o "$TMP/r.json" "$TMP/psrun.f"
check "psrun -1 3, 2 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
n=$(grep -c '^[0-9.]*: interval of ' "$TMP/out" || :)
check "psrun -1 3: 1 or 2 reports ($n)" test "$n" -ge 1 -a "$n" -le 2
check "... each with a line per flowop" \
	test "$(grep -c '^read1  *[0-9]*ops/s$' "$TMP/out")" -eq "$n"
jcheck "... the series has them and the last interval ($n + 1)" \
	"len(r['intervals']) == $n + 1"
series_checks "psrun"

done_testing
