#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# RAID10 against RAID5 under the Thumper "images" workload: builds a
# 4-device btrfs RAID10 and a 4-device btrfs RAID5 (data and metadata) on
# sparse loop files, runs workloads/images.f on each, prints
# `fbrun compare` of the two runs and writes the HTML page.  Everything it
# makes (loop files, loop devices, mounts, the work directory) is removed
# on every way out.  Needs root, loop devices and btrfs-progs.
#
# usage: run.sh [-t SECONDS] [-r RUNS] [-s SIZE] [-o OUTDIR] [-w WORKDIR] [-D NAME=VALUE]...
#   -t  seconds per run (default 30)
#   -r  runs per layout (default 3; fbrun --repeat), so the comparison
#       has 95% intervals and a significance verdict; 1 for one run each
#   -s  size of each of the 4 sparse loop files (default 2G)
#   -o  directory for raid10.json, raid5.json, their tables raid10.txt
#       and raid5.txt, compare.txt, compare.html
#       (default: a new thumper-DATE directory here; must not hold them yet)
#   -w  where the work directory with the loop files goes
#       (default: $TMPDIR, else /var/tmp)
#   -D  passed to fbrun after its scaling to this machine, so it wins
#       (e.g. -D nfiles=20000 -D nthreads=64)
# The fbrun used is $FBRUN, else the one in PATH, else one built in the
# source tree (./fbrun or ./build/fbrun).
set -eu

me=thumper
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

die() { echo "$me: $*" >&2; exit 1; }
usage() { sed -n '12,25s/^# \{0,1\}//p' "$0"; }

runtime=30 runs=3 size=2G outdir= workdir=${TMPDIR:-/var/tmp} defines=
while getopts t:r:s:o:w:D:h opt; do
	case $opt in
	t) runtime=$OPTARG ;;
	r) runs=$OPTARG ;;
	s) size=$OPTARG ;;
	o) outdir=$OPTARG ;;
	w) workdir=$OPTARG ;;
	D) case $OPTARG in
	   *=*) ;;
	   *) echo "$me: -D expects NAME=VALUE, got '$OPTARG'" >&2; exit 2 ;;
	   esac
	   defines="$defines -D $OPTARG" ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { usage >&2; exit 2; }
case $runtime in '' | *[!0-9]*) echo "$me: -t expects seconds" >&2; exit 2 ;; esac
case $runs in '' | *[!0-9]* | 0) echo "$me: -r expects 1 or more runs" >&2; exit 2 ;; esac
repeat=
[ "$runs" -eq 1 ] || repeat="--repeat $runs"
case $size in '' | *[!0-9KMGTkmgt]* | [!0-9]*) echo "$me: -s expects a size like 2G" >&2; exit 2 ;; esac

# --- what it needs, said plainly when it is missing ------------------------
if [ -n "${FBRUN:-}" ]; then
	fbrun=$FBRUN
elif command -v fbrun >/dev/null 2>&1; then
	fbrun=$(command -v fbrun)
elif [ -x "$top/fbrun" ]; then
	fbrun=$top/fbrun
elif [ -x "$top/build/fbrun" ]; then
	fbrun=$top/build/fbrun
else
	die "no fbrun: set FBRUN, put fbrun in PATH, or build it in $top/build"
fi
[ -x "$fbrun" ] || die "FBRUN '$fbrun' is not an executable"
[ "$(id -u)" -eq 0 ] || die "needs root (loop devices, mkfs.btrfs and mount); run it with sudo"
command -v losetup >/dev/null 2>&1 || die "needs losetup (util-linux)"
command -v mkfs.btrfs >/dev/null 2>&1 ||
	die "needs mkfs.btrfs: apt-get install -y btrfs-progs"
grep -qw btrfs /proc/filesystems 2>/dev/null || modprobe btrfs 2>/dev/null ||
	die "the kernel has no btrfs support (not in /proc/filesystems)"
[ -e /dev/loop-control ] || modprobe loop 2>/dev/null ||
	die "no loop device support (/dev/loop-control is missing)"
