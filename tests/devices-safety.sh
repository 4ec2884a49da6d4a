#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# A block device is never written when it holds something or is not the
# device checked (loop devices on files of $TMP, the files' checksums say
# what was written):
# - a signature matrix: a device holding a partition table (dos, GPT, GPT
#   on 4096-byte sectors), a file system (ext4, XFS, btrfs, vfat, NTFS,
#   exFAT, minix, bfs), swap, LUKS2 (whole, or with its primary header
#   wiped), an LVM2 PV or an md 1.0/1.1/1.2 member (LVM2 and md headers
#   written here as their tools write them, so no daemon or kernel RAID is
#   needed) is refused with --allow-device-writes (exit 2, libblkid's name
#   for it in the error, the file unchanged), and written with
#   --force-device;
# - the device is opened once when the run takes it: its node swapped
#   during the run (mknod, rename) for another device's, a regular file,
#   a FIFO or a symlink gets no write and the run goes on writing the
#   device it checked; a FIFO, regular file, symlink or signed device put
#   at its name after the checks, before the run takes it (while fbrun
#   waits on a frozen file system), is refused, nothing written, nothing
#   hangs;
# - each flowop's open of it keeps its own flags (O_DIRECT, O_SYNC).
# Needs root, loop devices and python3; a format or case whose tool is
# missing is skipped with its name.
. "${srcdir:-.}/tests/lib.sh"

loops=""
dev_cleanup() {
	[ -z "${pid:-}" ] || kill -KILL "$pid" 2>/dev/null || :
	[ -z "${frozen:-}" ] || fsfreeze -u "$frozen" 2>/dev/null || :
	for m in $mounts; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || :; done
	mounts=""
	for l in $loops; do losetup -d "$l" 2>/dev/null || :; done
	cleanup
}
trap dev_cleanup EXIT

why=""
if ! $is_root; then
	why="needs root for loop devices"
elif ! command -v losetup >/dev/null 2>&1; then
	why="losetup not found"
elif ! command -v python3 >/dev/null 2>&1; then
	why="python3 not found: no headers to write"
elif ! command -v blockdev >/dev/null 2>&1; then
	why="blockdev (util-linux) not found: no cache to flush"
fi
if [ -z "$why" ]; then
	truncate -s 1M "$TMP/probe.img"
	if l=$(losetup -f --show "$TMP/probe.img" 2>"$TMP/losetup.err"); then
		losetup -d "$l"
	else
		why="no loop device: $(head -1 "$TMP/losetup.err")"
	fi
fi
if [ -n "$why" ]; then
	skip "$why"
		exit
fi

GUARD=60 # against a hang, not a time the test expects
fb() {
	rc=0
	timeout -s KILL $GUARD "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null ||
		rc=$?
}
# newloop FILE [LOSETUP ARGS]: a loop device on FILE in $L
newloop() {
	f=$1
	shift
	L=$(losetup -f --show "$@" "$f" 2>"$TMP/losetup.err") || {
		L=""
		return 1
	}
	loops="$loops $L"
}
freeloop() {
	losetup -d "$1" 2>/dev/null || :
	loops=$(echo "$loops" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' ')
}
# sum DEV FILE: FILE's checksum, the device's cached writes in it first
sum() { sync; blockdev --flushbufs "$1" 2>/dev/null || :; sha256sum <"$2"; }
# zero DEV: whether its first 4 KiB are zero (read through its cache)
zero() { cmp -s -n 4096 "$1" /dev/zero; }

