#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Faults during a run: a full file system, a permission denied, too many
# open files, a file where a directory should be, the tree removed under
# the run.  Each must give one clear message naming the flowop, the file
# and the errno text, print the results, never hang, and exit 1; with
# --continue-on-error the run goes on and counts the errors per flowop.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true



# fb ARGS...: fbrun under `timeout 60`, output in $TMP/out, $TMP/err, $rc
fb() {
	rc=0
	timeout 60 "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

# failed_clearly WHAT FLOWOP PATH_PREFIX ERRTEXT: the default policy:
# exit 1, the error names the flowop, a file under PATH_PREFIX and the
# errno text, and the results are printed with the error counted.
failed_clearly() {
	check "$1: no hang (exit $rc)" test "$rc" -ne 124
	check "$1: exits 1" test "$rc" -eq 1
	grepq "$1: the message names flowop $2, the file and '$4'" \
		"flowop $2 failed: .*'$3[^']*': $4\$" "$TMP/err"
	n=$(grep -c 'error:' "$TMP/err" || :)
	check "$1: one error message" test "$n" -eq 1
	grepq "$1: prints the Per-Operation Breakdown" '^Per-Operation Breakdown$' "$TMP/out"
	grepq "$1: prints the IO Summary" '^IO Summary: ' "$TMP/out"
	grepq "$1: the Errors section counts it against $2" \
		"^$2 +[0-9]+ failed: $4 \\([0-9]+\\)" "$TMP/out"
}

# kept_going WHAT FLOWOP ERRTEXT ERRNO: --continue-on-error -t 1 -o r.json:
# ran its full second, counted more than one error against FLOWOP.
kept_going() {
	check "$1 --continue-on-error: no hang (exit $rc)" test "$rc" -ne 124
	check "$1 --continue-on-error: exits 1 (errors happened)" test "$rc" -eq 1
	grepq "$1 --continue-on-error: runs its full time" '^[0-9.]+: Run took 1\.' "$TMP/out"
	n=$(awk -v f="$2" '$1 == f && $3 == "failed:" { print $2 }' "$TMP/out")
	check "$1 --continue-on-error: Errors: $2 failed ${n:-0} times with $3" \
		test "${n:-0}" -gt 1
	if $have_python && [ -f "$TMP/r.json" ]; then
		ok=$(json "$TMP/r.json" "any(f['name'] == '$2' and f['errors'] > 1 and any(e['errno'] == $4 for e in f['errnos']) for f in r['flowops'])")
		check "$1 --continue-on-error: JSON flowops[$2].errors > 1, errno $4" test "$ok" = True
	fi
}

# --- ENOSPC: a writer appending until a 2 MiB tmpfs is full ----------------
mnt=$TMP/full
if ! tmpfs_at size=2m "$mnt"; then
	skip "ENOSPC: $why"
else
	cat >"$TMP/full.f" <<F
define fileset name=data,path=$mnt,entries=4,size=4k,dirwidth=4,prealloc=100
define process name=p { thread name=t {
  flowop appendfile name=append,filesetname=data,fd=1,iosize=64k } }
run 30
F
	fb "$TMP/full.f"
	failed_clearly "ENOSPC" append "$mnt/data/" "No space left on device"
	check "ENOSPC: the tree is removed" test -z "$(ls -A "$mnt")"

	rm -f "$TMP/r.json"
	fb -t 1 --continue-on-error -o "$TMP/r.json" "$TMP/full.f"
	kept_going "ENOSPC" append "No space left on device" 28
	check "ENOSPC --continue-on-error: the tree is removed" test -z "$(ls -A "$mnt")"

	# 4 MiB to preallocate on 2 MiB: refused before anything is made
	# (--keep: a tree begun and then abandoned would stay to be seen)
	sed 's/size=4k/size=1m/' "$TMP/full.f" >"$TMP/fullc.f"
	fb --keep "$TMP/fullc.f"
	check "preallocation that cannot fit: exits 1" test "$rc" -eq 1
	grepq "... says what it would write and what is free" \
		"^fbrun: error: not enough free space: preallocating fileset 'data' would write 4\.0 MiB to the file system of '$mnt', which has [0-9.]+ (KiB|MiB) free; nothing was created \(--force tries anyway\)\$" "$TMP/err"
	check "... creates nothing" test -z "$(ls -A "$mnt")"
	check "... starts no thread" eval '! grep -q "Starting" "$TMP/out"'
	# size=2^63-1: a disk filler, refused the same way
	sed 's/size=1m/size=9223372036854775807/' "$TMP/fullc.f" >"$TMP/huge.f"
	fb --keep "$TMP/huge.f"
	check "size=2^63-1,prealloc: exits 1" test "$rc" -eq 1
	grepq "... refused for want of space" "error: not enough free space: .* would write 16 EiB or more" "$TMP/err"
	check "... creates nothing" test -z "$(ls -A "$mnt")"
	# filesets on one file system share it: 1.5 MiB each fits, both do not
	cat >"$TMP/two.f" <<F
define fileset name=a,path=$mnt,entries=3,size=512k,dirwidth=4,prealloc
define fileset name=b,path=$mnt,entries=3,size=512k,dirwidth=4,prealloc
define process name=p { thread name=t { flowop statfile name=s,filesetname=a } }
run 1
F
	fb --keep "$TMP/two.f"
	check "two filesets that fit only one at a time: exits 1" test "$rc" -eq 1
	grepq "... names the first and says there are others" \
		"preallocating fileset 'a' and the others there would write 3\.0 MiB" "$TMP/err"
	check "... creates nothing" test -z "$(ls -A "$mnt")"
	# a tree of ours that is kept (reuse) or replaced counts what it holds
	sed '/name=b/d' "$TMP/two.f" >"$TMP/one.f"
	fb --keep "$TMP/one.f"
	check "1.5 MiB of 2 MiB, kept: exits 0 (exit $rc)" test "$rc" -eq 0
	fb "$TMP/one.f"
	check "... run again over its own tree: not refused (exit $rc)" test "$rc" -eq 0
	sed 's/prealloc/prealloc,reuse/' "$TMP/one.f" >"$TMP/reuse.f"
	fb --keep "$TMP/one.f"
	fb "$TMP/reuse.f"
	check "... reused: not refused (exit $rc)" test "$rc" -eq 0
	fb "$TMP/one.f"
	check "... and removed by a run without reuse" test -z "$(ls -A "$mnt")"

	# --force: it tries; the fault while preallocating is a creation
	# error, and the tree is removed
	fb --force "$TMP/fullc.f"
	check "ENOSPC while creating (--force): exits 1" test "$rc" -eq 1
	grepq "ENOSPC while creating: names the fileset, the file and the errno" \
		"fileset data: cannot write '$mnt/data/[^']+': No space left on device\$" "$TMP/err"
	check "ENOSPC while creating: the partial tree is removed" test -z "$(ls -A "$mnt")"

	# EROFS: the file system goes read-only between creation and the run
	cat >"$TMP/ro.f" <<F
define fileset name=data,path=$mnt,entries=8,size=1k,dirwidth=4,prealloc=50
create files
system "mount -o remount,ro $mnt"
define process name=p { thread name=t {
  flowop createfile name=create,filesetname=data,fd=1
  flowop closefile name=close,fd=1 } }
run 30
F
	fb "$TMP/ro.f"
	check "EROFS: no hang (exit $rc)" test "$rc" -ne 124
	check "EROFS: exits 1" test "$rc" -eq 1
	grepq "EROFS: the message names flowop create, the file and the errno" \
		"flowop create failed: cannot create '$mnt/data/[^']+': Read-only file system\$" "$TMP/err"
	grepq "EROFS: prints the IO Summary" '^IO Summary: ' "$TMP/out"
	grepq "EROFS: says clearly the tree could not be removed" \
		"error: cannot remove '$mnt/data/[^']*': Read-only file system; leaving the rest of '$mnt/data' in place\$" "$TMP/err"
	mount -o remount,rw "$mnt"
	umount "$mnt"
	mounts=""
fi

# --- ENOSPC a byte at a time: writebytes filling a 128 KiB tmpfs ---------
bmnt=$TMP/fullb
if ! tmpfs_at size=128k "$bmnt"; then
	skip "ENOSPC a byte at a time: $why"
else
	cat >"$TMP/fullb.f" <<F
define fileset name=data,path=$bmnt,entries=1,size=0,dirwidth=4,prealloc=100
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=data,fd=1
  flowop writebytes name=putc,fd=1,iosize=8k,iters=1000 } }
