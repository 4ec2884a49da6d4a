#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun curve: bad levels and objectives refused before anything is made;
# the levels' rates as asked (or as shares of the closed loops' most),
# shared as the script's rate= are; the objective's search where its
# answer is certain (an objective every rate meets, one none does); the
# JSON, fbrun report and compare of curve files, --html, SIGINT, the trees
# left behind.  Facts only, never a speed.
. "${srcdir:-.}/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "fbrun curve: the checks read the JSON with python3"
	done_testing
	exit 0
fi
# pyok DESCRIPTION FILE EXPR: ok if EXPR of the file's JSON (r, its curve c) is true
pyok() {
	if [ "$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); c=r.get('curve'); print(bool($3))" "$2" 2>&1)" = True ]; then
		pass "$1"
	else
		fail "$1"
		python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(json.dumps(r.get('curve'))[:1500])" "$2" 2>&1 | diag
	fi
}

mkdir "$TMP/fs"
cat >"$TMP/c.f" <<F
define fileset name=fs,path=$TMP/fs,entries=4,dirwidth=4,size=16k,prealloc
define process name=p {
  thread name=t { flowop read name=rd,filesetname=fs,iosize=4k,random }
}
run 1
F

# --- refused before anything is made ----------------------------------------
for bad in "--levels 10,5%" "--levels 0,10" "--levels x" "--levels 10%,20" \
	"--levels 10,,20" "--slo p99=5ms" "--slo p99<5" "--slo q99<5ms" \
	"--slo p100<5ms" "--slo p99(rd<5ms" "--precision 0" "--arrivals bursty" \
	"--format xml" "--interval-log $TMP/iv.csv" "--levels"; do
	# shellcheck disable=SC2086
	run_fbrun curve $bad "$TMP/c.f"
	check "curve $bad: exit 2 (exit $rc)" test "$rc" -eq 2
	check "... says why on stderr, prints nothing" test -s "$TMP/err" -a ! -s "$TMP/out"
done
run_fbrun curve --levels 10,5% "$TMP/c.f"
grepq "--levels 10,5%: located, with a caret" '^--levels:1:4: error: the levels must rise' "$TMP/err"
run_fbrun curve --slo 'p99(red)<5ms' "$TMP/c.f"
check "--slo naming no flowop: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... located, with a did you mean" "^--slo:1:5: error: no flowop named 'red' in the script; did you mean 'rd'\?" "$TMP/err"
check "... and no tree was made" test -z "$(ls -A "$TMP/fs")"

# --- levels in arrivals a second ---------------------------------------------
run_fbrun curve -q --levels 40,80 --per-level 1 --warmup 1 -o "$TMP/abs.json" "$TMP/c.f"
check "two levels: exit 0 (exit $rc)" test "$rc" -eq 0
cp "$TMP/out" "$TMP/abs.out"
grepq "the table's head" '^level +offered/s +achieved/s +ops/s +resp p50 +resp p99 +resp p99\.9 +svc p50 +svc p99 +svc p99\.9 +us/op-cpu$' "$TMP/abs.out"
grepq "a row per level, at its rate" '^40 +40\.0 ' "$TMP/abs.out"
grepq "... and the next" '^80 +80\.0 ' "$TMP/abs.out"
pyok "the file: two levels at 40 and 80 a second, a run each" "$TMP/abs.json" \
	"[l['rate'] for l in c['levels']] == [40, 80] and all(len(l['runs']) == 1 for l in c['levels'])"
pyok "each run offered its rate over its time (one either way), and did no more" "$TMP/abs.json" \
	"all(abs(x['offered'] - l['rate'] * x['seconds']) <= 1.01 and x['done'] <= x['offered'] for l in c['levels'] for x in l['runs'])"
pyok "no closed loops measured for levels in arrivals a second" "$TMP/abs.json" "'max' not in c"
pyok "the top level is the last run's, at 80 a second" "$TMP/abs.json" \
	"r['arrivals'][0]['rate'] == 80 and r['flowops'][0]['name'] == 'rd'"
check "no tree left behind" test -z "$(ls -A "$TMP/fs")"
run_fbrun report "$TMP/abs.json"
sed -n '/^Load curve of /,$p' "$TMP/abs.out" >"$TMP/abs.table"
if cmp -s "$TMP/abs.table" "$TMP/out"; then pass "fbrun report: the curve's table again, byte for byte"; else
	fail "fbrun report: the curve's table again, byte for byte"; diff "$TMP/abs.table" "$TMP/out" | diag; fi
