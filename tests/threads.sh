#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# How the threads spend a run: inside their timed operations when they
# work in a closed loop (Little's law), asleep and not spinning when there
# is nothing to pick.  A structural ratio and counts, never a speed.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# More threads than CPUs: 4 per CPU the process may use, 8 to 64.
ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
n=$((ncpu * 4))
[ "$n" -ge 8 ] || n=8
[ "$n" -le 64 ] || n=64

# --- Little's law: a closed loop keeps its threads in operations ------------
# No think time: every flowop but the opslimit is timed, and the opslimit
# (no eventgen: it does nothing) takes no time.  Waiting
# for a CPU, with n threads on fewer CPUs, must land inside some window.
cat >"$TMP/loop.f" <<F
define fileset name=fs,path=$TMP/loop,entries=256,size=16k,dirwidth=16,prealloc
define process name=p { thread name=t,instances=$n {
  flowop openfile name=open,filesetname=fs,fd=1
  flowop readwholefile name=read,fd=1,iosize=4k
  flowop closefile name=close,fd=1
  flowop opslimit name=limit } }
run 3
F
run_fbrun -o "$TMP/loop.json" "$TMP/loop.f"
check "a closed loop of $n threads on $ncpu CPUs exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
grepq "the text says how many threads were in operations" \
	"^Threads in operations: [0-9]+\.[0-9] of $n \(ops/s x ms/op, summed over flowops\)$" \
	"$TMP/out"
if grep -aq __tsan_init "$FBRUN" 2>/dev/null; then
	# its checks make fbrun's own code, between the windows, slower
	# than the system calls inside them
	skip "Little's law: a ThreadSanitizer build is not measured"
elif $have_python; then
	# the sum over flowops of ops/s x mean latency, and the JSON's figure
	set -- $(json "$TMP/loop.json" "'%.2f %d %s' % (sum(f['ops_per_sec'] * f['ms_per_op'] / 1000 for f in r['flowops']), r['threads'], r['summary'].get('threads_in_ops', -1))" || echo 0 0 -1)
	ok=$(python3 -c "print(abs($1 - $3) < 0.01)")
	check "the JSON's threads_in_ops ($3) is that sum ($1)" test "$ok" = True
	ok=$(python3 -c "print($1 >= 0.85 * $2)")
	check "threads in operations >= 0.85 x threads ($1 of $2)" test "$ok" = True
	[ "$ok" = True ] || diag <"$TMP/out"
else
	skip "Little's law: needs python3 to read the JSON"
fi

# --- a fileset that fills up: no spinning -----------------------------------
# When every file exists, a create finds nothing: while other threads
# still hold entries it sleeps until one is given back (counted as a
# wait), then the run ends.  It used to call sched_yield 1000 times.
cat >"$TMP/fill.f" <<F
set mode quit firstdone
define fileset name=new,path=$TMP/fill,entries=200,size=4k,dirwidth=20
define process name=p { thread name=t,instances=$n {
  flowop createfile name=create,filesetname=new,fd=1
  flowop writewholefile name=write,fd=1,iosize=4k
  flowop closefile name=close,fd=1 } }
run 60
F
run_fbrun -q --keep -o "$TMP/fill.json" "$TMP/fill.f"
check "filling a fileset with $n threads exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
nfiles=$(find "$TMP/fill/new" -type f ! -name .fbrun-fileset | wc -l)
check "every one of its 200 files is there ($nfiles)" test "$nfiles" -eq 200
if $have_python; then
	set -- $(json "$TMP/fill.json" "'%s %d %s' % (r['ended_by'], [f for f in r['flowops'] if f['name'] == 'create'][0]['ops'], 'waits' in r['summary'] and r['summary']['waits'] == sum(f['waits'] for f in r['flowops']) and all(f['waits'] >= 0 and f['wait_seconds'] >= 0 for f in r['flowops']))" || echo x 0 False)
	check "the run ends when the fileset is full ($1, $2 creates)" \
		test "$1:$2" = "done:200"
	check "the waits are counted per flowop and in the summary" test "$3" = True
else
	skip "waits in the JSON: needs python3"
fi
rm -rf "$TMP/fill"
# LeakSanitizer cannot run under ptrace
nolsan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if ! command -v strace >/dev/null 2>&1; then
	skip "sched_yield calls: strace is not installed"
