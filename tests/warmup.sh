#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# --warmup: the run goes that long before measuring, and what it did then
# is counted apart (facts: ops on disk against the counts, never speeds).
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

run_fbrun --help
grepq "--help documents --warmup" '--warmup SECONDS' "$TMP/out"
for bad in 0 -1 x 1.5; do
	run_fbrun --warmup "$bad" --parse-only "$srcdir/workloads/createfiles.f"
	check "--warmup $bad: a usage error (exit 2)" test "$rc" -eq 2
done
grepq "--warmup 1.5: says what it expects" "--warmup expects 1 to [0-9]+ seconds, got '1.5'" "$TMP/err"

# One byte appended per op to one file, at most 25 ops a second, until
# 100 have been counted: the warm-up (1 s, at most 25 ops while the
# main thread's clock is up to 3 s late) cannot reach the 100, so the
# measured appends are exactly 100 and the file holds them and the
# warm-up's.
cat >"$TMP/wu.f" <<F
define fileset name=fs,path=$TMP/wu,entries=1,dirwidth=1,size=0,prealloc
eventgen rate=25
define process name=p { thread name=t {
  flowop eventlimit name=lim
  flowop appendfile name=app,filesetname=fs,iosize=1
  flowop finishoncount name=fin,target=app,value=100 } }
run 60
F
run_fbrun --warmup 1 --keep -o "$TMP/wu.json" "$TMP/wu.f"
check "--warmup 1: exits 0" test "$rc" -eq 0
grepq "--warmup 1: a log line says so" '^[0-9.]+: Warming up for 1 seconds, not measured$' "$TMP/out"
grepq "--warmup 1: the table says the warm-up's length" '^Warm-up: 1 s before the measured run, [0-9]+ I/O ops not counted$' "$TMP/out"
size=$(stat -c %s "$TMP/wu/fs/00000001/00000001")
if $have_python; then
	set -- $(json "$TMP/wu.json" "'%d %d %s %g' % ([f['ops'] for f in r['flowops'] if f['name'] == 'app'][0], r['warmup']['ops'], r['warmup']['completed'], r['warmup']['seconds'])")
	check "--warmup: exactly the 100 appends after the warm-up are counted (got $1)" test "$1" -eq 100
	check "--warmup: the file holds the warm-up's appends and the counted ones ($size = $2 + 100)" \
		test "$size" -eq $(($2 + 100))
	check "--warmup: the warm-up did appends (warmup.ops = $2), none counted" test "$2" -gt 0
	check "--warmup: the JSON says the warm-up completed, 1 s" test "$3 $4" = "True 1"
	n=$(grep -Ec '^Warm-up: 1 s before the measured run, '"$2"' I/O ops not counted$' "$TMP/out")
	check "--warmup: the text line counts the JSON's warm-up ops" test "$n" -eq 1
fi
grep -Ev '^[0-9]+\.[0-9]{3}: ' "$TMP/out" >"$TMP/table"
run_fbrun report "$TMP/wu.json"
check "fbrun report: the table with its warm-up line, byte for byte" cmp -s "$TMP/table" "$TMP/out"
rm -rf "$TMP/wu"

# --repeat: each run warms up; the summary says so once, with the mean
run_fbrun --warmup 1 --repeat 2 "$TMP/wu.f"
check "--warmup 1 --repeat 2: exits 0" test "$rc" -eq 0
grepq "--warmup with --repeat: the summary says each run warmed up" \
	'^Warm-up: 1 s before each measured run, [0-9]+ I/O ops not counted \(mean of 2 of 2 runs\)$' "$TMP/out"
rm -rf "$TMP/wu"

# the --interval series starts at the warm-up's end and sums to the totals
cat >"$TMP/w.f" <<F
define fileset name=fs,path=$TMP/w,entries=20,dirwidth=5,size=4k,prealloc
define process name=p { thread name=t {
  flowop openfile name=open1,filesetname=fs,fd=1
  flowop readwholefile name=read1,fd=1,iosize=4k
  flowop closefile name=close1,fd=1 }
  thread name=u,instances=2 { flowop statfile name=st,filesetname=fs } }
