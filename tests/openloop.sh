#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Open loops (rate=, arrivals=, backlog=): the arrivals a run offers and
# what became of them, each op's response time beside its service time,
# the tables, the JSON, the CSV, fbrun report and --repeat.  Facts only:
# counts that add up, arrivals the schedule fixes, response times never
# below service times; never a speed.
. "${srcdir:-.}/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "open loop: every check reads the JSON with python3"
	done_testing
	exit 0
fi
# py FILE EXPR: EXPR of the results file (r), printed
py() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }
# pyok DESCRIPTION FILE EXPR: ok if EXPR of the file (r) is true
pyok() {
	if [ "$(py "$2" "bool($3)" 2>&1)" = True ]; then pass "$1"; else
		fail "$1"; py "$2" "$3" 2>&1 | diag; fi
}
# the arrivals of a source (a), and a flowop (f), by name
A="(lambda n: [a for a in r['arrivals'] if a['name'] == n][0])"
F="(lambda n: [f for f in r['flowops'] if f['name'] == n][0])"
# every source's arrivals add up
ADDS="all(a['offered'] == a['done'] + a['dropped'] + a['unserved'] for a in r['arrivals'])"

mkdir "$TMP/fs"
fileset="define fileset name=fs,path=$TMP/fs,entries=8,dirwidth=8,size=16k,prealloc"

# --- a thread's passes at a fixed rate ------------------------------------
cat >"$TMP/fixed.f" <<F
$fileset
define process name=p {
  thread name=reader,rate=50 {
    flowop openfile name=open1,filesetname=fs,fd=1
    flowop read name=read1,fd=1,iosize=4k
    flowop closefile name=close1,fd=1
  }
}
run 2
F
run_fbrun -q -o "$TMP/fixed.json" "$TMP/fixed.f"
check "fixed rate: exits 0" test "$rc" -eq 0
cp "$TMP/out" "$TMP/fixed.txt"
pyok "fixed rate: one source, the thread, at 50 a second, fixed" "$TMP/fixed.json" \
	"len(r['arrivals']) == 1 and $A('reader')['source'] == 'thread' and $A('reader')['rate'] == 50 and $A('reader')['arrivals'] == 'fixed' and $A('reader')['instances'] == 1"
pyok "fixed rate: offered = done + dropped + unserved" "$TMP/fixed.json" "$ADDS"
pyok "fixed rate: the arrivals offered are 50 a second of the measured time (one either way)" \
	"$TMP/fixed.json" "abs($A('reader')['offered'] - 50 * r['seconds']) <= 1.01"
pyok "fixed rate: every pass done makes one op of each flowop" "$TMP/fixed.json" \
	"$A('reader')['done'] > 0 and all($F(n)['ops'] in ($A('reader')['done'], $A('reader')['done'] + 1) for n in ('open1', 'read1', 'close1'))"
pyok "fixed rate: nothing dropped, the rate held" "$TMP/fixed.json" \
	"$A('reader')['dropped'] == 0 and $A('reader')['held']"
pyok "fixed rate: each flowop has a response time per op" "$TMP/fixed.json" \
	"all(f['response_ns']['count'] == f['ops'] for f in r['flowops'])"
pyok "fixed rate: no response time below its service time (sum, p50, p99, max)" "$TMP/fixed.json" \
	"all(f['response_ns'][k] >= f['latency_ns'][k] for f in r['flowops'] for k in ('sum', 'p50', 'p99', 'max'))"
pyok "fixed rate: the summary has the I/O ops' response times" "$TMP/fixed.json" \
	"r['summary']['response_ns']['count'] == r['summary']['ops'] and r['summary']['response_ns']['p99'] >= r['summary']['latency_ns']['p99']"
