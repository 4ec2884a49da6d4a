#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Signals and stopping: SIGINT, SIGTERM and SIGHUP, and a reader that
# goes away (SIGPIPE), stop fbrun within a second wherever it is -
# starting thousands of threads, inside one long flowop, in a system
# command, while preallocating - and it then prints what it measured,
# writes its -o file, removes its tree and exits 1.  Each case waits for
# an observable state (a line, a file, bytes read) before signalling, and
# allows 15 s from the signal to the exit: a guard that tells stopping on
# the signal from running on (the unfixed fbrun took from 30 s to
# minutes), not a measure of how soon on a loaded machine.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true
ms() { echo $(($(date +%s%N) / 1000000)); }

# wait_file FILE: until it exists (60 s at most)
wait_file() {
	i=0
	while [ "$i" -lt 600 ] && [ ! -e "$1" ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# child PID: the process `timeout` runs (fbrun itself)
child() { ps -o pid= --ppid "$1" | tr -d ' '; }

# io_over PID FIELD BYTES: until /proc/PID/io's FIELD passes BYTES (60 s)
io_over() {
	i=0
	while [ "$i" -lt 600 ]; do
		n=$(awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/io" 2>/dev/null || :)
		[ "${n:-0}" -gt "$3" ] && return 0
		[ -e "/proc/$1" ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# stopped WHAT: exit 1 on the signal (within 15 s: a guard against
# running on to the end, not a measure), the results, the JSON, no tree
stopped() {
	check "$1: exits 1 (exit $rc)" test "$rc" -eq 1
	check "$1: stops on the signal (${took} ms)" test "$took" -le 15000
	if $have_python; then
		e=$(json "$TMP/r.json" "r['ended_by']" 2>&1 || :)
		check "$1: the -o JSON is written, ended_by signal ($e)" test "$e" = signal
	else
		skip "$1: the JSON: needs python3"
	fi
	check "$1: the tree is removed" test -z "$(ls -A "$TMP/fs" 2>/dev/null)"
}

# --- SIGPIPE: the reader of standard output goes away ------------------------
cat >"$TMP/pipe.f" <<F
define fileset name=data,path=$TMP/fs,entries=40,size=4k,dirwidth=5,prealloc=50
define process name=p { thread name=t,instances=2 {
  flowop openfile name=open,filesetname=data,fd=1
  flowop readwholefile name=read,fd=1,iosize=4k
  flowop closefile name=close,fd=1 } }
run 30
F
rm -f "$TMP/r.json"
t0=$(ms)
{
	rc=0
	timeout 60 "$FBRUN" -o "$TMP/r.json" "$TMP/pipe.f" 2>"$TMP/err" || rc=$?
	echo "$rc" >"$TMP/rc"
} | grep -m1 Creating >/dev/null
wait_file "$TMP/rc"
rc=$(cat "$TMP/rc")
took=$(($(ms) - t0))
stopped "SIGPIPE (fbrun | grep -m1 Creating)"
grepq "SIGPIPE: says why it stopped" "interrupted by a closed standard output" "$TMP/err"

# --- SIGHUP during the run: as SIGTERM (cleanup.sh has SIGINT and SIGTERM) ----
for sig in HUP; do
	rm -f "$TMP/r.json" "$TMP/out" "$TMP/err"
	timeout 60 "$FBRUN" -o "$TMP/r.json" "$TMP/pipe.f" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_for "$TMP/out" 'Running for'
	kill -"$sig" "$(child "$pid")"
	t0=$(ms)
	rc=0
	wait "$pid" || rc=$?
	took=$(($(ms) - t0))
	stopped "SIG$sig during the run"
	grepq "SIG$sig during the run: prints the results so far" '^IO Summary: ' "$TMP/out"
	grepq "SIG$sig during the run: names the signal" "interrupted by SIG$sig after" "$TMP/err"
done

# --- SIGINT while 20000 threads start ----------------------------------------
cat >"$TMP/threads.f" <<F
define fileset name=data,path=$TMP/fs,entries=20,size=1k,dirwidth=5,prealloc=50
define process name=p { thread name=t,instances=20000 {
  flowop statfile name=stat,filesetname=data } }
run 60
F
rm -f "$TMP/r.json" "$TMP/out" "$TMP/err"
timeout 120 "$FBRUN" -o "$TMP/r.json" "$TMP/threads.f" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_for "$TMP/out" 'Starting 20000 threads'
kill -INT "$(child "$pid")"
t0=$(ms)
rc=0
wait "$pid" || rc=$?
took=$(($(ms) - t0))
stopped "SIGINT while 20000 threads start"

# --- SIGINT inside one long flowop ---------------------------------------------
# 16 MiB a byte per system call: minutes for one op.  Signalled once the
# op is going (its bytes counted in /proc/PID/io).
# long NAME FIELD SCRIPT-BODY
long() {
	cat >"$TMP/long.f" <<F
define file name=big,path=$TMP/fs,size=16m,prealloc=$4
define process name=p { thread name=t {
$3 } }
run 300
F
	rm -f "$TMP/r.json" "$TMP/out" "$TMP/err"
	timeout 60 "$FBRUN" -o "$TMP/r.json" "$TMP/long.f" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_for "$TMP/out" 'Running for'
	f=$(child "$pid")
	if [ -n "$f" ] && io_over "$f" "$2" 262144; then
		kill -INT "$f"
		t0=$(ms)
		rc=0
		wait "$pid" || rc=$?
		took=$(($(ms) - t0))
		stopped "SIGINT inside $1"
		# the op cut short is not counted
		if $have_python; then
			n=$(json "$TMP/r.json" "[f['ops'] for f in r['flowops'] if f['name'] == 'op'][0]")
			check "SIGINT inside $1: the op cut short is not counted ($n)" test "$n" -eq 0
		fi
	else
		kill "$pid" 2>/dev/null || :
		wait "$pid" || :
		skip "SIGINT inside $1: /proc/PID/io cannot be read here"
	fi
}
long "readwholefile iosize=1" rchar '
  flowop openfile name=open,filesetname=big,fd=1
  flowop readwholefile name=op,fd=1,iosize=1' 100
long "writewholefile iosize=1" wchar '
  flowop createfile name=create,filesetname=big,fd=1
  flowop writewholefile name=op,fd=1,iosize=1' 0
long "readbytes" rchar '
  flowop openfile name=open,filesetname=big,fd=1
  flowop readbytes name=op,fd=1,iosize=16m' 100
long "writebytes" wchar '
  flowop createfile name=create,filesetname=big,fd=1
  flowop writebytes name=op,fd=1,iosize=16m' 0

# --- SIGINT during a system command -------------------------------------------
cat >"$TMP/system.f" <<F
define fileset name=data,path=$TMP/fs,entries=20,size=1k,dirwidth=5,prealloc=50
create files
system "touch $TMP/ready; exec sleep 100"
define process name=p { thread name=t { flowop statfile name=stat,filesetname=data } }
run 5
F
# Ctrl-C at a terminal: SIGINT to fbrun's whole process group, the
# command with it; the command dies of it, and fbrun must stop too
rm -f "$TMP/r.json" "$TMP/ready" "$TMP/pid" "$TMP/out" "$TMP/err"
timeout 60 setsid sh -c 'echo $$ >"$1/pid"; shift; exec "$@"' sh "$TMP" \
	"$FBRUN" -o "$TMP/r.json" "$TMP/system.f" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_file "$TMP/ready"
kill -INT "-$(cat "$TMP/pid")"
t0=$(ms)
rc=0
wait "$pid" || rc=$?
took=$(($(ms) - t0))
stopped "Ctrl-C during system \"sleep 100\""
check "Ctrl-C during system: the run does not start" test -z "$(grep Starting "$TMP/out")"
grepq "Ctrl-C during system: says the command was killed by SIGINT" \
	'system ".*" was killed by signal 2' "$TMP/err"

# SIGINT to fbrun alone (kill, not the terminal): passed on to the command
for sig in INT; do
	rm -f "$TMP/r.json" "$TMP/ready" "$TMP/out" "$TMP/err"
	timeout 60 "$FBRUN" -o "$TMP/r.json" "$TMP/system.f" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_file "$TMP/ready"
	kill -"$sig" "$(child "$pid")"
	t0=$(ms)
	rc=0
	wait "$pid" || rc=$?
	took=$(($(ms) - t0))
	stopped "SIG$sig to fbrun during system \"sleep 100\""
done

# --- a signal or a fault while preallocating: the results all the same ------
cat >"$TMP/big.f" <<F
define fileset name=big,path=$TMP/fs,entries=200000,size=1k,dirwidth=100,prealloc
define process name=p { thread name=t { flowop statfile name=s,filesetname=big } }
run 60
F
rm -f "$TMP/r.json" "$TMP/out" "$TMP/err"
timeout 60 "$FBRUN" -o "$TMP/r.json" "$TMP/big.f" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_for "$TMP/out" 'Creating fileset'
kill -TERM "$(child "$pid")"
t0=$(ms)
rc=0
wait "$pid" || rc=$?
took=$(($(ms) - t0))
if grep -q "Starting" "$TMP/out"; then
	skip "SIGTERM while preallocating: creating 200000 files took no time here"
else
	stopped "SIGTERM while preallocating"
	grepq "SIGTERM while preallocating: prints the (empty) table" '^IO Summary: +0 ops' "$TMP/out"
	grepq "SIGTERM while preallocating: and what was written" '^[0-9.]+: big: [0-9.]+MB written' "$TMP/out"
	if $have_python; then
		e=$(json "$TMP/r.json" "r['error']")
		check "SIGTERM while preallocating: the JSON says so ($e)" \
			test "$e" = "fileset big: interrupted while creating files"
	fi
fi

# a file in the way of a directory: a fault while creating
mkdir -p "$TMP/fault"
echo x >"$TMP/fault/plain"
sed "s|path=$TMP/fs,entries=200000|path=$TMP/fault/plain/sub,entries=20|" \
	"$TMP/big.f" >"$TMP/fault.f"
rm -f "$TMP/r.json"
rc=0
timeout 60 "$FBRUN" -o "$TMP/r.json" "$TMP/fault.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
check "a fault while creating: exits 1 (exit $rc)" test "$rc" -eq 1
grepq "a fault while creating: prints the (empty) table" '^IO Summary: +0 ops' "$TMP/out"
if $have_python; then
	e=$(json "$TMP/r.json" "r['ended_by'] + ': ' + r['error']" 2>&1 || :)
	case $e in
	"error: fileset big: cannot create '$TMP/fault/plain/sub': Not a directory") pass "a fault while creating: the JSON has ended_by and the error ($e)" ;;
	*) fail "a fault while creating: the JSON has ended_by and the error ($e)" ;;
	esac
fi

done_testing
