#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun compare: the table and its ratios, refusing runs of different
# workloads, --common, labels, bad input and the HTML page, on tiny real
# runs.  Facts about structure and ratios, never about timings.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# has FILE REGEX: grep -E quietly
has() { grep -Eq -- "$2" "$1"; }
# chars N C: the character C N times
chars() { head -c "$1" /dev/zero | tr '\0' "$2"; }

# --- three tiny runs: two of images.f, one of another script -------------
for n in 2 3; do
	run_fbrun -q -t 1 -D dir="$TMP/img$n" -D nfiles=40 -D meandirwidth=10 \
		-D nthreads=$n -D ncreators=1 -o "$TMP/img$n.json" \
		"$srcdir/workloads/images.f"
	check "images.f run with $n threads exits 0" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
done
# shares openfile2 and readfile2 with images.f, nothing else
cat >"$TMP/web.f" <<F
define fileset name=bigfileset,path=$TMP/web,entries=20,size=4k,dirwidth=5,prealloc=100
define process name=web { thread name=webserver {
  flowop openfile name=openfile2,filesetname=bigfileset,fd=1
  flowop readwholefile name=readfile2,fd=1,iosize=4k
  flowop closefile name=closefile2,fd=1
  flowop statfile name=stat1,filesetname=bigfileset } }
run 1
F
run_fbrun -q -o "$TMP/web.json" "$TMP/web.f"
check "the other workload exits 0" test "$rc" -eq 0
A=$TMP/img2.json
B=$TMP/img3.json
C=$TMP/web.json

# --- a run compared with itself ---------------------------------------------
run_fbrun compare "$A" "$A"
check "compare A A exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
cp "$TMP/out" "$TMP/self.txt"
nratio=$(grep -o '([^)]*)' "$TMP/self.txt" | grep -c 'x)$' || true)
other=$(grep -o '([^)]*x)' "$TMP/self.txt" | grep -vc '^(1\.00x)$' || true)
check "a run against itself has ratios ($nratio)" test "$nratio" -gt 20
check "and every one is 1.00x ($other are not)" test "$other" -eq 0
for m in 'ops/s' 'mb/s' 'ms/op' 'us/op-cpu' 'p99 ms'; do
	has "$TMP/self.txt" "^readfile2 +$m " && pass "readfile2 has a $m row" ||
		fail "readfile2 has a $m row"
done
for m in 'ops/s' 'reads/s' 'writes/s' 'mb/s' 'ms/op' 'us/op-cpu'; do
	has "$TMP/self.txt" "^IO Summary +$m " && pass "IO Summary has a $m row" ||
		fail "IO Summary has a $m row"
done
has "$TMP/self.txt" '^flowop +metric +img2 +img2$' &&
	pass "columns are labelled with the file names" ||
	fail "columns are labelled with the file names"
has "$TMP/self.txt" "^  img2 .*images\.f, [a-z0-9]+ on /" &&
	pass "the header says what each run is (script, file system)" ||
	fail "the header says what each run is (script, file system)"
if $have_python; then
	# five rows per flowop, in the file's order
	json "$A" "'\n'.join(f['name'] for f in r['flowops'])" >"$TMP/names"
	n=$(wc -l <"$TMP/names")
	rows=$(awk '$1 != "IO" && $2 ~ /^(ops\/s|mb\/s|ms\/op|us\/op-cpu|p99)$/' \
		"$TMP/self.txt" | wc -l)
	check "5 rows for each of the $n flowops ($rows)" test "$rows" -eq $((n * 5))
	awk '$2 == "ops/s" && $1 != "IO" { print $1 }' "$TMP/self.txt" >"$TMP/order"
	check "flowops appear in the file's order" cmp -s "$TMP/names" "$TMP/order"
fi

# --- two runs of one workload: ratios -------------------------------------
run_fbrun compare "$A" "$B" --label two --label three
check "compare A B exits 0" test "$rc" -eq 0
cp "$TMP/out" "$TMP/ab.txt"
has "$TMP/ab.txt" '^flowop +metric +two +three$' &&
	pass "--label names the columns in order" ||
	fail "--label names the columns in order"
has "$TMP/ab.txt" '^  \$nthreads: 2 \| 3$' &&
	pass "the variables that differ are listed" ||
	fail "the variables that differ are listed"
