#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Disk stats: the block devices under the filesets and what reached them
# in the measured run (/proc/diskstats), in the text table, the JSON and
# fbrun report.  On an ext4 of a loop device of $TMP: O_DIRECT writes and
# reads reach the device (at least the bytes fbrun moved), reads of a file
# just written come from the page cache (the note), a tmpfs fileset has
# no block device, a device fileset is its own device; btrfs on two loop
# devices and a partition when the machine can make them.  Needs root,
# losetup, mkfs.ext4 and python3.  Facts only: no speed is asserted.
. "${srcdir:-.}/tests/lib.sh"


# attach IMAGE [losetup options]: a loop device on IMAGE in $loop
attach() {
	loop=$(losetup -f --show "$@" 2>"$TMP/losetup.err") || {
		loop=""
		return 1
	}
	loops="$loop $loops"
}

# the block that follows "Disk stats" in a text table
block() { sed -n '/^Disk stats (read\/write):$/,$p' "$1"; }

why=""
if ! $is_root; then
	why="needs root for a loop device and mounts"
elif ! command -v losetup >/dev/null 2>&1; then
	why="losetup not found"
elif ! command -v mkfs.ext4 >/dev/null 2>&1; then
	why="mkfs.ext4 not found (apt-get install e2fsprogs)"
elif ! command -v python3 >/dev/null 2>&1; then
	why="python3 not found: no JSON to read"
elif [ ! -r /proc/diskstats ]; then
	why="/proc/diskstats cannot be read"
fi
mnt=$TMP/mnt
[ -n "$why" ] || ext4_on_loop 64M "$mnt" || :
if [ -n "$why" ]; then
	skip "disk stats: $why"
	done_testing
	exit
fi
dev=$(basename "$loop")
majmin=$(cat "/sys/class/block/$dev/dev")

# --- O_DIRECT writes: at least fbrun's bytes reach the device ---------------
# one thread: when finishoncount ends the run no write is under way
cat >"$TMP/wr.f" <<F
define fileset name=data,path=$mnt,entries=1,size=1m,prealloc
define process name=p { thread name=t {
  flowop write name=wr,filesetname=data,iosize=64k,directio
  flowop finishoncount name=fin,target=wr,value=200 } }
run 300
F
run_fbrun -q -o "$TMP/wr.json" "$TMP/wr.f"
check "direct writes: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "the text has the Disk stats block" '^Disk stats \(read/write\):$' "$TMP/out"
grepq "... a line for $dev in fio's layout" \
	"^  $dev: ios=[0-9]+/[0-9]+, sectors=[0-9]+/[0-9]+, merge=[0-9]+/[0-9]+, ticks=[0-9]+/[0-9]+, in_queue=[0-9]+, util=[0-9]+\.[0-9]{2}%\$" "$TMP/out"
grepq "... and says the fileset is on it" "^  fileset data: $dev\$" "$TMP/out"
check "... no page cache note without reads" eval '! grep -q "page cache" "$TMP/out"'
check "the JSON's disk_stats names $dev ($majmin), the fileset's" \
	test "$(json "$TMP/wr.json" "[(d['name'], '%d:%d' % (d['major'], d['minor']), d['filesets']) for d in r['disk_stats']]")" = "[('$dev', '$majmin', ['data'])]"
check "fbrun wrote 200 x 64 KiB" \
	test "$(json "$TMP/wr.json" "r['summary']['write_bytes']")" -eq 13107200
check "the device wrote at least that" \
	test "$(json "$TMP/wr.json" "r['disk_stats'][0]['write_bytes'] >= r['summary']['write_bytes'] and r['disk_stats'][0]['write_sectors'] * 512 == r['disk_stats'][0]['write_bytes'] and r['disk_stats'][0]['write_ios'] > 0")" = True
check "utilisation is between 0 and 100%" \
	test "$(json "$TMP/wr.json" "0 <= r['disk_stats'][0]['util_pct'] <= 100 and r['disk_stats'][0]['seconds'] > 0")" = True
check "no fileset without a device" test "$(json "$TMP/wr.json" "r['disk_stats_none']")" = "[]"
block "$TMP/out" >"$TMP/run.block"
run_fbrun report "$TMP/wr.json"
block "$TMP/out" >"$TMP/report.block"
check "fbrun report prints the block again, byte for byte" cmp -s "$TMP/run.block" "$TMP/report.block"

# --- O_DIRECT reads: every byte from the device -------------------------------
cat >"$TMP/rd.f" <<F
define fileset name=data,path=$mnt,entries=1,size=1m,prealloc
define process name=p { thread name=t {
  flowop read name=rd,filesetname=data,iosize=64k,directio
  flowop finishoncount name=fin,target=rd,value=64 } }
run 300
F
run_fbrun -q -o "$TMP/rd.json" "$TMP/rd.f"
check "direct reads: exit 0 (exit $rc)" test "$rc" -eq 0
# a read at the end of the file reads nothing, and the next rewinds
check "the device read at least what fbrun read (over 3 MiB)" \
	test "$(json "$TMP/rd.json" "r['disk_stats'][0]['read_bytes'] >= r['summary']['read_bytes'] > 3 << 20")" = True
