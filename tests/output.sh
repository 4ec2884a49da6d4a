#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Results as CSV, the --interval and psrun time series, and the status
# line on a terminal: counts that agree with the JSON, never speeds.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# csv_fields FILE: each row's fields, tab-separated (RFC 4180 quoting
# undone; the test names hold no tabs or line breaks)
csv_fields() {
	awk '{
		n = 0; f = ""; q = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (q) {
				if (c != "\"") f = f c
				else if (substr($0, i + 1, 1) == "\"") { f = f c; i++ }
				else q = 0
			} else if (c == "\"") q = 1
			else if (c == ",") { out = out (n++ ? "\t" : "") f; f = "" }
			else f = f c
		}
		print out (n ? "\t" : "") f; out = ""
	}' "$1"
}

cat >"$TMP/w.f" <<F
define fileset name=fs,path=$TMP/w,entries=20,dirwidth=5,size=16k,prealloc
define process name=p { thread name=uploads {
  flowop openfile name=openfile1,filesetname=fs,fd=1
  flowop readwholefile name=read1,fd=1,iosize=4k
  flowop closefile name=closefile1,fd=1
  flowop appendfilerand name="app,end \"q\"",filesetname=fs,iosize=1k
  flowop delay name=nap,value=0 } }
run 30
F

run_fbrun --help
for o in '--interval SECONDS' '--interval-flowops' 'text, json or csv' 'CSV if \*\.csv'; do
	grepq "--help documents $o" "$o" "$TMP/out"
done

# --- CSV ----------------------------------------------------------------------
run_fbrun -t 1 --format csv -o "$TMP/r.json" "$TMP/w.f"
check "--format csv: exits 0" test "$rc" -eq 0
cp "$TMP/out" "$TMP/r.csv"
csv_fields "$TMP/r.csv" >"$TMP/rows"
check "--format csv: the first line is the header, no log lines" \
	test "$(head -1 "$TMP/r.csv")" = "name,type,thread,ops,ops_per_s,mb_per_s,ms_per_op,us_per_op_cpu,bytes,read_bytes,write_bytes,errors,p50_ms,p90_ms,p99_ms,p99_9_ms,max_ms"
ncols=$(awk -F '\t' '{ print NF }' "$TMP/rows" | sort -u)
check "every CSV row has 17 columns (got: $(echo $ncols))" test "$ncols" = 17
check "a header, 5 flowop rows and the IO Summary row" test "$(wc -l <"$TMP/rows")" -eq 7
check "the last row is the IO Summary" \
	test "$(tail -1 "$TMP/rows" | cut -f1-3)" = "IO Summary	summary	"
check "a name with a comma and quotes is quoted and reads back" \
	test "$(sed -n 5p "$TMP/rows" | cut -f1-3)" = 'app,end "q"	appendfilerand	uploads'
grepq "the quoted name is written as RFC 4180 says" '^"app,end ""q""",appendfilerand,' "$TMP/r.csv"
check "read1: read_bytes = bytes, write_bytes = 0" \
	awk -F '\t' '$1 == "read1" { ok = $9 > 0 && $10 == $9 && $11 == 0 } END { exit !ok }' "$TMP/rows"
check "the appendfilerand row: write_bytes = bytes, read_bytes = 0" \
	awk -F '\t' '$2 == "appendfilerand" { ok = $9 > 0 && $11 == $9 && $10 == 0 } END { exit !ok }' "$TMP/rows"
check "IO Summary: read + write bytes = bytes here" \
	awk -F '\t' '$1 == "IO Summary" { ok = $9 > 0 && $10 + $11 == $9 } END { exit !ok }' "$TMP/rows"
