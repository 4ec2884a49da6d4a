#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The Thumper "images" comparison (ZFS mirrors against RAIDZ) on this
# machine: builds each storage layout asked for (ZFS pools, md arrays with
# a file system on top, btrfs multi-device file systems) on the devices
# given, or on sparse loop files, runs workloads/images.f on each with a
# bounded page cache, and prints each layout's table, the usable capacity
# of each and `fbrun compare` of the layouts.  Every pool, array, mount,
# loop device and work file it makes is undone on every way out; it
# touches no device it was not given.  README.md says more.
set -eu

me=thumper
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

usage() {
	cat <<'EOF'
usage: run.sh [options] [--devices DEV...]
  --layouts L,L,...  layouts to build, in order (default btrfs-raid10,btrfs-raid5):
                     zfs-mirror zfs-raidz1 zfs-raidz2 md-raid10 md-raid5
                     md-raid6 btrfs-raid10 btrfs-raid5 btrfs-raid6 btrfs-raid1
  --devices DEV...   build them on these disks or partitions (all of them, one
                     layout after another) instead of 4 sparse loop files;
                     a device with a signature is refused, one in use always
  --force            wipe the devices' signatures (wipefs -a) instead of refusing
  --md-fs ext4|xfs   file system made on the md arrays (default ext4)
  --dry-run          print every command it would run, and run none
  --seed-scale       the seed's own parameters: 25,000 images of up to 1 MB,
                     100 web server threads, 2 then 20 uploaders, with and
                     without fsync, 1200 s each (hours: see README.md)
  --bonnie           also run fbrun bonnie on each layout and print its table
  --opennext         images.f as written: each web server thread walks the
                     images in the same order, most reads served from memory
                     (by default the threads share the walk: see README.md)
  --cache-limit SIZE fbrun --cache-limit (default: an eighth of the image set
                     plus 1 MiB per thread, 16m at least); 'off' for none
  --warmup SECONDS   fbrun --warmup before each run (default 10, seed scale 60)
  -t SECONDS         seconds per run (default 45, seed scale 1200)
  -r RUNS            runs per layout and phase (default 3; fbrun --repeat)
  -s SIZE            size of each of the 4 sparse loop files (default 2G,
                     seed scale 32G); not with --devices
  -o OUTDIR          results (default: a new thumper-DATE directory here)
  -w WORKDIR         where the work directory goes ($TMPDIR, else /var/tmp)
  -D NAME=VALUE      passed to fbrun after its scaling, so it wins
  -h, --help         this text
EOF
}

die() { echo "$me: $*" >&2; exit 1; }
refuse() { echo "$me: $*" >&2; exit 2; }

# --- the layouts: one table --------------------------------------------------
ALL_LAYOUTS="zfs-mirror zfs-raidz1 zfs-raidz2 md-raid10 md-raid5 md-raid6 btrfs-raid10 btrfs-raid5 btrfs-raid6 btrfs-raid1"
# layout_info NAME: stack (zfs, md or btrfs), level in the tool's words,
# min devices (parity layouts: two data devices per stripe at least)
layout_info() {
	case $1 in
	zfs-mirror) stack=zfs level=mirror min=2 ;;
	zfs-raidz1) stack=zfs level=raidz1 min=3 ;;
	zfs-raidz2) stack=zfs level=raidz2 min=4 ;;
	md-raid10) stack=md level=10 min=4 ;;
	md-raid5) stack=md level=5 min=3 ;;
	md-raid6) stack=md level=6 min=4 ;;
	btrfs-raid10) stack=btrfs level=raid10 min=4 ;;
	btrfs-raid5) stack=btrfs level=raid5 min=3 ;;
	btrfs-raid6) stack=btrfs level=raid6 min=4 ;;
	btrfs-raid1) stack=btrfs level=raid1 min=2 ;;
	*) return 1 ;;
	esac
}

