#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# examples/thumper/run.sh.  Without root: --dry-run prints each layout's
# commands (zpool create, mdadm --create, mkfs.btrfs, mount, fbrun,
# teardown) in their tools' syntax, as a valid shell script; too few
# devices, an odd count for mirrors and an unknown layout are refused.
# As root on loop devices, at a tiny scale: the btrfs-raid10 and
# btrfs-raid5 comparison with its bounded page cache (the devices read at
# least half of the bytes the web servers read), the capacity lines,
# bonnie's tables; --devices refusing a device with a signature (unless
# --force) or mounted (even with --force), wiping only the given devices;
# zfs and md skipped with their reason where the machine lacks them; and
# no loop device, mount or work file left whether it succeeds, fails or
# is killed.
# shellcheck disable=SC2016 # the dry run's $WORK and $LOOPn are literal
. "${srcdir:-.}/tests/lib.sh"

thumper=$srcdir/examples/thumper/run.sh

# leftovers: loop devices, mounts and files the script left under $TMP/work
leftovers() {
	{
		losetup -a 2>/dev/null | grep -F "$TMP/work" || :
		grep -F "$TMP/work" /proc/mounts || :
		ls -A "$TMP/work"
	} >"$TMP/left"
	[ ! -s "$TMP/left" ]
}