check "... so no page cache note" eval '! grep -q "page cache" "$TMP/out"'

# --- another program writing to the device during the run: a note --------------
cat >"$TMP/stat.f" <<F
define fileset name=data,path=$mnt,entries=1,size=4k,prealloc
define process name=p { thread name=t {
  flowop statfile name=st,filesetname=data } }
run 300
F
# the writer goes on for the whole run: direct writes of 16 MiB over again
( while :; do
	dd if=/dev/zero of="$mnt/other" bs=1M count=16 oflag=direct conv=notrunc 2>/dev/null
	: >"$TMP/wrote"
done ) &
writer=$!
wait_until test -f "$TMP/wrote"
run_fbrun -q -t 2 "$TMP/stat.f"
kill "$writer" 2>/dev/null || :
wait "$writer" 2>/dev/null || :
rm -f "$mnt/other"
check "another writer on the device: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... the block says the devices wrote what the flowops did not" \
	"^note: the devices wrote [0-9.]+ (MB|GB), the flowops 0 bytes: the rest is not the flowops' \(the file system's own writes, or other programs' on the same devices\)\$" "$TMP/out"
check "... and direct writes of fbrun's own drew no such note" \
	eval '! block "$TMP/run.block" | grep -q "the rest is not"'

# --- cached reads: the page cache note; a tmpfs fileset ------------------------
tm=$TMP/tm
if mkdir "$tm" && mount -t tmpfs -o size=8m tmpfs "$tm" 2>"$TMP/merr"; then
	mounts="$tm $mounts"
	cat >"$TMP/cached.f" <<F
define fileset name=data,path=$mnt,entries=1,size=1m,prealloc
define fileset name=scratch,path=$tm,entries=1,size=64k,prealloc
define process name=p { thread name=t {
  flowop read name=rd,filesetname=data,iosize=64k
  flowop write name=wr,filesetname=scratch,iosize=4k,random,workingset=64k
  flowop finishoncount name=fin,target=rd,value=4000 } }
run 300
F
	# the file was just written: its 1 MiB is in the page cache, read
	# over 200 times; the device reads at most a little metadata
	run_fbrun -q -o "$TMP/cached.json" "$TMP/cached.f"
	check "cached reads: exit 0 (exit $rc)" test "$rc" -eq 0
	check "fbrun read over 200 MiB, the device less than a tenth of it" \
		test "$(json "$TMP/cached.json" "r['summary']['read_bytes'] > 200 << 20 > r['disk_stats'][0]['read_bytes'] * 10")" = True
	mb=$(json "$TMP/cached.json" "'%.1f' % (r['summary']['read_bytes'] / 1048576)")
	grepq "the note says the page cache served the reads" \
		"^note: reads came mostly from the page cache: $mb MB read by flowops, [0-9.]+ (bytes|KB|MB) from the devices\$" "$TMP/out"
	grepq "the tmpfs fileset has no block device" \
		'^  fileset scratch: no block device \(tmpfs\)$' "$TMP/out"
	check "... in the JSON too" \
		test "$(json "$TMP/cached.json" "r['disk_stats_none']")" = "[{'fileset': 'scratch', 'reason': 'no block device (tmpfs)'}]"
	check "... and only data is on $dev" \
		test "$(json "$TMP/cached.json" "[d['filesets'] for d in r['disk_stats']]")" = "[['data']]"
	block "$TMP/out" >"$TMP/run.block"
	run_fbrun report "$TMP/cached.json"
	block "$TMP/out" >"$TMP/report.block"
	check "fbrun report: the note and the tmpfs line again" cmp -s "$TMP/run.block" "$TMP/report.block"
else
	skip "cached reads and a tmpfs fileset: cannot mount a tmpfs: $(head -1 "$TMP/merr")"
fi

# --- --repeat: each run's block -----------------------------------------------
run_fbrun -q --repeat 2 -o "$TMP/rep.json" "$TMP/wr.f"
check "--repeat 2: exit 0 (exit $rc)" test "$rc" -eq 0
n=$(grep -c '^Disk stats (read/write):$' "$TMP/out" || :)
check "--repeat 2: a Disk stats block per run ($n)" test "$n" -eq 2
check "--repeat 2: each run's JSON has its disk_stats" \
	test "$(json "$TMP/rep.json" "[x['disk_stats'][0]['name'] for x in r['repeats']]")" = "['$dev', '$dev']"

# --- a device fileset: the device itself -----------------------------------------
truncate -s 4M "$TMP/raw.img"
if attach "$TMP/raw.img"; then
	raw=$(basename "$loop")
	cat >"$TMP/raw.f" <<F
define file name=raw,path=$loop
define process name=p { thread name=t {
  flowop read name=rd,filesetname=raw,iosize=64k,directio
  flowop finishoncount name=fin,target=rd,value=64 } }
