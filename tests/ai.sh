#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Accelerators fed by a data loader (queuetake, queueput, compute and
# accelerator=N; doc/language.md, "Accelerators and data loading").  The
# utilisation follows from first principles: with compute time C per
# batch and read time R per batch, AU = C / max(C, R) when the loader
# reads ahead (a queue deeper than a batch) and C / (C + R) when it
# reads only once asked (no prefetch).  The reads are emulated by the
# loader's own compute flowops, so R is known by construction and no disk
# is timed; C and R are each run's own mean times as it measured them
# (a loaded machine oversleeps both), so what is checked is the
# arithmetic of overlap, within 5 % of the expected utilisation.  A
# second's --warmup leaves out the filling of the queue at the start.
. "${srcdir:-.}/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "accelerators: needs python3 to read the results"
	done_testing
	exit
fi
ms() { echo $(($(date +%s%N) / 1000000)); }

# a loader of $readers threads, each reading $sample us per sample, ahead
# of the accelerator by up to $depth samples
cat >"$TMP/prefetch.f" <<'F'
set $readers=1
set $sample=50000
set $batch=4
set $depth=16
set $c=100000
define process name=accel {
  thread name=loader,instances=$readers {
    flowop compute name=read,value=$sample
    flowop queueput name=put,target=batch }
  thread name=gpu,accelerator=90 {
    flowop queuetake name=batch,value=$batch,depth=$depth
    flowop compute name=step,value=$c } }
run 5
F
# no prefetch: the loader reads a batch only when the accelerator asks
cat >"$TMP/sync.f" <<'F'
set $sample=50000
set $batch=2
set $c=100000
define process name=accel {
  thread name=loader {
    flowop queuetake name=request,depth=1
    flowop compute name=read,value=$sample,iters=$batch
    flowop queueput name=put,target=batch,value=$batch }
  thread name=gpu,accelerator=90 {
    flowop queueput name=ask,target=request
    flowop queuetake name=batch,value=$batch,depth=$batch
    flowop compute name=step,value=$c } }
run 5
F

# The measured AU against what the run's own C and R give, within 5 %:
# au.py JSON READERS BATCH overlap|serial
cat >"$TMP/au.py" <<'P'
import json, sys
r = json.load(open(sys.argv[1]))
readers, batch, mode = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
fo = {f['name']: f for f in r['flowops']}
def mean(n):
    return fo[n]['latency_ns']['mean'] / 1e9
C = mean('step')
R = batch * mean('read') / readers
want = C / max(C, R) if mode == 'overlap' else C / (C + R)
au = r['accelerators']['utilisation_min_pct'] / 100
print('AU %.3f, C %.4f s, R %.4f s: expected %.3f' % (au, C, R, want))
sys.exit(0 if abs(au - want) <= 0.05 * want else 1)
P
# au_check NAME JSON READERS BATCH MODE
au_check() {
	rc=0
	python3 "$TMP/au.py" "$2" "$3" "$4" "$5" >"$TMP/au" 2>&1 || rc=$?
	check "$1: $(cat "$TMP/au")" test "$rc" -eq 0
}

# --- first principles -----------------------------------------------------
# prefetch, the loader slower: R = 4 x 50 ms = 200 ms against C = 100 ms
run_fbrun -q --warmup 1 -o "$TMP/slow.json" "$TMP/prefetch.f"
check "prefetch, loader-bound: runs (exit $rc)" test "$rc" -eq 0
au_check "prefetch, loader-bound: AU = C / R" "$TMP/slow.json" 1 4 overlap
# prefetch, four readers: R = 50 ms against C = 100 ms, always fed
run_fbrun -q --warmup 1 -D readers=4 -o "$TMP/fed.json" "$TMP/prefetch.f"
check "prefetch, compute-bound: runs (exit $rc)" test "$rc" -eq 0
au_check "prefetch, compute-bound: AU = C / C" "$TMP/fed.json" 4 4 overlap
grepq "prefetch, compute-bound: passes 90%" \
	'^Accelerator utilisation: [0-9.]+% min of 1 \(mean [0-9.]+%\) >= 90%: pass$' "$TMP/out"
# none: R = 2 x 50 ms after each request, then C = 100 ms
run_fbrun -q --warmup 1 -o "$TMP/sync.json" "$TMP/sync.f"
check "no prefetch: runs (exit $rc)" test "$rc" -eq 0
au_check "no prefetch: AU = C / (C + R)" "$TMP/sync.json" 1 2 serial
grepq "no prefetch: fails 90%" \
	'^Accelerator utilisation: [0-9.]+% min of 1 \(mean [0-9.]+%\) < 90%: fail$' "$TMP/out"

# --- compare and --repeat --------------------------------------------------
run_fbrun compare "$TMP/fed.json" "$TMP/slow.json"
grepq "compare: the least busy accelerator's utilisation, a row of its own" \
	'^Accelerators +au % +(9[0-9]|100)\.[0-9] +(4[0-9]|5[0-9])\.[0-9] \(0\.[45][0-9]x\)$' "$TMP/out"
run_fbrun -q -t 1 --repeat 2 -o "$TMP/rep.json" "$TMP/prefetch.f"
grepq "--repeat: the utilisation's mean and interval" \
	'^Accelerator utilisation \(the least busy.s\): [0-9.]+% \+-[0-9.]+, sd [0-9.]+$' "$TMP/out"
e=$(json "$TMP/rep.json" "len(r['statistics']['accelerators']['utilisation_min_pct']['values'])" 2>&1 || :)
check "--repeat: each run's utilisation in the JSON's statistics ($e)" test "$e" = 2