run 30
F
	fb "$TMP/fullb.f"
	failed_clearly "ENOSPC a byte at a time" putc "$bmnt/data/" "No space left on device"
	check "ENOSPC a byte at a time: the tree is removed" test -z "$(ls -A "$bmnt")"
fi

# --- EACCES: the run cannot create or open its files -------------------------
# Root bypasses permissions: run fbrun as nobody.
as_user="" UFBRUN=$FBRUN why_not=""
$is_root && as_nobody
if [ -n "$why_not" ]; then
	skip "EACCES: $why_not"
	skip "EACCES during the run: $why_not"
else
	# (a) the fileset root exists, is empty and is 0555: creation fails
	mkdir -p "$TMP/acc/data"
	chmod 555 "$TMP/acc/data"
	cat >"$TMP/acc.f" <<F
define fileset name=data,path=$TMP/acc,entries=4,size=4k,dirwidth=4,prealloc=100
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=data,fd=1
  flowop closefile name=close,fd=1 } }
run 30
F
	rc=0
	timeout 60 $as_user "$UFBRUN" "$TMP/acc.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
	check "EACCES on a 0555 fileset root: exits 1" test "$rc" -eq 1
	grepq "EACCES on a 0555 fileset root: names the fileset, the file and the errno" \
		"fileset data: cannot create '$TMP/acc/data/.fbrun-fileset': Permission denied\$" "$TMP/err"
	check "EACCES on a 0555 fileset root: nothing created" test -z "$(ls -A "$TMP/acc/data")"
	if grep -q "has no .fbrun-fileset marker" "$TMP/err"; then
		fail "EACCES on a 0555 fileset root: no second, misleading error"
	else
		pass "EACCES on a 0555 fileset root: no second, misleading error"
	fi

	# (b) the files turn read-only between creation and the run: openfile
	# (O_RDWR) fails with EACCES while the run is going
	mkdir -p "$TMP/acc2"
	chmod 777 "$TMP/acc2"
	cat >"$TMP/acc2.f" <<F