if $have_python; then
	want=$(python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
fa = [f for f in a['flowops'] if f['name'] == 'readfile2'][0]['ops_per_sec']
fb = [f for f in b['flowops'] if f['name'] == 'readfile2'][0]['ops_per_sec']
r = fb / fa
print('%.0fx' % r if r >= 99.995 else '%.2fx' % r)" "$A" "$B")
	got=$(awk '$1 == "readfile2" && $2 == "ops/s" { print $5 }' "$TMP/ab.txt")
	check "readfile2 ops/s ratio is B/A ($got, want ($want))" test "$got" = "($want)"
fi
run_fbrun compare --label only "$A" "$B"
has "$TMP/out" '^flowop +metric +only +img3$' &&
	pass "runs without a --label keep their file name" ||
	fail "runs without a --label keep their file name"
run_fbrun compare -l x -l y -l z "$A" "$B"
check "more labels than files exits 2" test "$rc" -eq 2

# --- different workloads ----------------------------------------------------
run_fbrun compare "$A" "$C"
check "runs of different scripts are refused with exit 2" test "$rc" -eq 2
has "$TMP/err" 'different scripts' && pass "and the message says why" ||
	fail "and the message says why"
has "$TMP/err" -- '--common' && pass "and suggests --common" ||
	fail "and suggests --common"
check "nothing is printed on standard output" test ! -s "$TMP/out"
run_fbrun compare --common "$A" "$C"
check "--common compares them, exit 0" test "$rc" -eq 0
has "$TMP/out" '^readfile2 +ops/s ' && has "$TMP/out" '^openfile2 +ops/s ' &&
	pass "--common keeps the shared flowops" ||
	fail "--common keeps the shared flowops"
has "$TMP/out" '^(deletefile1|stat1|closefile2) ' &&
	fail "--common drops the others" || pass "--common drops the others"
has "$TMP/out" 'left out: 11 of img2.s 13, 2 of web.s 4' &&
	pass "--common says how many were left out" ||
	fail "--common says how many were left out"
if $have_python; then
	# same script, one flowop fewer: the name sets differ
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1])); r['flowops'] = r['flowops'][1:]
json.dump(r, open(sys.argv[2], 'w'))" "$A" "$TMP/fewer.json"
	run_fbrun compare "$A" "$TMP/fewer.json"
	check "different flowop sets are refused with exit 2" test "$rc" -eq 2
	has "$TMP/err" 'ran different flowops \(only in .*img2\.json: deletefile1' &&
		pass "and the message names the missing flowop" ||
		fail "and the message names the missing flowop"
fi

# --- bad input ----------------------------------------------------------------
printf '{\n  "flowops": [\n    {"name": "a"}\n    {"name": "b"}\n  ]\n}\n' >"$TMP/bad.json"
run_fbrun compare "$A" "$TMP/bad.json"
check "invalid JSON exits 2" test "$rc" -eq 2
has "$TMP/err" "bad\.json:4:5: expected ',' or ']'" &&
	pass "and the error has file:line:col" || fail "and the error has file:line:col"
head -c 2000 "$A" >"$TMP/cut.json"
run_fbrun compare "$TMP/cut.json" "$A"
check "a truncated file exits 2" test "$rc" -eq 2
has "$TMP/err" 'cut\.json:[0-9]+:[0-9]+: ' && pass "with its location" ||
	fail "with its location"
: >"$TMP/empty.json"
run_fbrun compare "$TMP/empty.json" "$A"
check "an empty file exits 2" test "$rc" -eq 2
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' >"$TMP/deep.json"
run_fbrun compare "$TMP/deep.json" "$A"
check "deep nesting is an error, not a crash" test "$rc" -eq 2
has "$TMP/err" 'nested deeper' && pass "and says so" || fail "and says so"
# jansson places an error after the token it read; the message names
# where the token starts, as doc/compare.md shows
printf '{"flowops": [],\n "a": 1 "b": 2}' >"$TMP/member.json"
run_fbrun compare "$TMP/member.json" "$A"
grepq "a missing comma: at the next member's quote" \
	"member\.json:2:9: expected ',' or '}' after an object member, found '\"'\$" "$TMP/err"
printf '{"flowops": [], "x": {"k": 1, "y": [{"k": 2}]},\n "k": 3, "x": 4}' >"$TMP/dup2.json"
run_fbrun compare "$TMP/dup2.json" "$A"
grepq "a duplicate key names the first of its own object" \
	'dup2\.json:2:10: duplicate key "x" \(first at 1:17\)$' "$TMP/err"