# did_you_mean WORD: the layouts within an edit distance of 3, else all
did_you_mean() {
	echo "$ALL_LAYOUTS" | tr ' ' '\n' | awk -v w="$1" '
	function dist(a, b,   i, j, la, lb, d, c) {
		la = length(a); lb = length(b)
		for (i = 0; i <= la; i++) d[i, 0] = i
		for (j = 0; j <= lb; j++) d[0, j] = j
		for (i = 1; i <= la; i++)
			for (j = 1; j <= lb; j++) {
				c = d[i - 1, j - 1] + (substr(a, i, 1) != substr(b, j, 1))
				if (d[i - 1, j] + 1 < c) c = d[i - 1, j] + 1
				if (d[i, j - 1] + 1 < c) c = d[i, j - 1] + 1
				d[i, j] = c
			}
		return d[la, lb]
	}
	{ all = all (all ? ", " : "") $0
	  if (dist(w, $0) <= 3 || index($0, w) || index(w, $0)) near = near (near ? ", " : "") $0 }
	END { print (near ? near : all) }'
}

# --- options: getopts with '-:' takes the long ones too ------------------------
runtime='' runs=3 size='' outdir='' workdir=${TMPDIR:-/var/tmp} defines=''
layouts='' devices='' force=false dry=false seedscale=false bonnie=false
opennext=false
cachelimit='' warmup='' mdfs=ext4 want_devices=false
# optval ARGS: the long option's value, after '=' or the next argument
# (then $adv is 1: the caller moves OPTIND, as dash keeps a function's
# getopts state apart)
optval() {
	case $OPTARG in
	*=*) val=${OPTARG#*=} adv=0 ;;
	*)
		eval "val=\${$OPTIND-}"
		[ -n "$val" ] || refuse "--$OPTARG needs a value"
		adv=1
		;;
	esac
}
while [ $# -gt 0 ]; do
	OPTIND=1
	while getopts t:r:s:o:w:D:h-: opt; do
		case $opt in
		t) runtime=$OPTARG ;;
		r) runs=$OPTARG ;;
		s) size=$OPTARG ;;
		o) outdir=$OPTARG ;;
		w) workdir=$OPTARG ;;
		D) case $OPTARG in
		   [A-Za-z_]*=*) ;;
		   *) refuse "-D expects NAME=VALUE, got '$OPTARG'" ;;
		   esac
		   defines="$defines -D $OPTARG" ;;
		h) usage; exit 0 ;;
		-) adv=0
		   case ${OPTARG%%=*} in
		   layouts) optval "$@"; layouts="$layouts $(echo "$val" | tr ',' ' ')" ;;
		   devices) want_devices=true
			    case $OPTARG in
			    *=*) devices="$devices $(echo "${OPTARG#*=}" | tr ',' ' ')" ;;
			    esac ;;
		   force) force=true ;;
		   dry-run) dry=true ;;
		   seed-scale) seedscale=true ;;
		   bonnie) bonnie=true ;;
		   opennext) opennext=true ;;
		   md-fs) optval "$@"; mdfs=$val ;;
		   cache-limit) optval "$@"; cachelimit=$val ;;
		   warmup) optval "$@"; warmup=$val ;;
		   help) usage; exit 0 ;;
		   *) refuse "unknown option --$OPTARG (see --help)" ;;
		   esac
		   [ "$adv" -eq 0 ] || OPTIND=$((OPTIND + 1)) ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	# operands: the devices after --devices, then maybe more options
	while [ $# -gt 0 ]; do
		case $1 in
		--) shift ;;
		-*) break ;;
		*) $want_devices || refuse "'$1': an operand without --devices"
		   devices="$devices $1"
		   shift ;;
		esac
	done
done

case $runs in '' | *[!0-9]* | 0) refuse "-r expects 1 or more runs" ;; esac
case $mdfs in ext4 | xfs) ;; *) refuse "--md-fs expects ext4 or xfs, got '$mdfs'" ;; esac
if $seedscale; then
	: "${runtime:=1200}" "${warmup:=60}"
	defsize=32G
else
	: "${runtime:=45}" "${warmup:=10}"
	defsize=2G
fi
case $runtime in '' | *[!0-9]* | 0) refuse "-t expects seconds" ;; esac
case $warmup in '' | *[!0-9]*) refuse "--warmup expects seconds (0 for none)" ;; esac
if [ -n "$devices" ]; then
	[ -z "$size" ] || refuse "-s sizes loop files; with --devices the devices are used whole"
