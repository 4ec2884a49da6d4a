#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun compare with groups of runs: fixtures with answers computed by
# hand (means, 95% intervals, Welch's test), a file of repeated runs as a
# group, the page in a real browser, and what runs side by side have too:
# one workload (or --common), a byte order mark read, a bad file said once.
. "${srcdir:-.}/tests/lib.sh"

# fixture NAME OPS_PER_S MB_PER_S MS_PER_OP STAT_OPS_PER_S
fixture() {
	printf '{"script": "fix.f", "seconds": 10, "flowops": [{"name": "read1", "ops": 1000, "ops_per_sec": %s, "mb_per_sec": %s, "ms_per_op": %s, "cpu_samples": 0}, {"name": "stat1", "ops": 1000, "ops_per_sec": %s, "mb_per_sec": 0, "ms_per_op": 0.5, "cpu_samples": 0}], "summary": {"ops_per_sec": %s}}\n' \
		"$2" "$3" "$4" "$5" "$2" >"$TMP/$1.json"
}
# A: 100 110 90 (mean 100, sd 10); B: twice A; C: 105 95 100 (mean 100, sd 5)
fixture a1 100 10 1.0 50
fixture a2 110 11 1.1 50
fixture a3 90 9 0.9 50
fixture b1 200 20 2.0 50
fixture b2 220 22 2.2 50
fixture b3 180 18 1.8 50
fixture c1 105 10.5 1.05 51
fixture c2 95 9.5 0.95 49
fixture c3 100 10 1.0 50
A="$TMP/a1.json $TMP/a2.json $TMP/a3.json"
B="$TMP/b1.json $TMP/b2.json $TMP/b3.json"
C="$TMP/c1.json $TMP/c2.json $TMP/c3.json"

# row METRIC FLOWOP: that flowop's line in that metric's table
row() { awk -v m="$1" -v f="$2" '$1 == m { on = 1; next } /^$/ { on = 0 } on && $1 == f' "$TMP/out"; }

# shellcheck disable=SC2086
run_fbrun compare $A -- $B --html "$TMP/ab.html"
check "groups A -- B: exits 0" test "$rc" -eq 0
grepq "the groups are named, with their runs" '^  A: 3 runs from .*a1\.json .*a3\.json \(fix\.f, \?\)$' "$TMP/out"
# mean 100, half-width t(0.975, 2) 10 / sqrt(3) = 4.302653 * 5.7735 = 24.84;
# B: 200 +- 49.68; Welch t = 100 / sqrt(100/3 + 400/3) = 7.746, df 2.94,
# p = 0.0048; ratio 2 with Fieller's interval: the roots of
# (100^2 - t^2 100/3) r^2 - 2 * 100 * 200 r + (200^2 - t^2 400/3), t =
# t(0.975, 2.94) = 3.2188: [1.532, 2.611] (Python, mpmath)
got=$(row ops/s read1)
check "2x: means and intervals by hand (100.0 +- 24.8, 200.0 +- 49.7)" \
	eval 'echo "$got" | grep -Eq "^read1 +100\.0 \+- 24\.8 +200\.0 \+- 49\.7 "'
check "2x: the ratio and its interval (2.00x [1.53, 2.61])" \
	eval 'echo "$got" | grep -q " 2\.00x \[1\.53, 2\.61\] "'
check "2x: p = 0.0048, significant" \
	eval 'echo "$got" | grep -Eq " 0\.0048 +significant$"'
check "ms/op too: 2.00x, significant" \
	eval 'row ms/op read1 | grep -Eq "^read1 +1\.000 \+- 0\.248 +2\.000 \+- 0\.497 +2\.00x .* significant$"'
check "the same figure in every run: no spread, so not tested" \
	eval 'row ops/s stat1 | grep -Eq " 1\.00x +- +not tested \(no spread: cannot judge\)$"'
check "a mean of 0 is not tested" \
	eval 'row mb/s stat1 | grep -q "not tested (a mean of 0)$"'

# noisy runs: the ratio's interval stays above 0 (Fieller's, as
# computed in tests/unit/test-statistics.c: [0.0929, 2.6915]; the delta
# method said [-0.07, 1.07])
N= M=
for v in 10 50 100 150 190; do
	fixture n$v $v 1 1 50
	fixture m$v $((v / 2)) 1 1 50
	N="$N $TMP/n$v.json" M="$M $TMP/m$v.json"