# nesting within jansson's limit (2048 levels) reads
awk 'BEGIN { printf "{\"flowops\": [], \"deep\": "; for (i = 0; i < 2000; i++) printf "[";
	for (i = 0; i < 2000; i++) printf "]"; print "}" }' >"$TMP/nested.json"
run_fbrun compare "$TMP/nested.json" "$TMP/nested.json"
grepq "2000 levels of nesting are read (to 'no flowop in common')" 'no flowop in common' "$TMP/err"
printf '{"a": "\\ud800"}' >"$TMP/surrogate.json"
run_fbrun compare "$TMP/surrogate.json" "$A"
check "an unpaired surrogate exits 2" test "$rc" -eq 2
printf '{"script": "x"}' >"$TMP/other.json"
run_fbrun compare "$TMP/other.json" "$A"
check "JSON that is not a results file exits 2" test "$rc" -eq 2
has "$TMP/err" 'not an fbrun results file' && pass "and says so" ||
	fail "and says so"
run_fbrun compare "$TMP/missing.json" "$A"
check "a missing file exits 2" test "$rc" -eq 2
has "$TMP/err" "cannot read" && pass "and says it cannot read it" ||
	fail "and says it cannot read it"
run_fbrun compare "$A"
check "one file is a usage error" test "$rc" -eq 2
run_fbrun compare --bogus "$A" "$B"
check "an unknown option exits 2" test "$rc" -eq 2
run_fbrun compare --help
check "--help exits 0" test "$rc" -eq 0 -a -s "$TMP/out"

# --- the HTML page --------------------------------------------------------------
run_fbrun compare "$A" "$B" --label '<b>&two' --html "$TMP/r.html"
check "--html exits 0" test "$rc" -eq 0
check "and writes the page" test -s "$TMP/r.html"
has "$TMP/r.html" '<svg' && pass "the page has inline SVG" ||
	fail "the page has inline SVG"
has "$TMP/r.html" '<script|src=|href=|@import|url\(' &&
	fail "no script and nothing fetched" || pass "no script and nothing fetched"
has "$TMP/r.html" '&lt;b&gt;&amp;two' && ! has "$TMP/r.html" '<b>&two' &&
	pass "labels are escaped" || fail "labels are escaped"
bars=$(grep -o '<svg [^>]*class="bars"' "$TMP/r.html" | wc -l)
check "one bar chart per metric ($bars)" test "$bars" -eq 5
if $have_python; then
	cat >"$TMP/check.py" <<'P'
import sys
from html.parser import HTMLParser
VOID = {'meta', 'br', 'hr', 'img', 'input', 'link', 'rect', 'line',
	'polyline', 'path', 'circle'}
class Check(HTMLParser):
	def __init__(self):
		super().__init__()
		self.stack, self.errors = [], []
	def handle_starttag(self, tag, attrs):
		if tag not in VOID:
			self.stack.append(tag)
	def handle_startendtag(self, tag, attrs):
		pass # <rect .../>: opened and closed
	def handle_endtag(self, tag):
		if not self.stack or self.stack[-1] != tag:
			self.errors.append('%s at %s' % (tag, self.getpos()))
		else:
			self.stack.pop()
c = Check()
c.feed(open(sys.argv[1], encoding='utf-8').read())
c.close()
if c.errors or c.stack:
	print('bad nesting:', c.errors[:3], 'unclosed:', c.stack[-3:])
	sys.exit(1)