else
	$want_devices && refuse "--devices needs at least one device"
	: "${size:=$defsize}"
	case $size in '' | *[!0-9KMGTkmgt]* | [!0-9]*) refuse "-s expects a size like 2G" ;; esac
fi
[ -n "${layouts# }" ] || layouts="btrfs-raid10 btrfs-raid5"
layouts=${layouts# }
seen=
for l in $layouts; do
	layout_info "$l" || refuse "unknown layout '$l'; did you mean: $(did_you_mean "$l")?"
	case " $seen " in *" $l "*) refuse "layout $l given twice" ;; esac
	seen="$seen $l"
done

# each layout gets all the devices given, else 4 loop files
ndev=4
[ -z "$devices" ] || ndev=$(echo "$devices" | wc -w)
for l in $layouts; do
	layout_info "$l"
	[ "$ndev" -ge "$min" ] || refuse "$l needs $min devices at least, $ndev given"
	if [ "$level" = mirror ] && [ $((ndev % 2)) -ne 0 ]; then
		refuse "$l pairs the devices: an even count, $ndev given"
	fi
done

# --- sizes: the image set and the page cache bound -----------------------------
# to_bytes SIZE: 128k, 1m, 2G... in bytes
to_bytes() {
	echo "$1" | awk '{ n = $0 + 0; u = tolower(substr($0, length($0)))
		m = u == "k" ? 1024 : u == "m" ? 1048576 : u == "g" ? 1073741824 : u == "t" ? 1099511627776 : 1
		printf "%.0f\n", n * m }'
}
# define_value NAME DEFAULT: the last -D NAME=... given, else DEFAULT
define_value() {
	v=$2
	for d in $defines; do
		case $d in "$1"=*) v=${d#*=} ;; esac
	done
	echo "$v"
}
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if $seedscale; then
	# the seed: 25,000 images present (images.f preallocates half of
	# nfiles), up to 1 MB each, read in 64 KB blocks by 100 threads
	scale="-D nfiles=50000 -D filesize=1m -D readiosize=64k -D nthreads=100"
	phases="c2-fsync c20-fsync c2-nofsync c20-nofsync"
	nfiles=50000 filesize=1m nthreads=100
else
	# 4 web server threads per CPU (at most 64), one uploader per two
	# CPUs, 2000 images per CPU (at most 8000; half exist at the start)
	nthreads=$((ncpu * 4))
	[ "$nthreads" -le 64 ] || nthreads=64
	ncreators=$((ncpu / 2))
	[ "$ncreators" -ge 1 ] || ncreators=1
	nfiles=$((ncpu * 2000))
	[ "$nfiles" -le 8000 ] || nfiles=8000
	filesize=128k
	scale="-D nfiles=$nfiles -D nthreads=$nthreads -D ncreators=$ncreators"
	phases=images
fi
nfiles=$(define_value nfiles "$nfiles")
filesize=$(define_value filesize "$filesize")
nthreads=$(define_value nthreads "$nthreads")
setbytes=$(($(to_bytes "$filesize") * (nfiles / 2)))
if [ -z "$cachelimit" ]; then
	mib=$(((setbytes / 8 + (nthreads + 2) * 1048576 + 1048575) / 1048576))
	[ "$mib" -ge 16 ] || mib=16
	cachelimit=${mib}m
fi
if [ "$cachelimit" = off ]; then
	climit=
else
	case $cachelimit in '' | *[!0-9kmgtKMGT]* | [!0-9]*) refuse "--cache-limit expects a size like 64m, or off" ;; esac
	climit="--cache-limit $cachelimit"
	[ "$setbytes" -ge $(($(to_bytes "$cachelimit") * 2)) ] ||
		echo "$me: warning: the image set ($setbytes bytes) is not twice the cache limit ($cachelimit): reads may come from memory" >&2
fi
repeat=
[ "$runs" -eq 1 ] || repeat="--repeat $runs"
wu=
[ "$warmup" -eq 0 ] || wu="--warmup $warmup"

