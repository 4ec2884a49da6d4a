# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bench/lib.sh -- sourced by the benches that run fbrun on a tmpfs and on
# ext4 over a loop device (ai-au, spec-curves, curve-slo): the file
# systems mounted under a directory of the bench's own, and everything
# taken down again whatever the exit.  The bench sets $me first.
#
#   bench_work DIR           a new directory under DIR, in $work; at exit
#                            (or INT, TERM, HUP: 130) bench_cleanup runs
#   bench_tmpfs NAME SIZE LABEL   a tmpfs of SIZE on $work/NAME
#   bench_loop FILE [OPTION...]   a loop device on FILE in $dev (losetup's
#                            options: --direct-io=on)
#   bench_mkext4 NAME [EXT]  ext4 made anew on $dev (mkfs.ext4 -E EXT, by
#                            default no lazy init left behind) and mounted
#                            on $work/NAME
#   bench_ext4 NAME SIZE     a sparse file of SIZE, a loop device on it with
#                            direct I/O to it, ext4 on that on $work/NAME
#   bench_unmount DIR        unmounted if it is a mount point: retried for
#                            ten seconds (a run's last files may still be
#                            closing), then detached lazily

work='' dev='' bench_img=''
# the mounts made before the loop device (one may hold its file) and after
bench_under='' bench_over=''

# shellcheck disable=SC2154 # $me is the bench's
bench_work() {
	work=$(mktemp -d "$1/${me#bench/}.XXXXXX")
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM HUP
}

# bench_mounted NAME: $work/NAME is to be unmounted at exit
bench_mounted() {
	case " $bench_under $bench_over " in *" $1 "*) return ;; esac
	if [ -z "$dev" ]; then
		bench_under="$1 $bench_under"
	else
		bench_over="$1 $bench_over"
	fi
}

bench_tmpfs() {
	mkdir -p "$work/$1"
	mount -t tmpfs -o size="$2" "$3" "$work/$1"
	bench_mounted "$1"
}

bench_loop() {
	bench_img=$1
	shift
	dev=$(losetup -f --show "$@" "$bench_img")
}

bench_mkext4() {
	mkfs.ext4 -q -F -E "${2:-lazy_itable_init=0,lazy_journal_init=0}" "$dev"
	mkdir -p "$work/$1"
	mount "$dev" "$work/$1"
	bench_mounted "$1"
}

bench_ext4() {
	truncate -s "$2" "$work/$1.img"
	bench_loop "$work/$1.img" --direct-io=on
	bench_mkext4 "$1"
}

bench_unmount() {
	bu_k=0
	while mountpoint -q "$1"; do
		umount "$1" 2>/dev/null && break
		bu_k=$((bu_k + 1))
		if [ "$bu_k" -ge 10 ]; then
			umount -l "$1" 2>/dev/null || :
			break
		fi
		sleep 1
	done
}

# What the bench made goes; then what is left is looked for (a loop
# device on its file, a mount under its directory) and said, and the
# directory is removed only when nothing is mounted in it.
# shellcheck disable=SC2317 # run by the trap
bench_cleanup() {
	rc=$?
	set +e
	trap - EXIT INT TERM HUP
	cd /
	for m in $bench_over; do bench_unmount "$work/$m"; done
	[ -z "$dev" ] || losetup -d "$dev" 2>/dev/null
	left=
	if [ -n "$bench_img" ] && [ -n "$(losetup -j "$bench_img")" ]; then
		sleep 1
		losetup -j "$bench_img" | cut -d: -f1 | while read -r d; do
			losetup -d "$d" 2>/dev/null
		done
		if losetup -j "$bench_img" | grep . >&2; then
			echo "$me: a loop device is still on $bench_img" >&2
			left=1
		fi
	fi
	for m in $bench_under; do bench_unmount "$work/$m"; done
	if grep -F " $work/" /proc/self/mountinfo >&2; then
		echo "$me: still mounted under $work (above); not removed" >&2
		left=1
	fi
	if [ -z "$left" ] && [ -n "$work" ]; then
		rm -rf --one-file-system "$work"
		echo "torn down: no loop device on the file, nothing mounted"
	fi
	exit "$rc"
}