P
	check "the page parses with balanced tags" python3 "$TMP/check.py" "$TMP/r.html"
	want=$(python3 -c "
import json, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
names = [f['name'] for f in runs[0]['flowops']]
def has(r, n):
	return any(f['name'] == n and any(b['count'] for b in f.get('histogram', []))
		   for f in r['flowops'])
print(sum(1 for n in names if any(has(r, n) for r in runs)))" "$A" "$B")
	got=$(grep -o '<svg [^>]*class="cdf"' "$TMP/r.html" | wc -l)
	check "a latency CDF per flowop with data ($got, want $want)" test "$got" -eq "$want"
fi
# Settings outside the script that differ are named: --data, mount options
sed 's/^  "data": "default"/  "data": "random"/' "$A" >"$TMP/data.json"
run_fbrun compare "$A" "$TMP/data.json"
grepq "a different --data is named" '^  --data: default \| random$' "$TMP/out"
run_fbrun compare "$A" "$TMP/data.json" --html "$TMP/data.html"
grepq "and in the HTML" '<tr><td>--data</td><td>default</td><td>random</td></tr>' "$TMP/data.html"
run_fbrun compare "$A" "$A"
check "the same settings are not listed" test "$(grep -c -- '--data\|mount options' "$TMP/out")" -eq 0

# In a real browser: the DOM Chromium builds holds every chart as SVG, and
# a screenshot is not blank (a blank 1200x2000 PNG is a few KB).
if command -v chromium >/dev/null 2>&1; then
	chrome() {
		timeout 120 chromium --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update \
			--disable-sync --no-first-run --disable-quic \
			--user-data-dir="$TMP/chrome" --window-size=1200,2000 "$@" \
			"file://$TMP/r.html" 2>/dev/null
	}
	chrome --dump-dom >"$TMP/dom.html"
	svgs=$(grep -o '<svg' "$TMP/r.html" | wc -l)
	check "Chromium: its DOM has all $svgs charts" \
		test "$(grep -o '<svg' "$TMP/dom.html" | wc -l)" -eq "$svgs"
	chrome --screenshot="$TMP/shot.png" >/dev/null
	check "Chromium: the screenshot shows the charts" \
		test "$(stat -c %s "$TMP/shot.png" 2>/dev/null || echo 0)" -gt 20000
else
	skip "Chromium: its DOM has all the charts: chromium is not installed"
	skip "Chromium: the screenshot shows the charts: chromium is not installed"
fi

# --- size: linear in the variables; long names quoted short ---------------
# 100000 variables, each differing: under a second of CPU when each lookup
# is logarithmic, over a minute when it is linear.  The CPU-time cap is far
# from both (a sanitizer build is some ten times slower).
cpu=20
if command -v ldd >/dev/null 2>&1 &&
	ldd "$FBRUN" 2>/dev/null | grep -Eq 'lib(asan|tsan|ubsan)'; then
	cpu=100
fi
vars() {
	awk -v d="$2" '{ print }
	/^  "variables": \{$/ { for (i = 0; i < 100000; i++) printf "    \"zv%d\": \"%d\",\n", i, i + d }' "$A" >"$1"
}
vars "$TMP/v0.json" 0
vars "$TMP/v1.json" 1
rc=0
(ulimit -t "$cpu" && exec "$FBRUN" compare "$TMP/v0.json" "$TMP/v1.json") \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "100000 variables that differ: exit 0 within $cpu s of CPU (exit $rc)" test "$rc" -eq 0
check "... each of them listed" test "$(grep -c '^  \$zv[0-9]*: ' "$TMP/out")" -eq 100000
rm -f "$TMP/v0.json" "$TMP/v1.json"
if $have_python; then
	# a 10 MB flowop name only one run has: the error quotes 64 bytes of it
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1])); r['flowops'][0]['name'] = 'n' * 10485760
json.dump(r, open(sys.argv[2], 'w'))" "$A" "$TMP/longname.json"
	rc=0
	timeout 300 "$FBRUN" compare "$A" "$TMP/longname.json" >"$TMP/out" 2>"$TMP/err" || rc=$?
	check "a 10 MB flowop name in one run only: exit 2 (exit $rc)" test "$rc" -eq 2
	grepq "... naming its first 64 bytes" "only in .*longname\.json: n{64}\.\.\.;" "$TMP/err"
	check "... in a short message ($(wc -c <"$TMP/err") bytes)" test "$(wc -c <"$TMP/err")" -lt 1024
	printf '{"flowops": [], "%s": 1, "%s": 2}' "$(chars 1000 k)" "$(chars 1000 k)" >"$TMP/dupkey.json"
	run_fbrun compare "$TMP/dupkey.json" "$A"
	grepq "a duplicate 1000-byte key: quoted short, with its reason" \
		"dupkey\.json:1:[0-9]+: duplicate key \"k{64}\.\.\.\" \(first at 1:[0-9]+\)\$" "$TMP/err"
	rm -f "$TMP/longname.json"
fi