run_fbrun report --format csv "$TMP/abs.json"
check "fbrun report --format csv: a header and a row per level" test "$(wc -l <"$TMP/out")" -eq 3

# --- percentages of the closed loops' most, --repeat, --html --------------------
run_fbrun curve -q --levels 20,40% --repeat 2 --per-level 1 --warmup 1 \
	-o "$TMP/pct.json" --html "$TMP/pct.html" "$TMP/c.f"
check "percentages, --repeat 2: exit 0 (exit $rc)" test "$rc" -eq 0
pyok "the closed loops measured first, twice, as closed" "$TMP/pct.json" \
	"c['max']['rate'] == 0 and len(c['max']['runs']) == 2 and c['max']['figures']['achieved_per_sec']['mean'] > 0"
pyok "each level's rate is its share of their mean" "$TMP/pct.json" \
	"all(abs(l['rate'] - p * sum(x['achieved_per_sec'] for x in c['max']['runs']) / 2) <= 1e-6 * l['rate'] for l, p in zip(c['levels'], (0.2, 0.4)))"
pyok "two runs at each level, with their interval" "$TMP/pct.json" \
	"all(len(l['runs']) == 2 and 'ci95' in l['figures']['response_p99_ms'] for l in c['levels'])"
grepq "--html: a page with the chart" '<svg ' "$TMP/pct.html"

# --- the objective's search where its answer is certain ----------------------
run_fbrun curve -q --slo 'max<1000s' --per-level 1 --warmup 1 -o "$TMP/met.json" "$TMP/c.f"
check "an objective every rate meets: exit 0 (exit $rc)" test "$rc" -eq 0
pyok "... met at the closed loops' most, after one probe there" "$TMP/met.json" \
	"c['objective']['met'] and c['objective']['at_max'] and c['objective']['probes'] == 1 and c['objective']['rate'] == c['levels'][0]['rate']"
grepq "... and said" '^Objective max<1000s .*: met at the closed loops. most' "$TMP/out"
pyok "... with no upper end to its interval: no rate above the most can be offered" "$TMP/met.json" \
	"'high' not in c['objective']"
run_fbrun curve -q --slo 'p99(rd)<1ns' --per-level 1 --warmup 1 -o "$TMP/none.json" "$TMP/c.f"
check "an objective no rate meets: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... said on stderr" "no rate met the objective p99\(rd\)<1ns" "$TMP/err"
pyok "... after probes at the most and a tenth of it" "$TMP/none.json" \
	"not c['objective']['met'] and c['objective']['probes'] == 2 and [l['name'] for l in c['levels']] == ['10.0%*', '100.0%*']"

# --- a script's own rates are shared in their proportions ---------------------
cat >"$TMP/two.f" <<F
define fileset name=fs,path=$TMP/fs,entries=4,dirwidth=4,size=16k,prealloc
define process name=p {
  thread name=slow,rate=10 { flowop read name=r1,filesetname=fs,iosize=4k }
  thread name=fast,rate=30 { flowop read name=r2,filesetname=fs,iosize=4k }
}
run 1
F
run_fbrun curve -q --levels 80 --per-level 1 --warmup 1 -o "$TMP/two.json" "$TMP/two.f"
check "rated threads: exit 0 (exit $rc)" test "$rc" -eq 0
pyok "80 a second shared 1 to 3, as their rate= are" "$TMP/two.json" \
	"sorted(a['rate'] for a in r['arrivals']) == [20, 60]"

# --- compare of curve files ----------------------------------------------------
cp "$TMP/abs.json" "$TMP/abs2.json"
run_fbrun compare "$TMP/abs.json" "$TMP/abs2.json"
check "compare of two curves: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... their levels side by side" '^40 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +1\.00$' "$TMP/out"
run_fbrun compare --format json "$TMP/abs.json" "$TMP/met.json"
check "compare --format json of curves: valid JSON with both" \
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if [x['label'] for x in d['curves']] == ['abs', 'met'] else 1)" "$TMP/out"
run_fbrun compare --fail-if-worse 10 "$TMP/abs.json" "$TMP/abs2.json"
check "compare --fail-if-worse of curves: refused (exit $rc)" test "$rc" -eq 2