# --- commands: run, or printed by --dry-run -------------------------------------
# q ARG...: the arguments as one shell command line, quoted where needed
q() {
	out=
	for a in "$@"; do
		# shellcheck disable=SC2016 # the dry run's placeholders
		case $a in
		*'$LOOP'* | *'$WORK'*) a="\"$a\"" ;;
		'' | *[!A-Za-z0-9_./=,:+@%-]*) a="'$(printf %s "$a" | sed "s/'/'\\\\''/g")'" ;;
		esac
		out="${out:+$out }$a"
	done
	printf '%s\n' "$out"
}
# x CMD...: run it (its output to the log), or print it in a dry run
x() {
	if $dry; then
		q "$@"
	else
		"$@" >"$work/cmd.log" 2>&1 || {
			cat "$work/cmd.log" >&2
			die "failed: $(q "$@")"
		}
	fi
}
# xq CMD...: as x, and failure is ignored (teardown)
xq() {
	if $dry; then q "$@"; else "$@" >/dev/null 2>&1 || :; fi
}

# --- what each stack needs: why it is missing, and the package -------------------
# support STACK: 0 when this machine can build it, else 1 with $why set
support() {
	why=
	case $1 in
	zfs)
		if ! command -v zpool >/dev/null 2>&1; then
			why="zpool not found: apt-get install zfsutils-linux"
		elif [ ! -d /sys/module/zfs ] && { $dry || ! modprobe zfs 2>/dev/null; }; then
			why="the kernel has no zfs module (modprobe zfs failed): apt-get install zfs-dkms"
		fi ;;
	md)
		if ! command -v mdadm >/dev/null 2>&1; then
			why="mdadm not found: apt-get install mdadm"
		elif [ ! -e /proc/mdstat ] && { $dry || ! modprobe md_mod 2>/dev/null; }; then
			why="the kernel has no md (/proc/mdstat absent, modprobe md_mod failed)"
		elif ! command -v "mkfs.$mdfs" >/dev/null 2>&1; then
			if [ "$mdfs" = xfs ]; then why="mkfs.xfs not found: apt-get install xfsprogs"
			else why="mkfs.ext4 not found: apt-get install e2fsprogs"; fi
		fi ;;
	btrfs)
		if ! command -v mkfs.btrfs >/dev/null 2>&1; then
			why="mkfs.btrfs not found: apt-get install btrfs-progs"
		elif ! grep -qw btrfs /proc/filesystems 2>/dev/null &&
			{ $dry || ! modprobe btrfs 2>/dev/null; }; then
			why="the kernel has no btrfs (not in /proc/filesystems, modprobe btrfs failed)"
		fi ;;
	esac
	[ -z "$why" ]
}
# md_personality LEVEL: the kernel's md has that RAID level
md_personality() {
	case $1 in 10) mod=raid10 ;; *) mod=raid456 ;; esac
	grep -q "raid$1" /proc/mdstat 2>/dev/null || modprobe "$mod" 2>/dev/null
	grep -q "raid$1" /proc/mdstat 2>/dev/null
}

