#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Never write what fbrun did not make.  A block device node, a FIFO, a
# character device or another file's hard link planted at an entry's
# name in a kept tree, or at the marker's temporary name, is refused and
# left as it is: nothing is written into it (checksums before and after),
# no open hangs, and the message says what was found.  A FIFO renamed over
# an entry during the run ends the run with that error, not a hang.
# Symlinks that renamefile and linkfile move keep naming an entry inside
# the fileset.
. "${srcdir:-.}/tests/lib.sh"

# fb ARGS: fbrun with a guard; a hang shows as exit 124
fb() {
	rc=0
	timeout -k 10 120 "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

sum() { sha256sum "$1" | cut -d' ' -f1; }

# kept FILE PATH ATTRS FLOWOPS: a reuse tree of 4 files of 8k under PATH
kept() {
	cat >"$1" <<F
define fileset name=fs1,path=$2,entries=4,dirwidth=10,size=8k,prealloc=100,reuse$3
define process name=p { thread name=t {
$4
  flowop finishoncount name=done,value=40 } }
run 60
F
}
writes='  flowop openfile name=open,filesetname=fs1,fd=1
  flowop writewholefile name=write,fd=1,iosize=8k
  flowop closefile name=close,fd=1'

# a fresh kept tree at $TMP/$1 (4 files): the path of its entry N in $e
fresh_tree() {
	rm -rf "${TMP:?}/$1"
	kept "$TMP/$1.f" "$TMP/$1" "" "$writes"
	fb "$TMP/$1.f"
	[ "$rc" -eq 0 ] || { diag <"$TMP/err"; return 1; }
}
entry() { find "$TMP/$1/fs1" -type f -name '0*' | sort | sed -n "${2}p"; }

outside=$TMP/outside
printf 'not fbrun'"'"'s\n' >"$outside"
outside_sum=$(sum "$outside")

# --- a hard link to a file outside the tree ----------------------------------
fresh_tree hl
e=$(entry hl 2)
rm "$e" && ln "$outside" "$e"
kept "$TMP/hl.f" "$TMP/hl" "" "$writes"
fb "$TMP/hl.f"
check "reuse: a hard link at an entry is replaced by a file of fbrun's (exit $rc)" \
	test "$rc" -eq 0
check "reuse: the linked file outside is unchanged, one name again" \
	test "$(sum "$outside")" = "$outside_sum" -a "$(stat -c %h "$outside")" -eq 1
rm "$e" && ln "$outside" "$e"
kept "$TMP/hl.f" "$TMP/hl" ",trusttree" "$writes"
fb "$TMP/hl.f"
check "trusttree: a hard link at an entry fails the run (exit $rc)" test "$rc" -eq 1
grepq "trusttree: the error names the link and what it is" \
	"cannot open '$e', a hard link fbrun did not make \(2 names\)" "$TMP/err"
check "trusttree: the linked file outside is unchanged" \
	test "$(sum "$outside")" = "$outside_sum"
rm -f "$e"

# --- FIFOs -------------------------------------------------------------------
fresh_tree ff
e=$(entry ff 3)
rm "$e" && mkfifo "$e"
kept "$TMP/ff.f" "$TMP/ff" "" "$writes"
fb "$TMP/ff.f"
check "reuse: a FIFO at an entry fails the run, no hang (exit $rc)" test "$rc" -eq 1
grepq "reuse: the error says it is a FIFO" \
	"cannot reuse '$e', a FIFO fbrun did not make" "$TMP/err"
check "reuse: the FIFO is left" test -p "$e"
kept "$TMP/ff.f" "$TMP/ff" ",trusttree,readonly" \
	'  flowop openfile name=open,filesetname=fs1,fd=1
  flowop readwholefile name=read,fd=1,iosize=8k
  flowop closefile name=close,fd=1'
fb "$TMP/ff.f"
check "trusttree: a FIFO at an entry fails the read, no hang (exit $rc)" \
	test "$rc" -eq 1
grepq "trusttree: the error says it is a FIFO" \
	"cannot open '$e', a FIFO fbrun did not make" "$TMP/err"
# the tree of a later run without reuse: the FIFO is not fbrun's to remove
sed 's/,reuse,trusttree,readonly//' "$TMP/ff.f" >"$TMP/ff2.f"
fb "$TMP/ff2.f"
check "without reuse: a tree holding a FIFO is refused (exit $rc)" test "$rc" -eq 2
check "without reuse: the FIFO is left" test -p "$e"

# a FIFO renamed over an entry while the run reads the tree
mid=$TMP/mid
cat >"$TMP/mid.f" <<F
define fileset name=fs1,path=$mid,entries=4,dirwidth=10,size=8k,prealloc=100,readonly
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=fs1,fd=1
  flowop readwholefile name=read,fd=1,iosize=8k
  flowop closefile name=close,fd=1 } }
