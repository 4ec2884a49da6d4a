#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# examples/thumper/run.sh at a tiny scale: it prints the RAID10 / RAID5
# comparison and writes the JSON and the HTML, and leaves no loop device,
# mount or work directory behind, whether it succeeds, fails or is killed.
# Without root, losetup, mkfs.btrfs or btrfs in the kernel it skips.
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
	FBRUN=$FBRUN timeout 300 sh "$thumper" -t 2 -r 2 -s 512M -w "$TMP/work" \
		-D nfiles=100 -D nthreads=2 -D ncreators=1 "$@" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
}

why=
$is_root || why="needs root"
[ -n "$why" ] || command -v losetup >/dev/null 2>&1 || why="needs losetup"
[ -n "$why" ] || command -v mkfs.btrfs >/dev/null 2>&1 ||
	why="needs mkfs.btrfs (apt-get install btrfs-progs)"
[ -n "$why" ] || grep -qw btrfs /proc/filesystems || why="the kernel has no btrfs"
[ -n "$why" ] || losetup -f >/dev/null 2>&1 || why="no free loop device"

# the refusal needs no privileges to test, only a user to drop to; the
# script goes where that user can read it, as a checkout under /root is not
if as_nobody; then
	mkdir -p "$TMP/pub/thumper"
	cp "$thumper" "$TMP/pub/thumper/run.sh"
	chmod -R a+rX "$TMP/pub"
	rc=0
	FBRUN=$UFBRUN $as_user sh "$TMP/pub/thumper/run.sh" -o "$TMP/nobody" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "not root: exits 1 (exit $rc)" test "$rc" -eq 1
	grepq "not root: says it needs root" "^thumper: needs root" "$TMP/err"
else
	skip "the not-root refusal: $why_not"
	skip "the not-root refusal's message: $why_not"
fi

if [ -n "$why" ]; then
	skip "thumper example: $why"
	done_testing
	exit 0
fi
mkdir "$TMP/work"

th -o "$TMP/res"
if [ "$rc" -eq 0 ]; then
	pass "run.sh exits 0"
else
	fail "run.sh exits 0 (exit $rc)"
	diag <"$TMP/err"
fi
grepq "each layout's own table: RAID10 Results" '^RAID10 Results$' "$TMP/out"
grepq "... and RAID5 Results" '^RAID5 Results$' "$TMP/out"
grepq "... of 2 runs each (-r 2)" '^Per-Operation Breakdown, mean of 2 runs' "$TMP/out"
grepq "the comparison has a raid10 and a raid5 group" \
	'^ops/s +raid10 \(2\) +raid5 \(2\) +ratio \[95% interval\] +p +verdict$' "$TMP/out"
grepq "with each flowop's ratio to raid10 and a verdict" \
	'^readfile2 +[0-9.]+ \+- [0-9.]+ +[0-9.]+ \+- [0-9.]+ +[0-9.]+x \[[0-9.]+, ([0-9.]+|inf)\] +[0-9.e-]+ +(significant|within noise)$' "$TMP/out"
grepq "both file systems were btrfs" \
	'raid10: 2 runs from .*btrfs on .*/raid10\)$' "$TMP/out"
grepq "each run in a table, named after its layout" \
	'^  raid5#2 +.*images\.f, btrfs on .*/raid5, ' "$TMP/out"
grepq "the variable that differs, each layout's value" \
	'^  \$dir: raid10: .*/raid10/images \| raid5: .*/raid5/images$' "$TMP/out"
# the README shows what the script prints by default: the same headings
readme=$srcdir/examples/thumper/README.md
sed -n 's/^    //p' "$readme" >"$TMP/shown"
for h in '^RAID10 Results$' '^Per-Operation Breakdown, mean of [0-9]+ runs' \
	"^Groups \(raid5 against raid10; 95% intervals, Welch's t-test at the 5% level\):$" \
	'^Runs:$' '^Variables that differ:$' \
	'^(ops/s|mb/s|ms/op|p99 ms) +raid10 \([0-9]+\) +raid5 \([0-9]+\) +ratio \[95% interval\] +p +verdict$'; do
	n=$(grep -Ec "$h" "$TMP/out" || :)
	check "README and run.sh: '$h' as often ($n)" \
		test "$n" -gt 0 -a "$(grep -Ec "$h" "$TMP/shown" || :)" -eq "$n"
done
for f in raid10.json raid5.json raid10.txt raid5.txt compare.txt; do
	check "it wrote $f" test -s "$TMP/res/$f"
done
check "it wrote the HTML page with charts" grep -q '<svg' "$TMP/res/compare.html"
check "nothing left: loop devices, mounts, work files" leftovers
diag <"$TMP/left"

# a failing fbrun (no thread instances) after the loops and mount exist
th -o "$TMP/res2" -D nthreads=0
check "fbrun failing: run.sh exits non-zero" test "$rc" -ne 0
grepq "fbrun failing: says so" "^thumper: fbrun failed on raid10" "$TMP/err"
check "fbrun failing: nothing left" leftovers
diag <"$TMP/left"

# SIGTERM to the script and its fbrun while a file system is mounted
if command -v setsid >/dev/null 2>&1; then
	rm -f "$TMP/out" "$TMP/err" # not a previous run's output
	FBRUN=$FBRUN setsid sh "$thumper" -t 60 -s 512M -w "$TMP/work" \
		-o "$TMP/res3" -D nfiles=100 -D nthreads=2 -D ncreators=1 \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	n=0
	while ! grep -qF "$TMP/work" /proc/mounts && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	sleep 1
	kill -TERM -"$pid" 2>/dev/null || kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	check "SIGTERM while mounted: exits non-zero ($rc)" test "$rc" -ne 0
	check "SIGTERM while mounted: nothing left" leftovers
	diag <"$TMP/left"
else
	skip "SIGTERM cleanup: needs setsid"
fi
done_testing
