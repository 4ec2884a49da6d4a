#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# End-to-end runs on tiny filesets: facts about files, counts and bytes,
# never timings.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# interrupt_after_1s SCRIPT: run it, SIGINT it after a second; sets $rc
# and $took, the seconds fbrun needed to exit after the signal
interrupt_after_1s() {
	rm -f "$TMP/out" "$TMP/err" # not a previous run's output
	"$FBRUN" "$1" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 1
	kill -INT "$pid"
	t0=$(date +%s)
	rc=0
	wait "$pid" || rc=$?
	took=$(($(date +%s) - t0))
}

# --- the images workload, scaled down --------------------------------------
run_fbrun -t 3 -D dir="$TMP/img" -D nfiles=60 -D meandirwidth=10 \
	-D nthreads=3 -D ncreators=1 -o "$TMP/img.json" "$srcdir/workloads/images.f"
check "images.f runs and exits 0" test "$rc" -eq 0
check "... with no warning (it draws none on itself)" eval '! grep -q warning "$TMP/err"'
[ "$rc" -eq 0 ] || diag <"$TMP/err"
for op in deletefile1 createfile1 appendfilerand1 fsync1 closefile1 uploads/closefile2 \
	wait webserver/closefile2 readfile2 openfile2; do
	grep -q "^$op " "$TMP/out" && pass "images prints $op" || fail "images prints $op"
done
grep -q '^IO Summary: ' "$TMP/out" && pass "images prints the IO Summary" || fail "images prints the IO Summary"
# an uploader's pass every 2 s, at 0 and 2 s of a 3 s run (a second's
# margin either way): 0.67 op/s, with decimals, not 0 or 1
grepq "a rate under 1 op/s has decimals (deletefile1)" '^deletefile1 +0\.[0-9]{2}ops/s ' "$TMP/out"
reads=$(awk '$1 == "readfile2" { sub("ops/s", "", $2); print $2; exit }' "$TMP/out")
check "readfile2 ran" test "${reads:-0}" -gt 0
check "a reuse fileset is kept after the run" test -f "$TMP/img/bigfileset/.fbrun-fileset"
if $have_python; then
	if json "$TMP/img.json" "r['summary']['ops']" >/dev/null; then
		pass "the JSON results parse"
	else
		fail "the JSON results parse"
	fi
	n=$(json "$TMP/img.json" "sum(f['errors'] for f in r['flowops'])")
	check "no flowop failed" test "$n" -eq 0
	# the IO Summary agrees with the flowops: same total, same rate
	ops=$(json "$TMP/img.json" "r['summary']['ops']")
	sum=$(json "$TMP/img.json" "sum(f['ops'] for f in r['flowops'] if f['type'] not in ('delay','opslimit'))")
	check "summary ops = sum of the I/O flowops' ops ($ops)" test "$ops" -eq "$sum"
	# the mount's options and the super block's, each said once (not rw,...,rw)
	opts=$(json "$TMP/img.json" "r['filesets'][0]['mount_options']")
	check "the mount options say no option twice ($opts)" \
		test "$(echo "$opts" | tr , '\n' | sort | uniq -d)" = ""
	text_ops=$(awk '/^IO Summary:/ { print $3 }' "$TMP/out")
	check "text and JSON report the same op count" test "$text_ops" -eq "$ops"
fi

# --- files on disk: entries x prealloc, bytes of readwholefile ------------
cat >"$TMP/rw.f" <<F
define fileset name=data,path=$TMP/rw,entries=20,size=16k,dirwidth=5,prealloc=50
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=data,fd=1
  flowop readwholefile name=readall,fd=1,iosize=4k
  flowop closefile name=close,fd=1 } }
run 1
F
run_fbrun -q --keep -o "$TMP/rw.json" "$TMP/rw.f"
check "readwholefile workload exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
nfiles=$(find "$TMP/rw/data" -type f ! -name .fbrun-fileset | wc -l)
check "prealloc=50 of 20 entries creates 10 files ($nfiles)" test "$nfiles" -eq 10
bad=$(find "$TMP/rw/data" -type f ! -name .fbrun-fileset ! -size 16k | wc -l)
check "each file has its size" test "$bad" -eq 0
check "the fileset root carries the marker" test -f "$TMP/rw/data/.fbrun-fileset"
check "--keep leaves the tree" test -d "$TMP/rw/data"
if $have_python; then
	ok=$(json "$TMP/rw.json" "[f for f in r['flowops'] if f['name']=='readall'][0]['bytes'] == 16384 * [f for f in r['flowops'] if f['name']=='readall'][0]['ops'] > 0")
	check "readwholefile bytes = ops x file size" test "$ok" = True
fi

# A second run on the kept tree replaces it (it carries our marker).
run_fbrun -q "$TMP/rw.f"
check "a tree of ours is recreated and exits 0" test "$rc" -eq 0
check "and removed after the run" test ! -e "$TMP/rw/data"

# --- a foreign directory is never touched ---------------------------------
mkdir -p "$TMP/foreign/data"
echo precious >"$TMP/foreign/data/keep.txt"
sed "s|$TMP/rw|$TMP/foreign|" "$TMP/rw.f" >"$TMP/foreign.f"
run_fbrun -q "$TMP/foreign.f"
check "a foreign non-empty directory is refused with exit 2" test "$rc" -eq 2
grep -q "not made by fbrun" "$TMP/err" && pass "the refusal says why" || fail "the refusal says why"
check "its content is untouched" test "$(cat "$TMP/foreign/data/keep.txt")" = precious
check "nothing was added to it" test "$(ls -A "$TMP/foreign/data")" = keep.txt