# --- the devices given: checked as fbrun checks a device fileset -------------------
# dev_busy DEV NAME: why the device is in use (mounted, swap, held), if it is
dev_busy() {
	sys=/sys/class/block/$2
	for n in "$2" $(cd "$sys" && for p in *; do [ -e "$p/partition" ] && echo "$p"; done); do
		mm=$(cat "/sys/class/block/$n/dev")
		m=$(awk -v mm="$mm" '$3 == mm { print $5; exit }' /proc/self/mountinfo)
		[ -z "$m" ] || { echo "/dev/$n is mounted on $m"; return 0; }
		if awk 'NR > 1 { print $1 }' /proc/swaps | while read -r s; do
			[ "$(readlink -f "$s")" != "/dev/$n" ] || exit 1
		done; then :; else echo "/dev/$n is swap"; return 0; fi
		h=$(find "/sys/class/block/$n/holders" -mindepth 1 -maxdepth 1 -printf '%f ' 2>/dev/null)
		[ -z "$h" ] || { echo "/dev/$n is held by ${h% } (device mapper, md or the like)"; return 0; }
	done
	# what the kernel holds open exclusively (a btrfs member, a zfs vdev)
	if ! wipefs -n "$1" >/dev/null 2>"$work/wipefs.err"; then
		echo "wipefs cannot open it: $(head -1 "$work/wipefs.err")"
		return 0
	fi
	return 1
}
check_devices() {
	command -v wipefs >/dev/null 2>&1 || die "needs wipefs (util-linux) to check the devices"
	mms='' names='' parents=''
	for d in $devices; do
		[ -b "$d" ] || refuse "$d: not a block device"
		name=$(basename "$(readlink -f "$d")")
		[ -e "/sys/class/block/$name/dev" ] || refuse "$d: not in /sys/class/block"
		mm=$(cat "/sys/class/block/$name/dev")
		case " $mms " in *" $mm "*) refuse "$d: given twice (device $mm)" ;; esac
		mms="$mms $mm"
		# a disk and one of its partitions: the same blocks twice
		parent=$name
		[ ! -e "/sys/class/block/$name/partition" ] ||
			parent=$(basename "$(dirname "$(readlink -f "/sys/class/block/$name")")")
		case " $names " in *" $parent "*) refuse "$d: a partition of a disk given too" ;; esac
		case " $parents " in *" $name "*) refuse "$d: a disk one of whose partitions is given too" ;; esac
		names="$names $name" parents="$parents $parent"
		if busy=$(dev_busy "$d" "$name"); then
			refuse "$d is in use, refused even with --force: $busy"
		fi
		sig=$(wipefs -n --noheadings --output TYPE "$d" 2>/dev/null | sort -u | tr '\n' ' ')
		if [ -n "$sig" ] && ! $force; then
			refuse "$d holds ${sig% } (wipefs -n $d lists it); --force wipes it"
		fi
	done
}
# raw_bytes DEV...: the devices' total size
raw_bytes() {
	t=0
	for d in "$@"; do
		n=$(basename "$(readlink -f "$d")")
		t=$((t + $(cat "/sys/class/block/$n/size") * 512))
	done
	echo "$t"
}

# --- the summary's format: one place --------------------------------------------
capacity_heading="Usable capacity:"
# capacity_line LAYOUT USABLE RAW (bytes)
capacity_line() {
	awk -v n="$1" -v u="$2" -v r="$3" 'BEGIN {
		printf "  %-14s %.2f GiB of %.2f GiB raw (%d%%): %.0f of %.0f bytes\n",
			n, u / 1073741824, r / 1073741824, r ? 100 * u / r + 0.5 : 0, u, r }'
}

# --- fbrun, the script, the output directory ---------------------------------------
if [ -n "${FBRUN:-}" ]; then
	fbrun=$FBRUN
elif command -v fbrun >/dev/null 2>&1; then
	fbrun=$(command -v fbrun)
elif [ -x "$top/fbrun" ]; then
	fbrun=$top/fbrun
elif [ -x "$top/build/fbrun" ]; then
	fbrun=$top/build/fbrun
elif $dry; then
	fbrun=fbrun
else
	die "no fbrun: set FBRUN, put fbrun in PATH, or build it in $top/build"
fi
$dry || [ -x "$fbrun" ] || die "FBRUN '$fbrun' is not an executable"
images=$top/workloads/images.f
[ -r "$images" ] || images='' # then the copy installed with fbrun
# fbrun bonnie's phase scripts: the source tree's beside images.f
if [ -z "${FBRUN_WORKLOADS:-}" ] && [ -d "$top/workloads/bonnie" ]; then
	FBRUN_WORKLOADS=$top/workloads
	export FBRUN_WORKLOADS
fi
[ -n "$outdir" ] || outdir=./thumper-$(date +%Y%m%d-%H%M%S)

if $dry; then
	echo "# $me --dry-run: the commands a run would make, none made"
	[ -z "$devices" ] || echo "# the devices are checked first (mounted, swap, holders, wipefs -n): not in a dry run"