# --- SIGINT: the levels done so far ----------------------------------------------
"$FBRUN" curve -q --levels 20,40,60,80 --per-level 5 --warmup 1 "$TMP/c.f" >"$TMP/sig.out" 2>&1 &
pid=$!
wait_for "$TMP/sig.out" '^curve: 20 '
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
check "SIGINT: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "SIGINT: says it was interrupted" '^Interrupted: the levels done so far$' "$TMP/sig.out"
grepq "SIGINT: the level done is in the table" '^20 +20\.0 ' "$TMP/sig.out"
check "SIGINT: no tree left behind" test -z "$(ls -A "$TMP/fs")"

# SIGINT in the objective's search: what it found by then, not a verdict
"$FBRUN" curve -q --slo 'p99(rd)<1ns' --per-level 5 --warmup 1 -o "$TMP/cut.json" \
	"$TMP/c.f" >"$TMP/cut.out" 2>&1 &
pid=$!
wait_for "$TMP/cut.out" '^curve: 100\.0%\* '
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
check "SIGINT in the search: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... says it was interrupted before a rate met it" ': interrupted before a rate probed met it$' "$TMP/cut.out"
check "... and not that no rate met it" sh -c "! grep -q 'no rate met the objective' '$TMP/cut.out'"
pyok "... the file says it was interrupted" "$TMP/cut.json" "c['interrupted'] and not c['objective']['met']"

# --- --reuse: one tree for every run, removed at the end -----------------------
run_fbrun curve --levels 40,80 --per-level 1 --warmup 1 --reuse "$TMP/c.f"
check "--reuse: exit 0 (exit $rc)" test "$rc" -eq 0
check "--reuse: the tree made once, taken as it is for the second run" \
	test "$(grep -c '^[0-9.]*: fs: 0\.000MB written$' "$TMP/out")" -eq 1
check "--reuse: and removed at the end" test -z "$(ls -A "$TMP/fs")"
run_fbrun curve --levels 40,80 --per-level 1 --warmup 1 "$TMP/c.f"
check "without --reuse: the tree made anew for each run" \
	test "$(grep -c '^[0-9.]*: fs: 0\.000MB written$' "$TMP/out")" -eq 0 -a \
	"$(grep -c '^[0-9.]*: Removed fs tree$' "$TMP/out")" -eq 2

# --- doc/running.md's worked example: its script runs, its tables are the layout
doc=$srcdir/doc/running.md
sed -n "/^    cat >\/tmp\/openloop.f <<'EOF'\$/,/^    EOF\$/p" "$doc" |
	sed -e '1d' -e '$d' -e 's/^    //' >"$TMP/doc.f"
check "doc/running.md's open loop script is there" grep -q 'rate=\$rate' "$TMP/doc.f"
mkdir "$TMP/docdir"
run_fbrun -q -t 1 -D dir="$TMP/docdir" "$TMP/doc.f"
check "... and runs (exit $rc)" test "$rc" -eq 0
# pattern LINE: the line as an extended regex, numbers as numbers
pattern() {
	printf '%s\n' "$1" | sed -e 's/^ *//' -e 's|[()/.*%<]|\\&|g' \
		-e 's/[0-9][0-9]*\(\\\.[0-9][0-9]*\)\{0,1\}/[0-9]+(\\.[0-9]+)?/g' \
		-e 's/ \{1,\}/ +/g' -e 's/^/^/' -e 's/$/$/'
}
for head in 'Response time (ms)' 'Arrivals  '; do
	want=$(grep -m1 "^      $head" "$doc")
	got=$(grep -m1 "^$head" "$TMP/out" || :)
	check "doc's '$head' head is what fbrun prints" test "$(echo "$want" | sed 's/^ *//')" = "$got"
done
for row in read4k reader; do
	line=$(grep -m1 "^      $row " "$doc")
	grepq "doc's $row row has the layout fbrun prints" "$(pattern "$line")" "$TMP/out"
done
run_fbrun curve -q --levels 10,50% --per-level 1 --warmup 1 -D dir="$TMP/docdir" "$TMP/doc.f"
check "the doc's curve runs (exit $rc)" test "$rc" -eq 0
want=$(grep -m1 '^    level  ' "$doc" | sed 's/^    //')
got=$(grep -m1 '^level  ' "$TMP/out" || :)
check "doc's curve table head is what fbrun curve prints (with an objective)" \
	test "$want" = "$(echo "$got" | sed 's/$/  slo/')"

done_testing