# --- create and delete keep going where filebench starves -----------------
cat >"$TMP/churn.f" <<F
define fileset name=mail,path=$TMP/churn,entries=40,size=4k,dirwidth=10,prealloc=50
define process name=p { thread name=t,instances=4 {
  flowop deletefile name=del,filesetname=mail
  flowop createfile name=create,filesetname=mail,fd=1
  flowop appendfilerand name=append,fd=1,iosize=8k
  flowop closefile name=close,fd=1
  flowop openfile name=open,filesetname=mail,fd=1
  flowop readwholefile name=read,fd=1,iosize=4k
  flowop closefile name=close2,fd=1 } }
run 2
F
run_fbrun "$TMP/churn.f"
check "create/delete churn runs its full time" test "$rc" -eq 0
grep -q "Run ended" "$TMP/out" && fail "churn did not end early" || pass "churn did not end early"

# --- two flowops of one name in a thread: counted apart, as name#2 -------
# (filebench's tpcso.f has 30 hogs named shadowhog in one thread)
cat >"$TMP/dup.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/dup,entries=4,size=4k,dirwidth=10,prealloc=100
define process name=p { thread name=t {
  flowop statfile name=st,filesetname=set
  flowop statfile name=st,filesetname=set,iters=3
  flowop finishoncount name=fin,target=st,value=4 } }
run 10
F
run_fbrun -q -o "$TMP/dup.json" "$TMP/dup.f"
check "two flowops named st in one thread run (exit $rc)" test "$rc" -eq 0
grep -q "warning: flowop name 'st' is already used in thread 't'; its results are reported as 'st#2'" "$TMP/err" &&
	pass "with a warning naming st#2" || fail "with a warning naming st#2"
if command -v python3 >/dev/null 2>&1; then
	got=$(python3 -c "import json,sys
r = json.load(open(sys.argv[1]))
print(' '.join('%s=%d' % (f['name'], f['ops']) for f in r['flowops']))" "$TMP/dup.json")
	check "the JSON has st and st#2 with their own counts ($got)" \
		test "$got" = "st=4 st#2=12 fin=4"
else
	skip "the JSON has st and st#2: needs python3"
fi
grep -q '^st#2 ' "$TMP/out" && pass "the text output has a st#2 line" ||
	fail "the text output has a st#2 line"
run_fbrun -q --format csv "$TMP/dup.f"
grep -q '^st#2,' "$TMP/out" && pass "the CSV has a st#2 row" ||
	fail "the CSV has a st#2 row"
run_fbrun compare "$TMP/dup.json" "$TMP/dup.json"
check "compare matches st#2 with st#2 (exit $rc)" test "$rc" -eq 0
grep -q '^st#2 ' "$TMP/out" && pass "compare has st#2 rows" ||
	fail "compare has st#2 rows"

# --- SIGINT stops the run and still prints results -------------------------
sed 's/run 2/run 60/' "$TMP/churn.f" >"$TMP/long.f"
interrupt_after_1s "$TMP/long.f"
# stopped by the signal, not at the end of its 60 s (a guard, not a measure)
check "SIGINT ends the run, not the run's end ($took s)" test "$took" -le 30
grep -q '^IO Summary: ' "$TMP/out" && pass "an interrupted run prints its results" || fail "an interrupted run prints its results"
check "the interrupted run's tree is removed" test ! -e "$TMP/churn/mail"

# --- varmail on tmpfs runs its full time (filebench aborts there) ----------
if [ "$(id -u)" -ne 0 ]; then
	echo "ok $((tap_n + 1)) # SKIP varmail on tmpfs: needs root to mount tmpfs"
	tap_n=$((tap_n + 1))
elif ! mkdir -p "$TMP/tmpfs" || ! mount -t tmpfs -o size=512m fbrun-test "$TMP/tmpfs" 2>/dev/null; then
	echo "ok $((tap_n + 1)) # SKIP varmail on tmpfs: cannot mount tmpfs here"
	tap_n=$((tap_n + 1))
else
	run_fbrun -t 3 -D dir="$TMP/tmpfs/varmail" "$srcdir/workloads/varmail.f"
	umount "$TMP/tmpfs"
	if [ "$rc" -eq 0 ] && grep -q "Run took 3" "$TMP/out" && ! grep -q "ended early" "$TMP/err"; then
		pass "varmail on tmpfs runs its full time"
	else
		fail "varmail on tmpfs runs its full time (exit $rc)"
		diag <"$TMP/err"
	fi
fi

# --- SIGINT while the fileset is being created ------------------------------
cat >"$TMP/big.f" <<F
define fileset name=big,path=$TMP/big,entries=200000,size=1k,dirwidth=100,prealloc
define process name=p { thread name=t { flowop statfile name=s,filesetname=big } }
run 60
F
interrupt_after_1s "$TMP/big.f"
check "SIGINT during creation stops it ($took s, a guard of 30)" test "$took" -le 30
check "and exits 1" test "$rc" -eq 1
check "and removes the partial tree" test ! -e "$TMP/big/big"

done_testing
