#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun report: a saved run printed again as the run printed it (the text
# table byte for byte apart from the log lines, the CSV, a page).
. "${srcdir:-.}/tests/lib.sh"

# logless FILE: the run's output without its "0.012: ..." log lines
logless() { grep -Ev '^[0-9]+\.[0-9]{3}: ' "$1" || :; }

# same DESCRIPTION A B: ok if the files are byte for byte equal
same() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1"; diff "$2" "$3" | head -20 | diag; fi
}

run_fbrun --help
grepq "--help names fbrun report" 'fbrun report RUN.json' "$TMP/out"

# every line of the table: flowops that move data, one that never runs
# (no latency row), a mean of samples, the latency histograms
cat >"$TMP/w.f" <<F
set \$u = randvar(type=uniform, min=200, mean=1000)
define fileset name=fs,path=$TMP/w,entries=20,dirwidth=5,size=16k,prealloc
define process name=p { thread name=t {
  flowop openfile name=openfile1,filesetname=fs,fd=1
  flowop readwholefile name=read1,fd=1,iosize=4k
  flowop closefile name=closefile1,fd=1
  flowop appendfilerand name="app,end \"q\"",filesetname=fs,iosize=1k
  flowop testrandvar name=rv,value=\$u
  flowop finishoncount name=fin,target=rv,value=300 }
  thread name=idle { flowop delay name=never,value=100 } }
enable lathist
run 30
F
run_fbrun -o "$TMP/r.json" "$TMP/w.f"
check "the run exits 0" test "$rc" -eq 0
logless "$TMP/out" >"$TMP/table"
grepq "the run printed histograms" '^Latency histogram of read1' "$TMP/table"
grepq "and a mean of samples" '^rv: mean [0-9.]+ over 300 samples$' "$TMP/table"
run_fbrun report "$TMP/r.json"
check "report: exits 0" test "$rc" -eq 0
same "report: the text table the run printed, byte for byte" "$TMP/table" "$TMP/out"
check "report: nothing on stderr" test ! -s "$TMP/err"
run_fbrun report --format text "$TMP/r.json"
same "report --format text: the same" "$TMP/table" "$TMP/out"

# failures counted per errno: the Errors lines
{
	echo "define fileset name=data,path=$TMP/emf,entries=40,size=1k,dirwidth=10,prealloc=100"
	echo "define process name=p { thread name=t {"
	for i in $(seq 1 24); do echo "  flowop openfile name=open$i,filesetname=data,fd=$i"; done
	for i in $(seq 1 24); do echo "  flowop closefile name=close$i,fd=$i"; done
	echo "  flowop finishoncount name=fin,value=2000"
	echo "} }"
	echo "run 30"
} >"$TMP/emf.f"
rc=0
(ulimit -n 20 && exec "$FBRUN" -q --continue-on-error -o "$TMP/e.json" "$TMP/emf.f") \
	>"$TMP/e.txt" 2>"$TMP/err" || rc=$?
check "EMFILE: the run exits 1 (errors happened)" test "$rc" -eq 1
grepq "EMFILE: the run printed its Errors" '^open[0-9]+ +[0-9]+ failed: .* \([0-9]+\)$' "$TMP/e.txt"
run_fbrun report "$TMP/e.json"
same "report of a run with errors: its table, byte for byte" "$TMP/e.txt" "$TMP/out"