# th ARGS...: run the script at a tiny scale; status in $rc
th() {
	rc=0
	FBRUN=$FBRUN timeout 300 sh "$thumper" -t 2 -r 2 --warmup 1 -w "$TMP/work" \
		-D nthreads=2 -D ncreators=1 "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}
# dry ARGS...: a dry run, as nobody where that can be arranged
dry() {
	rc=0
	FBRUN=fbrun $as_user sh "$TMP/pub/thumper/run.sh" --dry-run -w /var/tmp -o ./res "$@" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
}
# has DESCRIPTION LINE: the output has exactly this line
has() {
	if grep -qxF -- "$2" "$TMP/out"; then pass "$1"; else fail "$1"; diag <"$TMP/out"; fi
}

# the script goes where any user can read it, as a checkout under /root
# is not; without an unprivileged user the dry runs run as this one
as_user=""
if as_nobody; then
	nobody=true
else
	nobody=false
fi
mkdir -p "$TMP/pub/thumper"
cp "$thumper" "$TMP/pub/thumper/run.sh"
chmod -R a+rX "$TMP/pub"

# --- dry runs: every command, in its tool's syntax --------------------------------
all=zfs-mirror,zfs-raidz1,zfs-raidz2,md-raid10,md-raid5,md-raid6,btrfs-raid10,btrfs-raid5,btrfs-raid6,btrfs-raid1
D4="/dev/fake0 /dev/fake1 /dev/fake2 /dev/fake3"
# shellcheck disable=SC2086 # D4 is a list
dry --layouts "$all" --force --devices $D4
check "--dry-run of the 10 layouts: exits 0 ($rc)${as_user:+, as nobody}" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "... its output is a shell script (sh -n)" sh -n "$TMP/out"
has "zfs-mirror: zpool create of striped mirrors, -f only on the given devices" \
	'zpool create -f -m "$WORK/zfs-mirror" -O atime=off fbrun-thumper mirror /dev/fake0 /dev/fake1 mirror /dev/fake2 /dev/fake3'
has "zfs-raidz1: one raidz1 vdev of the four" \
	'zpool create -f -m "$WORK/zfs-raidz1" -O atime=off fbrun-thumper raidz1 /dev/fake0 /dev/fake1 /dev/fake2 /dev/fake3'
has "zfs-raidz2: one raidz2 vdev" \
	'zpool create -f -m "$WORK/zfs-raidz2" -O atime=off fbrun-thumper raidz2 /dev/fake0 /dev/fake1 /dev/fake2 /dev/fake3'
# each command line against its tool's synopsis: zpool create [-dfn]
# [-m mountpoint] [-o property=value]... [-O fs-property=value]... pool
# vdev... (a pool name not reserved: mirror, raidz, draid, spare, log);
# mdadm --create md-device [options] component-devices, --raid-devices
# their count; mkfs.btrfs [options] devices, -d and -m btrfs profiles
syntax() {
	awk '
	/^zpool create / {
		n++
		if ($0 !~ /^zpool create( -[dfn]+)*( -m [^ ]+)?( -o [a-z@_]+=[^ ]+)*( -O [a-z]+=[^ ]+)* [A-Za-z][A-Za-z0-9_.:-]*( (mirror|raidz[123]?)( \/dev\/[a-z0-9]+)+)+$/) bad = bad "\n" $0
		for (i = 3; $i ~ /^-/; i += ($i == "-f") ? 1 : 2) ;
		if ($i ~ /^(mirror|raidz|draid|spare|log)/) bad = bad "\n" $0
	}
	/^mdadm --create / {
		n++
		c = 0; want = -1
		for (i = 4; i <= NF; i++) {
			if ($i ~ /^--raid-devices=/) want = substr($i, 16) + 0
			else if ($i ~ /^\/dev\//) c++
			else if ($i !~ /^--(run|assume-clean|metadata=1\.2|level=(10|5|6))$/) bad = bad "\n" $0
		}
		if ($3 !~ /^\/dev\/md\// || c != want) bad = bad "\n" $0
	}
	/^mkfs\.btrfs / {
		n++
		if ($0 !~ /^mkfs\.btrfs( -f| -q| -L [a-z-]+| -d (raid0|raid1|raid1c3|raid1c4|raid10|raid5|raid6|single|dup)| -m (raid0|raid1|raid1c3|raid1c4|raid10|raid5|raid6|single|dup))+( \/dev\/[a-z0-9]+)+$/) bad = bad "\n" $0
	}
	END { print n + 0; printf "%s", bad }' "$TMP/out"
}
syntax >"$TMP/syntax"
check "zpool create, mdadm --create and mkfs.btrfs lines (10) as their synopses have them" \
	test "$(head -1 "$TMP/syntax")" = 10 -a "$(wc -l <"$TMP/syntax")" -eq 1
diag <"$TMP/syntax"
has "zfs: the capacity from zfs list" 'zfs list -Hp -o used,avail fbrun-thumper'
has "zfs: the pool destroyed" 'zpool destroy -f fbrun-thumper'
has "zfs: then the given devices' labels cleared" 'zpool labelclear -f /dev/fake3'
for lv in 10 5 6; do
	has "md-raid$lv: mdadm --create --level=$lv --raid-devices=4" \
		"mdadm --create /dev/md/fbrun-thumper --run --metadata=1.2 --assume-clean --level=$lv --raid-devices=4 /dev/fake0 /dev/fake1 /dev/fake2 /dev/fake3"
	has "md-raid$lv: ext4 on it, mounted" \
		"mount -t ext4 -o noatime /dev/md/fbrun-thumper \"\$WORK/md-raid$lv\""
done
has "md: ext4 by default" 'mkfs.ext4 -F -q /dev/md/fbrun-thumper'
has "md: the array stopped" 'mdadm --stop /dev/md/fbrun-thumper'
has "md: then the given devices' superblocks zeroed" \
	'mdadm --zero-superblock /dev/fake0 /dev/fake1 /dev/fake2 /dev/fake3'
for lv in raid10 raid5 raid6 raid1; do
	has "btrfs-$lv: mkfs.btrfs -d $lv -m $lv" \
		"mkfs.btrfs -f -q -L fbrun-thumper -d $lv -m $lv /dev/fake0 /dev/fake1 /dev/fake2 /dev/fake3"
	has "btrfs-$lv: mounted with each device named" \
		"mount -t btrfs -o noatime,device=/dev/fake0,device=/dev/fake1,device=/dev/fake2,device=/dev/fake3 /dev/fake0 \"\$WORK/btrfs-$lv\""
	has "btrfs-$lv: unmounted" "umount \"\$WORK/btrfs-$lv\""
done
has "btrfs: the capacity from btrfs filesystem usage" 'btrfs filesystem usage -b "$WORK/btrfs-raid1"'
has "--force: wipefs -a of a given device" 'wipefs -a -q /dev/fake3'
check "... and of no other device" \
	test -z "$(grep -E '^(wipefs|mdadm|zpool|mkfs|mount)' "$TMP/out" | grep -oE '/dev/[a-z0-9/-]+' | sort -u | grep -vxE '/dev/fake[0-3]|/dev/md/fbrun-thumper')"
grepq "fbrun runs images.f with the cache limit and a warm-up, a JSON per layout" \
	'^fbrun -q --repeat 3 --warmup 10 --cache-limit [0-9]+m --keep .* -D "dir=\$WORK/md-raid5/images" -o \./res/md-raid5\.json \./res/images\.f$' "$TMP/out"
has "fbrun compare of the 10 layouts" \
	"fbrun compare $(echo "$all" | sed 's|\([^,]*\)|./res/\1.json|g; s/,/ /g')"
n=$(grep -c '^fbrun -q' "$TMP/out" || :)
check "... one fbrun run per layout ($n)" test "$n" -eq 10
for s in zfs md; do
	case $s in
	zfs) tool=zpool pkg=zfsutils-linux ;;
	md) tool=mdadm pkg=mdadm ;;
	esac
	if ! $as_user sh -c "command -v $tool" >/dev/null 2>&1; then
		grepq "$s: the dry run says it would be skipped here, and the package" \
			"^# $s-[a-z0-9]+: skipped on this machine: $tool not found: apt-get install $pkg$" "$TMP/out"
	else
		skip "$s: the dry run's skip note: $tool is installed here"
	fi
done

dry --layouts md-raid5,btrfs-raid10 --md-fs xfs --devices=/dev/fake0,/dev/fake1,/dev/fake2,/dev/fake3
has "--md-fs xfs: mkfs.xfs on the array" 'mkfs.xfs -f -q /dev/md/fbrun-thumper'
check "--devices=A,B,...: the devices as given, no --force, no wipe before" \
	test "$(grep -c '^wipefs' "$TMP/out")" -eq 8

dry --layouts btrfs-raid10,btrfs-raid5
has "loop files: 4 sparse files of -s 2G" 'truncate -s 2G "$WORK/btrfs-raid5-4.img"'
has "... each on a loop device" 'LOOP4=$(losetup -f --show --direct-io=on "$WORK/btrfs-raid5-4.img")'
has "... the layout on them" 'mkfs.btrfs -f -q -L fbrun-thumper -d raid10 -m raid10 "$LOOP1" "$LOOP2" "$LOOP3" "$LOOP4"'
has "... detached" 'losetup -d "$LOOP4"'
has "... the work directory removed" 'rm -rf "$WORK"'

# shellcheck disable=SC2086 # D4 is a list
dry --seed-scale --layouts zfs-mirror,zfs-raidz1 --devices $D4
for p in c2-fsync c20-fsync c2-nofsync c20-nofsync; do
	n=${p%%-*}
	case $p in *nofsync) f='\./res/images-nofsync\.f' ;; *) f='\./res/images\.f' ;; esac
	grepq "--seed-scale: phase $p, ${n#c} uploaders, 1200 s after 60 s, 100 threads, 25,000 images of 1m" \
		"^fbrun -q --repeat 3 --warmup 60 --cache-limit [0-9]+m --keep -D nfiles=50000 -D filesize=1m -D readiosize=64k -D nthreads=100 -D ncreators=${n#c} -D runtime=1200 -D \"dir=\\\$WORK/zfs-raidz1/images\" -o \./res/$p/zfs-raidz1\.json $f$" "$TMP/out"
	has "... compared per phase" "fbrun compare ./res/$p/zfs-mirror.json ./res/$p/zfs-raidz1.json"