if $have_python; then
	awk -F '\t' 'NR > 1 && $1 != "IO Summary" { print $1 "|" $4 "|" $9 "|" $12 }' "$TMP/rows" >"$TMP/csv.ops"
	json "$TMP/r.json" "'\n'.join('%s|%d|%d|%d' % (f['name'], f['ops'], f['bytes'], f['errors']) for f in r['flowops'])" >"$TMP/json.ops"
	if cmp -s "$TMP/csv.ops" "$TMP/json.ops"; then
		pass "per flowop, CSV ops, bytes and errors equal the JSON's"
	else
		fail "per flowop, CSV ops, bytes and errors equal the JSON's"
		diff "$TMP/csv.ops" "$TMP/json.ops" | diag
	fi
	want=$(json "$TMP/r.json" "'%d|%d' % (r['summary']['ops'], r['summary']['bytes'])")
	got=$(awk -F '\t' '$1 == "IO Summary" { print $4 "|" $9 }' "$TMP/rows")
	check "IO Summary ops and bytes equal the JSON summary ($got, $want)" test "$got" = "$want"
	check "the JSON has no intervals without --interval or psrun" \
		test "$(json "$TMP/r.json" "'intervals' in r")" = False
else
	skip "CSV against JSON: needs python3 to read the JSON"
fi
run_fbrun -q -t 1 -o "$TMP/x.csv" "$TMP/w.f"
check "-o x.csv writes CSV" test "$(head -c 9 "$TMP/x.csv")" = "name,type"
grepq "-o x.csv: standard output stays text" '^IO Summary: ' "$TMP/out"
run_fbrun --format xml "$TMP/w.f"
check "--format xml: exit 2" test "$rc" -eq 2

# --- --interval -----------------------------------------------------------------
run_fbrun -t 3 --interval 1 -o "$TMP/i.json" "$TMP/w.f"
check "--interval 1: exits 0" test "$rc" -eq 0
n=$(grep -c '^interval ' "$TMP/out" || :)
check "--interval 1, 3 s: 2 to 4 interval lines on stdout ($n)" test "$n" -ge 2 -a "$n" -le 4
grepq "an interval line: time, ops/s, mb/s, errors, p50, p99" \
	'^interval +[0-9]+\.[0-9]{3} s +[0-9]+ ops/s +[0-9]+\.[0-9] mb/s +0 errors  p50 [0-9]+\.[0-9]{3} ms  p99 [0-9]+\.[0-9]{3} ms$' "$TMP/out"
check "the interval lines come before the results" \
	test "$(grep -n '^interval ' "$TMP/out" | tail -1 | cut -d: -f1)" -lt \
	"$(grep -n '^Per-Operation' "$TMP/out" | cut -d: -f1)"
if grep -q '^  read1 ' "$TMP/out"; then
	fail "no per-flowop lines without --interval-flowops"
else
	pass "no per-flowop lines without --interval-flowops"
fi
if $have_python; then
	ni=$(json "$TMP/i.json" "len(r['intervals'])")
	check "JSON: 2 to 4 intervals ($ni), one per line printed ($n)" \
		test "$ni" -ge 2 -a "$ni" -le 4 -a "$ni" -eq "$n"
	s=$(json "$TMP/i.json" "'%d %d' % (sum(i['ops'] for i in r['intervals']), r['summary']['ops'])")
	check "the intervals' ops sum to the summary's ($s)" \
		test "${s% *}" -eq "${s#* }" -a "${s#* }" -gt 0
	ok=$(json "$TMP/i.json" "all(sum(i['flowops'][k]['ops'] for i in r['intervals']) == f['ops'] and all(i['flowops'][k]['name'] == f['name'] for i in r['intervals']) for k, f in enumerate(r['flowops']))")
	check "per flowop, the intervals' ops sum to its total" test "$ok" = True
	ok=$(json "$TMP/i.json" "all(0 < a['t_s'] < b['t_s'] for a, b in zip(r['intervals'], r['intervals'][1:])) and abs(r['intervals'][-1]['t_s'] - r['seconds']) < 0.01 and all(set(i) >= {'t_s', 'seconds', 'ops', 'ops_per_s', 'mb_per_s', 'bytes', 'errors', 'flowops'} for i in r['intervals'])")
	check "intervals: every field, in time order, the last ends with the run" test "$ok" = True
	# the interval's quantiles, from its own histogram: ordered, within
	# the run's largest I/O latency (a bucket's midpoint: 0.8% over at most)
	ok=$(json "$TMP/i.json" "all(0 < i['p50_ms'] <= i['p99_ms'] <= 1.01 * max(f['latency_ns']['max'] for f in r['flowops'] if f['type'] in ('openfile', 'readwholefile', 'closefile', 'appendfilerand')) / 1e6 for i in r['intervals'] if i['ops'] > 0)")
	check "intervals: 0 < p50_ms <= p99_ms <= the I/O's largest latency" test "$ok" = True
