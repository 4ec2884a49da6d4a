#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# --cache-limit: the run in a memory cgroup of its own, its filesets
# dropped from the page cache first, so reads beyond the bound reach the
# device.  On an ext4 of a loop device of $TMP: a file four times the
# bound read three times over, at least half of those bytes read by the
# device (without the option none are: the file was just written), no
# page-cache note, the JSON's cache_limit, the cgroup gone after the run;
# threads whose buffers add up to more than the bound run all the same
# (they are touched before the process enters the cgroup);
# refused with nothing made where no memory controller is mounted (a
# mount namespace without the cgroup mounts).  Needs root, losetup,
# mkfs.ext4, python3 and a memory cgroup controller.  Facts only: no
# speed is asserted.
. "${srcdir:-.}/tests/lib.sh"


# the options are checked before anything runs, root or not
run_fbrun --cache-limit 8m --parse-only "$srcdir/workloads/images.f"
check "--cache-limit below 16m: a usage error (exit $rc)" test "$rc" -eq 2
grepq "... saying what it expects" "error: --cache-limit expects a size of 16m or more \(k, m, g or t\), got '8m'" "$TMP/err"
run_fbrun --cache-limit lots --parse-only "$srcdir/workloads/images.f"
check "--cache-limit lots: a usage error (exit $rc)" test "$rc" -eq 2

# cgroup_mounts: "TYPE MOUNTPOINT SUPEROPTS" of each cgroup mount
# (mountinfo's fields after the optional ones' "-")
cgroup_mounts() {
	awk '{ for (i = 7; $i != "-"; i++) ;
	       if ($(i + 1) == "cgroup" || $(i + 1) == "cgroup2")
		       print $(i + 1), $5, $(i + 3) }' /proc/self/mountinfo
}
# memory_hierarchy: the directory of the memory controller's cgroups
memory_hierarchy() {
	cgroup_mounts | while read -r type dir opts; do
		if [ "$type" = cgroup2 ] &&
			grep -qw memory "$dir/cgroup.controllers" 2>/dev/null; then
			echo "$dir"
		fi
	done | head -1 | grep . && return 0
	cgroup_mounts | awk '$1 == "cgroup" && $3 ~ /(^|,)memory(,|$)/ { print $2; exit }'
}

why=""
hier=""
if ! $is_root; then
	why="needs root for cgroups, a loop device and mounts"
elif ! command -v losetup >/dev/null 2>&1; then
	why="losetup not found"
elif ! command -v mkfs.ext4 >/dev/null 2>&1; then
	why="mkfs.ext4 not found (apt-get install e2fsprogs)"
elif ! command -v python3 >/dev/null 2>&1; then
	why="python3 not found: no JSON to read"
elif [ ! -r /proc/diskstats ]; then
	why="/proc/diskstats cannot be read"
elif ! hier=$(memory_hierarchy) || [ -z "$hier" ]; then
	why="no memory cgroup controller is mounted"
fi
mnt=$TMP/mnt
[ -n "$why" ] || ext4_on_loop 256M "$mnt" || :
if [ -n "$why" ]; then
	skip "--cache-limit on a device: $why"
	done_testing
	exit
fi

# 64 MiB read three times in 1 MiB reads, the bound 16 MiB; one thread,
# and finishonbytes ends the run after exactly those bytes
cat >"$TMP/read.f" <<F
define fileset name=data,path=$mnt,entries=1,dirwidth=1,size=64m,prealloc
define process name=p { thread name=t {
  flowop read name=rd,filesetname=data,iosize=1m,fd=1
  flowop finishonbytes name=fin,value=192m } }
run 600
F
before=$(ls -d "$hier"/fbrun-* 2>/dev/null | wc -l)
run_fbrun --cache-limit 16m -o "$TMP/cl.json" "$TMP/read.f"
cp "$TMP/out" "$TMP/cl.out"
check "a run with --cache-limit 16m exits 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
grepq "... the log says the bound, the cgroup and the files dropped" \
	"Page cache limited to 16m \(memory cgroup v[12], $hier/fbrun-[0-9]+\); [1-9][0-9]* files written back and dropped from it" "$TMP/cl.out"