define fileset name=data,path=$TMP/acc2,entries=8,size=4k,dirwidth=4,prealloc=100
create files
system "find $TMP/acc2/data -type f ! -name .fbrun-fileset -exec chmod a-w {} +"
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=data,fd=1
  flowop closefile name=close,fd=1 } }
run 30
F
	rc=0
	timeout 60 $as_user "$UFBRUN" "$TMP/acc2.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
	failed_clearly "EACCES during the run" open "$TMP/acc2/data/" "Permission denied"
	check "EACCES during the run: the tree is removed" test ! -e "$TMP/acc2/data"
	rc=0
	timeout 60 $as_user "$UFBRUN" -t 1 --continue-on-error "$TMP/acc2.f" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	rm -f "$TMP/r.json"
	kept_going "EACCES during the run" open "Permission denied" 13
	check "EACCES --continue-on-error: the tree is removed" test ! -e "$TMP/acc2/data"
fi

# --- EMFILE: more open files than RLIMIT_NOFILE allows ---------------------
{
	echo "define fileset name=data,path=$TMP/emf,entries=40,size=1k,dirwidth=10,prealloc=100"
	echo "define process name=p { thread name=t {"
	for i in $(seq 1 24); do echo "  flowop openfile name=open$i,filesetname=data,fd=$i"; done
	for i in $(seq 1 24); do echo "  flowop closefile name=close$i,fd=$i"; done
	echo "} }"
	echo "run 30"
} >"$TMP/emf.f"
rc=0
(ulimit -n 20 && exec timeout 60 "$FBRUN" "$TMP/emf.f") >"$TMP/out" 2>"$TMP/err" || rc=$?
op=$(sed -n "s/.*flowop \(open[0-9]*\) failed: .*/\1/p" "$TMP/err" | head -1)
failed_clearly "EMFILE" "${op:-open}" "$TMP/emf/data/" "Too many open files"
check "EMFILE: the tree is removed" test ! -e "$TMP/emf"
rm -f "$TMP/r.json"
rc=0
(ulimit -n 20 && exec timeout 60 "$FBRUN" -t 1 --continue-on-error -o "$TMP/r.json" "$TMP/emf.f") \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
kept_going "EMFILE" "${op:-open}" "Too many open files" 24
# a failed op is counted and the thread goes on with the next flowop: the
# files open1 holds are closed by close1, so open1 itself never fails
n=$(awk '$1 == "open1" && $3 == "failed:" { print $2 }' "$TMP/out")
check "EMFILE --continue-on-error: open1 never fails (no EBUSY cascade: ${n:-0})" test -z "$n"

