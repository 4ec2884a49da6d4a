#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# A block device in fbrun-mpi (a loop device on a file of $TMP): one
# device for every rank, never a rank-N path; 2 ranks read it, counts
# exact, the device unchanged; a write without --allow-device-writes is
# refused once (exit 2), with it the writes of both ranks land.  Needs
# root, a loop device, mpirun and fbrun-mpi.
. "${srcdir:-.}/tests/lib.sh"

MPI_FBRUN=$(dirname "$FBRUN")/fbrun-mpi
loop="" loop2="" mnt=""
dev_cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || :
	[ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || :
	[ -z "$loop2" ] || losetup -d "$loop2" 2>/dev/null || :
	cleanup
}
trap dev_cleanup EXIT

why=""
if ! $is_root; then
	why="needs root for a loop device"
elif ! command -v losetup >/dev/null 2>&1; then
	why="losetup not found"
elif ! command -v mpirun >/dev/null 2>&1; then
	why="mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
elif [ ! -x "$MPI_FBRUN" ]; then
	why="fbrun-mpi was not built (configure found no mpicc)"
elif ! command -v python3 >/dev/null 2>&1; then
	why="python3 not found: no JSON to count with"
fi
img=$TMP/img
[ -n "$why" ] || loop_on_file 8M "$img" || :
if [ -n "$why" ]; then
	skip "block devices in fbrun-mpi: $why"
	done_testing
	exit
fi
size=$((8 * 1048576))

mpi_setup

# fo NAME FIELD: a flowop's figure in $TMP/r.json
fo() { json "$TMP/r.json" "[f['$2'] for f in r['flowops'] if f['name'] == '$1'][0]"; }
sum() { sync; blockdev --flushbufs "$loop" 2>/dev/null || :; sha256sum <"$img"; }

# script FILE DEFINE FLOWOPS...: one thread running FLOWOPS, 3 times
script() {
	f=$1 def=$2
	shift 2
	{
		echo "$def"
		echo "define process name=p { thread name=t {"
		for op; do echo "  flowop $op"; done
		echo "  flowop finishoncount name=done,value=3 } }"
		echo "run 60"
	} >"$f"
}

# -- reads: the whole device, three times on each of 2 ranks
script "$TMP/r.f" "define file name=dev,path=$loop" \
	"readwholefile name=rw,filesetname=dev,iosize=1m"
before=$(sum)
rm -f "$TMP/r.json"
mpi 2 -o "$TMP/r.json" "$TMP/r.f"
check "2 ranks read $loop (exit 0)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if [ -s "$TMP/r.json" ]; then
	check "the job read the device's $size bytes 3 times on each rank" \
		test "$(fo rw bytes)" = $((2 * 3 * size))
	check "each rank read it 3 times" \
		test "$(json "$TMP/r.json" "[k['ops'] for k in r['ranks']]")" = "[3, 3]"
else
	fail "-o written"
fi
check "no rank-N below the device" test ! -e "$loop/rank-0" -a ! -e "$loop/rank-1"
check "the device is unchanged" test "$(sum)" = "$before"
check "it is still a device" test -b "$loop"

# filebench's spelling, <path>/<name>: no rank-N directory in its path
name=${loop##*/}
script "$TMP/r2.f" "define file name=$name,path=${loop%/*},size=1m" \
	"read name=r,filesetname=$name,iosize=64k,random"
rm -f "$TMP/r.json"
mpi 2 -o "$TMP/r.json" "$TMP/r2.f"
check "path=${loop%/*},name=$name: 2 ranks read it (exit 0)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
[ -s "$TMP/r.json" ] && check "3 random reads of 64k on each rank" \
	test "$(fo r bytes)" = $((2 * 3 * 65536))
check "no ${loop%/*}/rank-N made" test ! -e "${loop%/*}/rank-0" -a ! -e "${loop%/*}/rank-1"
grepq "the log names the device" "Using block device $loop as file $name" "$TMP/out"
check "the device is unchanged" test "$(sum)" = "$before"

# -- writes: refused once, at the script's line, nothing written
script "$TMP/w.f" "define file name=dev,path=$loop" \
	"write name=w,filesetname=dev,iosize=64k,data=random"
mpi 2 "$TMP/w.f"
check "a write without --allow-device-writes is refused (exit 2)" test "$rc" -eq 2
check "... said once" test "$(grep -c 'error:' "$TMP/err")" -eq 1
grepq "... at the write's line" "w.f:3:[0-9]+: error: flowop 'w' \(write\).*--allow-device-writes" "$TMP/err"
check "... nothing written" test "$(sum)" = "$before"

# with it: each rank writes the first 3 x 64 KiB, sequentially, at once
rm -f "$TMP/r.json"
mpi 2 --allow-device-writes -o "$TMP/r.json" "$TMP/w.f"
check "with --allow-device-writes 2 ranks write it (exit 0)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
[ -s "$TMP/r.json" ] && check "3 writes of 64k on each rank counted" \
	test "$(fo w bytes)" = $((2 * 3 * 65536))
sync
blockdev --flushbufs "$loop" 2>/dev/null || :
landed=$(python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
blocks = [d[i:i + 4096] for i in range(0, 3 * 65536, 4096)]
print(all(any(b) for b in blocks) and not any(d[3 * 65536:]))" "$img")
check "the first 192 KiB of the backing file are written, the rest is not" test "$landed" = True
check "the device is still there, a device" test -b "$loop"

# -- mounted: every rank checks, rank 0 says it once, nothing runs
if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q -F "$loop" >/dev/null 2>&1 &&
	mkdir -p "$TMP/mnt" && mount "$loop" "$TMP/mnt" 2>/dev/null; then
	mnt=$TMP/mnt
	mpi 2 "$TMP/r.f"
	check "a mounted device is refused (exit 2)" test "$rc" -eq 2
	check "... said once" test "$(grep -c 'error:' "$TMP/err")" -eq 1
	grepq "... naming the mount point" "r.f:1:[0-9]+: error: .*mounted on '$mnt'" "$TMP/err"

	# each rank its own view: rank 0's device is free, ranks 1 and 2
	# see the mounted one (as hosts would see their own devices)
	truncate -s 1M "$TMP/img2"
	if loop2=$(losetup -f --show "$TMP/img2" 2>/dev/null); then
		for r in 0 1 2; do mkdir -p "$TMP/v$r"; done
		ln -s "$loop2" "$TMP/v0/dev"
		ln -s "$loop" "$TMP/v1/dev"
		ln -s "$loop" "$TMP/v2/dev"
		script "$TMP/v.f" "set \$where = \"$TMP/v\$rank\"
define file name=dev,path=\$where" "read name=r,filesetname=dev,iosize=64k"
		mpi 3 "$TMP/v.f"
		check "refused on ranks 1 and 2, not 0: exit 2" test "$rc" -eq 2
		check "... said once" test "$(grep -c 'error:' "$TMP/err")" -eq 1
		grepq "... after the first rank that refuses" "note: rank 1, on host '[^']+', refuses a block device:" "$TMP/err"
		grepq "... naming its mount point" "v.f:2:[0-9]+: error: .*mounted on '$mnt'" "$TMP/err"
		losetup -d "$loop2"
		loop2=""
	else
		skip "no second loop device"
	fi
	umount "$mnt"
	mnt=""
else
	skip "mkfs.ext4 missing or the loop device cannot be mounted"
fi

done_testing
