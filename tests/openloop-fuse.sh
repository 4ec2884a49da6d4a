#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Coordinated omission, on a server of known speed: tests/tools/slowfs
# serves each read with one worker in 2 ms.  Stopped for a second
# (SIGSTOP, SIGCONT) in an open loop of 100 reads a second, the hundred
# arrivals of that second wait: their response times, from when each was
# due, reach the second, while each read's service time stays the
# server's; a closed loop of the same reads sees the stall as one slow
# read.  Bounds the stall itself sets, never the machine's speed: a
# response p99 of at least 0.3 s (the stall puts a tenth of the reads
# behind it), a service p99 under it (the stall holds one read).  Needs
# root and /dev/fuse; skipped when slowfs was not built.
. "${srcdir:-.}/tests/lib.sh"
. "${srcdir:-.}/tests/slowfs-lib.sh"

why=""
if [ ! -x "$SLOWFS" ]; then
	why="$SLOWFS was not built (configure found no libfuse3-dev)"
elif ! $is_root; then
	why="needs root to mount a FUSE file system"
elif [ ! -c /dev/fuse ]; then
	why="no /dev/fuse"
elif ! command -v python3 >/dev/null 2>&1; then
	why="the checks read the JSON with python3"
elif ! start -d 2000; then
	why="slowfs could not mount here: ${why:-no message}"
fi
if [ -n "$why" ]; then
	skip "coordinated omission on slowfs: $why"
	done_testing
	exit 0
fi

# pyok DESCRIPTION FILE EXPR: ok if EXPR of the results file (r) is true
pyok() {
	if [ "$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(bool($3))" "$2" 2>&1)" = True ]; then
		pass "$1"
	else
		fail "$1"
		python3 -c "import json,sys; r=json.load(open(sys.argv[1])); f=r['flowops'][0]; print(f['latency_ns'], f.get('response_ns', {}).get('p99'), r.get('arrivals'))" "$2" 2>&1 | diag
	fi
}

# run_stalled NAME RATE: the script ($TMP/NAME.f) for 8 s, the server
# stopped for 1 s once the run has begun
run_stalled() {
	"$FBRUN" -o "$TMP/$1.json" "$TMP/$1.f" >"$TMP/$1.out" 2>&1 &
	pid=$!
	wait_for "$TMP/$1.out" 'Running for'
	sleep 2
	kill -STOP "$daemon"
	sleep 1
	kill -CONT "$daemon"
	rc=0
	wait "$pid" || rc=$?
	check "$1: exits 0 (exit $rc)" test "$rc" -eq 0
}

for kind in open closed; do
	rate=",rate=100"
	[ "$kind" = open ] || rate=""
	cat >"$TMP/$kind.f" <<F
define fileset name=fs,path=$M,entries=1,dirwidth=1,size=1m,prealloc
define process name=p {
  thread name=t$rate { flowop read name=rd,filesetname=fs,iosize=4k,random }
}
run 8
F
	run_stalled "$kind"
done
pyok "open loop: the stall is in the response times (p99 at least 0.3 s)" "$TMP/open.json" \
	"r['flowops'][0]['response_ns']['p99'] >= 3e8"
pyok "open loop: and not in the service times (p99 under 0.3 s, the stalled read alone over it)" "$TMP/open.json" \
	"r['flowops'][0]['latency_ns']['p99'] < 3e8 and r['flowops'][0]['latency_ns']['max'] >= 9e8"
pyok "open loop: no read faster than the server serves it (2 ms)" "$TMP/open.json" \
	"r['flowops'][0]['latency_ns']['min'] >= 2e6"
pyok "open loop: offered = done + dropped + unserved, none dropped" "$TMP/open.json" \
	"all(a['offered'] == a['done'] + a['dropped'] + a['unserved'] and a['dropped'] == 0 for a in r['arrivals'])"
pyok "closed loop: the stall is one slow read (p99 under 0.3 s, the max over 0.9 s)" "$TMP/closed.json" \
	"r['flowops'][0]['latency_ns']['p99'] < 3e8 and r['flowops'][0]['latency_ns']['max'] >= 9e8"
pyok "closed loop: no response times" "$TMP/closed.json" "'response_ns' not in r['flowops'][0]"

done_testing