done
has "--seed-scale: the script without its fsyncs, kept with the results" \
	"sed '/flowop fsync /d' ./res/images.f >./res/images-nofsync.f"
grepq "images.f's web servers share one walk: opennext taken out" \
	'^(sed s/,opennext,/,/ [^ ]*images\.f|fbrun --show images \| sed s/,opennext,/,/) >\./res/images\.f$' "$TMP/out"
dry --opennext
grepq "--opennext: images.f as it is" \
	'^(cat [^ ]*images\.f|fbrun --show images \| cat) >\./res/images\.f$' "$TMP/out"

# --help: every option, and README documents each
dry --help
check "--help: exits 0 ($rc)" test "$rc" -eq 0
opts=$(sed -n 's/^  \(--[a-z-]*\|-[a-zA-Z]\)[ ,].*/\1/p' "$TMP/out")
check "--help lists 17 options ($(echo "$opts" | tr "\n" " "))" test "$(echo "$opts" | wc -l)" -eq 17
for o in $opts; do
	check "README documents $o" grep -qF -- "| \`$o" "$srcdir/examples/thumper/README.md"
done
for l in $(echo "$all" | tr , ' '); do
	check "--help and README name layout $l" \
		test -n "$(grep -F -- "$l" "$TMP/out")" -a -n "$(grep -F -- "| \`$l\` |" "$srcdir/examples/thumper/README.md")"
done

# --- refusals, before anything is made --------------------------------------------
dry --layouts btrfs-raid6 --devices /dev/fake0 /dev/fake1 /dev/fake2
check "btrfs-raid6 on 3 devices: refused (exit $rc)" test "$rc" -eq 2
grepq "... saying it needs 4" '^thumper: btrfs-raid6 needs 4 devices at least, 3 given$' "$TMP/err"
dry --layouts zfs-mirror --devices /dev/fake0 /dev/fake1 /dev/fake2
check "zfs-mirror on 3 devices: refused (exit $rc)" test "$rc" -eq 2
grepq "... the mirrors need an even count" '^thumper: zfs-mirror pairs the devices: an even count, 3 given$' "$TMP/err"
dry --layouts btrfs-raid10,btrfs-raid7
check "an unknown layout: refused (exit $rc)" test "$rc" -eq 2
grepq "... with the ones it may have meant" \
	"^thumper: unknown layout 'btrfs-raid7'; did you mean: btrfs-raid10, btrfs-raid5, btrfs-raid6, btrfs-raid1\?$" "$TMP/err"
dry --layouts raidz
grepq "... 'raidz' suggests the raidz layouts" "did you mean: zfs-raidz1, zfs-raidz2\?$" "$TMP/err"
dry --frobnicate
check "an unknown option: refused (exit $rc)" test "$rc" -eq 2

# not root: a real run says it needs root
if $nobody; then
	rc=0
	FBRUN=$UFBRUN $as_user sh "$TMP/pub/thumper/run.sh" -o "$TMP/nobody" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "not root: exits 1 (exit $rc)" test "$rc" -eq 1
	grepq "not root: says it needs root" "^thumper: needs root" "$TMP/err"
else
	skip "the not-root refusal: $why_not"
	skip "the not-root refusal's message: $why_not"
fi

why=
$is_root || why="needs root"
[ -n "$why" ] || command -v losetup >/dev/null 2>&1 || why="needs losetup"
[ -n "$why" ] || command -v mkfs.btrfs >/dev/null 2>&1 ||
	why="needs mkfs.btrfs (apt-get install btrfs-progs)"
[ -n "$why" ] || grep -qw btrfs /proc/filesystems || why="the kernel has no btrfs"
[ -n "$why" ] || losetup -f >/dev/null 2>&1 || why="no free loop device"
[ -n "$why" ] || command -v python3 >/dev/null 2>&1 || why="needs python3 to read the JSON"
if [ -n "$why" ]; then
	skip "thumper example on loop devices: $why"
	done_testing
	exit 0
fi
mkdir "$TMP/work"

# --- the default comparison at a tiny scale ---------------------------------------
# 1000 images of 128k exist: 125 MiB, six times the default cache limit
th -s 512M -D nfiles=2000 --bonnie -o "$TMP/res"
if [ "$rc" -eq 0 ]; then
	pass "run.sh exits 0"
else
	fail "run.sh exits 0 (exit $rc)"
	diag <"$TMP/err"
fi
grepq "each layout's own table: btrfs-raid10 Results" '^btrfs-raid10 Results$' "$TMP/out"
grepq "... and btrfs-raid5 Results" '^btrfs-raid5 Results$' "$TMP/out"
grepq "... of 2 runs each (-r 2)" '^Per-Operation Breakdown, mean of 2 runs' "$TMP/out"
grepq "... with the devices' reads" '^Disk stats \(read/write\):$' "$TMP/out"
grepq "the comparison has a btrfs-raid10 and a btrfs-raid5 group" \
	'^ops/s +btrfs-raid10 \(2\) +btrfs-raid5 \(2\) +ratio \[95% interval\] +p +verdict$' "$TMP/out"
grepq "with each flowop's ratio and a verdict" \
	'^readfile2 +[0-9.]+ \+- [0-9.]+ +[0-9.]+ \+- [0-9.]+ +[0-9.]+x \[[0-9.]+, ([0-9.]+|inf)\] +[0-9.e-]+ +(significant|within noise)$' "$TMP/out"
grepq "both file systems were btrfs" \
	'btrfs-raid10: 2 runs from .*btrfs on .*/btrfs-raid10\)$' "$TMP/out"
grepq "the variable that differs, each layout's value" \
	'^  \$dir: btrfs-raid10: .*/btrfs-raid10/images \| btrfs-raid5: .*/btrfs-raid5/images$' "$TMP/out"
# the reads reach the devices: each run's device reads against the bytes
# its web servers read (the cache limit bounds what memory serves)
for l in btrfs-raid10 btrfs-raid5; do
	# shellcheck disable=SC2046 # words: the figures
	set -- $(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
cl = r.get("cache_limit") or {}
print(cl.get("bytes", 0), all(x["warmup"]["seconds"] == 1 and x["warmup"]["completed"] for x in r["repeats"]))
for x in r["repeats"]:
    rd = sum(f["bytes"] for f in x["flowops"] if f["name"] == "readfile2")
    dev = sum(d["read_bytes"] for d in x["disk_stats"])
    print("%d/%d" % (dev, rd), "ok" if rd > 0 and dev >= rd / 2 else "short")' "$TMP/res/$l.json" 2>&1)
	check "$l: run under a cache limit ($1 bytes)" test "$1" -gt 0
	check "$l: each run after a warm-up of 1 s" test "$2" = True
	shift 2
	check "$l: each run's device reads at least half its bytes read ($*)" \
		test "$*" = "$(echo "$*" | sed 's/ short/ ok/g')" -a $# -eq 4
done
# usable capacity, one line per layout; raw is 4 x 512 MiB
grepq "the summary's heading" '^Usable capacity:$' "$TMP/out"
cap() { sed -n "s/^  $1 \{1,\}[0-9.]* GiB of 2\.00 GiB raw (\([0-9]*\)%): [0-9]* of 2147483648 bytes$/\1/p" "$TMP/out"; }
p10=$(cap btrfs-raid10)
p5=$(cap btrfs-raid5)
check "btrfs-raid10: a capacity line, at most half the raw bytes (${p10:-none}%)" test "${p10:-99}" -le 50
check "btrfs-raid5: a capacity line, more than half of them (${p5:-none}%)" test "${p5:-0}" -gt 50
check "... before the comparison" test "$(grep -n '^Usable capacity:$' "$TMP/out" | cut -d: -f1)" \
	-lt "$(grep -n '^Groups' "$TMP/out" | cut -d: -f1)"
for l in btrfs-raid10 btrfs-raid5; do
	grepq "--bonnie: $l's bonnie++ table" "^$l bonnie\+\+$" "$TMP/out"
	grepq "... its size line" "^$l +[0-9]+M " "$TMP/out"
done
# the README shows what the script prints by default: the same headings
readme=$srcdir/examples/thumper/README.md
sed -n 's/^    //p' "$readme" >"$TMP/shown"
for h in '^btrfs-raid10 Results$' '^Per-Operation Breakdown, mean of [0-9]+ runs' \
	"^Groups \(btrfs-raid5 against btrfs-raid10; 95% intervals, Welch's t-test at the 5% level\):$" \
	'^Runs:$' '^Variables that differ:$' '^Usable capacity:$' \
	'^(ops/s|mb/s|ms/op|p99 ms) +btrfs-raid10 \([0-9]+\) +btrfs-raid5 \([0-9]+\) +ratio \[95% interval\] +p +verdict$'; do
	n=$(grep -Ec "$h" "$TMP/out" || :)
	check "README and run.sh: '$h' as often ($n)" \
		test "$n" -gt 0 -a "$(grep -Ec "$h" "$TMP/shown" || :)" -eq "$n"
done
grepq "README shows the devices' reads" '^Disk stats \(read/write\):$' "$TMP/shown"
for f in btrfs-raid10.json btrfs-raid5.json btrfs-raid10.txt btrfs-raid5.txt \
	btrfs-raid10-bonnie.txt capacity.txt compare.txt; do
	check "it wrote $f" test -s "$TMP/res/$f"
done
check "the script it ran is kept, without opennext" test -s "$TMP/res/images.f" -a -z "$(grep opennext "$TMP/res/images.f")"
check "it wrote the HTML page with charts" grep -q '<svg' "$TMP/res/compare.html"
check "nothing left: loop devices, mounts, work files" leftovers
diag <"$TMP/left"

# --- zfs and md where the machine lacks them: skipped, the reason given -------------
zfs_here=false md_here=false
command -v zpool >/dev/null 2>&1 && [ -d /sys/module/zfs ] && zfs_here=true
command -v mdadm >/dev/null 2>&1 && [ -e /proc/mdstat ] && md_here=true
if $zfs_here && $md_here; then
	skip "zfs and md skipped: this machine has both"
else
	th -o "$TMP/res-skip" --layouts zfs-mirror,md-raid5
	$zfs_here || grepq "zfs-mirror: skipped, the reason and what to install" \
		'^thumper: zfs-mirror skipped: (zpool not found: apt-get install zfsutils-linux|the kernel has no zfs module .*apt-get install zfs-dkms)$' "$TMP/err"
	$md_here || grepq "md-raid5: skipped, the reason and what to install" \
		'^thumper: md-raid5 skipped: (mdadm not found: apt-get install mdadm|the kernel has no md \(/proc/mdstat absent, modprobe md_mod failed\))$' "$TMP/err"
	if ! $zfs_here && ! $md_here; then
		check "nothing built: exits 1 ($rc)" test "$rc" -eq 1
		grepq "... saying so" '^thumper: no layout could be built here' "$TMP/err"
	fi
	check "skipped layouts: nothing left" leftovers
fi

# --- --devices: the test's own loop devices ------------------------------------------
# (not $d: check() sets it)
devs=""
for i in 0 1 2 3 4; do
	truncate -s 300M "$TMP/dev$i.img"
	l=$(losetup -f --show "$TMP/dev$i.img")
	loops="$loops $l"
	devs="$devs $l"
done
# shellcheck disable=SC2086 # a list
set -- $devs
given="$1 $2 $3 $4" other=$5
mkfs.ext4 -q -F "$2" >/dev/null 2>&1
mkfs.ext4 -q -F "$other" >/dev/null 2>&1
# shellcheck disable=SC2086 # given is a list
th --layouts btrfs-raid1 -D nfiles=100 --devices $given -o "$TMP/res-dev"
check "--devices, one holds ext4: refused (exit $rc)" test "$rc" -eq 2
grepq "... naming the device and what it holds" "^thumper: $2 holds ext4 \(wipefs -n $2 lists it\); --force wipes it$" "$TMP/err"
check "... the ext4 is still there" test "$(blkid -p -o value -s TYPE "$2")" = ext4
mkdir "$TMP/m"
mount "$2" "$TMP/m"
mounts="$TMP/m $mounts"
# shellcheck disable=SC2086
th --layouts btrfs-raid1 -D nfiles=100 --force --devices $given -o "$TMP/res-dev"
check "--devices, one mounted: refused even with --force (exit $rc)" test "$rc" -eq 2
grepq "... saying where it is mounted" "^thumper: $2 is in use, refused even with --force: $2 is mounted on $TMP/m$" "$TMP/err"
check "... the ext4 is still there" test "$(blkid -p -o value -s TYPE "$2")" = ext4
umount "$TMP/m"
mounts=""
# shellcheck disable=SC2086
th --layouts btrfs-raid1 -r 1 -D nfiles=100 -D runtime=1 --force --devices $given -o "$TMP/res-dev"
check "--devices with --force: btrfs-raid1 on the 4 devices, exit 0 ($rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
grepq "... its table" '^btrfs-raid1 Results$' "$TMP/out"
grepq "... its capacity against the 4 devices' 1200 MiB" \
	'^  btrfs-raid1 +[0-9.]+ GiB of 1\.17 GiB raw \([0-9]+%\): [0-9]+ of 1258291200 bytes$' "$TMP/out"
left=""
for l in $given; do left="$left$(wipefs -n --noheadings --output TYPE "$l")"; done
check "... the given devices wiped after it (${left:-nothing on them})" test -z "$left"
check "... the device not given still holds its ext4" test "$(blkid -p -o value -s TYPE "$other")" = ext4
check "... nothing left" leftovers
for l in $devs; do losetup -d "$l"; done
loops=""

# --- failures and signals --------------------------------------------------------------
# a failing fbrun (no thread instances) after the loops and mount exist
th -s 512M -D nfiles=100 -o "$TMP/res2" -D nthreads=0
check "fbrun failing: run.sh exits non-zero" test "$rc" -ne 0
grepq "fbrun failing: says so" "^thumper: fbrun failed on btrfs-raid10" "$TMP/err"
check "fbrun failing: nothing left" leftovers
diag <"$TMP/left"

# a shell cannot trap a signal ignored when it started: SIGHUP under nohup
# (signal 1, the lowest bit of the ignored mask)
hup_ignored() {
	m=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status 2>/dev/null)
	case ${m#"${m%?}"} in 1 | 3 | 5 | 7 | 9 | b | d | f) return 0 ;; esac
	return 1
}
# SIGTERM, then SIGHUP, to the script alone while a file system is
# mounted: it ends its fbrun and undoes everything
if command -v setsid >/dev/null 2>&1; then
	for sig in TERM HUP; do
		if [ "$sig" = HUP ] && hup_ignored; then
			skip "SIG$sig while mounted: SIG$sig is ignored where the tests run (nohup?), so run.sh cannot trap it"
			skip "SIG$sig while mounted: nothing left: not sent"
			continue
		fi
		rm -f "$TMP/out" "$TMP/err" # not a previous run's output
		FBRUN=$FBRUN setsid sh "$thumper" -t 60 -s 512M -w "$TMP/work" \
			-o "$TMP/res-$sig" -D nfiles=100 -D nthreads=2 -D ncreators=1 \
			>"$TMP/out" 2>"$TMP/err" &
		pid=$!
		n=0
		while ! grep -qF "$TMP/work" /proc/mounts && [ $n -lt 300 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		sleep 1
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		check "SIG$sig while mounted: exits non-zero ($rc)" test "$rc" -ne 0
		check "SIG$sig while mounted: nothing left" leftovers
		diag <"$TMP/left"
	done
else
	skip "SIGTERM cleanup: needs setsid"
fi
done_testing