run_fbrun compare "$A" "$B" --html "$TMP/no/such/dir/r.html"
check "an unwritable --html path exits 2" test "$rc" -eq 2

# --- one run a side: no noise estimate ------------------------------------------
run_fbrun compare "$A" "$B"
grepq "one run a side: a note says there is no estimate of the noise" \
	'^Note: one run a side gives no estimate of the noise' "$TMP/out"
grepq "... and suggests --repeat N" 'Run each side with --repeat N' "$TMP/out"

# --- --format json and csv --------------------------------------------------------
run_fbrun compare --format text "$A" "$B"
cp "$TMP/out" "$TMP/text.txt"
run_fbrun compare "$A" "$B"
check "--format text: the table, as without it" cmp -s "$TMP/out" "$TMP/text.txt"
run_fbrun compare --format xml "$A" "$B"
check "--format xml: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says which formats there are" "text, json or csv, got 'xml'" "$TMP/err"
if $have_python; then
	run_fbrun compare --format json --label two --label three "$A" "$B"
	check "--format json: exit 0 (exit $rc)" test "$rc" -eq 0
	check "... valid JSON (python3 -m json.tool)" python3 -m json.tool "$TMP/out" /dev/null
	ok=$(python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))
a, b = (json.load(open(p)) for p in sys.argv[2:4])
fa = {f['name']: f['ops_per_sec'] for f in a['flowops']}
fb = {f['name']: f['ops_per_sec'] for f in b['flowops']}
rows = {f['name']: f['ops_per_sec'] for f in c['flowops']}
print(c['comparison'] == 'runs' and c['base'] == 'two' and
      [r['label'] for r in c['runs']] == ['two', 'three'] and
      {'name': '\$nthreads', 'values': ['2', '3']} in c['differences'] and
      list(rows) == [f['name'] for f in a['flowops']] and
      all(abs(rows[n]['values'][0] - fa[n]) <= 1e-5 * fa[n] + 1e-9 and
          abs(rows[n]['values'][1] - fb[n]) <= 1e-5 * fb[n] + 1e-9 and
          (fa[n] == 0 or abs(rows[n]['ratios'][1] - fb[n] / fa[n]) < 1e-5 * fb[n] / fa[n] + 1e-9)
          for n in rows) and 'gate' not in c)" "$TMP/out" "$A" "$B" || :)
	check "... its flowops, values and ratios are the files' (no gate without --fail-if-worse)" test "$ok" = True
	run_fbrun compare --format csv "$A" "$B"
	check "--format csv: exit 0 (exit $rc)" test "$rc" -eq 0
	ok=$(python3 -c "
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
a = json.load(open(sys.argv[2]))
head = open(sys.argv[1]).readline().strip()
r = [x for x in rows if x['flowop'] == 'readfile2' and x['metric'] == 'ops_per_sec']
print(head == 'flowop,metric,run,value,ratio,gate,worse_pct' and
      len(rows) == 2 * (5 * len(a['flowops']) + 6) and
      [x['run'] for x in r] == ['img2', 'img3'] and r[0]['ratio'] == '1' and
      abs(float(r[1]['ratio']) - float(r[1]['value']) / float(r[0]['value'])) < 1e-4 * float(r[1]['ratio']))" "$TMP/out" "$A" || :)
	check "... a header, a row per flowop, figure and run, ratios to the first" test "$ok" = True
else
	for t in json json-values csv csv-rows; do skip "--format $t: needs python3"; done
fi

# --- --fail-if-worse ----------------------------------------------------------------
# gate NAME OPS_PER_S MS_PER_OP P99_NS STAT_OPS_PER_S: a results file by hand
gate() {
	printf '{"script": "fix.f", "seconds": 10, "flowops": [{"name": "readfile1", "ops": 1000, "ops_per_sec": %s, "mb_per_sec": 1, "ms_per_op": %s, "cpu_samples": 0, "latency_ns": {"p99": %s}}, {"name": "stat1", "ops": 1000, "ops_per_sec": %s, "mb_per_sec": 0, "ms_per_op": 0.5, "cpu_samples": 0, "latency_ns": {"p99": 1000000}}], "summary": {"ops_per_sec": %s}}\n' \
		"$2" "$3" "$4" "$5" "$2" >"$TMP/$1.json"
}
gate base 100 1.0 2000000 100
gate new 58.8 1.3 2100000 95
G="$TMP/base.json $TMP/new.json"
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 10 $G
check "--fail-if-worse 10, ops/s 41.2% down: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... a line says which flowop, by how much, against which limit" \
	'^compare: fail: readfile1 ops/s: new 41\.2% worse than base \(limit 10%\)$' "$TMP/err"
check "... and only that one (stat1 is 5% down)" test "$(wc -l <"$TMP/err")" -eq 1
grepq "... the table is printed as ever" '^readfile1 +ops/s +100\.0 +58\.8 \(0\.59x\)$' "$TMP/out"
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 41.5% $G
check "--fail-if-worse 41.5%: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... and says none is worse by more" \
	"^compare: pass: no flowop's ops/s worse than base by more than 41\.5%\$" "$TMP/err"
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 20 --metric latency $G
check "--metric latency, ms/op 30% up: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... said as ms/op" '^compare: fail: readfile1 ms/op: new 30\.0% worse than base \(limit 20%\)$' "$TMP/err"
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 4 --metric p99 $G
check "--metric p99, 5% up: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... said as p99" '^compare: fail: readfile1 p99 ms: new 5\.0% worse than base \(limit 4%\)$' "$TMP/err"
run_fbrun compare --fail-if-worse 10 "$TMP/new.json" "$TMP/base.json"
check "better, not worse: exit 0 (exit $rc)" test "$rc" -eq 0
# shellcheck disable=SC2086
run_fbrun compare --metric latency $G
check "--metric without --fail-if-worse: exit 2 (exit $rc)" test "$rc" -eq 2
for bad in -5 ten 10x ''; do
	# shellcheck disable=SC2086
	run_fbrun compare --fail-if-worse "$bad" $G
	check "--fail-if-worse '$bad': exit 2 (exit $rc)" test "$rc" -eq 2
done
# shellcheck disable=SC2086
run_fbrun compare --fail-if-worse 10 --metric speed $G
check "--metric speed: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says which there are" "ops, latency, p99 or response, got 'speed'" "$TMP/err"
# --- --fail-if-worse judges or refuses, never passes what it cannot judge ----------
# run_as NAME READFILE1 [TOP]: a results file whose readfile1 has the
# members READFILE1 (after its name) and whose top level has TOP too;
# stat1 is as in base.json
run_as() {
	printf '{"script": "fix.f", "seconds": 10%s, "flowops": [{"name": "readfile1", %s}, {"name": "stat1", "ops": 1000, "ops_per_sec": 100, "mb_per_sec": 0, "ms_per_op": 0.5, "cpu_samples": 0, "latency_ns": {"p99": 1000000}}], "summary": {"ops_per_sec": 100}}\n' \
		"${3:+, $3}" "$2" >"$TMP/$1.json"
}
OK='"ops": 1000, "mb_per_sec": 1, "ms_per_op": 1.0, "cpu_samples": 0, "latency_ns": {"p99": 2000000}'
# judged ARGS... -- CODE WHAT LINE: compare --fail-if-worse 10 ARGS
# exits CODE, says LINE (a regex), and never says pass
judged() {
	ja="" jcode="" jwhat="" jline=""
	while [ "$1" != -- ]; do ja="$ja $1"; shift; done
	jcode=$2 jwhat=$3 jline=$4
	# shellcheck disable=SC2086
	run_fbrun compare --fail-if-worse 10 $ja
	check "$jwhat: exit $jcode (exit $rc)" test "$rc" -eq "$jcode"
	grepq "... says which and why" "$jline" "$TMP/err"
	check "... and never pass" eval '! grep -q "pass" "$TMP/err"'
}
run_as gone "$OK"
judged "$TMP/base.json" "$TMP/gone.json" -- 2 "the new run's figure missing" \
	'^compare: refused: readfile1 ops/s: gone has none \(missing, null or not a number\)$'
run_as null "$OK, \"ops_per_sec\": null"
judged "$TMP/base.json" "$TMP/null.json" -- 2 "the new run's figure null" \
	'^compare: refused: readfile1 ops/s: null has none \(missing, null or not a number\)$'
run_as word "$OK, \"ops_per_sec\": \"fast\""
judged "$TMP/base.json" "$TMP/word.json" -- 2 "the new run's figure a string" \
	'^compare: refused: readfile1 ops/s: word has none \(missing, null or not a number\)$'
run_as nan "$OK, \"ops_per_sec\": NaN"
judged "$TMP/base.json" "$TMP/nan.json" -- 2 "the new run's figure NaN (not JSON)" \
	"^fbrun: error: $TMP/nan\\.json:1:"
run_as below "$OK, \"ops_per_sec\": -5"
judged "$TMP/base.json" "$TMP/below.json" -- 2 "the new run's figure below 0" \
	'^compare: refused: readfile1 ops/s: below has -5, not a figure$'
judged "$TMP/below.json" "$TMP/base.json" -- 2 "the base's figure below 0" \
	'^compare: refused: readfile1 ops/s: below has -5, not a figure$'
run_as sig "$OK, \"ops_per_sec\": 100" '"ended_by": "signal"'
judged "$TMP/base.json" "$TMP/sig.json" -- 1 "a new run ended by a signal" \
	'^compare: fail: sig ended by signal: the run did not finish; its figures are not judged$'
check "... said once, not per flowop" test "$(wc -l <"$TMP/err")" -eq 1
run_as err "$OK, \"ops_per_sec\": 100" '"ended_by": "error", "error": "cannot open x"'
judged "$TMP/base.json" "$TMP/err.json" -- 1 "a new run ended by an error" \
	'^compare: fail: err ended by error \(cannot open x\): the run did not finish; its figures are not judged$'
judged "$TMP/sig.json" "$TMP/base.json" -- 2 "a base ended by a signal" \
	'^compare: refused: sig ended by signal: nothing to judge the other runs against$'
run_as fails "$OK, \"ops_per_sec\": 100, \"errors\": 3"
judged "$TMP/base.json" "$TMP/fails.json" -- 1 "a flowop with errors where the base had none" \
	'^compare: fail: readfile1 ops/s: fails had 3 failed operations, base none$'
run_as idle '"ops": 0, "ops_per_sec": 0, "mb_per_sec": 0, "cpu_samples": 0'
judged --metric latency "$TMP/base.json" "$TMP/idle.json" -- 1 "a flowop that did nothing, by latency" \
	'^compare: fail: readfile1 ms/op: idle did no operations, base did$'
printf '{"script": "fix.f", "seconds": 10, "flowops": [{"name": "readfile1", "ops": 0, "ops_per_sec": 0}, {"name": "stat1", "ops": 0, "ops_per_sec": 0}], "summary": {}}\n' >"$TMP/zero.json"
judged "$TMP/zero.json" "$TMP/base.json" -- 2 "a base that did nothing: no flowop judged" \
	"^compare: refused: no flowop's ops/s could be judged against zero$"
printf '{"script": "fix.f", "seconds": 10, "flowops": [], "summary": {}}\n' >"$TMP/empty.json"
judged "$TMP/empty.json" "$TMP/empty.json" -- 2 "runs without flowops" \
	'^fbrun: error: the runs have no flowop in common$'

if $have_python; then
	# shellcheck disable=SC2086
	run_fbrun compare --format json --fail-if-worse 10 $G
	check "--format json with --fail-if-worse: exit 1 (exit $rc)" test "$rc" -eq 1
	ok=$(python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))
f = {x['name']: x['gate'] for x in c['flowops']}
print(f['readfile1']['verdicts'] == [None, 'fail'] and
      abs(f['readfile1']['worse_pct'][1] - 41.2) < 1e-9 and
      f['stat1']['verdicts'] == [None, 'pass'] and
      c['gate'] == {'metric': 'ops', 'figure': 'ops_per_sec', 'limit_pct': 10,
                    'failed': 1, 'refused': 0, 'verdict': 'fail'})" "$TMP/out" || :)
	check "... the verdict per flowop and in all" test "$ok" = True
	# shellcheck disable=SC2086
	run_fbrun compare --format csv --fail-if-worse 10 $G
	ok=$(python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
g = [(r['flowop'], r['run'], r['gate']) for r in rows if r['gate']]
print(g == [('readfile1', 'new', 'fail'), ('stat1', 'new', 'pass')] and
      [r['worse_pct'] for r in rows if r['gate'] == 'fail'] == ['41.2'])" "$TMP/out" || :)
	check "--format csv: the verdict on the rows of the figure checked" test "$ok" = True
else
	skip "--format json with --fail-if-worse: needs python3"
	skip "--format csv with --fail-if-worse: needs python3"
fi

done_testing