grepq "fixed rate: the text has a response time table" '^Response time \(ms\) +count +mean +p50' "$TMP/fixed.txt"
grepq "... and the arrivals table" '^Arrivals +offered/s +achieved/s +offered +late +dropped +unserved +wake ms$' "$TMP/fixed.txt"
grepq "... with the thread's row at 50.0 offered a second" '^reader +50\.0 +[0-9.]+ +[0-9]+ +[0-9]+ +0 +[0-9]+ +[0-9]+\.[0-9]{3}$' "$TMP/fixed.txt"
pyok "fixed rate: the arrivals started on time, and how late their thread woke" "$TMP/fixed.json" \
	"0 < $A('reader')['wake_ns']['count'] <= $A('reader')['done'] + 1 and $A('reader')['wake_ns']['max'] * $A('reader')['wake_ns']['count'] >= $A('reader')['wake_ns']['sum']"
check "... and no 'did not hold' line" sh -c "! grep -q 'did not hold' '$TMP/fixed.txt'"

# fbrun report: the same table, byte for byte
run_fbrun report "$TMP/fixed.json"
if cmp -s "$TMP/fixed.txt" "$TMP/out"; then pass "report: the open loop's table again, byte for byte"; else
	fail "report: the open loop's table again, byte for byte"; diff "$TMP/fixed.txt" "$TMP/out" | diag; fi
run_fbrun report --format json "$TMP/fixed.json"
python3 - "$TMP/fixed.json" "$TMP/out" >"$TMP/rt" 2>&1 <<'P' || :
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print(a['arrivals'] == b['arrivals'] and
      [f.get('response_ns') for f in a['flowops']] == [f.get('response_ns') for f in b['flowops']] and
      a['summary']['response_ns'] == b['summary']['response_ns'])
P
check "report --format json: the arrivals and response times read back whole" grep -qx True "$TMP/rt"

# the CSV: the response times after the latencies
run_fbrun -q --format csv "$TMP/fixed.f"
check "csv: exits 0" test "$rc" -eq 0
grepq "csv: the header ends with the response times" ',max_ms,resp_p50_ms,resp_p90_ms,resp_p99_ms,resp_p99_9_ms,resp_max_ms$' "$TMP/out"
check "csv: every row has its 22 fields" \
	python3 -c "import csv,sys; rows=list(csv.reader(open(sys.argv[1]))); sys.exit(0 if len(rows) == 5 and all(len(x) == 22 for x in rows) else 1)" "$TMP/out"

# --- a closed loop is as it was -------------------------------------------
sed 's/,rate=50//' "$TMP/fixed.f" >"$TMP/closed.f"
run_fbrun -q -o "$TMP/closed.json" "$TMP/closed.f"
check "closed loop: exits 0" test "$rc" -eq 0
pyok "closed loop: no arrivals, no response times" "$TMP/closed.json" \
	"'arrivals' not in r and 'response_ns' not in r['summary'] and not any('response_ns' in f for f in r['flowops'])"
check "closed loop: no response time table" sh -c "! grep -Eq '^(Response time|Arrivals) ' '$TMP/out'"
run_fbrun -q --format csv "$TMP/closed.f"
grepq "closed loop: the CSV's header as before" ',p99_9_ms,max_ms$' "$TMP/out"

# --- an overload: a pass of a second, 20 arrivals a second ----------------
# backlog=0: what comes while the thread is busy is dropped
cat >"$TMP/over.f" <<F
define process name=p {
  thread name=slow,rate=20,backlog=0 { flowop delay name=d,value=1 }
}
run 3
F
run_fbrun -q -o "$TMP/over.json" "$TMP/over.f"
check "overload: exits 0" test "$rc" -eq 0
pyok "overload: offered = done + dropped + unserved" "$TMP/over.json" "$ADDS"
pyok "overload: at most 3 passes of a second done in 3 s" "$TMP/over.json" "1 <= $A('slow')['done'] <= 3"
pyok "overload, backlog=0: none waited, so none late, and what came while busy was dropped" "$TMP/over.json" \
	"$A('slow')['late'] == 0 and $A('slow')['most_waiting'] == 0 and $A('slow')['dropped'] >= $A('slow')['offered'] - $A('slow')['done'] - 1"