done
# shellcheck disable=SC2086
run_fbrun compare $N -- $M
check "noisy groups: the ratio's interval does not go below 0 (0.50x [0.09, 2.69])" \
	eval 'row ops/s read1 | grep -Eq " 0\.50x \[0\.09, 2\.69\] .* within noise$"'
# shellcheck disable=SC2086
run_fbrun compare $A -- $C
check "A -- C (same mean, other spread): within noise" \
	eval 'row ops/s read1 | grep -Eq "^read1 +100\.0 \+- 24\.8 +100\.0 \+- 12\.4 +1\.00x .* within noise$"'
# shellcheck disable=SC2086
run_fbrun compare $A -- $A
check "a group against itself: p = 1, within noise" \
	eval 'row ops/s read1 | grep -Eq " 1\.00x \[0\.[0-9]+, 1\.[0-9]+\] +1 +within noise$"'
# shellcheck disable=SC2086
run_fbrun compare --label before --label after $A -- $B
grepq "--label names the groups" '^  after: 3 runs from' "$TMP/out"
run_fbrun compare "$TMP/a1.json" -- "$TMP/b1.json"
check "one run a side: exits 0" test "$rc" -eq 0
check "one run a side: not tested" \
	eval 'row ops/s read1 | grep -q "not tested (2 runs a side needed)$"'
# shellcheck disable=SC2086
run_fbrun compare $A -- $B -- $C
check "three groups: exit 2" test "$rc" -eq 2
run_fbrun compare "$TMP/a1.json" "$TMP/b1.json"
grepq "two plain files: the run-by-run table as before" '^Runs \(ratios are to the first' "$TMP/out"

# --- no spread: three identical values a group judge nothing ----------------------
# Welch's t is d / 0 there: the runs give no estimate of the noise
fixture z1 100 10 1.0 50
fixture y1 200 20 2.0 50
for n in 2 3; do
	cp "$TMP/z1.json" "$TMP/z$n.json"
	cp "$TMP/y1.json" "$TMP/y$n.json"
done
Z="$TMP/z1.json $TMP/z2.json $TMP/z3.json"
Y="$TMP/y1.json $TMP/y2.json $TMP/y3.json"
# shellcheck disable=SC2086
run_fbrun compare $Z -- $Y
check "no spread, 100 100 100 against 200 200 200: exit 0 (exit $rc)" test "$rc" -eq 0
check "... the ratio without an interval, no p, not tested" \
	eval 'row ops/s read1 | grep -Eq "^read1 +100\.0 \+- 0\.0 +200\.0 \+- 0\.0 +2\.00x +- +not tested \(no spread: cannot judge\)$"'
