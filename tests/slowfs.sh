#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# tests/tools/slowfs, the FUSE file system of known speed the tests and
# benches use as a single server: a passthrough whose every read takes at
# least its delay (-w: every write too), none answered by a cache, and
# which SIGSTOP stalls.  Facts only, never an upper bound on a time: what
# is written through the mount is in the backing directory byte for
# byte, the metadata calls reach it, 20 reads take at least 20 delays, a
# read waits for as long as the server is stopped, and the server exits 0
# when unmounted or sent SIGTERM.  Needs root and /dev/fuse; skipped when
# slowfs was not built (no libfuse3-dev at configure).
. "${srcdir:-.}/tests/lib.sh"

. "${srcdir:-.}/tests/slowfs-lib.sh"
DELAY=5000

# --- usage errors: one line on stderr, exit 2 --------------------------------
if [ ! -x "$SLOWFS" ]; then
	skip "slowfs: $SLOWFS was not built (configure found no libfuse3-dev)"
	done_testing
	exit 0
fi
for args in "" "-d" "-d 1x $TMP $TMP" "-x $TMP $TMP" "$TMP" "$TMP/none $TMP" \
	"$TMP $TMP/none"; do
	rc=0
	# shellcheck disable=SC2086
	"$SLOWFS" $args >"$TMP/out" 2>"$TMP/err" || rc=$?
	d=$(echo "${args:-(no arguments)}" | sed "s|$TMP|TMP|g")
	check "slowfs $d: exit 2 (exit $rc)" test "$rc" -eq 2
	check "... one line on stderr, nothing on stdout" \
		test "$(wc -l <"$TMP/err")" -eq 1 -a ! -s "$TMP/out"
done

why=""
if ! $is_root; then
	why="needs root to mount a FUSE file system"
elif [ ! -c /dev/fuse ]; then
	why="no /dev/fuse"
fi
if [ -n "$why" ]; then
	skip "slowfs mounted: $why"
	done_testing
	exit 0
fi

# waiting PID: asleep, in a FUSE request the server has not answered
# (where the kernel does not name the function it sleeps in, asleep)
waiting() {
	case $(state "$1") in S | D) ;; *) return 1 ;; esac
	w=$(cat "/proc/$1/wchan" 2>/dev/null) || w=""
	case $w in "" | 0 | *request_wait_answer* | *fuse*) ;; *) return 1 ;; esac
}
# reap DESCRIPTION PID: once PID has ended, its exit status is 0
reap() {
	wait_until gone "$2"
	rc=0
	if gone "$2"; then
		wait "$2" || rc=$?
		check "$1 (exit $rc)" test "$rc" -eq 0
	else
		fail "$1 (still running)"
	fi
}
now_ns() { date +%s%N; }

head -c 1048576 /dev/urandom >"$TMP/rand"
head -c 1048576 /dev/urandom >"$B/cold"
if ! start -d "$DELAY"; then
	skip "slowfs mounted: it could not mount here: ${why:-no message}"
	done_testing
	exit 0
fi
pass "slowfs -d $DELAY mounts a FUSE file system of type fuse.slowfs"

# --- 1. data written through the mount --------------------------------------
cp "$TMP/rand" "$M/rand"
check "1 MiB written through the mount reads back the same" cmp -s "$TMP/rand" "$M/rand"
check "... and is the same in the backing directory" cmp -s "$TMP/rand" "$B/rand"

# --- 2. the metadata calls reach the backing directory ------------------------
mkdir "$M/d"
check "mkdir: the directory is in the backing directory" test -d "$B/d"
echo data >"$M/d/f"
mv "$M/d/f" "$M/d/g"
check "rename: the new name is there, the old one is not" \
	test -f "$B/d/g" -a ! -e "$B/d/f"
ln -s g "$M/d/l"
check "symlink: the link is in the backing directory" \
	test "$(readlink "$B/d/l")" = g
check "readlink through the mount" test "$(readlink "$M/d/l")" = g
truncate -s 1000 "$M/d/g"
check "truncate: the backing file's size is 1000" test "$(stat -c %s "$B/d/g")" -eq 1000
ln "$M/d/g" "$M/d/h"
check "link: the two names are one inode, in the mount and the backing directory" \
	test "$(stat -c %i "$M/d/h")" = "$(stat -c %i "$B/d/g")" -a \
	"$(stat -c %h "$B/d/g")" -eq 2
chmod 640 "$M/d/h"
check "chmod: the backing file's mode" test "$(stat -c %a "$B/d/g")" = 640
check "readdir: the names through the mount" \
	test "$(cd "$M/d" && echo *)" = "g h l"
rm "$M/d/g" "$M/d/h" "$M/d/l"
check "unlink: the names are gone from the backing directory" test -z "$(ls -A "$B/d")"
rmdir "$M/d"
check "rmdir: the directory is gone from the backing directory" test ! -e "$B/d"

# --- 3. each read takes at least the delay ------------------------------------
# 20 reads one after another, each a request: at least 20 delays, the
# second time too (direct_io: no page cache answers it)
for pass_ in first second; do
	t0=$(now_ns)
	dd if="$M/cold" of="$TMP/cold.got" bs=4k count=20 status=none
	t1=$(now_ns)
	check "20 reads of 4 KiB at ${DELAY} us each take at least 0.1 s, the $pass_ time ($(((t1 - t0) / 1000)) us)" \
		test $((t1 - t0)) -ge $((20 * DELAY * 1000))
done
check "... and read the file's bytes" cmp -s -n 81920 "$TMP/cold.got" "$B/cold"

# --- 4. a stopped server answers nothing until it goes on ---------------------
kill -STOP "$daemon"
wait_until stopped "$daemon"
check "SIGSTOP stops the server" stopped "$daemon"
dd if="$M/cold" of="$TMP/stalled" bs=4k count=2 skip=100 status=none &
reader=$!
wait_until waiting "$reader"
check "a read started while it is stopped waits on it" waiting "$reader"
sleep 0.5 # time for a wrong answer to come, not a condition
check "... and has not finished while it stays stopped" \
	test "$(state "$reader")" != Z -a ! -s "$TMP/stalled"
kill -CONT "$daemon"
reap "after SIGCONT the read finishes" "$reader"
reader=""
dd if="$B/cold" of="$TMP/want" bs=4k count=2 skip=100 status=none
check "... with the file's bytes" cmp -s "$TMP/want" "$TMP/stalled"

# --- 5. umount ends the server ------------------------------------------------
check "umount unmounts it" umount "$M"
reap "... and the server exits 0" "$daemon"
daemon=""

# --- 6. -w: writes too; SIGTERM unmounts and ends it --------------------------
if start -w -d "$DELAY"; then
	t0=$(now_ns)
	dd if="$TMP/rand" of="$M/w" bs=4k count=20 status=none
	t1=$(now_ns)
	check "-w: 20 writes of 4 KiB take at least 0.1 s ($(((t1 - t0) / 1000)) us)" \
		test $((t1 - t0)) -ge $((20 * DELAY * 1000))
	check "-w: ... and wrote the bytes" cmp -s -n 81920 "$TMP/rand" "$B/w"
	kill -TERM "$daemon"
	reap "SIGTERM: the server exits 0" "$daemon"
	daemon=""
	check "SIGTERM: ... and has unmounted itself" not_mounted "$M"
else
	fail "slowfs -w mounts again: $why"
fi
done_testing