else
	[ "$(id -u)" -eq 0 ] || die "needs root (devices, pools, arrays, mounts); run it with sudo"
	if [ -z "$devices" ]; then
		command -v losetup >/dev/null 2>&1 || die "needs losetup (util-linux)"
		[ -e /dev/loop-control ] || modprobe loop 2>/dev/null ||
			die "no loop device support (/dev/loop-control is missing)"
	fi
	mkdir -p "$outdir"
	for f in images.f images-nofsync.f capacity.txt compare.txt; do
		[ ! -e "$outdir/$f" ] || die "$outdir/$f exists; give another -o"
	done
	for l in $layouts; do
		for p in $phases; do
			f=$outdir/$l.json
			[ "$phases" = images ] || f=$outdir/$p/$l.json
			[ ! -e "$f" ] || die "$f exists; give another -o"
		done
	done
fi

# --- everything made is recorded first, and undone on any exit ---------------------
work='' loops='' mnt='' pool='' md='' made_on='' child=''
# teardown: the current layout's mount, pool or array, then the labels
# it wrote on its devices (given ones only: $made_on)
teardown() {
	if [ -n "$child" ]; then
		kill -TERM "$child" 2>/dev/null && wait "$child" 2>/dev/null
		child=
	fi
	# zpool destroy unmounts the pool's file system itself
	if [ -n "$mnt" ] && [ -z "$pool" ] && { $dry || mountpoint -q "$mnt"; }; then
		xq umount "$mnt"
		$dry || ! mountpoint -q "$mnt" || umount -l "$mnt" 2>/dev/null
	fi
	mnt=
	if [ -n "$pool" ]; then
		xq zpool destroy -f "$pool"
		for d in $made_on; do xq zpool labelclear -f "$d"; done
	fi
	pool=
	if [ -n "$md" ]; then
		xq mdadm --stop "$md"
		# shellcheck disable=SC2086 # made_on is a list
		xq mdadm --zero-superblock $made_on
	fi
	md=
	for d in $made_on; do xq wipefs -a -q "$d"; done
	made_on=
}
cleanup() {
	set +e
	teardown
	for l in $loops; do losetup -d "$l" 2>/dev/null; done
	loops=
	[ -z "$work" ] || rm -rf --one-file-system "$work"
}
if $dry; then
	# shellcheck disable=SC2016 # a placeholder, as the loop devices'
	work='$WORK'
	echo "WORK=\$(mktemp -d $(q "$workdir/thumper.XXXXXX"))"
else
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	mkdir -p "$workdir"
	work=$(mktemp -d "$workdir/thumper.XXXXXX") || die "cannot make a work directory in $workdir"
	[ -z "$devices" ] || check_devices
fi