check "... nothing called significant" eval '! grep -q significant "$TMP/out"'
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 10 $Y -- $Z
check "--fail-if-worse: 50% worse without spread: refused, not failed (exit $rc)" test "$rc" -eq 2
grepq "... says why" '^compare: refused: read1 ops/s: 50\.0% worse, but no spread in either group \(each run the same figure\): cannot judge$' "$TMP/err"
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 60 $Y -- $Z
check "... worse by less than the limit: no test could fail it, so it passes (exit $rc)" test "$rc" -eq 0
if command -v python3 >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	run_fbrun compare --format json $Z -- $Y
	ok=$(python3 -c "
import json, sys
o = [f for f in json.load(open(sys.argv[1]))['flowops'] if f['name'] == 'read1'][0]['ops_per_sec']
print(o['ratio'] == 2 and o['ratio_low'] is None and o['p'] is None and
      o['verdict'] == 'not tested (no spread: cannot judge)')" "$TMP/out" || :)
	check "... in JSON: the ratio, no interval, p null, the verdict says why" test "$ok" = True
else
	skip "no spread in JSON: needs python3"
fi

# --- runs of one workload, as runs side by side -----------------------------
# nerr: how many lines stderr has (one when a file is refused)
nerr() { wc -l <"$TMP/err" | tr -d ' '; }
# with_sha FIXTURE SCRIPT DIGEST: the fixture with a script and its digest
with_sha() {
	sed "s/\"script\": \"fix.f\"/\"script\": \"$2\", \"script_sha256\": \"$3\"/" "$TMP/$1.json"
}
for n in 1 2 3; do
	with_sha a$n fix.f aaaa >"$TMP/s$n.json"
	with_sha b$n other.f bbbb >"$TMP/o$n.json"
done
S="$TMP/s1.json $TMP/s2.json"
O="$TMP/o1.json $TMP/o2.json"
run_fbrun compare "$TMP/s1.json" "$TMP/o1.json"
plain=$(head -1 "$TMP/err")
# shellcheck disable=SC2086
run_fbrun compare $S -- $O
check "groups of different scripts: exit 2 (exit $rc)" test "$rc" -eq 2
check "... refused as runs side by side are ($plain)" grep -qxF "$plain" "$TMP/err"
grepq "... with the note on --common" '^fbrun: note: use --common to compare only the flowops they share$' "$TMP/err"
check "... no table" test ! -s "$TMP/out"
# shellcheck disable=SC2086
run_fbrun compare --common $S -- $O
check "--common: groups of different scripts compared (exit $rc)" test "$rc" -eq 0
grepq "... the table says they are" '^The runs are of different scripts\.$' "$TMP/out"

# read1 alone: the runs ran other flowops
for n in 1 2; do
	printf '{"script": "fix.f", "seconds": 10, "flowops": [{"name": "read1", "ops": 1000, "ops_per_sec": %s, "mb_per_sec": 10, "ms_per_op": 1, "cpu_samples": 0}], "summary": {"ops_per_sec": 100}}\n' \
		"${n}00" >"$TMP/r$n.json"
done
run_fbrun compare "$TMP/a1.json" "$TMP/r1.json"
plain=$(head -1 "$TMP/err")
run_fbrun compare "$TMP/a1.json" "$TMP/a2.json" -- "$TMP/r1.json" "$TMP/r2.json"
check "groups that ran other flowops: exit 2 (exit $rc)" test "$rc" -eq 2
check "... refused as runs side by side are ($plain)" grep -qxF "$plain" "$TMP/err"
run_fbrun compare --common "$TMP/a1.json" "$TMP/a2.json" -- "$TMP/r1.json" "$TMP/r2.json"
check "--common: compared on the flowops every run has (exit $rc)" \
	test "$rc" -eq 0 -a -n "$(row ops/s read1)" -a -z "$(row ops/s stat1)"
grepq "... and says so" '^Compared: the 1 flowop every run has$' "$TMP/out"

# --- what the other forms read, the groups read ------------------------------
# shellcheck disable=SC2086
run_fbrun compare $A -- $B
want=$(row ops/s read1)
{ printf '\357\273\277'; cat "$TMP/b1.json"; } >"$TMP/bom.json"
run_fbrun compare $A -- "$TMP/bom.json" "$TMP/b2.json" "$TMP/b3.json"
check "a file with a UTF-8 byte order mark in a group: read (exit $rc)" test "$rc" -eq 0
check "... as the file without it" test "$(row ops/s read1)" = "$want"
check "... nothing said" test ! -s "$TMP/err"
run_fbrun compare "$TMP/a1.json" "$TMP/bom.json"
check "... and side by side: exit 0, nothing said (exit $rc)" test "$rc" -eq 0 -a ! -s "$TMP/err"

# a name from a file does not drive the terminal, as side by side
for n in 1 2; do
	sed 's/"read1"/"read\\u001b[2J1"/' "$TMP/a$n.json" >"$TMP/esc$n.json"
done
run_fbrun compare "$TMP/esc1.json" "$TMP/esc2.json" -- "$TMP/esc1.json" "$TMP/esc2.json"
check "a control character in a name: exit 0 (exit $rc)" test "$rc" -eq 0
check "... printed as '?', not as it is" \
	test -n "$(row ops/s 'read?[2J1')" -a "$(tr -d -c '\033' <"$TMP/out" | wc -c)" -eq 0

# refused WHY DESC ARGS...: compare ARGS is exit 2, said in one line
refused() {
	why=$1 desc=$2
	shift 2
	run_fbrun compare "$@"
	check "$desc: exit 2 (exit $rc)" test "$rc" -eq 2
	check "... said once, cleanly ($(nerr) lines)" test "$(nerr)" -eq 1
	grepq "... says why" "$why" "$TMP/err"
}
# shellcheck disable=SC2086
refused "^fbrun: error: cannot read '$TMP/none\.json': No such file or directory$" \
	"a missing file in a group" $A -- "$TMP/none.json"
refused "^fbrun: error: cannot read '$TMP/none\.json': No such file or directory$" \
	"a missing file side by side" "$TMP/none.json" "$TMP/a1.json"
mkdir "$TMP/dir.json"
# shellcheck disable=SC2086
refused "^fbrun: error: cannot read '$TMP/dir\.json': Is a directory$" \
	"a directory in a group" "$TMP/dir.json" -- $B
printf 'garbage\n' >"$TMP/junk.json"
# shellcheck disable=SC2086
refused "^fbrun: error: $TMP/junk\.json:1:1: expected a value" \
	"a file that is not JSON in a group" $A -- "$TMP/b1.json" "$TMP/junk.json"
if as_nobody; then
	cp "$TMP/b1.json" "$TMP/secret.json"
	chmod 000 "$TMP/secret.json"
	rc=0
	# shellcheck disable=SC2086
	$as_user "$UFBRUN" compare $A -- "$TMP/secret.json" >"$TMP/out" 2>"$TMP/err" || rc=$?
	check "an unreadable file in a group: exit 2 (exit $rc)" test "$rc" -eq 2
	check "... said once, cleanly ($(nerr) lines)" test "$(nerr)" -eq 1
	grepq "... says why" "^fbrun: error: cannot read '$TMP/secret\.json': Permission denied$" "$TMP/err"
else
	skip "an unreadable file in a group: $why_not"
fi

# a file with repeats is a group: the A runs in one file
if command -v python3 >/dev/null 2>&1; then
	python3 -c "
import json, sys
runs = [json.load(open(p)) for p in sys.argv[2:]]
top = dict(runs[-1]); top['repeats'] = runs
json.dump(top, open(sys.argv[1], 'w'))" "$TMP/ra.json" $A
	python3 -c "
import json, sys
runs = [json.load(open(p)) for p in sys.argv[2:]]
top = dict(runs[-1]); top['repeats'] = runs
json.dump(top, open(sys.argv[1], 'w'))" "$TMP/rb.json" $B
	run_fbrun compare "$TMP/ra.json" "$TMP/rb.json"
	check "two --repeat files: compared as groups" \
		eval 'row ops/s read1 | grep -Eq "^read1 +100\.0 \+- 24\.8 +200\.0 \+- 49\.7 +2\.00x \[1\.53, 2\.61\] +0\.0048 +significant$"'
	grepq "... named after their files" '^  ra: 3 runs from' "$TMP/out"
	# shellcheck disable=SC2086
	python3 -c "
import json, sys
runs = [json.load(open(p)) for p in sys.argv[2:]]
top = dict(runs[-1]); top['repeats'] = runs
json.dump(top, open(sys.argv[1], 'w'))" "$TMP/ro.json" $O "$TMP/o3.json"
	# a --repeat file whose runs have no figure for read1's ops/s
	python3 -c "
import json, sys
runs = [json.load(open(p)) for p in sys.argv[2:]]
for r in runs:
    r['flowops'][0]['ops_per_sec'] = None
top = dict(runs[-1]); top['repeats'] = runs
json.dump(top, open(sys.argv[1], 'w'))" "$TMP/rn.json" $B
	run_fbrun compare --fail-if-worse 10 "$TMP/ra.json" "$TMP/rn.json"
	check "--fail-if-worse, a --repeat file without figures: refused (exit $rc)" test "$rc" -eq 2
	grepq "... says which and why" '^compare: refused: read1 ops/s: 3 of 3 runs of rn have none \(missing, null or not a number\)$' "$TMP/err"
	run_fbrun compare "$TMP/s1.json" "$TMP/ro.json"
	check "a --repeat file of another script: exit 2 (exit $rc)" test "$rc" -eq 2
	grepq "... refused as runs side by side are" "^fbrun: error: $TMP/ro\.json and $TMP/s1\.json are runs of different scripts \(other\.f and fix\.f: their script_sha256 differ\)$" "$TMP/err"
	check "... once for the file, not for each of its 3 runs" \
		test "$(grep -c 'different scripts' "$TMP/err")" -eq 1
fi

# the plain page: each run's --interval series, ops/s over time
cat >"$TMP/w.f" <<F
define fileset name=fs,path=$TMP/w,entries=8,dirwidth=4,size=1k,prealloc
define process name=p { thread name=t { flowop statfile name=st,filesetname=fs } }
run 60
F
run_fbrun -q -t 2 --interval 1 -o "$TMP/i1.json" "$TMP/w.f"
run_fbrun -q -t 2 --interval 1 -o "$TMP/i2.json" "$TMP/w.f"
run_fbrun compare "$TMP/i1.json" "$TMP/i2.json" --html "$TMP/series.html"
check "runs with --interval: compare exits 0" test "$rc" -eq 0
n=$(grep -o '<polyline class="run"' "$TMP/series.html" | wc -l)
check "the page draws each run's series over time ($n of 2)" test "$n" -eq 2
grepq "... under its heading" '<h2>Operations per second over time</h2>' "$TMP/series.html"
run_fbrun compare "$TMP/a1.json" "$TMP/b1.json" --html "$TMP/noseries.html"
check "runs without a series: no such chart" eval '! grep -q "over time" "$TMP/noseries.html"'

# the page: dots per run, error bars, rows by their verdict; the rows: the
# IO Summary's ops/s, read1 and stat1 in ops/s and ms/op, read1 in mb/s
# (stat1's is 0 in every run: left out)
check "the page is written" test -s "$TMP/ab.html"
n=$(grep -o '<circle class="run g[01]"' "$TMP/ab.html" | wc -l)
check "a dot per run, row and group (6 rows x 2 x 3 = 36: $n)" test "$n" -eq 36
n=$(grep -o '<line class="ci g[01]"' "$TMP/ab.html" | wc -l)
check "an error bar per row and group ($n of 12)" test "$n" -eq 12
n=$(grep -o '<tr class="significant">' "$TMP/ab.html" | wc -l)
check "the significant rows ($n of 4 and the verdict's 1)" test "$n" -eq 5
n=$(grep -o '<tr class="untested">' "$TMP/ab.html" | wc -l)
check "the rows without spread, not tested ($n of 2)" test "$n" -eq 2
grepq "a row left out as 0 in every run, and said" '<p class="note">Left out, as 0 in every run: 1 flowop\.</p>' "$TMP/ab.html"
if command -v chromium >/dev/null 2>&1; then
	chrome() {
		timeout 120 chromium --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update \
			--disable-sync --no-first-run --disable-quic \
			--user-data-dir="$TMP/chrome" --window-size=1200,1200 "$@" \
			"file://$TMP/ab.html" 2>/dev/null
	}
	chrome --dump-dom >"$TMP/dom.html"
	check "Chromium: its DOM has the 6 rows' plots and the 36 dots" \
		test "$(grep -o '<svg' "$TMP/dom.html" | wc -l)" -eq 6 -a \
		"$(grep -o '<circle' "$TMP/dom.html" | wc -l)" -eq 36
	chrome --screenshot="$TMP/shot.png" >/dev/null
	check "Chromium: the screenshot shows the charts" \
		test "$(stat -c %s "$TMP/shot.png" 2>/dev/null || echo 0)" -gt 20000
else
	skip "Chromium: the page's DOM: chromium is not installed"
	skip "Chromium: the screenshot: chromium is not installed"
fi

# small figures get the digits to show them (0.027, not 0.0)
fixture sm1 100 0.027 1 50
fixture sm2 100 0.030 1 50
fixture sm3 100 0.024 1 50
fixture bg1 100 0.036 1 50
fixture bg2 100 0.040 1 50
fixture bg3 100 0.032 1 50
run_fbrun compare "$TMP/sm1.json" "$TMP/sm2.json" "$TMP/sm3.json" -- \
	"$TMP/bg1.json" "$TMP/bg2.json" "$TMP/bg3.json"
check "small means: shown with two significant digits, as side by side" \
	eval 'row mb/s read1 | grep -Eq "^read1 +0\.027 \+- 0\.007 +0\.036 \+- 0\.010 +1\.33x "'

# --- the runs, and what differs between the groups --------------------------------
# shellcheck disable=SC2086
run_fbrun compare $A -- $B
grepq "a table of the runs, as side by side" '^Runs:$' "$TMP/out"
grepq "... a line per run, named after its group" \
	'^  A#1  fix\.f, \?, \? \(0 cpus\), \?, 10\.0 s$' "$TMP/out"
grepq "... to the second group's last" '^  B#3  fix\.f, ' "$TMP/out"
check "... no note on one run a side: groups estimate the noise" \
	eval '! grep -q "^Note: " "$TMP/out"'
V=
for f in a1 a2 a3 b1 b2 b3; do
	case $f in a*) v=2 ;; b3) v=8 ;; *) v=4 ;; esac
	sed "s|\"seconds\": 10,|\"seconds\": 10, \"variables\": {\"nthreads\": \"$v\", \"dir\": \"/d\"},|" \
		"$TMP/$f.json" >"$TMP/v$f.json"
	V="$V $TMP/v$f.json"