else
	skip "--interval JSON: needs python3"
fi

run_fbrun -t 2 --interval 1 --interval-flowops --format json "$TMP/w.f"
check "--interval with --format json: exits 0" test "$rc" -eq 0
if $have_python; then
	check "--interval with --format json: stdout is only the JSON, with intervals" \
		python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['intervals']" "$TMP/out"
fi
grepq "--interval with --format json: the lines go to stderr" '^interval ' "$TMP/err"
grepq "--interval-flowops: a line per flowop" '^  app,end "q" +[0-9]+ ops/s$' "$TMP/err"
grepq "--interval-flowops: the delay flowop too" '^  nap +[0-9]+ ops/s$' "$TMP/err"

run_fbrun --interval 0 "$TMP/w.f"
check "--interval 0: exit 2" test "$rc" -eq 2
grepq "--interval 0: says what it expects" "--interval expects 1 to [0-9]+ seconds, got '0'" "$TMP/err"
run_fbrun --interval-flowops "$TMP/w.f"
check "--interval-flowops alone: exit 2" test "$rc" -eq 2

# errors per interval: more files held open than RLIMIT_NOFILE allows
{
	echo "define fileset name=data,path=$TMP/emf,entries=40,size=1k,dirwidth=10,prealloc=100"
	echo "define process name=p { thread name=t {"
	for i in $(seq 1 24); do echo "  flowop openfile name=open$i,filesetname=data,fd=$i"; done
	for i in $(seq 1 24); do echo "  flowop closefile name=close$i,fd=$i"; done
	echo "} }"
	echo "run 30"
} >"$TMP/emf.f"
rc=0
(ulimit -n 20 && exec "$FBRUN" -q -t 2 --interval 1 --continue-on-error -o "$TMP/e.json" "$TMP/emf.f") \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "EMFILE --interval: exits 1 (errors happened)" test "$rc" -eq 1
grepq "EMFILE --interval: the interval lines count errors" '^interval .* [1-9][0-9]* errors  p50 ' "$TMP/out"
if $have_python; then
	s=$(json "$TMP/e.json" "'%d %d' % (sum(i['errors'] for i in r['intervals']), sum(f['errors'] for f in r['flowops']))")
	check "EMFILE: the intervals' errors sum to the flowops' ($s)" \
		test "${s% *}" -eq "${s#* }" -a "${s#* }" -gt 0
fi

# psrun samples through the same monitor: its series is in the JSON too
sed 's/^run 30$/psrun -1 30/' "$TMP/w.f" >"$TMP/ps.f"
run_fbrun -t 2 -o "$TMP/ps.json" "$TMP/ps.f"
check "psrun: exits 0" test "$rc" -eq 0
grepq "psrun: its interval report" '^[0-9]+\.[0-9]{3}: interval of [0-9]+\.[0-9] s$' "$TMP/out"
grepq "psrun: per flowop, with the report's labels" '^app,end "q" +[0-9]+ops/s$' "$TMP/out"
if $have_python; then
	s=$(json "$TMP/ps.json" "'%d %d %d' % (len(r['intervals']), sum(i['ops'] for i in r['intervals']), r['summary']['ops'])")
	set -- $s
	check "psrun: 1 to 3 intervals in the JSON ($1), summing to the summary's ops" \
		test "$1" -ge 1 -a "$1" -le 3 -a "$2" -eq "$3"
fi
run_fbrun -t 2 --format json "$TMP/ps.f"
if $have_python; then
	check "psrun with --format json: stdout is only the JSON" \
		python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/out"