read_b=$(json "$TMP/cl.json" "[f for f in r['flowops'] if f['name'] == 'rd'][0]['bytes']")
dev_b=$(json "$TMP/cl.json" "sum(d['read_bytes'] for d in r['disk_stats'])")
check "... the flowop read its 192 MiB ($read_b)" test "$read_b" -eq $((192 << 20))
check "... the device read at least half of them ($dev_b bytes)" \
	test "$dev_b" -ge $((read_b / 2))
if grep -q "reads came mostly from the page cache" "$TMP/cl.out"; then
	fail "... no note that the page cache served the reads"
else
	pass "... no note that the page cache served the reads"
fi
check "... the JSON records the bound, its cgroup and the files dropped" \
	test "$(json "$TMP/cl.json" "r['cache_limit']['bytes'] == 16 << 20 and r['cache_limit']['cgroup'] in ('v1', 'v2') and r['cache_limit']['files_dropped'] >= 1")" = True
check "... its cgroup is gone after the run" \
	test "$(ls -d "$hier"/fbrun-* 2>/dev/null | wc -l)" -eq "$before"
check "... and so is the fileset" test -z "$(ls -A "$mnt" | grep -v lost+found)"

# the threads' buffers are not the page cache: four threads each
# touching a 32 MiB buffer (128 MiB in all) under a 16 MiB bound run,
# twice (--repeat 2), and are not ended by the kernel's OOM killer
cat >"$TMP/bufs.f" <<F
define fileset name=data,path=$mnt,entries=1,dirwidth=1,size=32m,prealloc
define process name=p { thread name=t,memsize=32m,instances=4 {
  flowop read name=rd,filesetname=data,iosize=32m,fd=1
  flowop finishoncount name=fin,target=rd,value=8 } }
run 600
F
run_fbrun --repeat 2 --cache-limit 16m -o "$TMP/bufs.json" "$TMP/bufs.f"
check "4 threads touching 32 MiB buffers each under --cache-limit 16m, --repeat 2: exit 0 (exit $rc)" \
	test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "... both runs bounded" \
	test "$(grep -c 'Page cache limited to 16m' "$TMP/out")" -eq 2
check "... and both ended by their 8 reads" \
	test "$(grep -c 'Run done after .*: flowop fin: 8 operations done' "$TMP/out")" -eq 2
check "... its cgroup is gone after the runs" \
	test "$(ls -d "$hier"/fbrun-* 2>/dev/null | wc -l)" -eq "$before"

# the same run without the bound: the file was just written, the page
# cache holds it, the device reads next to nothing
run_fbrun -o "$TMP/free.json" "$TMP/read.f"
dev0=$(json "$TMP/free.json" "sum(d['read_bytes'] for d in r['disk_stats'])")
check "without --cache-limit the reads stay in the page cache ($dev0 device bytes)" \
	test "$dev0" -lt $((read_b / 2))
check "... and the JSON has no cache_limit" \
	test "$(json "$TMP/free.json" "'cache_limit' in r")" = False

# no memory controller: refused before anything is made, exit 1
if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	cgroup_mounts | awk '{ print $2 }' | sort -r >"$TMP/cgmounts"
	unshare -m sh -c '
		for m in $(cat "$1"); do
			umount -l "$m" || exit 3
		done
		shift
		exec "$@"' sh "$TMP/cgmounts" "$FBRUN" --cache-limit 16m -o "$TMP/none.json" "$TMP/read.f" \
		>"$TMP/out" 2>"$TMP/err" && rc=0 || rc=$?
	check "no memory controller mounted: refused with exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "... saying so" "error: --cache-limit: no memory cgroup controller is mounted" "$TMP/err"
	check "... nothing made in the fileset's directory" \
		test -z "$(ls -A "$mnt" | grep -v lost+found)"
	check "... the JSON says why nothing ran" \
		test "$(json "$TMP/none.json" "r['ended_by'] == 'error' and 'cache-limit' in r['error']")" = True
else
	skip "--cache-limit without a memory controller: no mount namespace (unshare -m)"
fi

done_testing