elif ! ASAN_OPTIONS="$nolsan" strace -f -qq -e trace=sched_yield -o "$TMP/yields" \
	"$FBRUN" -q "$TMP/fill.f" >"$TMP/out" 2>"$TMP/err" ||
	! grep -q '^Per-Operation' "$TMP/out"; then
	skip "sched_yield calls: strace cannot trace fbrun here"
else
	y=$(grep -c 'sched_yield(' "$TMP/yields" || :)
	check "the threads of a full fileset do not spin: $y sched_yield calls" \
		test "$y" -eq 0
fi

# --- no clock read between operations -----------------------------------------
# The CPU clock is read only inside the windows of sampled operations (and
# 48 times per thread before the run, to measure the reads): a flowop
# that times nothing reads none.  It used to read it twice per pass.
cat >"$TMP/idle.f" <<F
define process name=p { thread name=t,instances=2 { flowop opslimit name=limit } }
run 1
F
if ! command -v strace >/dev/null 2>&1; then
	skip "CPU clock reads: strace is not installed"
elif ! ASAN_OPTIONS="$nolsan" strace -f -qq -e trace=clock_gettime -o "$TMP/clocks" \
	"$FBRUN" -q "$TMP/idle.f" >"$TMP/out" 2>"$TMP/err" ||
	! grep -q '^Per-Operation' "$TMP/out"; then
	skip "CPU clock reads: strace cannot trace fbrun here"
else
	c=$(grep -c 'clock_gettime(' "$TMP/clocks" || :)
	check "a flowop that times nothing reads no CPU clock ($c reads)" \
		test "$c" -le 200
fi

# --- a descriptor table per thread -----------------------------------------
# Each thread opens the one file itself and holds it while it sleeps:
# with a table of its own, each worker's /proc/PID/task/TID/fd shows its
# own descriptor only, and the main thread's shows none (a shared table
# shows both descriptors in every thread's).
cat >"$TMP/own.f" <<F
define fileset name=fs,path=$TMP/own,entries=1,size=4k,dirwidth=1,prealloc
define process name=p { thread name=t,instances=2 {
  flowop openfile name=open,filesetname=fs,fd=1
  flowop delay name=hold,value=100 } }
run 100
F
# links PID: per task of PID, how many of its descriptors are the
# fileset's file (not its root, which every table has)
links() {
	for task in /proc/"$1"/task/*; do
		n=0
		for l in "$task"/fd/*; do
			t=$(readlink "$l" 2>/dev/null) || continue
			case $t in
			"$TMP"/own/*) [ -f "$t" ] && n=$((n + 1)) ;;
			esac
		done
		echo "${task##*/} $n"
	done
}
kmajor=$(uname -r | cut -d. -f1)
kminor=$(uname -r | cut -d. -f2)
if [ "$kmajor" -lt 5 ] || { [ "$kmajor" -eq 5 ] && [ "$kminor" -lt 9 ]; }; then
	skip "a descriptor table per thread: kernel $(uname -r) has no close_range (5.9)"
elif grep -aq __tsan_init "$FBRUN" 2>/dev/null; then
	skip "a descriptor table per thread: not under ThreadSanitizer (one table per process in its model)"
else
	timeout 60 "$FBRUN" -q "$TMP/own.f" >"$TMP/out" 2>"$TMP/err" &
	tpid=$!
	pid=
	i=0
	# until both workers hold the file (or fbrun ended)
	while [ "$i" -lt 400 ] && kill -0 "$tpid" 2>/dev/null; do
		[ -n "$pid" ] || pid=$(ps -o pid= --ppid "$tpid" | tr -d ' ')
		if [ -n "$pid" ] &&
			[ "$(links "$pid" | awk '$2 > 0' | wc -l)" -ge 2 ]; then
			break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	links "${pid:-0}" >"$TMP/links" 2>/dev/null || :
	[ -n "$pid" ] && kill -INT "$pid"
	rc=0
	wait "$tpid" || rc=$?
	check "a descriptor table per thread: two threads hold the file" \
		test "$(awk '$2 > 0' "$TMP/links" | wc -l)" -eq 2
	check "... each its own descriptor only" \
		test "$(awk '$2 > 1' "$TMP/links" | wc -l)" -eq 0
	check "... and the main thread none of them" \
		test "$(awk -v p="$pid" '$1 == p { print $2 }' "$TMP/links")" = 0
	[ "$(awk '$2 > 0' "$TMP/links" | wc -l)" -eq 2 ] || diag <"$TMP/links"
	check "... and SIGINT ends the run: exit 1 ($rc)" test "$rc" -eq 1
fi

done_testing