# --- a fileset path that is a regular file ----------------------------------
# Exit 1, not 2: exit 2 is for script and usage errors and for fbrun's own
# refusals to touch a tree that is not its own; a file in the path is the
# system's ENOTDIR when making the path, like EACCES there.
echo precious >"$TMP/afile"
cat >"$TMP/afile.f" <<F
define fileset name=data,path=$TMP/afile,entries=4,size=1k,dirwidth=4,prealloc=100
define process name=p { thread name=t { flowop statfile name=stat,filesetname=data } }
run 30
F
before=$(ls -A "$TMP")
fb "$TMP/afile.f"
check "path is a file: exits 1" test "$rc" -eq 1
grepq "path is a file: names the fileset, the path and the errno" \
	"fileset data: cannot (open|create) '$TMP/afile[^']*': Not a directory\$" "$TMP/err"
check "path is a file: one error message" test "$(grep -c 'error:' "$TMP/err")" -eq 1
check "path is a file: no thread starts" test -z "$(grep 'Starting' "$TMP/out")"
grepq "path is a file: the (empty) results are printed" '^IO Summary: +0 ops' "$TMP/out"
check "path is a file: the file is untouched" test "$(cat "$TMP/afile")" = precious
check "path is a file: nothing created" test "$(ls -A "$TMP")" = "$before"
sed "s|path=$TMP/afile|path=$TMP/afile/sub|" "$TMP/afile.f" >"$TMP/afile2.f"
fb "$TMP/afile2.f"
check "a file inside the path: exits 1" test "$rc" -eq 1
grepq "a file inside the path: names it and the errno" \
	"fileset data: cannot create '$TMP/afile/sub': Not a directory\$" "$TMP/err"
check "a file inside the path: the file is untouched" test "$(cat "$TMP/afile")" = precious

# --- the tree removed while the run reads it ---------------------------------
cat >"$TMP/rmd.f" <<F
define fileset name=data,path=$TMP/rmd,entries=50,size=4k,dirwidth=5,prealloc=100
define process name=p { thread name=t,instances=2 {
  flowop openfile name=open,filesetname=data,fd=1
  flowop readwholefile name=read,fd=1,iosize=4k
  flowop closefile name=close,fd=1 } }
