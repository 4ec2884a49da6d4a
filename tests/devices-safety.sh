#!/bin/sh
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
# Needs root, loop devices and python3; a format whose tool is missing
# is skipped with its name.
. "${srcdir:-.}/tests/lib.sh"

loops=""
dev_cleanup() {
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

done_testing