# the CSV
run_fbrun -q --format csv -o "$TMP/c.json" "$TMP/w.f"
cp "$TMP/out" "$TMP/c.csv"
run_fbrun report --format csv "$TMP/c.json"
same "report --format csv: the CSV the run printed, byte for byte" "$TMP/c.csv" "$TMP/out"
if command -v python3 >/dev/null 2>&1; then
	ok=$(python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
print(len(rows) == 8 and rows[0]['name'] == 'openfile1' and rows[3]['name'] == 'app,end \"q\"' and rows[-1]['name'] == 'IO Summary')" "$TMP/out" || :)
	check "... python's csv module reads its header and a row per flowop" test "$ok" = True
else
	skip "report --format csv read by python: needs python3"
fi

# the JSON: the results file itself, read and checked first
run_fbrun -q --format json -o "$TMP/j.json" "$TMP/w.f"
cp "$TMP/out" "$TMP/j.out"
same "the run: --format json prints what -o writes" "$TMP/j.json" "$TMP/j.out"
run_fbrun report --format json "$TMP/j.json"
check "report --format json: exits 0" test "$rc" -eq 0
same "report --format json: the JSON the run printed, byte for byte" "$TMP/j.out" "$TMP/out"
if command -v python3 >/dev/null 2>&1; then
	check "... valid JSON (python3 -m json.tool)" python3 -m json.tool "$TMP/out" /dev/null
	# a byte order mark is left out; a C1 control character in a name
	# (U+009B, a terminal's CSI) is printed as its escape: the same value
	c1=$(printf '\302\233')
	{ printf '\357\273\277'; sed "s/\"read1\"/\"read${c1}1\"/" "$TMP/j.json"; } >"$TMP/c1.json"
	run_fbrun report --format json "$TMP/c1.json"
	check "a file with a BOM and U+009B: exits 0 (exit $rc)" test "$rc" -eq 0
	check "... no BOM, no raw C1 byte" \
		test "$(head -c 1 "$TMP/out")" = "{" -a "$(grep -c "$c1" "$TMP/out" || :)" -eq 0
	ok=$(python3 -c "
import json, sys
a = json.loads(open(sys.argv[1], encoding='utf-8-sig').read())
b = json.load(open(sys.argv[2]))
print(a == b and any(f['name'] == 'read\x9b1' for f in b['flowops']))" "$TMP/c1.json" "$TMP/out" || :)
	check "... the same document, value for value" test "$ok" = True
else
	for t in valid bom c1 same; do skip "report --format json: $t: needs python3"; done
fi
printf '{"script": "x"}' >"$TMP/notres.json"
run_fbrun report --format json "$TMP/notres.json"
check "report --format json of a file that is not results: exit 2, nothing printed" \
	test "$rc" -eq 2 -a ! -s "$TMP/out"

# a series of more counts than the file holds: 20,000 flowops and 20,000
# empty intervals in 0.4 MB would be 400 M counts, 3.2 GB kept
awk 'BEGIN { printf "{\"flowops\": ["; for (i = 0; i < 20000; i++)
	printf "%s{\"name\":\"f%d\"}", i ? "," : "", i; printf "], \"intervals\": [";
	for (i = 0; i < 20000; i++) printf "%s{}", i ? "," : ""; print "]}" }' >"$TMP/wide.json"
for sub in report compare; do
	if [ $sub = report ]; then run_fbrun report "$TMP/wide.json"
	else run_fbrun compare "$TMP/wide.json" "$TMP/r.json"; fi
	check "$sub of a series larger than its file: exit 2" test "$rc" -eq 2
	grepq "$sub: ... which it says" \
		"wide.json: 20000 intervals of 20000 flowops each are more counts than the file can hold" "$TMP/err"
done

# the page
run_fbrun report --format html "$TMP/r.json"
check "report --format html: exits 0" test "$rc" -eq 0
grepq "report --format html: a page named after the file" '<h1>fbrun: r\.json</h1>' "$TMP/out"
grepq "report --format html: with the flowops' charts" 'read1' "$TMP/out"

# usage
run_fbrun report
check "report without a file: exit 2" test "$rc" -eq 2
run_fbrun report "$TMP/r.json" "$TMP/c.json"
check "report with two files: exit 2" test "$rc" -eq 2
run_fbrun report --format pdf "$TMP/r.json"
check "report --format pdf: exit 2" test "$rc" -eq 2
grepq "report --format pdf: says which formats there are" "text, json, csv or html" "$TMP/err"
run_fbrun report "$TMP/none.json"
check "report of a missing file: exit 2" test "$rc" -eq 2
echo '{"a": 1}' >"$TMP/bad.json"
run_fbrun report "$TMP/bad.json"
check "report of a file that is not a results file: exit 2" test "$rc" -eq 2

done_testing