# attach_loops LAYOUT: 4 sparse files, 4 loop devices, in $devs
attach_loops() {
	devs=
	for i in 1 2 3 4; do
		f=$work/$1-$i.img
		if $dry; then
			q truncate -s "$size" "$f"
			echo "LOOP$i=\$(losetup -f --show --direct-io=on $(q "$f"))"
			devs="$devs \$LOOP$i"
			continue
		fi
		truncate -s "$size" "$f"
		# direct I/O to the backing file where it allows it: the host's
		# page cache then holds each block once, not twice
		d=$(losetup -f --show --direct-io=on "$f" 2>/dev/null) ||
			d=$(losetup -f --show "$f") || die "cannot attach a loop device to $f"
		loops="$loops $d"
		devs="$devs $d"
	done
	devs=${devs# }
}
detach_loops() {
	for d in $devs; do xq losetup -d "$d"; done
	loops=
	$dry || rm -f "$work/$1"-?.img
}

# build LAYOUT: the pool, array or file system on $devs, mounted on $mnt;
# its usable bytes in $usable
build() {
	mnt=$work/$1
	x mkdir "$mnt"
	if [ -n "$devices" ] && $force; then
		for d in $devs; do x wipefs -a -q "$d"; done
	fi
	[ -z "$devices" ] || made_on=$devs
	case $stack in
	zfs)
		pool='fbrun-thumper'
		if ! $dry && zpool list -H "$pool" >/dev/null 2>&1; then
			pool=
			die "a pool named fbrun-thumper exists already; not touched"
		fi
		vdevs=
		if [ "$level" = mirror ]; then
			# shellcheck disable=SC2086 # devs is a list
			set -- $devs
			while [ $# -gt 0 ]; do vdevs="$vdevs mirror $1 $2"; shift 2; done
		else
			vdevs="$level $devs"
		fi
		# shellcheck disable=SC2086 # vdevs is a list
		x zpool create -f -m "$mnt" -O atime=off "$pool" $vdevs
		if $dry; then
			q zfs list -Hp -o used,avail "$pool"
		else
			usable=$(zfs list -Hp -o used,avail "$pool" | awk '{ print $1 + $2 }')
		fi ;;
	md)
		md=/dev/md/fbrun-thumper
		[ -e "$md" ] && ! $dry && { md=; die "/dev/md/fbrun-thumper exists already; not touched"; }
		# --assume-clean: no initial resync competing with the runs (the
		# parity of never-written stripes does not matter to a benchmark)
		# shellcheck disable=SC2086 # devs is a list
		x mdadm --create "$md" --run --metadata=1.2 --assume-clean \
			--level="$level" --raid-devices="$(echo "$devs" | wc -w)" $devs
		if [ "$mdfs" = xfs ]; then x mkfs.xfs -f -q "$md"; else x mkfs.ext4 -F -q "$md"; fi
		x mount -t "$mdfs" -o noatime "$md" "$mnt"
		if $dry; then
			q df -B1 --output=size "$mnt"
		else
			usable=$(df -B1 --output=size "$mnt" | tail -1 | tr -d ' ')
		fi ;;
	btrfs)
		# shellcheck disable=SC2086 # devs is a list
		x mkfs.btrfs -f -q -L fbrun-thumper -d "$level" -m "$level" $devs
		opts=
		for d in $devs; do opts="${opts:+$opts,}device=$d"; done
		x mount -t btrfs -o "noatime,$opts" "${devs%% *}" "$mnt"
		if $dry; then
			q btrfs filesystem usage -b "$mnt"
		else
			usable=$(btrfs filesystem usage -b "$mnt" | awk '
				/^ *Used:/ && !u { u = $2 }
				/^ *Free \(estimated\):/ { f = $3 }
				END { print u + f }')
		fi ;;
	esac
}

# measure LAYOUT: each phase's fbrun run on $mnt, its table on stdout
measure() {
	lay=$1
	for p in $phases; do
		case $p in
		images) res=$outdir/$lay.json s=$outdir/images.f phase= ;;
		*) n=${p%%-*}
		   res=$outdir/$p/$lay.json phase="-D ncreators=${n#c}" s=$outdir/images.f
		   case $p in *-nofsync) s=$outdir/images-nofsync.f ;; esac
		   $dry || mkdir -p "$outdir/$p" ;;
		esac
		# shellcheck disable=SC2086 # the option sets are lists
		set -- "$fbrun" -q $repeat $wu $climit --keep $scale $phase \
			-D "runtime=$runtime" -D "dir=$mnt/images" $defines -o "$res" "$s"
		if $dry; then
			q "$@"
			continue
		fi
		echo "$me: $lay${phase:+ ($p)} on $devs: images.f for ${warmup}s + ${runtime}s, $runs time(s)" >&2
		"$@" >"$work/run.out" 2>"$work/run.err" &
		child=$!
		rc=0
		wait "$child" || rc=$?
		child=
		[ "$rc" -eq 0 ] || {
			cat "$work/run.out" "$work/run.err" >&2
			die "fbrun failed on $lay${phase:+ ($p)}"
		}
		cat "$work/run.err" >&2
		{
			echo "$lay Results${phase:+ ($p)}"
			cat "$work/run.out"
			echo
		} | tee "${res%.json}.txt"
	done
	if $bonnie; then
		# bonnie++'s rule: a file of twice the memory it is given
		mb=256
		[ -z "$climit" ] || mb=$(($(to_bytes "$cachelimit") / 1048576))
		set -- "$fbrun" bonnie -d "$mnt/bonnie" -s $((mb * 2)) -r "$mb" -n 1 -m "$lay"
		if $dry; then
			q mkdir "$mnt/bonnie"
			q "$@"
			return
		fi
		mkdir "$mnt/bonnie"
		echo "$me: $lay bonnie on $devs: -s $((mb * 2)) -r $mb -n 1" >&2
		"$@" >"$work/bonnie.out" 2>"$work/bonnie.err" &
		child=$!
		rc=0
		wait "$child" || rc=$?
		child=
		[ "$rc" -eq 0 ] || {
			cat "$work/bonnie.out" "$work/bonnie.err" >&2
			die "fbrun bonnie failed on $lay"
		}
		{
			echo "$lay bonnie++"
			cat "$work/bonnie.out"
			echo
		} | tee "$outdir/$lay-bonnie.txt"
	fi
}