run 300
F
	run_fbrun -q -o "$TMP/raw.json" "$TMP/raw.f"
	check "a device fileset: exit 0 (exit $rc)" test "$rc" -eq 0
	check "... disk_stats names the device, which read the 4 MiB" \
		test "$(json "$TMP/raw.json" "[(d['name'], d['filesets'], d['read_bytes'] >= 4194304) for d in r['disk_stats']]")" = "[('$raw', ['raw'], True)]"
else
	skip "a device fileset: no second loop device: $(head -1 "$TMP/losetup.err")"
fi

# --- btrfs on two devices: both named ---------------------------------------------
bt=$TMP/bt
why=""
truncate -s 128M "$TMP/bt1.img" "$TMP/bt2.img"
if ! command -v mkfs.btrfs >/dev/null 2>&1; then
	why="mkfs.btrfs not found (apt-get install btrfs-progs)"
elif ! attach "$TMP/bt1.img"; then
	why="no loop device: $(head -1 "$TMP/losetup.err")"
else
	bt1=$loop
	if ! attach "$TMP/bt2.img"; then
		why="no loop device: $(head -1 "$TMP/losetup.err")"
	elif ! mkfs.btrfs -q -f -d single -m single "$bt1" "$loop" >"$TMP/mkfs.err" 2>&1; then
		why="mkfs.btrfs failed: $(head -1 "$TMP/mkfs.err")"
	elif ! mkdir "$bt" || ! mount -t btrfs -o "device=$loop" "$bt1" "$bt" 2>"$TMP/merr"; then
		why="cannot mount the btrfs: $(head -1 "$TMP/merr")"
	else
		mounts="$bt $mounts"
	fi
fi
if [ -n "$why" ]; then
	skip "btrfs on two devices: $why"
else
	sed "s|path=$mnt|path=$bt|" "$TMP/wr.f" >"$TMP/bt.f"
	run_fbrun -q -o "$TMP/bt.json" "$TMP/bt.f"
	check "btrfs: exit 0 (exit $rc)" test "$rc" -eq 0
	check "btrfs: both devices named, the fileset on each" \
		test "$(json "$TMP/bt.json" "sorted((d['name'], d['filesets']) for d in r['disk_stats'])")" = \
		"$(python3 -c "import sys; print(sorted((n, ['data']) for n in sys.argv[1:]))" "$(basename "$bt1")" "$(basename "$loop")")"
	check "btrfs: together they wrote at least fbrun's bytes" \
		test "$(json "$TMP/bt.json" "sum(d['write_bytes'] for d in r['disk_stats']) >= r['summary']['write_bytes'] == 13107200")" = True
fi

# --- a partition: named as such, with its disk -------------------------------------
pt=$TMP/pt
why=""
truncate -s 64M "$TMP/part.img"
if ! command -v sfdisk >/dev/null 2>&1 || ! command -v partx >/dev/null 2>&1; then
	why="sfdisk or partx not found (apt-get install fdisk util-linux)"
elif ! printf 'label: dos\n,\n' | sfdisk -q "$TMP/part.img" >"$TMP/sfdisk.err" 2>&1; then
	why="sfdisk failed: $(head -1 "$TMP/sfdisk.err")"
elif ! attach -P "$TMP/part.img"; then
	why="no loop device: $(head -1 "$TMP/losetup.err")"
else
	pd=$(basename "$loop")
	# the kernel may not have scanned the table yet: ask it, and wait
	pdev=/sys/class/block/$pd/${pd}p1/dev
	i=0
	while [ ! -r "$pdev" ] && [ $i -lt 100 ]; do
		partx -a "$loop" 2>/dev/null || sleep 0.1
		i=$((i + 1))
	done
	if [ ! -r "$pdev" ]; then
		why="the loop device's partition did not appear"
	else
		mm=$(cat "$pdev")
		# a node of our own: udev may not be there to make /dev's
		mknod "$TMP/p1" b "${mm%:*}" "${mm#*:}"
		if ! mkfs.ext4 -q -F "$TMP/p1" >"$TMP/mkfs.err" 2>&1; then
			why="mkfs.ext4 on the partition failed: $(head -1 "$TMP/mkfs.err")"
		elif ! mkdir "$pt" || ! mount "$TMP/p1" "$pt" 2>"$TMP/merr"; then
			why="cannot mount the partition: $(head -1 "$TMP/merr")"
		else
			mounts="$pt $mounts"
		fi
	fi
fi
if [ -n "$why" ]; then
	skip "a partition: $why"
else
	sed "s|path=$mnt|path=$pt|" "$TMP/wr.f" >"$TMP/pt.f"
	run_fbrun -q -o "$TMP/pt.json" "$TMP/pt.f"
	check "a partition: exit 0 (exit $rc)" test "$rc" -eq 0
	check "a partition: ${pd}p1 named, its disk $pd" \
		test "$(json "$TMP/pt.json" "[(x['name'], x.get('parent'), x['filesets']) for x in r['disk_stats']]")" = "[('${pd}p1', '$pd', ['data'])]"
fi

done_testing