fi
grepq "psrun with --format json: its lines go to stderr" '^[0-9]+\.[0-9]{3}: interval of [0-9]+\.[0-9] s$' "$TMP/err"

# a tree left on disk is named, with the reason
sed 's/prealloc$/prealloc,reuse/' "$TMP/w.f" >"$TMP/reuse.f"
run_fbrun -t 1 "$TMP/reuse.f"
grepq "reuse: the kept tree is named" "^[0-9.]+: Keeping fs tree at $TMP/w/fs \\(reuse\\)$" "$TMP/out"
check "... and is there" test -d "$TMP/w/fs"
run_fbrun -t 1 --keep "$TMP/w.f"
grepq "--keep: the kept tree is named" "^[0-9.]+: Keeping fs tree at $TMP/w/fs \\(--keep\\)$" "$TMP/out"
rm -rf "$TMP/w"
run_fbrun -t 1 "$TMP/w.f"
check "a removed tree is not said to be kept" eval '! grep -q Keeping "$TMP/out"'

# --- the status line on a terminal ------------------------------------------------
cr=$(printf '\r')
run_fbrun -t 2 "$TMP/w.f"
if grep -q "$cr" "$TMP/err" || grep -q ' / 2 s ' "$TMP/err"; then
	fail "stderr not a terminal: no status line"
else
	pass "stderr not a terminal: no status line"
fi
# --- JSON is valid whatever bytes the names hold -------------------------
# Latin-1 names (0xe9, 0xff): each byte that is not UTF-8 is written as
# \u00XX; valid UTF-8 (U+00E9 as c3 a9) passes as it is
printf 'define fileset name=fs,path="%s/l\351",entries=4,dirwidth=4,size=1k,prealloc\ndefine process name=p { thread name=t {\n  flowop statfile name="st\377",filesetname=fs\n  flowop statfile name="\303\251t\303",filesetname=fs } }\nrun 1\n' "$TMP" >"$TMP/latin1.f"
run_fbrun -q -o "$TMP/latin1.json" "$TMP/latin1.f"
check "Latin-1 names: the run exits 0" test "$rc" -eq 0
grepq "... a byte that is not UTF-8 is written as \\u00XX" '"name": "st\\u00ff"' "$TMP/latin1.json"
grepq "... the path's too" '"path": ".*/l\\u00e9"' "$TMP/latin1.json"
check "... valid UTF-8 is kept, a cut sequence escaped" \
	grep -q "\"name\": \"$(printf '\303\251')t\\\\u00c3\"" "$TMP/latin1.json"
if $have_python; then
	check "... the file is valid JSON" python3 -m json.tool "$TMP/latin1.json" /dev/null
	check "... which reads back as the Latin-1 letters" \
		test "$(json "$TMP/latin1.json" "r['flowops'][0]['name'] == 'st\\u00ff'")" = True
fi
run_fbrun compare "$TMP/latin1.json" "$TMP/latin1.json"
check "... and fbrun compare reads it (exit $rc)" test "$rc" -eq 0

if ! command -v script >/dev/null 2>&1; then
	skip "status line on a terminal: needs script(1) from util-linux for a pty"