# --- the script run, kept with the results ---------------------------------------------
# images.f's web servers open with opennext: each thread walks the
# images in the same order from the first, so the threads read close
# behind one another and most reads find the pages another just read.
# Without it they share one walk (each thread its own run of images),
# each image is read once a pass, and a pass over a set larger than the
# cache limit reads from the devices.
if $opennext; then set -- cat; else set -- sed 's/,opennext,/,/'; fi
if $dry; then
	if [ -n "$images" ]; then
		echo "$(q "$@" "$images") >$(q "$outdir/images.f")"
	else
		echo "$(q "$fbrun" --show images) | $(q "$@") >$(q "$outdir/images.f")"
	fi
	! $seedscale || echo "$(q sed '/flowop fsync /d' "$outdir/images.f") >$(q "$outdir/images-nofsync.f")"
else
	if [ -n "$images" ]; then cat "$images"; else "$fbrun" --show images; fi |
		"$@" >"$outdir/images.f"
	$opennext || ! grep -q opennext "$outdir/images.f" ||
		die "images.f has an opennext this script cannot take out"
	! $seedscale || sed '/flowop fsync /d' "$outdir/images.f" >"$outdir/images-nofsync.f"
fi

# --- each layout in turn --------------------------------------------------------------
done_layouts='' summary=''
for l in $layouts; do
	layout_info "$l"
	if ! support "$stack"; then
		if $dry; then
			echo "# $l: skipped on this machine: $why"
		else
			echo "$me: $l skipped: $why" >&2
			continue
		fi
	fi
	if [ "$stack" = md ] && ! $dry && ! md_personality "$level"; then
		echo "$me: $l skipped: the kernel's md has no raid$level (modprobe failed)" >&2
		continue
	fi
	$dry && echo "# $l"
	if [ -n "$devices" ]; then
		devs=${devices# }
	else
		attach_loops "$l"
	fi
	# shellcheck disable=SC2086 # devs is a list
	$dry || raw=$(raw_bytes $devs)
	usable=
	build "$l"
	measure "$l"
	$dry || summary="$summary$(capacity_line "$l" "$usable" "$raw")
"
	teardown
	[ -n "$devices" ] || detach_loops "$l"
	done_layouts="$done_layouts $l"
done
done_layouts=${done_layouts# }

# --- the summary and the comparison -------------------------------------------------------
[ -n "$done_layouts" ] || die "no layout could be built here (see above)"
if ! $dry; then
	{
		echo "$capacity_heading"
		printf %s "$summary"
		echo
	} | tee "$outdir/capacity.txt"
fi
# shellcheck disable=SC2086 # a list
set -- $done_layouts
if [ $# -lt 2 ]; then
	if $dry; then q rm -rf "$work"; else echo "$me: one layout, nothing to compare; results in $outdir" >&2; fi
	exit 0
fi
for p in $phases; do
	d=$outdir
	[ "$p" = images ] || d=$outdir/$p
	files=
	for l in $done_layouts; do files="$files $d/$l.json"; done
	if $dry; then
		# shellcheck disable=SC2086 # files is a list
		q "$fbrun" compare $files
		continue
	fi
	[ "$p" = images ] || echo "Phase $p:"
	# shellcheck disable=SC2086 # files is a list
	"$fbrun" compare $files | tee "$d/compare.txt"
	# shellcheck disable=SC2086
	"$fbrun" compare --html "$d/compare.html" $files >/dev/null
done
if $dry; then q rm -rf "$work"; else echo "$me: results in $outdir" >&2; fi