run 3
F
# rm_during_run ARGS...: run, rm -rf the tree once the run has started
# (however long a loaded machine takes to get there); sets $rc.  rm
# leaves the marker unless wholetree is set: a cleanup that meets the
# tree half removed, its marker gone, rightly refuses it (a second
# error), so only the checks that allow for it remove the whole tree.
rm_during_run() {
	rc=0
	rm -f "$TMP/out" "$TMP/err" # not a previous run's output
	: >"$TMP/out"
	timeout 60 "$FBRUN" "$@" "$TMP/${script:-rmd}.f" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	i=0
	while [ $i -lt 500 ] && ! grep -q "Running for" "$TMP/out"; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ "${wholetree:-}" ]; then
		rm -rf "$TMP/rmd/data" 2>/dev/null || :
	else
		rm -rf "$TMP/rmd/data"/0* 2>/dev/null || :
	fi
	wait "$pid" || rc=$?
}
rm_during_run
failed_clearly "tree removed during the run" open "$TMP/rmd/data/" "No such file or directory"
check "tree removed during the run: no crash at cleanup (exit $rc)" test "$rc" -lt 128
if grep -q "error: cannot remove .*No such file or directory" "$TMP/err"; then
	fail "tree removed during the run: cleanup does not complain about what is gone"
else
	pass "tree removed during the run: cleanup does not complain about what is gone"
fi
# The cleanup meets directories rm is removing at the same time: one gone
# between its open and its read is at its end, not an error.  Racy by
# nature, so tried several times (a bad build failed 1 in 5).  The run is
# long, so that on a loaded machine it cannot end before rm starts: the
# first failed open ends it.
sed 's/^run 3$/run 50/' "$TMP/rmd.f" >"$TMP/rmd-long.f"
extra=0 script=rmd-long
for i in 1 2 3 4 5 6 7 8 9 10; do
	rm_during_run
	[ "$(grep -c 'error:' "$TMP/err" || :)" -eq 1 ] || { extra=$i; cat "$TMP/err" >&2; }
done
check "tree removed during the run, 10 times: one error message each (failed at $extra)" \
	test "$extra" -eq 0
# the whole tree, root and marker: whatever the cleanup meets, the run
# fails on the open, prints its results and ends
wholetree=1
rm_during_run
wholetree= script=rmd
check "whole tree removed during the run: exits 1 (exit $rc)" test "$rc" -eq 1
grepq "whole tree removed during the run: names flowop open and ENOENT" \
	"flowop open failed: .*'$TMP/rmd/data/[^']*': No such file or directory\$" "$TMP/err"
grepq "whole tree removed during the run: prints the IO Summary" '^IO Summary: ' "$TMP/out"
rm -f "$TMP/r.json"
rm_during_run --continue-on-error -o "$TMP/r.json"
check "tree removed, --continue-on-error: no hang (exit $rc)" test "$rc" -ne 124
check "tree removed, --continue-on-error: exits 1" test "$rc" -eq 1
grepq "tree removed, --continue-on-error: prints the IO Summary" '^IO Summary: ' "$TMP/out"
grepq "tree removed, --continue-on-error: Errors: open failed with ENOENT" \
	'^open +[0-9]+ failed: No such file or directory' "$TMP/out"
if $have_python; then
	n=$(json "$TMP/r.json" "[f['errors'] for f in r['flowops'] if f['name'] == 'open'][0]")
	check "tree removed, --continue-on-error: JSON open errors ($n) > 0" test "$n" -gt 0
fi
check "tree removed: nothing left" test -z "$(ls -A "$TMP/rmd" 2>/dev/null)"

# --- a failure under a long path: the message keeps the path whole -----------
# trusttree believes the kept tree, so the file removed behind its back
# fails the first open, every time; the path is over 600 bytes.
c=$(printf %0120d 0)
long=$TMP/long/$c/$c/$c/$c/$c
mkdir -p "$long"
cat >"$TMP/long.f" <<F
define fileset name=data,path=$long,entries=4,size=0,dirwidth=10,prealloc=100,reuse,trusttree
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=data,fd=1
  flowop closefile name=close,fd=1 } }
run 1
F
fb -q -t 1 --keep "$TMP/long.f"
check "long path: the kept tree is made" test -f "$long/data/00000001/00000001"
rm -f "$long/data/00000001/00000001"
fb -q -t 1 "$TMP/long.f"
failed_clearly "long path" open "$long/data/00000001/00000001" "No such file or directory"
rm -rf "$TMP/long"

done_testing