else
	# on_tty ARGS...: fbrun on a pseudo-terminal, everything it writes in $TMP/tty
	on_tty() {
		rc=0
		script -qec "'$FBRUN' $*" /dev/null </dev/null >"$TMP/tty" 2>&1 || rc=$?
	}
	on_tty -t 3 "'$TMP/w.f'"
	check "on a terminal: exits 0" test "$rc" -eq 0
	grepq "on a terminal: a status line (elapsed / total, ops/s, mb/s, errors)" \
		"$cr[12] / 3 s  [0-9]+ ops/s  [0-9]+\.[0-9] mb/s  0 errors" "$TMP/tty"
	grepq "on a terminal: the line is blanked before the results" \
		"$cr +$cr[0-9.]+: Run took" "$TMP/tty"
	grepq "on a terminal: a line while the fileset is made (done of total, %)" \
		"${cr}Creating fs: [0-9]+ of [0-9]+ entries \\([0-9]+%\\)" "$TMP/tty"
	# the first line is drawn at once: a rate over no time would be nonsense
	tr '\r' '\n' <"$TMP/tty" | grep -m 1 "^Creating fs:" >"$TMP/first" || :
	check "on a terminal: the first creation line says no rate ($(cat "$TMP/first"))" \
		eval '! grep -q "/s" "$TMP/first"'
	grepq "on a terminal: and while it is removed" \
		"${cr}Removing fs: [0-9]+ of [0-9]+ entries \\([0-9]+%\\)" "$TMP/tty"
	grepq "on a terminal: the creation line is blanked before the next log line" \
		"$cr +$cr[0-9.]+: fs: [0-9.]+MB written" "$TMP/tty"
	on_tty -q -t 2 "'$TMP/w.f'"
	check "on a terminal with -q: no creation line" eval '! grep -q "Creating fs:" "$TMP/tty"'
	if grep -q ' / 2 s ' "$TMP/tty"; then
		fail "on a terminal with -q: no status line"
	else
		pass "on a terminal with -q: no status line"
	fi
	on_tty --interval 1 -t 2 "'$TMP/w.f'"
	if grep -q ' / 2 s ' "$TMP/tty"; then
		fail "on a terminal with --interval: no status line"
	else
		pass "on a terminal with --interval: no status line"
	fi
	grepq "on a terminal with --interval: the interval lines" '^interval ' "$TMP/tty"
fi