run 60
F
run_fbrun -q --warmup 1 --interval 1 -t 2 -o "$TMP/wi.json" "$TMP/w.f"
check "--warmup with --interval: exits 0" test "$rc" -eq 0
if $have_python; then
	ok=$(json "$TMP/wi.json" "sum(i['ops'] for i in r['intervals']) == r['summary']['ops'] and all(sum(i['flowops'][k]['ops'] for i in r['intervals']) == f['ops'] for k, f in enumerate(r['flowops'])) and abs(r['intervals'][-1]['t_s'] - r['seconds']) < 0.01 and r['warmup']['ops'] > 0")
	check "--warmup: the intervals sum to the measured totals, end with the measured run" test "$ok" = True
fi

# a run that ends in its warm-up reports it as such
cat >"$TMP/short.f" <<F
define fileset name=fs,path=$TMP/s,entries=4,dirwidth=4,size=1k,prealloc
define process name=p { thread name=t {
  flowop statfile name=st,filesetname=fs
  flowop finishoncount name=fin,value=10 } }
run 60
F
run_fbrun -q --warmup 30 -o "$TMP/s.json" "$TMP/short.f"
check "a run done during its warm-up: exits 0" test "$rc" -eq 0
grepq "... with a warning" 'warning: the run ended during its warm-up: the results are of the warm-up' "$TMP/err"
if $have_python; then
	check "... and the JSON says the warm-up did not complete" \
		test "$(json "$TMP/s.json" "r['warmup']['completed']")" = False
fi
check "... no warm-up line in the table" eval '! grep -q "^Warm-up" "$TMP/out"'

# --- --steady -------------------------------------------------------------------
run_fbrun --steady -t 1 "$TMP/w.f"
check "--steady without --interval: exit 2" test "$rc" -eq 2
grepq "--steady without --interval: says why" '--steady needs --interval' "$TMP/err"
for bad in 0 101 x; do
	run_fbrun --steady="$bad" --interval 1 --parse-only "$TMP/w.f"
	check "--steady=$bad: exit 2" test "$rc" -eq 2
done
# the verdict is a fact of the series the JSON keeps, whatever the speed
for pct in 10 60; do
	run_fbrun -q --steady=$pct --interval 1 -t 4 -o "$TMP/st.json" "$TMP/w.f"
	check "--steady=$pct: exits 0" test "$rc" -eq 0
	grepq "--steady=$pct: the table says the verdict" "^Steady state: (yes|no), the last third's [0-9]+ intervals are within [0-9.]+% of their mean of [0-9.]+ ops/s \\(tolerance $pct%\\)$|^Steady state: not judged" "$TMP/out"
	if $have_python; then
		ok=$(json "$TMP/st.json" "(lambda s, iv: (lambda x: s['intervals'] == len(x) and s['tolerance_pct'] == $pct and s['judged'] == (len(x) >= 2) and (not x or (abs(s['mean_ops_per_sec'] - sum(x) / len(x)) < 1e-3 * max(1, sum(x) / len(x)) and s['steady'] == (len(x) >= 2 and s['max_deviation_pct'] <= $pct) and abs(s['max_deviation_pct'] - 100 * max(abs(v - sum(x) / len(x)) for v in x) / (sum(x) / len(x))) < 0.01)))([i['ops'] / i['seconds'] for i in iv[len(iv) - (len(iv) + 2) // 3:]]))(r['steady'], [i for i in r['intervals'] if i['seconds'] >= 0.5])")
		check "--steady=$pct: the verdict, mean and deviation are the last third's intervals'" test "$ok" = True
		v=$(json "$TMP/st.json" "r['steady']['steady']")
		if [ "$v" = False ]; then
			grepq "--steady=$pct: not steady, a warning" 'warning: the run did not reach a steady state|warning: steady state not judged' "$TMP/err"
		else
			check "--steady=$pct: steady, no warning" eval '! grep -q "steady state" "$TMP/err"'
		fi
	fi
	grep -v '^interval ' "$TMP/out" >"$TMP/table"
	run_fbrun report "$TMP/st.json"
	check "--steady=$pct: fbrun report prints the verdict again, byte for byte" cmp -s "$TMP/table" "$TMP/out"
done

done_testing
