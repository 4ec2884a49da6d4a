#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The SPECstorage-style workloads (workloads/spec/) and the image pull
# (workloads/imagepull.f): a business metric is a fixed set of rated
# threads, so the load offered grows with it; fbrun curve over the
# business metric reports the most that met the objective; one pull
# does the fitted layer's operations once.  tests/workloads-run.sh runs
# each at tiny scale; this checks what they are for.
. "${srcdir:-.}/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "spec workloads: needs python3 to read the results"
	done_testing
	exit
fi
# ops FILE FLOWOP: the operations that flowop did
ops() { json "$1" "sum(f['ops'] for f in r['flowops'] if f['name'] == '$2')"; }
w=$srcdir/workloads

# --- listed by name --------------------------------------------------------
run_fbrun --list-workloads
for n in spec/ai_image spec/eda spec/genomics spec/swbuild spec/vda imagepull; do
	grepq "--list-workloads lists $n" "^$n  " "$TMP/out"
done

# --- a business metric is a fixed set of rated threads ---------------------
# swbuild: 5 threads a build at 5 passes a second each, 25 a build
for b in 1 3; do
	run_fbrun -q -t 1 -D dir="$TMP/sw" -D files=200 -D dirwidth=20 \
		-D builds="$b" -o "$TMP/sw$b.json" "$w/spec/swbuild.f"
	check "swbuild, builds=$b: exit 0 (exit $rc)" test "$rc" -eq 0
	e=$(json "$TMP/sw$b.json" "[(a['rate'], a['instances']) for a in r['arrivals']]" 2>&1 || :)
	check "swbuild, builds=$b: $((25 * b)) passes a second offered by $((5 * b)) threads ($e)" \
		test "$e" = "[($((25 * b)), $((5 * b)))]"
done
# eda: a job set is 3 frontends at 5 passes a second and 2 backends at 1
run_fbrun -q -t 1 -D dir="$TMP/eda" -D jobsets=2 -D smallfiles=50 \
	-D largefiles=2 -D largesize=2m -D transfers=2 -o "$TMP/eda.json" "$w/spec/eda.f"
check "eda, jobsets=2: exit 0 (exit $rc)" test "$rc" -eq 0
e=$(json "$TMP/eda.json" "sorted((a['thread'], a['rate'], a['instances']) for a in r['arrivals'])" 2>&1 || :)
check "eda, jobsets=2: 6 frontends and 4 backends at their rates ($e)" \
	test "$e" = "[('backend', 4, 4), ('frontend', 30, 6)]"

# business metrics whose new files overlap (passes as fast as they go):
# every backend and every trainer finds a name for its new file, so the
# run goes its whole time (it used to end when one found none)
run_fbrun -q -t 1 -D dir="$TMP/eda4" -D jobsets=4 -D smallfiles=50 \
	-D largefiles=2 -D largesize=1m -D transfers=1 -D berate=1000 \
	-o "$TMP/eda4.json" "$w/spec/eda.f"
e=$(json "$TMP/eda4.json" "r['ended_by'], sum(f['errors'] for f in r['flowops'])" 2>&1 || :)
check "eda, 8 backends over 2 large files: runs its whole time, no error (exit $rc; $e)" \
	test "$rc" -eq 0 -a "$e" = "timeout 0"
run_fbrun -q -t 1 -D dir="$TMP/ai3" -D jobs=3 -D images=100 -D ckptsize=64k \
	-D ckptrate=1000 -o "$TMP/ai3.json" "$w/spec/ai_image.f"
e=$(json "$TMP/ai3.json" "r['ended_by'], sum(f['errors'] for f in r['flowops'])" 2>&1 || :)
check "ai_image, 3 jobs checkpointing at once: runs its whole time, no error (exit $rc; $e)" \
	test "$rc" -eq 0 -a "$e" = "timeout 0"

# --- fbrun curve over the business metric ----------------------------------
# a mean response time of a second: met at one build on any machine that
# runs the tests (the passes take well under a millisecond each)
run_fbrun curve -q -t 1 --levels builds=1,2 --slo 'mean<1s' \
	-D dir="$TMP/curve" -D files=200 -D dirwidth=20 "$w/spec/swbuild.f"
check "curve --levels builds=1,2 --slo mean<1s: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... a row for each number of builds" '^1 +- +- +[0-9.]+  met$' "$TMP/out"
grepq "... builds=2 judged too" '^2 +- +- +[0-9.]+  (met|not)$' "$TMP/out"
grepq "... the most builds that met it" \
	'^Objective mean<1s \(the mean response time of the I/O ops\): met up to builds=[12]$' "$TMP/out"
check "... and nothing left in the tree's directory" \
	test -z "$(ls -A "$TMP/curve" 2>/dev/null)"

# --- the image pull --------------------------------------------------------
# per pull: 332 files made and fsynced (210+77+31+6+5+2+1), 191
# directories made and removed, the archive's 168 reads, 8 files read
run_fbrun -q -D dir="$TMP/pull" -D pulls=2 -o "$TMP/pull.json" "$w/imagepull.f"
check "imagepull, 2 pulls: exit 0 (exit $rc)" test "$rc" -eq 0
e=$(json "$TMP/pull.json" "r['ended_by'], sum(f['errors'] for f in r['flowops'])" 2>&1 || :)
check "... ends when done, no operation failed ($e)" test "$e" = "done 0"
e=$(json "$TMP/pull.json" "sum(f['ops'] for f in r['flowops'] if f['type'] == 'fsync')" 2>&1 || :)
check "... an fsync for each of the layer's 332 files, twice ($e)" test "$e" = 664
e=$(json "$TMP/pull.json" "sum(f['ops'] for f in r['flowops'] if f['type'] == 'createfile')" 2>&1 || :)
check "... 332 files made, twice ($e)" test "$e" = 664
e=$(json "$TMP/pull.json" "sum(f['ops'] for f in r['flowops'] if f['type'] == 'deletefile')" 2>&1 || :)
check "... and removed ($e)" test "$e" = 664
check "... 191 directories made, twice ($(ops "$TMP/pull.json" mkdir))" \
	test "$(ops "$TMP/pull.json" mkdir)" = 382
check "... and removed ($(ops "$TMP/pull.json" rmdir))" \
	test "$(ops "$TMP/pull.json" rmdir)" = 382
check "... the archive read in 168 reads, twice ($(ops "$TMP/pull.json" read-blob))" \
	test "$(ops "$TMP/pull.json" read-blob)" = 336
check "... 8 of its files read whole, twice ($(ops "$TMP/pull.json" start.read))" \
	test "$(ops "$TMP/pull.json" start.read)" = 16
check "... nothing left of the layer" \
	test -z "$(ls -A "$TMP/pull" 2>/dev/null)"

done_testing