run 100
F
rc=0
timeout -k 10 120 "$FBRUN" "$TMP/mid.f" >"$TMP/out" 2>"$TMP/err" &
pid=$!
i=0
while [ "$i" -lt 600 ] && ! grep -q "Running" "$TMP/err" 2>/dev/null &&
	! grep -q "Running" "$TMP/out" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
e=$(find "$mid/fs1" -type f -name '0*' 2>/dev/null | sort | sed -n 2p)
if [ -n "$e" ]; then
	mkfifo "$TMP/fifo" && mv -f "$TMP/fifo" "$e"
fi
wait "$pid" || rc=$?
check "a FIFO renamed over an entry mid-run ends it with an error, no hang (exit $rc)" \
	test -n "$e" -a "$rc" -eq 1
grepq "mid-run: the error says it is a FIFO" \
	"cannot open '$e', a FIFO fbrun did not make" "$TMP/err"
check "mid-run: the FIFO is left, and the tree with it" test -p "$e"
grepq "mid-run: removal says what it left" "not made by fbrun|did not make" "$TMP/err"

# --- device nodes --------------------------------------------------------------
# a character device like /dev/null's: refused, and with trusttree never
# even opened (some drivers act on open)
if ! $is_root; then
	skip "device nodes in a kept tree: needs root for mknod"
elif ! fresh_tree cd; then
	fail "device nodes: a kept tree to plant them in"