script=$top/workloads/images.f
[ -r "$script" ] || script=images # the copy installed with fbrun

if [ -z "$outdir" ]; then
	outdir=./thumper-$(date +%Y%m%d-%H%M%S)
fi
mkdir -p "$outdir"
for f in raid10.json raid5.json raid10.txt raid5.txt compare.txt compare.html; do
	[ ! -e "$outdir/$f" ] || die "$outdir/$f exists; give another -o"
done

# --- everything made is recorded first, and undone on any exit --------------
work= loops= mnt=
cleanup() {
	set +e
	if [ -n "$mnt" ] && mountpoint -q "$mnt"; then
		umount "$mnt" 2>/dev/null || umount -l "$mnt"
	fi
	for l in $loops; do
		losetup -d "$l" 2>/dev/null
	done
	loops=
	[ -z "$work" ] || rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
work=$(mktemp -d "$workdir/thumper.XXXXXX") || die "cannot make a work directory in $workdir"

# --- scale images.f to this machine ------------------------------------------
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
nthreads=$((ncpu * 4))
[ "$nthreads" -le 64 ] || nthreads=64
ncreators=$((ncpu / 2))
[ "$ncreators" -ge 1 ] || ncreators=1
# half the images exist at start, at 128k: 64 MB per 1000 images; 2000
# per CPU, at most 8000, stays well inside RAID10's half of 4 x 2G
nfiles=$((ncpu * 2000))
[ "$nfiles" -le 8000 ] || nfiles=8000
scale="-D nfiles=$nfiles -D nthreads=$nthreads -D ncreators=$ncreators -D runtime=$runtime"

# run_layout PROFILE: make, mount, measure, unmount, detach
run_layout() {
	p=$1
	devs=
	for i in 1 2 3 4; do
		truncate -s "$size" "$work/$p-$i.img"
		# direct I/O to the backing file where it allows it: the host's
		# page cache then holds each block once, not twice
		l=$(losetup -f --show --direct-io=on "$work/$p-$i.img" 2>/dev/null) ||
			l=$(losetup -f --show "$work/$p-$i.img") ||
			die "cannot attach a loop device to $work/$p-$i.img"
		loops="$loops $l"
		devs="$devs $l"
	done
	# shellcheck disable=SC2086 # devs is a list
	mkfs.btrfs -q -f -L "fbrun-$p" -d "$p" -m "$p" $devs >"$work/mkfs.log" 2>&1 ||
		{ cat "$work/mkfs.log" >&2; die "mkfs.btrfs -d $p -m $p failed"; }
	mnt=$work/$p
	mkdir "$mnt"
	opts=
	for l in $devs; do opts="${opts:+$opts,}device=$l"; done
	first=${devs# }
	first=${first%% *}
	mount -t btrfs -o "$opts" "$first" "$mnt" || die "cannot mount the $p file system"
	echo "$me: $p on$devs, mounted on $mnt; running images.f for ${runtime}s, $runs time(s)" >&2
	# shellcheck disable=SC2086 # scale, repeat and defines are lists
	"$fbrun" -q $repeat $scale -D "dir=$mnt/images" $defines \
		-o "$outdir/$p.json" "$script" >"$work/$p.out" ||
		{ cat "$work/$p.out" >&2; die "fbrun failed on $p"; }
	# the layout's own table, as the seed prints "RAID 10 Results"
	{
		echo "$2 Results"
		cat "$work/$p.out"
		echo
	} | tee "$outdir/$p.txt"
	umount "$mnt"
	mnt=
	for l in $devs; do losetup -d "$l"; done
	loops=
	rm -f "$work"/"$p"-?.img
}

run_layout raid10 "RAID10"
run_layout raid5 "RAID5"

"$fbrun" compare "$outdir/raid10.json" "$outdir/raid5.json" | tee "$outdir/compare.txt"
"$fbrun" compare --html "$outdir/compare.html" "$outdir/raid10.json" "$outdir/raid5.json" >/dev/null
echo "$me: results in $outdir (raid10.json, raid5.json, raid10.txt, raid5.txt, compare.txt, compare.html)" >&2