done
VA=${V% * * *} VB=${V#"$VA"}
# shellcheck disable=SC2086
run_fbrun compare --label two --label more $VA -- $VB
grepq "the variables that differ, each group's values once each" \
	'^  \$nthreads: two: 2 \| more: 4, 8$' "$TMP/out"
check "... not those that do not" eval '! grep -q "\$dir" "$TMP/out"'

# --- the page: each flowop on its own scale -------------------------------------
# read1 (about 200 ops/s) and stat1 (50) share a chart: each row's largest
# dot or interval end is at the plot's right end, x = 332
if command -v python3 >/dev/null 2>&1; then
	ok=$(python3 -c "
import re, sys
page = open(sys.argv[1]).read()
chart = page.split('<h2>Operations per second</h2>')[1].split('</table>')[0]
rows = re.findall(r'<svg class=\"strip\"[^>]*>(.*?)</svg>', chart, re.S)
ends = [max(float(x) for x in re.findall(r'(?:cx|x1|x2)=\"([0-9.]+)\"', r)) for r in rows]
print(len(rows) == 2 and all(abs(e - 332) < 0.05 for e in ends), ends)" "$TMP/ab.html" || :)
	check "each flowop's row reaches the scale's end ($ok)" test "${ok%% *}" = True
else
	skip "each flowop on its own scale: needs python3"
fi

# --- --fail-if-worse with groups: worse by more than PCT, and significant ----------
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 10 --label fast --label slow $B -- $A
check "half the ops/s, significant: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... said with the limit and p" \
	'^compare: fail: read1 ops/s: slow 50\.0% worse than fast \(limit 10%; p = 0\.0048\)$' "$TMP/err"
check "... once (stat1 is the same)" test "$(wc -l <"$TMP/err")" -eq 1
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 60 --label fast --label slow $B -- $A
check "worse by less than PCT: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... and says so" "^compare: pass: no flowop's ops/s significantly worse than fast by more than 60%\$" "$TMP/err"
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 10 $N -- $M
check "noisy: 50% worse but within noise: exit 0 (exit $rc)" test "$rc" -eq 0
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 10 --metric latency $A -- $B
check "--metric latency: ms/op doubled, significant: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... said as ms/op" '^compare: fail: read1 ms/op: B 100\.0% worse than A \(limit 10%; p = 0\.0048\)$' "$TMP/err"
run_fbrun compare --fail-if-worse 10 "$TMP/b1.json" -- "$TMP/a1.json"
check "one run a side: nothing tested, so refused, not passed (exit $rc)" test "$rc" -eq 2
grepq "... and says why" "^compare: refused: no flowop's ops/s could be judged against A \(a test needs 2 runs a side with the figure\)$" "$TMP/err"
# a group without figures: read1's ops/s null in every run of it
for i in 1 2 3; do
	sed 's/"ops_per_sec": [0-9.]*,/"ops_per_sec": null,/' "$TMP/b$i.json" >"$TMP/n$i.json"
done
run_fbrun compare --fail-if-worse 10 $B -- "$TMP/n1.json" "$TMP/n2.json" "$TMP/n3.json"
check "a group without figures: refused (exit $rc)" test "$rc" -eq 2
grepq "... says which and why" '^compare: refused: read1 ops/s: 3 of 3 runs of B have none \(missing, null or not a number\)$' "$TMP/err"
check "... never pass" eval '! grep -q pass "$TMP/err"'
sed 's/^{/{"ended_by": "signal", /' "$TMP/a2.json" >"$TMP/sig2.json"
run_fbrun compare --fail-if-worse 10 $A -- "$TMP/a1.json" "$TMP/sig2.json" "$TMP/a3.json"
check "a run of the second group ended by a signal: fails (exit $rc)" test "$rc" -eq 1
grepq "... says which and why" '^compare: fail: B#2 ended by signal: the run did not finish; B is not judged$' "$TMP/err"
sed 's/"name": "read1",/"name": "read1", "errors": 2,/' "$TMP/b2.json" >"$TMP/e2.json"
run_fbrun compare --fail-if-worse 10 $B -- "$TMP/b1.json" "$TMP/e2.json" "$TMP/b3.json"
check "failed operations the first group had none of: fails (exit $rc)" test "$rc" -eq 1
grepq "... says which and why" '^compare: fail: read1 ops/s: B had 2 failed operations, A none$' "$TMP/err"

# --- --format json and csv --------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	run_fbrun compare --format json --fail-if-worse 10 $B -- $A
	check "--format json: exit 1 with the failing gate (exit $rc)" test "$rc" -eq 1
	check "... valid JSON (python3 -m json.tool)" python3 -m json.tool "$TMP/out" /dev/null
	ok=$(python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))
f = {x['name']: x for x in c['flowops']}
o = f['read1']['ops_per_sec']
print(c['comparison'] == 'groups' and [g['label'] for g in c['groups']] == ['A', 'B'] and
      [g['runs'] for g in c['groups']] == [3, 3] and len(c['runs']) == 6 and
      c['runs'][3]['label'] == 'B#1' and c['runs'][3]['group'] == 'B' and
      o['groups'][0]['values'] == [200, 220, 180] and o['groups'][0]['mean'] == 200 and
      abs(o['groups'][1]['ci95'] - 24.8414) < 1e-3 and o['ratio'] == 0.5 and
      abs(o['p'] - 0.004798) < 1e-5 and o['verdict'] == 'significant' and
      0 < o['ratio_low'] < 0.5 < o['ratio_high'] < 1 and
      f['read1']['gate'] == {'verdict': 'fail', 'worse_pct': 50} and
      f['stat1']['gate']['verdict'] == 'pass' and
      c['gate']['verdict'] == 'fail' and c['gate']['failed'] == 1)" "$TMP/out" || :)
	check "... means, intervals, ratio, p, verdicts" test "$ok" = True
	# shellcheck disable=SC2086
	run_fbrun compare --format csv --fail-if-worse 10 $B -- $A
	ok=$(python3 -c "
import csv, sys
head = open(sys.argv[1]).readline().strip()
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
r = [x for x in rows if x['flowop'] == 'read1' and x['metric'] == 'ops_per_sec'][0]
print(head == 'flowop,metric,first_n,first_mean,first_ci95,second_n,second_mean,second_ci95,ratio,ratio_low,ratio_high,p,verdict,gate,worse_pct' and
      len(rows) == 11 and r['first_mean'] == '200' and r['second_mean'] == '100' and
      r['ratio'] == '0.5' and r['verdict'] == 'significant' and r['gate'] == 'fail' and
      [x['gate'] for x in rows if x['gate']] == ['fail', 'pass'] and
      [(x['flowop'], x['metric'], x['first_mean'], x['second_mean'], x['verdict']) for x in rows[10:]] ==
      [('IO Summary', 'ops_per_sec', '200', '100', 'significant')])" "$TMP/out" || :)
	check "--format csv: a header, a row per flowop and figure and IO Summary figure, the verdicts" test "$ok" = True
else
	for t in json json-valid json-values csv; do skip "--format $t: needs python3"; done
fi

done_testing