else
	e=$(entry cd 1)
	rm "$e" && mknod "$e" c 1 3
	kept "$TMP/cd.f" "$TMP/cd" "" "$writes"
	fb "$TMP/cd.f"
	check "reuse: a character device at an entry fails the run (exit $rc)" \
		test "$rc" -eq 1
	grepq "reuse: the error says it is a character device" \
		"cannot reuse '$e', a character device fbrun did not make" "$TMP/err"
	check "reuse: the node is left" test -c "$e"
	kept "$TMP/cd.f" "$TMP/cd" ",trusttree" "$writes"
	if command -v strace >/dev/null 2>&1; then
		rc=0
		# LeakSanitizer cannot run under ptrace (a sanitizer build)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			timeout -k 10 120 strace -f -qq -e trace=open,openat,openat2 \
			-o "$TMP/trace" "$FBRUN" "$TMP/cd.f" >"$TMP/out" \
			2>"$TMP/err" || rc=$?
		check "trusttree: a character device at an entry fails the run (exit $rc)" \
			test "$rc" -eq 1
		name=${e#"$TMP/cd/fs1/"}
		check "trusttree: the node is never opened" \
			sh -c '! grep -F "\"$1\"" "$2" | grep -v O_PATH | grep -q .' sh "$name" "$TMP/trace"
	else
		skip "trusttree: a device node is never opened: strace is not installed"
	fi
	grepq "trusttree: the error says it is a character device" \
		"cannot open '$e', a character device fbrun did not make" "$TMP/err"
fi

# block devices: a loop device over a file whose checksum must not change
loopdev=""
if ! $is_root; then
	why="needs root for loop devices"
elif ! command -v losetup >/dev/null 2>&1; then
	why="losetup is not installed"
else
	dd if=/dev/urandom of="$TMP/disk" bs=64k count=16 2>/dev/null
	loopdev=$(losetup -f --show "$TMP/disk" 2>"$TMP/lerr") || loopdev=""
	why="no loop device: $(head -1 "$TMP/lerr")"
fi
if [ -n "$loopdev" ]; then
	trap 'losetup -d "$loopdev" 2>/dev/null; cleanup' EXIT
	disk_sum=$(sum "$TMP/disk")
	# mknod NAME: a node for the loop device
	node() { mknod "$1" b "0x$(stat -c %t "$loopdev")" "0x$(stat -c %T "$loopdev")"; }
	fresh_tree bd
	e=$(entry bd 1)
	rm "$e" && node "$e"
	kept "$TMP/bd.f" "$TMP/bd" "" "$writes"
	fb "$TMP/bd.f"
	check "reuse: a block device at an entry fails the run (exit $rc)" \
		test "$rc" -eq 1
	grepq "reuse: the error says it is a block device" \
		"cannot reuse '$e', a block device fbrun did not make" "$TMP/err"
	check "reuse: nothing is written to the device" \
		test "$(sum "$TMP/disk")" = "$disk_sum"
	kept "$TMP/bd.f" "$TMP/bd" ",trusttree" "$writes"
	fb "$TMP/bd.f"
	check "trusttree: a block device at an entry fails the run (exit $rc)" \
		test "$rc" -eq 1
	grepq "trusttree: the error says it is a block device" \
		"cannot open '$e', a block device fbrun did not make" "$TMP/err"
	check "trusttree: nothing is written to the device" \
		test "$(sum "$TMP/disk")" = "$disk_sum"
	check "the node is left" test -b "$e"

	# the marker's temporary name: a node planted there is never opened
	fresh_tree mk
	node "$TMP/mk/fs1/.fbrun-fileset.new"
	kept "$TMP/mk.f" "$TMP/mk" "" "$writes"
	fb "$TMP/mk.f"
	check "a block device at .fbrun-fileset.new: the run goes on (exit $rc)" \
		test "$rc" -eq 0
	check "... nothing is written to the device" \
		test "$(sum "$TMP/disk")" = "$disk_sum"
	check "... the node is left, the marker is a new file" \
		test -b "$TMP/mk/fs1/.fbrun-fileset.new" -a -f "$TMP/mk/fs1/.fbrun-fileset"
	grepq "... the marker names the fileset" "^fbrun fileset fs1$" \
		"$TMP/mk/fs1/.fbrun-fileset"
else
	skip "block device nodes in a kept tree: $why"
	skip "a block device at the marker's temporary name: $why"
fi

# a FIFO at the marker's temporary name: no hang, left alone
fresh_tree mf
mkfifo "$TMP/mf/fs1/.fbrun-fileset.new"
kept "$TMP/mf.f" "$TMP/mf" "" "$writes"
fb "$TMP/mf.f"
check "a FIFO at .fbrun-fileset.new: the run goes on, no hang (exit $rc)" \
	test "$rc" -eq 0
check "... the FIFO is left" test -p "$TMP/mf/fs1/.fbrun-fileset.new"

# --- symlinks that renamefile and linkfile move -------------------------------
# a deep tree (dirwidth=2) so names move between depths; every symlink
# left must still name a path inside the root, in a directory of the tree
if command -v python3 >/dev/null 2>&1; then
	cat >"$TMP/sl.f" <<F
define fileset name=fs1,path=$TMP/sl,entries=3000,dirwidth=2,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop symlinkfile name=sl,filesetname=fs1
  flowop symlinkfile name=sl2,filesetname=fs1
  flowop renamefile name=rn,filesetname=fs1
  flowop renamefile name=rn2,filesetname=fs1
  flowop linkfile name=ln,filesetname=fs1
  flowop deletefile name=del,filesetname=fs1
  flowop deletefile name=del2,filesetname=fs1
  flowop deletefile name=del3,filesetname=fs1
  flowop finishoncount name=done,value=8000 } }
run 100
F
	fb --keep "$TMP/sl.f"
	check "symlinks moved by renamefile and linkfile: the run (exit $rc)" \
		test "$rc" -eq 0
	python3 - "$TMP/sl/fs1" >"$TMP/links" <<'P'
import os, sys
root = sys.argv[1].rstrip('/')
n = bad = 0
for d, dirs, files in os.walk(root):
    for name in dirs + files:
        p = os.path.join(d, name)
        if not os.path.islink(p):
            continue
        n += 1
        t = os.path.normpath(os.path.join(d, os.readlink(p)))
        if not t.startswith(root + '/') or not os.path.isdir(os.path.dirname(t)):
            bad += 1
            if bad <= 5:
                print('# %s -> %s' % (p, os.readlink(p)))
print(n, bad)
P
	set -- $(tail -1 "$TMP/links")
	check "symlinks left by the run: some (${1:-none})" test "${1:-0}" -gt 100
	check "every symlink names a path in a directory of the tree (${2:-?} do not)" \
		test "${2:-1}" -eq 0
	grep '^#' "$TMP/links" || :
else
	skip "symlinks moved by renamefile and linkfile: python3 is not installed"
fi

done_testing