pyok "overload: not held" "$TMP/over.json" "not $A('slow')['held']"
grepq "overload: the report says it did not hold its rate" '^slow did not hold its rate: [0-9.]+ of 20\.0 arrivals/s done, [0-9]+ dropped, 0 late$' "$TMP/out"

# backlog=5: five wait, the rest are dropped; all but the first start late
sed 's/backlog=0/backlog=5/; s/run 3/run 4/' "$TMP/over.f" >"$TMP/back.f"
run_fbrun -q -o "$TMP/back.json" "$TMP/back.f"
check "backlog=5: exits 0" test "$rc" -eq 0
pyok "backlog=5: offered = done + dropped + unserved" "$TMP/back.json" "$ADDS"
pyok "backlog=5: at most five waited" "$TMP/back.json" "$A('slow')['most_waiting'] == 5"
pyok "backlog=5: every pass but the first came from the backlog, late" "$TMP/back.json" \
	"$A('slow')['late'] in ($A('slow')['done'] - 1, $A('slow')['done'])"
pyok "backlog=5: the ones left waiting are unserved" "$TMP/back.json" "$A('slow')['unserved'] >= 5"
pyok "backlog=5: a response time counts the wait in the backlog (over 1 s), the service time not (the delay's second)" "$TMP/back.json" \
	"$A('slow')['done'] < 2 or ($F('d')['response_ns']['max'] > 1.5e9 and $F('d')['latency_ns']['max'] < 1.5e9)"

# --- a process's rate, shared by its threads' instances --------------------
cat >"$TMP/proc.f" <<F
$fileset
define process name=p,rate=40 {
  thread name=a,instances=2 { flowop read name=ra,filesetname=fs,iosize=4k }
  thread name=b { flowop read name=rb,filesetname=fs,iosize=4k }
}
run 2
F
run_fbrun -q -o "$TMP/proc.json" "$TMP/proc.f"
check "process rate: exits 0" test "$rc" -eq 0
pyok "process rate: a source per thread, 40 shared by three instances" "$TMP/proc.json" \
	"abs($A('a')['rate'] - 80/3) < 1e-6 and abs($A('b')['rate'] - 40/3) < 1e-6 and $A('a')['instances'] == 2"
pyok "process rate: offered = done + dropped + unserved" "$TMP/proc.json" "$ADDS"
pyok "process rate: 40 a second offered in all (one either way per instance)" "$TMP/proc.json" \
	"abs(sum(a['offered'] for a in r['arrivals']) - 40 * r['seconds']) <= 3.01"

# --- a flowop's own rate, poisson, from --seed; N/job alone is N ------------
cat >"$TMP/fo.f" <<F
$fileset
define process name=p {
  thread name=t {
    flowop write name=w1,filesetname=fs,iosize=4k,rate=200/job,arrivals=poisson
    flowop read name=r1,filesetname=fs,iosize=4k
  }
}
run 2
F
run_fbrun -q --seed 7 -o "$TMP/fo.json" "$TMP/fo.f"
check "flowop rate: exits 0" test "$rc" -eq 0
pyok "flowop rate: the source is the flowop, poisson, 200/job alone is 200" "$TMP/fo.json" \
	"$A('w1')['source'] == 'flowop' and $A('w1')['arrivals'] == 'poisson' and $A('w1')['rate'] == 200"
pyok "flowop rate: offered = done + dropped + unserved" "$TMP/fo.json" "$ADDS"
pyok "flowop rate: poisson's count near 200 a second (within 5 standard deviations)" "$TMP/fo.json" \
	"abs($A('w1')['offered'] - 200 * r['seconds']) < 5 * (200 * r['seconds']) ** 0.5"
pyok "flowop rate: the unrated flowop after it runs once per arrival" "$TMP/fo.json" \
	"$F('r1')['ops'] in ($F('w1')['ops'], $F('w1')['ops'] + 1)"

