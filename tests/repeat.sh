#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# --repeat N: N runs, each one's IO Summary, then the mean, standard
# deviation and 95% interval per flowop (facts: counts, the statistics of
# the values the JSON keeps, the filesets made once).
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

run_fbrun --help
grepq "--help documents --repeat" '--repeat N' "$TMP/out"
grepq "--help documents --fresh" '--fresh' "$TMP/out"
for bad in 0 1 x 10001; do
	run_fbrun --repeat "$bad" --parse-only "$srcdir/workloads/createfiles.f"
	check "--repeat $bad: exit 2" test "$rc" -eq 2
done
grepq "--repeat 10001: says what it expects" "--repeat expects 2 to 10000 runs, got '10001'" "$TMP/err"
run_fbrun --fresh --parse-only "$srcdir/workloads/createfiles.f"
check "--fresh without --repeat: exit 2" test "$rc" -eq 2

# 2000 I/O ops per run, whatever the speed
cat >"$TMP/w.f" <<F
define fileset name=fs,path=$TMP/w,entries=20,dirwidth=5,size=16k,prealloc
define process name=p { thread name=t {
  flowop openfile name=open1,filesetname=fs,fd=1
  flowop readwholefile name=read1,fd=1,iosize=4k
  flowop closefile name=close1,fd=1
  flowop appendfilerand name=app,filesetname=fs,iosize=1k
  flowop finishoncount name=fin,value=2000 } }
run 60
F
run_fbrun --repeat 3 -o "$TMP/r.json" "$TMP/w.f"
check "--repeat 3: exits 0" test "$rc" -eq 0
n=$(grep -Ec '^Run [123] of 3: IO Summary: +2000 ops ' "$TMP/out" || :)
check "--repeat 3: three IO Summary lines, 2000 ops each ($n)" test "$n" -eq 3
grepq "--repeat 3: then the table of the means" '^Per-Operation Breakdown, mean of 3 runs' "$TMP/out"
grepq "--repeat 3: a row per flowop" '^read1 +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$TMP/out"
grepq "--repeat 3: and the IO Summary's" '^IO Summary +[0-9]+\.[0-9] ' "$TMP/out"
n=$(grep -c 'Creating fileset fs' "$TMP/out" || :)
check "--repeat 3: the fileset is laid out each run ($n)" test "$n" -eq 3
n=$(grep -Ec ': fs: 0\.312MB written$' "$TMP/out" || :)
check "--repeat 3: its files written once ($n)" test "$n" -eq 1
n=$(grep -Ec ': fs: 0\.000MB written$' "$TMP/out" || :)
check "--repeat 3: reused by the next runs ($n)" test "$n" -eq 2
check "--repeat 3: the tree is removed after the last run" test ! -e "$TMP/w/fs"
if $have_python; then
	check "--repeat: the JSON keeps the three runs, 2000 ops each" \
		test "$(json "$TMP/r.json" "[x['summary']['ops'] for x in r['repeats']]")" = "[2000, 2000, 2000]"
	check "--repeat: its top level is the last run's" \
		test "$(json "$TMP/r.json" "r['summary'] == r['repeats'][-1]['summary'] and r['flowops'] == r['repeats'][-1]['flowops']")" = True
	# the statistics of the values kept: mean, sd (n - 1) and
	# t(0.975, 2) = 4.302653 * sd / sqrt(3), by hand.  The JSON has 6
	# digits: the sd of rounded values may be off by about a unit of the
	# 6th digit of the mean, so that is the tolerance (1e-4 of the mean)
	ok=$(json "$TMP/r.json" "(lambda s, v: all(abs(a - b) <= 1e-4 * s['mean'] for a, b in [(s['mean'], sum(v) / 3), (s['sd'], (sum((x - sum(v) / 3) ** 2 for x in v) / 2) ** 0.5), (s['ci95'], 4.302653 * (sum((x - sum(v) / 3) ** 2 for x in v) / 2) ** 0.5 / 3 ** 0.5)]) and all(abs(a - b) <= 1e-5 * b for a, b in zip(v, [x['summary']['ops_per_sec'] for x in r['repeats']])))(r['statistics']['summary']['ops_per_sec'], r['statistics']['summary']['ops_per_sec']['values'])")
	check "--repeat: mean, sd and 95% interval of the runs' ops/s, as computed by hand" test "$ok" = True
	ok=$(json "$TMP/r.json" "[f['name'] for f in r['statistics']['flowops']] == [f['name'] for f in r['flowops']] and all(len(f[k]['values']) == 3 for f in r['statistics']['flowops'] for k in ('ops_per_sec', 'mb_per_sec', 'ms_per_op'))")
	check "--repeat: statistics per flowop, three values each" test "$ok" = True
fi
run_fbrun report "$TMP/r.json"
check "fbrun report of a --repeat file: the last run's table" test "$rc" -eq 0

run_fbrun --repeat 2 --fresh "$TMP/w.f"
check "--repeat 2 --fresh: exits 0" test "$rc" -eq 0
n=$(grep -Ec ': fs: 0\.312MB written$' "$TMP/out" || :)
check "--repeat 2 --fresh: the files written anew each run ($n)" test "$n" -eq 2

run_fbrun -q --repeat 2 --format csv "$TMP/w.f"
check "--repeat --format csv: exits 0" test "$rc" -eq 0
check "--repeat --format csv: a header, 5 flowops, the IO Summary" test "$(wc -l <"$TMP/out")" -eq 7
grepq "--repeat --format csv: its header" '^name,runs,ops_per_sec_mean,ops_per_sec_sd,ops_per_sec_ci95,mb_per_sec_mean' "$TMP/out"
grepq "--repeat --format csv: the run lines go to stderr" '^Run 2 of 2: IO Summary' "$TMP/err"
run_fbrun -q --repeat 2 --format json "$TMP/w.f"
if $have_python; then
	check "--repeat --format json: standard output is one JSON with 2 repeats" \
		test "$(json "$TMP/out" "len(r['repeats'])")" = 2
fi

done_testing