# headers KIND FILE: an LVM2 PV label or an md 1.x superblock, with the
# checksums their tools write, so that libblkid, pvs and mdadm take them
headers() {
	python3 - "$1" "$2" <<'PY'
import os, struct, sys, zlib
kind, path = sys.argv[1], sys.argv[2]
size = os.path.getsize(path)

def put(off, b):
    with open(path, 'r+b') as f:
        f.seek(off)
        f.write(b)

if kind == 'lvm2':
    # label in sector 1; its CRC is LVM's (CRC-32 seeded 0xf597a6cf,
    # no final inversion) of the rest of the sector
    b = bytearray(512)
    b[0:8] = b'LABELONE'
    struct.pack_into('<QII', b, 8, 1, 0, 32)
    b[24:32] = b'LVM2 001'
    b[32:64] = b'fbrunPVfbrunPVfbrunPVfbrunPVfbru'
    struct.pack_into('<7Q', b, 64, size, 1 << 20, 0, 0, 0, 4096,
                     (1 << 20) - 4096)
    crc = ~zlib.crc32(bytes(b[20:]), ~0xf597a6cf & 0xffffffff) & 0xffffffff
    struct.pack_into('<I', b, 16, crc)
    put(512, b)
else:
    # md 1.0: 8 KiB from the end (4 KiB aligned); 1.1: at 0; 1.2: at 4 KiB
    ver = kind[2:]
    off = {'1.0': (size & ~0xfff) - 0x2000, '1.1': 0, '1.2': 0x1000}[ver]
    data = 0 if ver == '1.0' else 2048
    nsect = (off if ver == '1.0' else size) // 512 - data
    sb = bytearray(260)  # 256 bytes, then 2 device roles
    struct.pack_into('<IIII', sb, 0, 0xa92b4efc, 1, 0, 0)
    sb[16:32] = bytes(range(1, 17))
    sb[32:42] = b'fbrun:test'
    struct.pack_into('<QIIQ', sb, 64, 1700000000, 1, 0, nsect)
    struct.pack_into('<I', sb, 92, 2)
    struct.pack_into('<QQQ', sb, 128, data, nsect, off >> 9)
    sb[168:184] = bytes(range(17, 33))
    struct.pack_into('<QQQ', sb, 192, 1700000000, 1, 2**64 - 1)
    struct.pack_into('<I', sb, 220, 2)
    struct.pack_into('<HH', sb, 256, 0, 1)
    s = sum(struct.unpack('<65I', sb))
    struct.pack_into('<I', sb, 216, ((s & 0xffffffff) + (s >> 32)) & 0xffffffff)
    put(off, sb)
PY
}

# script FILE DEV [STATEMENT]: writes of 64k at the start of DEV, 3 times
script() {
	{
		echo "define file name=dev,path=$2"
		echo "define process name=p { thread name=t {"
		echo "  flowop write name=w,filesetname=dev,iosize=64k"
		echo "  flowop finishoncount name=done,value=3 } }"
		[ -z "${3:-}" ] || echo "$3"
		echo "run 30"
	} >"$1"
}

# --- the signature matrix ---------------------------------------------------
# make KIND DEV FILE: put KIND on the loop device DEV over FILE; 1 (and
# $why_not) when this machine cannot
key=$TMP/key
printf 'fbrun-test-key' >"$key"
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	why_not="$1 not found (apt-get install $2)"
	return 1
}
luks() {
	need cryptsetup cryptsetup-bin || return 1
	cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 --key-file "$key" "$1" \
		>"$TMP/mk.err" 2>&1
}
make_sig() {
	why_not=""
	case $1 in
	dos | gpt | gpt-4k)
		need sfdisk fdisk || return 1
		printf 'label: %s\n,1M\n' "${1%-4k}" | sfdisk -q "$2" >"$TMP/mk.err" 2>&1 ;;
	ext4) need mkfs.ext4 e2fsprogs && mkfs.ext4 -q -F "$2" >"$TMP/mk.err" 2>&1 ;;
	xfs) need mkfs.xfs xfsprogs && mkfs.xfs -q -f "$2" >"$TMP/mk.err" 2>&1 ;;
	btrfs) need mkfs.btrfs btrfs-progs && mkfs.btrfs -q -f "$2" >"$TMP/mk.err" 2>&1 ;;
	vfat) need mkfs.vfat dosfstools && mkfs.vfat "$2" >"$TMP/mk.err" 2>&1 ;;
	ntfs) need mkfs.ntfs ntfs-3g && mkfs.ntfs -q -F -Q "$2" >"$TMP/mk.err" 2>&1 ;;
	exfat) need mkfs.exfat exfatprogs && mkfs.exfat "$2" >"$TMP/mk.err" 2>&1 ;;
	minix) need mkfs.minix util-linux && mkfs.minix "$2" >"$TMP/mk.err" 2>&1 ;;
	bfs) need mkfs.bfs util-linux && mkfs.bfs "$2" >"$TMP/mk.err" 2>&1 ;;
	swap) need mkswap util-linux && mkswap "$2" >"$TMP/mk.err" 2>&1 ;;
	luks2) luks "$2" ;;
	luks2-wiped)
		# the primary header gone: LUKS2 keeps a second one after it
		luks "$2" &&
			dd if=/dev/zero of="$2" bs=4096 count=1 conv=notrunc \
				2>"$TMP/mk.err" ;;
	lvm2-pvcreate)
		need pvcreate lvm2 &&
			pvcreate -q -ff -y --config 'devices { filter=["a|.*|"] use_devicesfile=0 }' \
				"$2" >"$TMP/mk.err" 2>&1 ;;
	lvm2 | md1.0 | md1.1 | md1.2)
		# into the file, then the device's cache dropped to see them
		headers "$1" "$3" 2>"$TMP/mk.err" &&
			blockdev --flushbufs "$2" ;;
	esac || {
		[ -n "$why_not" ] || why_not="making it failed: $(head -1 "$TMP/mk.err")"
		return 1
	}
}