# --- a warm-up: its arrivals are not the measured run's ---------------------
run_fbrun -q --warmup 1 -t 2 -o "$TMP/warm.json" "$TMP/fixed.f"
check "warm-up: exits 0" test "$rc" -eq 0
pyok "warm-up: offered = done + dropped + unserved" "$TMP/warm.json" "$ADDS"
pyok "warm-up: the arrivals offered are the measured time's (and any still waiting)" "$TMP/warm.json" \
	"abs($A('reader')['offered'] - 50 * r['seconds']) <= 2.01"

# --- compare: a row of the response times' p99 when a run has them -----------
run_fbrun compare "$TMP/fixed.json" "$TMP/warm.json"
check "compare of open loops: exit 0" test "$rc" -eq 0
grepq "... a response p99 row per flowop" '^read1 +resp p99 ms +[0-9.]+ +[0-9.]+ \([0-9.]+x\)$' "$TMP/out"
run_fbrun compare "$TMP/closed.json" "$TMP/closed.json"
check "compare of closed loops: no response row" sh -c "! grep -q 'resp p99' '$TMP/out'"
run_fbrun compare --common --format json "$TMP/fixed.json" "$TMP/closed.json"
check "compare --format json: response_p99_ms, none for the closed loop" \
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); f=d['flowops'][1]['response_p99_ms']; sys.exit(0 if f['values'][0] is not None and f['values'][1] is None else 1)" "$TMP/out"
run_fbrun compare --fail-if-worse 100000 --metric response "$TMP/fixed.json" "$TMP/warm.json"
check "--fail-if-worse --metric response: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... and says what it judged" "^compare: pass: no flowop's resp p99 ms worse than" "$TMP/err"

# --- --repeat: the response times over the runs ----------------------------
run_fbrun -q --repeat 2 -o "$TMP/rep.json" "$TMP/fixed.f"
check "--repeat 2: exits 0" test "$rc" -eq 0
grepq "--repeat 2: a table of the response times over the runs" '^Response time \(ms\), open loop: p50 and p99' "$TMP/out"
pyok "--repeat 2: the statistics have the response times' p50 and p99" "$TMP/rep.json" \
	"len(r['statistics']['flowops'][1]['response_p99_ms']['values']) == 2 and 'response_p50_ms' in r['statistics']['summary']"

# --- --interval: each interval's response times too -------------------------
run_fbrun -q --interval 1 -t 2 -o "$TMP/iv.json" "$TMP/fixed.f"
check "--interval: exits 0" test "$rc" -eq 0
grepq "--interval: each line has the interval's response times" \
	'^interval +[0-9.]+ s .* p99 [0-9.]+ ms  response p50 [0-9.]+ ms  p99 [0-9.]+ ms$' "$TMP/out"
pyok "--interval: and so do the JSON's intervals" "$TMP/iv.json" \
	"len(r['intervals']) >= 2 and all('resp_p99_ms' in i for i in r['intervals'])"

# --- asynchronous reads: each completion's response time --------------------
cat >"$TMP/aio.f" <<F
$fileset
define process name=p {
  thread name=t,rate=100 {
    flowop aioread name=ar,filesetname=fs,iosize=4k,iodepth=4
  }
}
run 2
F
run_fbrun -q -o "$TMP/aio.json" "$TMP/aio.f"
check "aioread: exits 0" test "$rc" -eq 0
pyok "aioread: a response time for each request completed" "$TMP/aio.json" \
	"$F('ar')['ops'] > 0 and $F('ar')['response_ns']['count'] == $F('ar')['ops'] and $F('ar')['response_ns']['sum'] >= $F('ar')['latency_ns']['sum']"

# --- a signal: what was measured is printed --------------------------------
sed 's/run 2/run 60/' "$TMP/fixed.f" >"$TMP/long.f"
"$FBRUN" "$TMP/long.f" >"$TMP/sig.out" 2>&1 &
pid=$!
wait_for "$TMP/sig.out" 'Running for'
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
check "SIGINT: exits 1" test "$rc" -eq 1
grepq "SIGINT: the arrivals measured are printed" '^reader +50\.0 ' "$TMP/sig.out"

done_testing