# --- --format json and csv parse ---------------------------------------------------
if $have_python; then
	run_fbrun -t 1 --format json "$TMP/w.f"
	check "--format json: valid JSON on stdout (python3 -m json.tool)" \
		python3 -m json.tool "$TMP/out" /dev/null
	run_fbrun -t 1 --format csv "$TMP/w.f"
	ok=$(python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
print(len(rows) == 6 and rows[3]['name'] == 'app,end \"q\"' and rows[-1]['name'] == 'IO Summary')" "$TMP/out" || :)
	check "--format csv: python's csv module reads a header and 6 rows" test "$ok" = True
else
	skip "--format json: needs python3"
	skip "--format csv: needs python3"
fi

# --- --interval-log FILE ------------------------------------------------------------
run_fbrun -t 1 --interval-log "$TMP/nolog.csv" "$TMP/w.f"
check "--interval-log without --interval: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says it needs --interval" '^fbrun: error: --interval-log needs --interval' "$TMP/err"
check "... and writes nothing" test ! -e "$TMP/nolog.csv"
run_fbrun -t 1 --interval 1 --interval-log "$TMP/same.json" -o "$TMP/same.json" "$TMP/w.f"
check "--interval-log and -o one file: exit 2 (exit $rc)" test "$rc" -eq 2
run_fbrun -q -t 3 --interval 1 --interval-flowops --interval-log "$TMP/iv.csv" \
	-o "$TMP/iv.json" "$TMP/w.f"
check "--interval-log: the run exits 0 (exit $rc)" test "$rc" -eq 0
check "... the header first, a column per flowop with --interval-flowops" \
	test "$(head -1 "$TMP/iv.csv")" = 'run,t_s,seconds,ops,ops_per_s,mb_per_s,errors,p50_ms,p99_ms,openfile1_ops_per_s,read1_ops_per_s,closefile1_ops_per_s,"app,end ""q""_ops_per_s",nap_ops_per_s'
if $have_python; then
	ok=$(python3 -c "
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
iv = json.load(open(sys.argv[2]))['intervals']
print(len(rows) == len(iv) >= 2 and
      all(r['run'] == '1' and int(r['ops']) == i['ops'] and
          abs(float(r['t_s']) - i['t_s']) < 0.001 and
          int(r['read1_ops_per_s'].split('.')[0]) >= 0 for r, i in zip(rows, iv)),
      len(rows), len(iv))" "$TMP/iv.csv" "$TMP/iv.json" || :)
	check "... a row per interval of the JSON, the same ops and times ($ok)" test "${ok%% *}" = True
else
	skip "--interval-log against the JSON: needs python3"
fi
# rows are there while the run goes: a long run, stopped by SIGINT once
# two rows are in the file
rm -f "$TMP/iv.csv"
"$FBRUN" -q -t 600 --interval 1 --interval-log "$TMP/iv.csv" -o "$TMP/live.json" \
	"$TMP/w.f" >"$TMP/live.out" 2>"$TMP/live.err" &
pid=$!
n=0
while [ "$(cat "$TMP/iv.csv" 2>/dev/null | wc -l)" -lt 3 ] && [ $n -lt 1200 ] &&
	kill -0 "$pid" 2>/dev/null; do
	sleep 0.1
	n=$((n + 1))
done
alive=false
kill -0 "$pid" 2>/dev/null && alive=true
rows=$(($(cat "$TMP/iv.csv" 2>/dev/null | wc -l) - 1))
kill -INT "$pid" 2>/dev/null || :
rc=0
wait "$pid" || rc=$?
check "--interval-log: rows written while the run goes ($rows, the run still on: $alive)" \
	test "$alive" = true -a "$rows" -ge 2
if $have_python; then
	check "... after SIGINT, a row for each interval of the results" \
		test "$(json "$TMP/live.json" "len(r['intervals'])" || echo x)" = "$(($(cat "$TMP/iv.csv" 2>/dev/null | wc -l) - 1))"
fi
# the runs of --repeat follow one another, numbered
run_fbrun -q -t 2 --interval 1 --repeat 2 --interval-log "$TMP/rep.csv" -o "$TMP/rep.json" "$TMP/w.f"
check "--interval-log with --repeat 2: exit 0 (exit $rc)" test "$rc" -eq 0
if $have_python; then
	want=$(json "$TMP/rep.json" "' '.join(str(len(x['intervals'])) for x in r['repeats'])" || :)
	got="$(awk -F, 'NR > 1 && $1 == 1' "$TMP/rep.csv" 2>/dev/null | wc -l) $(awk -F, 'NR > 1 && $1 == 2' "$TMP/rep.csv" 2>/dev/null | wc -l)"
	check "... runs 1 and 2, each with its intervals ($got, want $want)" test "$got" = "$want"
fi
check "... one header" test "$(grep -c '^run,' "$TMP/rep.csv" 2>/dev/null || :)" = 1
# what is at FILE: a symbolic link or a FIFO is refused before the run; a
# file is replaced, and another hard link to it keeps its bytes
ln -s "$TMP/target" "$TMP/link.csv"
run_fbrun -q -t 1 --interval 1 --interval-log "$TMP/link.csv" "$TMP/w.f"
check "a symbolic link at FILE: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... said" "^fbrun: error: --interval-log '$TMP/link\.csv' is a symbolic link" "$TMP/err"
check "... nothing made where it points" test ! -e "$TMP/target"
mkfifo "$TMP/fifo.csv"
rc=0
timeout 60 "$FBRUN" -q -t 1 --interval 1 --interval-log "$TMP/fifo.csv" "$TMP/w.f" \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "a FIFO at FILE: exit 2, no hang (exit $rc)" test "$rc" -eq 2
echo old >"$TMP/old.csv"
ln "$TMP/old.csv" "$TMP/other.csv"
run_fbrun -q -t 1 --interval 1 --interval-log "$TMP/old.csv" "$TMP/w.f"
check "a file at FILE: replaced (exit $rc)" test "$rc" -eq 0 -a "$(head -c 4 "$TMP/old.csv")" = "run,"
check "... its other hard link keeps the old bytes" test "$(cat "$TMP/other.csv")" = old
run_fbrun -q -t 1 --interval 1 --interval-log "$TMP/w/fs/log.csv" "$TMP/w.f"
check "FILE inside the fileset's tree: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... said" "^fbrun: error: --interval-log '.*/log\.csv' is inside fileset fs's tree" "$TMP/err"

done_testing