# --- fbrun curve over the number of accelerators ---------------------------
# one storage thread serves a sample every 10 ms (100 a second) to a queue
# the accelerators share; each takes 2 samples per 57 ms step (35 a
# second): 2 are fed (70 of 100, room for the sleeps a loaded machine
# lengthens), 4 are not (140: 71 % busy at most)
cat >"$TMP/share.f" <<'F'
set $accelerators=1
define process name=node {
  thread name=storage {
    flowop compute name=serve,value=10000
    flowop queueput name=put,target=batch }
  thread name=gpu,instances=$accelerators,accelerator=90 {
    flowop queuetake name=batch,value=2,depth=16
    flowop compute name=step,value=57000 } }
run 3
F
run_fbrun curve -q --levels accelerators=1,2,4 --slo 'au>=90%' "$TMP/share.f"
check "curve --levels accelerators=1,2,4 --slo au>=90%: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... the most accelerators kept busy enough: 2" \
	'^Objective au>=90% \(the least busy accelerator.s utilisation\): met up to accelerators=2$' "$TMP/out"
grepq "... 4 miss it" '^4 +[0-9.]+ +[0-9.]+ +[0-9.]+  not$' "$TMP/out"
run_fbrun curve -q --levels 10,20 --slo 'au>=90%' "$TMP/share.f"
check "--slo au over rates: a usage error (exit $rc)" test "$rc" -eq 2
grepq "... saying to give the variable's levels" 'give --levels NAME=V1,V2' "$TMP/err"
run_fbrun curve -q --levels accelerators=1, --slo 'au>=90%' "$TMP/share.f"
check "--levels NAME= with an empty value: a usage error (exit $rc)" test "$rc" -eq 2

# --- fbrun-mpi: one set of accelerators per rank ----------------------------
MPI_FBRUN=$(dirname "$FBRUN")/fbrun-mpi
if ! command -v mpirun >/dev/null 2>&1; then
	skip "fbrun-mpi: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
elif [ ! -x "$MPI_FBRUN" ]; then
	skip "fbrun-mpi: not built (configure found no MPI)"
else
	mpi_setup
	mpi 2 -q -t 2 -D readers=4 -o "$TMP/mpi.json" "$TMP/prefetch.f"
	check "fbrun-mpi, 2 ranks: exit 0 (exit $rc)" test "$rc" -eq 0
	grepq "fbrun-mpi: the job's least busy of 2 accelerators" \
		'^Accelerator utilisation: [0-9.]+% min of 2 ' "$TMP/out"
	grepq "fbrun-mpi: each rank's least busy" \
		'^  least by rank: 0 [0-9.]+%, 1 [0-9.]+%$' "$TMP/out"
	e=$(json "$TMP/mpi.json" "sorted(a['rank'] for a in r['accelerators']['each'])" 2>&1 || :)
	check "fbrun-mpi: the JSON has each rank's accelerator ($e)" test "$e" = "[0, 1]"
fi

# --- the end of the run releases threads waiting on a queue ---------------
# the loaders wait on a full queue, the accelerator computes for ever after
# its first batch, and another thread waits on a queue nothing fills
cat >"$TMP/stuck.f" <<'F'
define process name=p {
  thread name=loader,instances=2 {
    flowop queueput name=put,target=batch }
  thread name=gpu,accelerator=90 {
    flowop queuetake name=batch,value=4,depth=4
    flowop compute name=step,value=600000000 }
  thread name=idle {
    flowop queuetake name=never,depth=1 } }
run 300
F
t0=$(ms)
rc=0
timeout 60 "$FBRUN" -q -t 2 "$TMP/stuck.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
took=$(($(ms) - t0))
check "runtime end: threads waiting on queues end with the run (exit $rc, ${took} ms)" \
	test "$rc" -eq 0
grepq "runtime end: the accelerator busy from its first batch on" \
	'^Accelerator utilisation: (9[0-9]|100)\.[0-9]% min of 1 ' "$TMP/out"

# SIGINT: 15 s from the signal to the exit is a guard that tells stopping
# on it from running on to the end (300 s), not a measure of how soon (the
# waits look at the stop flag every 0.1 s)
timeout 60 "$FBRUN" -o "$TMP/int.json" "$TMP/stuck.f" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_for "$TMP/out" 'Running for'
sleep 0.5
kill -INT "$(ps -o pid= --ppid "$pid" | tr -d ' ')"
t0=$(ms)
rc=0
wait "$pid" || rc=$?
took=$(($(ms) - t0))
check "SIGINT with threads waiting on queues: exits 1 (exit $rc)" test "$rc" -eq 1
check "SIGINT with threads waiting on queues: stops (${took} ms)" test "$took" -le 15000
e=$(json "$TMP/int.json" "r['ended_by'], r['accelerators']['count']" 2>&1 || :)
check "SIGINT: the JSON is written, with the accelerator ($e)" \
	test "$e" = "signal 1"

# finishoncount ends the run while the loaders wait on a full queue
cat >"$TMP/finish.f" <<'F'
define process name=p {
  thread name=loader,instances=4 {
    flowop queueput name=put,target=batch }
  thread name=gpu,accelerator=50 {
    flowop queuetake name=batch,value=1,depth=2
    flowop compute name=step,value=10000
    flowop finishoncount name=enough,target=batch,value=20 } }
run 300
F
rc=0
timeout 60 "$FBRUN" -q -o "$TMP/fin.json" "$TMP/finish.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
e=$(json "$TMP/fin.json" "r['ended_by'], [f['ops'] for f in r['flowops'] if f['name'] == 'batch'][0]" 2>&1 || :)
check "finishoncount: ends the run with the loaders waiting (exit $rc; $e)" \
	test "$rc" -eq 0 -a "$e" = "done 20"

done_testing
