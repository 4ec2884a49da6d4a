#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The files fbrun writes because it is asked to (-o, with --repeat too,
# and compare's --html): a target that is there and is not a regular file
# (a device node, a FIFO, a socket, a symbolic link to anything) is
# refused before the run, exit 2, nothing opened and no fileset made; a
# regular file is replaced by a new one renamed over it (its inode
# changes, no temporary is left, also when the disk is full).  An output
# that is a file the command reads (the script, the trace, a results file
# compared), by any name, is refused before anything runs, exit 2.
. "${srcdir:-.}/tests/lib.sh"

loop=""
out_cleanup() {
	[ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || :
	cleanup
}
trap out_cleanup EXIT

W=$TMP/w
cat >"$TMP/w.f" <<F
define fileset name=fs,path=$W,entries=4,dirwidth=4,size=1k,prealloc
define process name=p { thread name=t { flowop statfile name=st,filesetname=fs } }
run 1
F

# fb ARGS...: fbrun under a guard: a write that blocks (a FIFO without a
# reader) ends as exit 124, a failure, instead of hanging the suite
fb() {
	rc=0
	timeout 60 "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}
# temporaries DIR: the names fbrun's temporaries would have, left in DIR
temporaries() { find "$1" -maxdepth 1 -name '.*.fbrun-*' | wc -l; }

# refused TARGET WHAT DESC: -o TARGET is refused before the run
refused() {
	rm -rf "$W"
	fb -q -o "$1" "$TMP/w.f"
	check "-o $3: refused with exit 2 (exit $rc; 124 is a hang)" test "$rc" -eq 2
	grepq "... says what is there" "^fbrun: error: -o '$1' is $2, not a regular file; refusing to run$" "$TMP/err"
	check "... before any fileset is made" test ! -e "$W"
	check "... and no results printed" test ! -s "$TMP/out"
}

# --- what is not a regular file -------------------------------------------------
mkfifo "$TMP/fifo"
refused "$TMP/fifo" "a FIFO" "a FIFO"
ln -s fifo "$TMP/to-fifo"
refused "$TMP/to-fifo" "a symbolic link" "a symbolic link to a FIFO"
check "... the FIFO is still a FIFO" test -p "$TMP/fifo"

echo "mine" >"$TMP/mine"
ln -s mine "$TMP/to-mine"
refused "$TMP/to-mine" "a symbolic link" "a symbolic link to a regular file"
check "... the file it names is untouched" test "$(cat "$TMP/mine")" = mine
check "... the link is still a link" test -L "$TMP/to-mine"
ln -s nothing-here "$TMP/dangling"
refused "$TMP/dangling" "a symbolic link" "a dangling symbolic link"
check "... nothing made where it points" test ! -e "$TMP/nothing-here"

if command -v python3 >/dev/null 2>&1 &&
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/sock" 2>/dev/null; then
	refused "$TMP/sock" "a socket" "a socket"
else
	skip "-o a socket: python3 cannot bind a Unix socket here"
fi

if $is_root && mknod "$TMP/null" c 1 3 2>/dev/null; then
	refused "$TMP/null" "a character device" "a character device node"
	ln -s null "$TMP/to-null"
	refused "$TMP/to-null" "a symbolic link" "a symbolic link to a character device"
	check "... the node is still a device" test -c "$TMP/null"
else
	skip "-o a character device: needs root for mknod"
fi

why=""
if ! $is_root; then
	why="needs root for a loop device"
elif ! command -v losetup >/dev/null 2>&1; then
	why="losetup not found"
else
	head -c 1048576 /dev/urandom >"$TMP/img"
	loop=$(losetup -f --show "$TMP/img" 2>"$TMP/losetup.err") || {
		loop=""
		why="no loop device: $(head -1 "$TMP/losetup.err")"
	}
fi
if [ -z "$why" ]; then
	sum=$(sha256sum <"$TMP/img")
	refused "$loop" "a block device" "a loop device"
	ln -s "$loop" "$TMP/to-loop"
	refused "$TMP/to-loop" "a symbolic link" "a symbolic link to a loop device"
	sync
	blockdev --flushbufs "$loop" 2>/dev/null || :
	check "... the loop device's backing file is as it was" test "$(sha256sum <"$TMP/img")" = "$sum"
else
	skip "-o a block device: $why"
fi

rm -rf "$W"
fb -q --repeat 2 -t 1 -o "$TMP/to-fifo" "$TMP/w.f"
check "--repeat -o a symbolic link: refused with exit 2 (exit $rc)" test "$rc" -eq 2
check "... before any fileset is made" test ! -e "$W"

# --- a regular file, replaced -------------------------------------------------
mkdir "$TMP/o"
echo "old" >"$TMP/o/r.json"
chmod 600 "$TMP/o/r.json"
ino=$(stat -c %i "$TMP/o/r.json")
fb -q -o "$TMP/o/r.json" "$TMP/w.f"
check "-o an existing file: exits 0 (exit $rc)" test "$rc" -eq 0
check "... the file is a new one (inode $ino, now $(stat -c %i "$TMP/o/r.json"))" \
	test "$(stat -c %i "$TMP/o/r.json")" != "$ino"
grepq "... holding the results" '"flowops": \[' "$TMP/o/r.json"
check "... with the old file's permissions" test "$(stat -c %a "$TMP/o/r.json")" = 600
check "... and no temporary left beside it" test "$(temporaries "$TMP/o")" -eq 0
check "... nothing else in the directory" test "$(ls -A "$TMP/o")" = r.json
fb -q -o "$TMP/o/new.csv" "$TMP/w.f"
check "-o a new file: written (exit $rc)" test "$rc" -eq 0 -a "$(head -c 9 "$TMP/o/new.csv")" = "name,type"
ino=$(stat -c %i "$TMP/o/r.json")
fb -q --repeat 2 -t 1 -o "$TMP/o/r.json" "$TMP/w.f"
check "--repeat -o an existing file: exits 0 (exit $rc)" test "$rc" -eq 0
check "... a new file (inode $ino, now $(stat -c %i "$TMP/o/r.json"))" \
	test "$(stat -c %i "$TMP/o/r.json")" != "$ino"
grepq "... holding the runs' statistics" '"statistics": ' "$TMP/o/r.json"
check "... no temporary left" test "$(temporaries "$TMP/o")" -eq 0

# the target itself is never opened: only the temporary, then a rename
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	rc=0
	strace -f -e trace=open,openat,openat2,rename,renameat,renameat2 -o "$TMP/st" \
		"$FBRUN" -q -o "$TMP/o/r.json" "$TMP/w.f" >/dev/null 2>&1 || rc=$?
	check "strace: -o opens no file named r.json for writing" \
		eval '! grep -E "open(at2?)?\(.*/r\.json\"" "$TMP/st" | grep -q O_WRONLY'
	grepq "... it makes a new file beside it (O_EXCL, O_NOFOLLOW)" \
		"openat\(.*\"\.r\.json\.fbrun-[0-9a-f]{6}\", O_WRONLY\|O_CREAT\|O_EXCL\|O_NOFOLLOW" "$TMP/st"
	grepq "... and renames it over r.json" \
		"rename(at2?)?\(.*\"\.r\.json\.fbrun-[0-9a-f]{6}\", .*\"r\.json\"" "$TMP/st"
else
	skip "strace: the target is not opened: strace cannot trace here"
fi

# --- compare's --html ---------------------------------------------------------
fb -q -o "$TMP/a.json" "$TMP/w.f"
cp "$TMP/a.json" "$TMP/b.json"
fb compare "$TMP/a.json" "$TMP/b.json" --html "$TMP/to-fifo"
check "compare --html a symbolic link to a FIFO: exit 2 (exit $rc; 124 is a hang)" test "$rc" -eq 2
grepq "... says what is there" "^fbrun: error: --html '$TMP/to-fifo' is a symbolic link, not a regular file$" "$TMP/err"
check "... before the table" test ! -s "$TMP/out"
fb compare "$TMP/a.json" -- "$TMP/b.json" --html "$TMP/fifo"
check "groups --html a FIFO: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says what is there" "^fbrun: error: --html '$TMP/fifo' is a FIFO, not a regular file$" "$TMP/err"
echo "old" >"$TMP/o/p.html"
ino=$(stat -c %i "$TMP/o/p.html")
fb compare "$TMP/a.json" "$TMP/b.json" --html "$TMP/o/p.html"
check "compare --html an existing file: exits 0 (exit $rc)" test "$rc" -eq 0
check "... a new file (inode $ino, now $(stat -c %i "$TMP/o/p.html"))" \
	test "$(stat -c %i "$TMP/o/p.html")" != "$ino"
grepq "... holding the page" '^</html>$' "$TMP/o/p.html"
ino=$(stat -c %i "$TMP/o/p.html")
fb compare "$TMP/a.json" "$TMP/a.json" -- "$TMP/b.json" "$TMP/b.json" --html "$TMP/o/p.html"
check "groups --html an existing file: a new file (exit $rc)" \
	test "$rc" -eq 0 -a "$(stat -c %i "$TMP/o/p.html")" != "$ino"
check "... no temporary left" test "$(temporaries "$TMP/o")" -eq 0

# --- an output never replaces an input --------------------------------------------
# same ONE TWO: the files' bytes are equal
same() { cmp -s "$1" "$2"; }
cp "$srcdir/tests/trace/shell.strace" "$TMP/t.strace"
cp "$TMP/t.strace" "$TMP/t.orig"
cp "$TMP/w.f" "$TMP/w.orig"
ln "$TMP/t.strace" "$TMP/t.hard"
R=$TMP/replay-root

fb model -o "$TMP/t.strace" "$TMP/t.strace"
check "model -o TRACE TRACE: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says the output is the trace" "^fbrun: error: -o '$TMP/t\.strace' is the trace the model is made from; refusing to replace it$" "$TMP/err"
check "... the trace is as it was" same "$TMP/t.strace" "$TMP/t.orig"
fb model -o "$TMP/t.hard" "$TMP/./t.strace"
check "model -o a hard link of the trace: exit 2 (exit $rc)" test "$rc" -eq 2
check "... the trace is as it was, one inode" \
	test "$(stat -c %i "$TMP/t.hard")" = "$(stat -c %i "$TMP/t.strace")"

# replayed ARGS...: fbrun replay -D dir=$R ARGS... is refused before it runs
replayed() {
	rm -rf "$R"
	fb replay -q -D dir="$R" "$@"
}
replayed -o "$TMP/t.strace" "$TMP/t.strace"
check "replay -o TRACE TRACE: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says the output is the trace" "^fbrun: error: -o '$TMP/t\.strace' is the file of trace 'trace', which the run reads; refusing to run$" "$TMP/err"
check "... the trace is as it was, nothing replayed" \
	eval 'same "$TMP/t.strace" "$TMP/t.orig" && test ! -e "$R"'
replayed -o "$TMP/t.hard" "$TMP/t.strace"
check "replay -o a hard link of the trace: exit 2 (exit $rc)" test "$rc" -eq 2
replayed --interval 1 --interval-log "$TMP/t.strace" "$TMP/t.strace"
check "replay --interval-log TRACE TRACE: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says the log is the trace" "^fbrun: error: --interval-log '$TMP/t\.strace' is the file of trace 'trace', which the run reads; refusing to run$" "$TMP/err"
check "... the trace is as it was, nothing replayed" \
	eval 'same "$TMP/t.strace" "$TMP/t.orig" && test ! -e "$R"'

rm -rf "$W"
fb -q -o "$TMP/w.f" "$TMP/w.f"
check "-o SCRIPT SCRIPT: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says the output is the script" "^fbrun: error: -o '$TMP/w\.f' is the script the run reads; refusing to run$" "$TMP/err"
check "... the script is as it was, no fileset made" \
	eval 'same "$TMP/w.f" "$TMP/w.orig" && test ! -e "$W"'
here=$(pwd)
cd "$TMP"
fb -q -t 1 --interval 1 --interval-log ./w.f w.f
cd "$here"
check "--interval-log SCRIPT SCRIPT (./ and not): exit 2 (exit $rc)" test "$rc" -eq 2
check "... the script is as it was, no fileset made" \
	eval 'same "$TMP/w.f" "$TMP/w.orig" && test ! -e "$W"'
rm -f "$TMP/log.csv"
fb -q -t 1 --interval 1 --interval-log "$TMP/log.csv" -o "$TMP/o/../log.csv" "$TMP/w.f"
check "--interval-log and -o one new file by two names: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says they name one file" "^fbrun: error: --interval-log and -o name one file" "$TMP/err"
fb compare "$TMP/a.json" "$TMP/b.json" --html "$TMP/b.json"
check "compare --html a file it compares: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says so" "^fbrun: error: --html '$TMP/b\.json' is a results file compare reads; refusing to replace it$" "$TMP/err"
check "... the file is as it was" same "$TMP/a.json" "$TMP/b.json"

# --- a full disk: the old file stays, no temporary is left ---------------------
M=$TMP/full
if ! tmpfs_at size=64k "$M"; then
	skip "a full disk: $why"
else
	echo "old" >"$M/r.json"
	echo "old" >"$M/p.html"
	dd if=/dev/zero of="$M/fill" bs=4k 2>/dev/null || :
	fb -q -o "$M/r.json" "$TMP/w.f"
	check "-o on a full disk: exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "... says why, with the path" "^fbrun: error: cannot write '$M/r\.json': No space left on device$" "$TMP/err"
	grepq "... the results are on standard output all the same" '^IO Summary: ' "$TMP/out"
	check "... the old file is as it was" test "$(cat "$M/r.json")" = old
	check "... no temporary left" test "$(temporaries "$M")" -eq 0
	fb compare "$TMP/a.json" "$TMP/b.json" --html "$M/p.html"
	check "compare --html on a full disk: exit 2 (exit $rc)" test "$rc" -eq 2
	grepq "... says why" "^fbrun: error: cannot write '$M/p\.html': No space left on device$" "$TMP/err"
	check "... the old page is as it was, no temporary left" \
		test "$(cat "$M/p.html")" = old -a "$(temporaries "$M")" -eq 0
fi

done_testing
