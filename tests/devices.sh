#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# A block device as a `define file` (a loop device on a file of $TMP):
# reads work and count the device's bytes; writes only with
# --allow-device-writes (refused at the script's line, exit 2, nothing
# written: the backing file's checksum says so); names (createfile) never;
# a device holding a file system is not written without --force-device;
# a mounted one is not used at all.  Needs root and a loop device.
. "${srcdir:-.}/tests/lib.sh"

loop="" mnt=""
dev_cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || :
	[ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || :
	cleanup
}
trap dev_cleanup EXIT

why=""
if ! $is_root; then
	why="needs root for a loop device"
elif ! command -v losetup >/dev/null 2>&1; then
	why="losetup not found"
elif ! command -v python3 >/dev/null 2>&1; then
	why="python3 not found: no JSON to count with"
fi
img=$TMP/img
[ -n "$why" ] || loop_on_file 8M "$img" || :
if [ -n "$why" ]; then
	skip "$why"
	done_testing
	exit
fi
size=$((8 * 1048576))

fb() {
	rc=0
	timeout 60 "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}
# field NAME FIELD: a flowop's figure in $TMP/out (JSON)
field() { json "$TMP/out" "[f['$2'] for f in r['flowops'] if f['name'] == '$1'][0]"; }
sum() { sync; blockdev --flushbufs "$loop" 2>/dev/null || :; sha256sum <"$img"; }

# script FILE DEFINE FLOWOPS...: one thread running FLOWOPS on file dev
script() {
	f=$1 def=$2
	shift 2
	{
		echo "$def"
		echo "define process name=p { thread name=t {"
		for op; do echo "  flowop $op"; done
		echo "  flowop finishoncount name=done,value=3 } }"
		echo "run 30"
	} >"$f"
}

# -- reads: the whole device, three times
script "$TMP/r.f" "define file name=dev,path=$loop" \
	"readwholefile name=rw,filesetname=dev,iosize=1m"
before=$(sum)
fb --format json "$TMP/r.f"
check "a read workload on $loop runs (exit 0)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "readwholefile read the device's $size bytes three times" \
	test "$(field rw bytes 2>/dev/null)" = $((3 * size))
check "and the device is unchanged" test "$(sum)" = "$before"

# filebench's spelling: <path>/<name> is the device
name=${loop##*/}
script "$TMP/r2.f" "define file name=$name,path=${loop%/*},size=1m" \
	"read name=r,filesetname=$name,iosize=64k,random"
fb --format json "$TMP/r2.f"
check "path=${loop%/*},name=$name: reads (exit 0)" test "$rc" -eq 0
check "3 random reads of 64k" test "$(field r bytes 2>/dev/null)" = $((3 * 65536))

# -- writes: refused at the script's line, nothing written
script "$TMP/w.f" "define file name=dev,path=$loop" \
	"write name=w,filesetname=dev,iosize=64k"
fb "$TMP/w.f"
check "a write without --allow-device-writes is refused (exit 2)" test "$rc" -eq 2
grepq "the error is at the write's line" "w.f:3:[0-9]+: error: flowop 'w' \(write\).*--allow-device-writes" "$TMP/err"
check "nothing was written" test "$(sum)" = "$before"

script "$TMP/c.f" "define file name=dev,path=$loop" \
	"createfile name=cr,filesetname=dev,fd=1" "closefile name=c,fd=1"
fb --allow-device-writes "$TMP/c.f"
check "createfile on a device is refused even with --allow-device-writes" test "$rc" -eq 2
grepq "it says the device has no names" "c.f:3:[0-9]+: error: .*which has none" "$TMP/err"

printf 'define fileset name=fs,path=%s,entries=2,dirwidth=2\ndefine process name=p { thread name=t { flowop statfile name=s,filesetname=fs } }\nrun 1\n' "$loop" >"$TMP/fs.f"
fb "$TMP/fs.f"
check "a define fileset on a device is refused (exit 2)" test "$rc" -eq 2
grepq "at its line" "fs.f:1:[0-9]+: error: .*only 'define file'" "$TMP/err"
check "nothing was written" test "$(sum)" = "$before"

fb --format json --allow-device-writes "$TMP/w.f"
check "with --allow-device-writes the writes run (exit 0)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "3 writes of 64k counted" test "$(field w bytes 2>/dev/null)" = $((3 * 65536))
check "and they reached the device" test "$(sum)" != "$before"
check "the device is still there, a device" test -b "$loop"

# -- a file system on it: not written without --force-device
if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q -F "$loop" >/dev/null 2>&1; then
	before=$(sum)
	fb --allow-device-writes "$TMP/w.f"
	check "an ext4 device is not written (exit 2)" test "$rc" -eq 2
	grepq "the error names the file system" "w.f:1:[0-9]+: error: .*holds a file system \\(ext4\\).*--force-device" "$TMP/err"
	check "nothing was written" test "$(sum)" = "$before"
	fb "$TMP/r.f"
	check "reading it is allowed (exit 0)" test "$rc" -eq 0
	check "and leaves it as it was" test "$(sum)" = "$before"

	# -- mounted: not used at all
	mnt=$TMP/mnt
	mkdir -p "$mnt"
	if mount "$loop" "$mnt" 2>/dev/null; then
		fb "$TMP/r.f"
		check "a mounted device is refused, even for reads (exit 2)" test "$rc" -eq 2
		grepq "the error names the mount point" "r.f:1:[0-9]+: error: .*mounted on '$mnt'" "$TMP/err"
		fb --allow-device-writes --force-device "$TMP/w.f"
		check "and for writes, forced or not (exit 2)" test "$rc" -eq 2
		umount "$mnt"
	else
		skip "cannot mount the ext4 loop device"
	fi
	mnt=""

	fb --format json --allow-device-writes --force-device "$TMP/w.f"
	check "--force-device writes it all the same (exit 0)" test "$rc" -eq 0
	check "3 writes of 64k counted" test "$(field w bytes 2>/dev/null)" = $((3 * 65536))
else
	skip "mkfs.ext4 missing or failed: no file system to refuse"
fi

done_testing
