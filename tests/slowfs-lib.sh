# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Sourced after tests/lib.sh by the tests that mount tests/tools/slowfs
# (tests/slowfs.sh, tests/openloop-fuse.sh): where it is, a server and a
# reader that must not outlive the test, what a process is doing, whether
# the mount is up, and the server started over $B on $M.

SLOWFS=${SLOWFS:-$(dirname "$FBRUN")/tests/tools/slowfs}

# a server stopped, or a reader waiting on it, must not outlive the test
daemon="" reader=""
slowfs_cleanup() {
	[ -z "$reader" ] || kill -KILL "$reader" 2>/dev/null || :
	if [ -n "$daemon" ]; then
		kill -CONT "$daemon" 2>/dev/null || :
		kill -TERM "$daemon" 2>/dev/null || :
		wait "$daemon" 2>/dev/null || :
	fi
	cleanup
}
trap slowfs_cleanup EXIT

# state PID: the process's state letter (R, S, D, T, Z), empty once reaped
state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1; }
gone() { s=$(state "$1"); [ -z "$s" ] || [ "$s" = Z ]; }
stopped() { [ "$(state "$1")" = T ]; }
# mounted DIR: a slowfs is mounted on DIR (mountinfo escapes a space,
# a tab and a backslash in a path)
mounted() {
	m=$1 awk '{ p = $5; gsub(/\\040/, " ", p); gsub(/\\011/, "\t", p)
		gsub(/\\134/, "\\", p) }
		p == ENVIRON["m"] && / - fuse\.slowfs / { f = 1 } END { exit !f }' \
		/proc/self/mountinfo
}
not_mounted() { ! mounted "$1"; }
# start ARGS...: slowfs ARGS $B $M in the background as $daemon, until it
# has mounted or ended; 1 (the reason in $why) when it could not mount
B=$TMP/backing
M=$(cd "$TMP" && pwd -P)/mnt
mkdir -p "$B" "$M"
up_or_gone() { mounted "$M" || gone "$daemon"; }
start() {
	"$SLOWFS" "$@" "$B" "$M" >"$TMP/slowfs.out" 2>"$TMP/slowfs.err" &
	daemon=$!
	mounts="$M $mounts"
	wait_until up_or_gone
	mounted "$M" && return 0
	why=$(head -1 "$TMP/slowfs.err")
	return 1
}