# KIND SIZE PATTERN (what the error says it holds)
cat >"$TMP/matrix" <<'M'
dos 16M a partition table \(dos\)
gpt 16M a partition table \(gpt\)
gpt-4k 16M a partition table \(gpt\)
ext4 16M a file system \(ext4
xfs 320M a file system \(xfs
btrfs 128M a file system \(btrfs
vfat 16M a file system \(vfat
ntfs 16M a file system \(ntfs
exfat 16M a file system \(exfat
minix 16M a file system \(minix
bfs 16M a file system \(bfs
swap 16M a signature \(swap
luks2 16M an encrypted volume \(crypto_LUKS 2
luks2-wiped 16M an encrypted volume \(crypto_LUKS 2
lvm2 16M a RAID or volume manager member \(LVM2_member
lvm2-pvcreate 16M a RAID or volume manager member \(LVM2_member
md1.0 16M a RAID or volume manager member \(linux_raid_member 1\.0[,)]
md1.1 16M a RAID or volume manager member \(linux_raid_member 1\.1[,)]
md1.2 16M a RAID or volume manager member \(linux_raid_member 1\.2[,)]
M
while read -r kind size what; do
	img=$TMP/$kind.img
	rm -f "$img"
	truncate -s "$size" "$img"
	args=""
	[ "$kind" != gpt-4k ] || args="--sector-size 4096"
	# shellcheck disable=SC2086
	if ! newloop "$img" $args; then
		skip "$kind: no loop device${args:+ with $args}: $(head -1 "$TMP/losetup.err")"
		continue
	fi
	if [ "$kind" = gpt-4k ] && [ "$(blockdev --getss "$L")" != 4096 ]; then
		skip "$kind: losetup cannot give 4096-byte sectors here"
		freeloop "$L"
		continue
	fi
	if ! make_sig "$kind" "$L" "$img"; then
		skip "$kind: $why_not"
		freeloop "$L"
		continue
	fi
	script "$TMP/w.f" "$L"
	before=$(sum "$L" "$img")
	fb --allow-device-writes "$TMP/w.f"
	check "$kind: not written with --allow-device-writes (exit 2, exit $rc)" test "$rc" -eq 2
	grepq "$kind: the error names what it holds" \
		"w.f:1:[0-9]+: error: file 'dev' is the block device '$L' and it holds .*$what.*--force-device" "$TMP/err"
	check "$kind: the device is unchanged" test "$(sum "$L" "$img")" = "$before"
	fb --allow-device-writes --force-device "$TMP/w.f"
	check "$kind: --force-device writes it (exit $rc)" test "$rc" -eq 0
	check "$kind: and the writes reached it" test "$(sum "$L" "$img")" != "$before"
	freeloop "$L"
	rm -f "$img"
done <"$TMP/matrix"

# --- the device checked is the device used ------------------------------------
imgA=$TMP/a.img imgB=$TMP/b.img
truncate -s 8M "$imgA" "$imgB"
A="" B=""
newloop "$imgA" && A=$L
[ -z "$A" ] || { newloop "$imgB" && B=$L; } || :
node=$TMP/node
# mknode PATH DEV: a node at PATH for DEV's device number
mknode() {
	set -- "$1" $(stat -L -c '%t %T' "$2")
	rm -f "$1"
	mknod "$1" b $((0x$2)) $((0x$3))
}
why=""
if [ -z "$A" ] || [ -z "$B" ]; then
	why="no second loop device: $(head -1 "$TMP/losetup.err")"
elif ! command -v mknod >/dev/null 2>&1; then
	why="mknod not found"
elif ! mknode "$node" "$A" 2>"$TMP/mknod.err" || ! zero "$node" 2>/dev/null; then
	why="device nodes do not work in $TMP (a nodev mount?)"
fi
if [ -n "$why" ]; then
	skip "the device checked is the device used: $why"
	done_testing
	exit
fi

# until CONDITION...: true once it holds while fbrun ($pid) runs, false
# if fbrun ended or GUARD seconds passed first (only a guard)
until_() {
	i=0
	while [ $i -lt $((GUARD * 10)) ]; do
		"$@" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}
written() { ! zero "$A"; }
# ended: fbrun ($pid) ended by itself (status in $rc); false if it was
# still there after GUARD seconds (killed then)
gone() { ! kill -0 "$pid" 2>/dev/null; }
ended() {
	i=0
	while ! gone && [ $i -lt $((GUARD * 10)) ]; do
		i=$((i + 1))
		sleep 0.1
	done
	gone || kill -KILL "$pid" 2>/dev/null || :
	rc=0
	wait "$pid" || rc=$?
	pid=""
	[ "$rc" -ne 137 ]
}
# stop: SIGINT to fbrun, as Ctrl-C; false if it hung
stop() {
	kill -INT "$pid" 2>/dev/null || :
	ended
}

# -- swapped during the run: each open is of the descriptor checked, so
# the run goes on writing A, never what is at the name now
cat >"$TMP/swap.f" <<F
define file name=dev,path=$node
define process name=p { thread name=t {
  flowop openfile name=o,filesetname=dev,fd=1
  flowop write name=w,fd=1,iosize=4k
  flowop closefile name=c,fd=1
} }
run 600
F
for kind in device file fifo symlink; do
	mknode "$node" "$A"
	dd if=/dev/zero of="$A" bs=4096 count=1 2>/dev/null
	: >"$TMP/plant"
	bsum=$(sum "$B" "$imgB")
	"$FBRUN" --allow-device-writes "$TMP/swap.f" >"$TMP/out" 2>"$TMP/err" </dev/null &
	pid=$!
	if ! until_ written; then
		fail "swap to a $kind: the run writes the device"
		stop
		diag <"$TMP/err"
		continue
	fi
	rm -f "$node.new"
	case $kind in
	device) mknode "$node.new" "$B" ;;
	file) cp "$TMP/plant" "$node.new" ;;
	fifo) mkfifo "$node.new" ;;
	symlink) ln -s "$B" "$node.new" ;;
	esac
	mv -f "$node.new" "$node"
	# twice: the second write after the swap is on a later open
	went_on=true
	for round in 1 2; do
		dd if=/dev/zero of="$A" bs=4096 count=1 2>/dev/null
		until_ written || { went_on=false; break; }
	done
	stop || fail "swap to a $kind: fbrun hung (killed after ${GUARD} s)"
	check "swap to a $kind during the run: it goes on writing the device it checked" $went_on
	case $kind in
	device | symlink)
		check "swap to a $kind: the other device is unchanged" test "$(sum "$B" "$imgB")" = "$bsum" ;;
	file) check "swap to a file: the file is unchanged (empty)" test ! -s "$node" ;;
	esac
	check "swap to a $kind: no flowop failed" test "$(grep -c 'error' "$TMP/err")" -eq 0
	[ "$(grep -c 'error' "$TMP/err")" -eq 0 ] || diag <"$TMP/err"
done

# -- put at the name after the checks, before the run takes the device:
# checked again on the descriptor the run keeps, and only a block device
# is opened at all.  Fileset 'hold' is made first, on a frozen ext4, so
# fbrun waits between the two for as long as the test needs.
mnt=$TMP/mnt
why=""
if ! command -v fsfreeze >/dev/null 2>&1; then
	why="fsfreeze not found (util-linux)"
elif ! command -v mkfs.ext4 >/dev/null 2>&1; then
	why="mkfs.ext4 not found (e2fsprogs)"
else
	truncate -s 16M "$TMP/hold.img"
	mkdir -p "$mnt"
	if ! newloop "$TMP/hold.img" || ! mkfs.ext4 -q -F "$L" >/dev/null 2>&1 ||
		! mount "$L" "$mnt" 2>"$TMP/mount.err"; then
		why="no ext4 on a loop device to freeze: $(head -1 "$TMP/mount.err" 2>/dev/null)"
	else
		mounts="$mnt $mounts"
		frozen=""
	fi
fi
if [ -n "$why" ]; then
	skip "put at the name before the run takes the device: $why"
else
	headers md1.2 "$imgB"
	blockdev --flushbufs "$B"
	cat >"$TMP/hold.f" <<F
define file name=hold,path=$mnt,size=4k,prealloc
define file name=dev,path=$node
define process name=p { thread name=t {
  flowop write name=w,filesetname=dev,iosize=64k
  flowop finishoncount name=done,value=3 } }
run 30
F
	for kind in fifo file symlink signed; do
		mknode "$node" "$A"
		asum=$(sum "$A" "$imgA") bsum=$(sum "$B" "$imgB")
		fsfreeze -f "$mnt"
		frozen=$mnt
		# a new log each time: the last one says "Creating" already
		out=$TMP/hold-$kind.out
		"$FBRUN" --allow-device-writes "$TMP/hold.f" >"$out" 2>"$TMP/err" </dev/null &
		pid=$!
		if ! until_ grep -q "Creating fileset hold" "$out"; then
			fail "a $kind put at the name: fbrun starts making 'hold'"
			diag <"$TMP/err"
		fi
		rm -f "$node"
		case $kind in
		fifo) mkfifo "$node"
			what="it is a FIFO now, not a block device" ;;
		file) printf x >"$node"
			what="it is a regular file now, not a block device" ;;
		symlink) ln -s "$B" "$node"
			what="it is a symbolic link now, not a block device" ;;
		signed) mknode "$node" "$B"
			what="it holds a RAID or volume manager member \\(linux_raid_member 1\\.2" ;;
		esac
		fsfreeze -u "$mnt"
		frozen=""
		if ! ended; then
			fail "a $kind put at the name: fbrun hung (killed after ${GUARD} s)"
		else
			check "a $kind put at the name: refused when taken (exit 2, exit $rc)" test "$rc" -eq 2
			grepq "a $kind put at the name: the error says what is there" \
				"fbrun: error: fileset dev: block device '$node': $what.*; refusing to use it" "$TMP/err"
		fi
		check "a $kind put at the name: the device checked is unchanged" test "$(sum "$A" "$imgA")" = "$asum"
		check "a $kind put at the name: the other device is unchanged" test "$(sum "$B" "$imgB")" = "$bsum"
		[ $kind != file ] || check "a file put at the name: unchanged" test "$(cat "$node")" = x
		rm -f "$node"
	done
fi

# -- each flowop's open keeps its own flags
if [ ! -r /proc/self/fdinfo/0 ]; then
	skip "open flags: no /proc/PID/fdinfo to read them in"
else
	cat >"$TMP/flags.f" <<F
define file name=dev,path=$A
define process name=p { thread name=t {
  flowop write name=wd,filesetname=dev,fd=1,iosize=4k,random,directio
  flowop write name=ws,filesetname=dev,fd=2,iosize=4k,random,dsync
} }
run 600
F
	"$FBRUN" --allow-device-writes "$TMP/flags.f" >"$TMP/out" 2>"$TMP/err" </dev/null &
	pid=$!
	# has FLAGS NAME: whether the octal FLAGS have os.NAME
	has() { python3 -c "import os, sys; print(int(sys.argv[1], 8) & os.$2 != 0)" "$1"; }
	direct=False sync=False
	seen() {
		# every thread's: each has a descriptor table of its own
		for fd in /proc/$pid/task/*/fd/*; do
			[ "$(readlink "$fd" 2>/dev/null)" = "$A" ] || continue
			fl=$(awk '/^flags:/ { print $2 }' "${fd%/fd/*}/fdinfo/${fd##*/}" 2>/dev/null) || continue
			[ -n "$fl" ] || continue
			[ "$(has "$fl" O_DIRECT)" = False ] || direct=True
			[ "$(has "$fl" O_SYNC)" = False ] || sync=True
		done
		[ $direct$sync = TrueTrue ]
	}
	until_ seen || :
	stop || fail "open flags: fbrun hung (killed after ${GUARD} s)"
	check "directio: the device is opened with O_DIRECT" test $direct = True
	check "dsync: the device is opened with O_SYNC" test $sync = True
	check "and the run failed no flowop" test "$(grep -c 'error' "$TMP/err")" -eq 0
fi

done_testing
