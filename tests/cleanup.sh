#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun removes what it created on every way out (success, error, SIGINT,
# SIGTERM), unless --keep or reuse, and nothing else: not through a
# symlink or a mount planted in the tree, not a foreign directory, not
# anything of /.  A sentinel directory outside every tree must end as it
# began.
. "${srcdir:-.}/tests/lib.sh"




fb() {
	rc=0
	timeout 60 "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

# signal_after SIG SECS ARGS...: run fbrun, send SIG after SECS; sets $rc
# and $took (seconds from the signal to the exit)
signal_after() {
	sig=$1 secs=$2
	shift 2
	rm -f "$TMP/out" "$TMP/err" # not a previous run's output
	timeout 60 "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep "$secs"
	kill -"$sig" "$pid"
	t0=$(date +%s)
	rc=0
	wait "$pid" || rc=$?
	took=$(($(date +%s) - t0))
}

# script FILE PATH NAME RUN [ATTRS]: a small read/write workload
script() {
	cat >"$1" <<F
define fileset name=$3,path=$2,entries=40,size=4k,dirwidth=5,prealloc=50${5:-}
define process name=p { thread name=t,instances=2 {
  flowop openfile name=open,filesetname=$3,fd=1
  flowop appendfile name=append,fd=1,iosize=1k
  flowop closefile name=close,fd=1
  flowop createfile name=create,filesetname=$3,fd=2
  flowop closefile name=close2,fd=2
  flowop deletefile name=delete,filesetname=$3
  flowop statfile name=stat,filesetname=$3 } }
run $4
F
}

# filedir ROOT: a directory of the tree at ROOT that holds files (how deep
# the first one is depends on the tree's shape), or nothing: never glob
# "$F"/* with F empty
filedir() {
	f=$(find "$1" -type f ! -name .fbrun-fileset 2>/dev/null | sort | head -1)
	[ -z "$f" ] || echo "${f%/*}"
}

# The sentinel: what must never change.  Symlinks planted below point here.
S=$TMP/sentinel
mkdir -p "$S/sub"
echo precious >"$S/precious"
echo inner >"$S/sub/inner"
snap() { (cd "$S" && find . -printf '%p %y %s %m %n %T@ %C@\n' | sort); }
snap >"$TMP/sentinel.before"
sentinel_ok() {
	snap >"$TMP/sentinel.now"
	if cmp -s "$TMP/sentinel.before" "$TMP/sentinel.now"; then
		pass "$1: the sentinel directory is untouched"
	else
		fail "$1: the sentinel directory is untouched"
		diff "$TMP/sentinel.before" "$TMP/sentinel.now" | diag
	fi
}

# --- success: the tree and the path directories fbrun made are removed -----
script "$TMP/ok.f" "$TMP/ok/a/b" data 1
fb "$TMP/ok.f"
check "success: exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "success: the tree and the path fbrun made are removed" test ! -e "$TMP/ok"

# --- --keep and reuse leave the tree -----------------------------------------
fb --keep "$TMP/ok.f"
check "--keep: exits 0" test "$rc" -eq 0
check "--keep: the tree stays, with its marker" test -f "$TMP/ok/a/b/data/.fbrun-fileset"
rm -rf "$TMP/ok"
script "$TMP/reuse.f" "$TMP/reuse" data 1 ",reuse"
fb "$TMP/reuse.f"
check "reuse: exits 0" test "$rc" -eq 0
check "reuse: the tree stays, with its marker" test -f "$TMP/reuse/data/.fbrun-fileset"
rm -rf "$TMP/reuse"

# --- an error ends the run: the tree is removed (kept with --keep) ---------
{
	echo "define fileset name=data,path=$TMP/errtree,entries=40,size=1k,dirwidth=10,prealloc=100"
	echo "define process name=p { thread name=t {"
	for i in $(seq 1 24); do echo "  flowop openfile name=open$i,filesetname=data,fd=$i"; done
	for i in $(seq 1 24); do echo "  flowop closefile name=close$i,fd=$i"; done
	echo "} }"
	echo "run 30"
} >"$TMP/err.f"
rc=0
(ulimit -n 20 && exec timeout 60 "$FBRUN" "$TMP/err.f") >"$TMP/out" 2>"$TMP/err" || rc=$?
check "error (EMFILE): exits 1" test "$rc" -eq 1
check "error: the tree is removed" test ! -e "$TMP/errtree"
rc=0
(ulimit -n 20 && exec timeout 60 "$FBRUN" --keep "$TMP/err.f") >"$TMP/out" 2>"$TMP/err" || rc=$?
check "error with --keep: exits 1" test "$rc" -eq 1
check "error with --keep: the tree stays" test -f "$TMP/errtree/data/.fbrun-fileset"
rm -rf "$TMP/errtree"

# --- SIGINT and SIGTERM during the run ---------------------------------------
script "$TMP/sig.f" "$TMP/sig" data 60
for sig in INT TERM; do
	signal_after "$sig" 1 "$TMP/sig.f"
	check "SIG$sig during the run: exits 1" test "$rc" -eq 1
	# stopped by the signal, not by the end of its 60 s: a guard, not a
	# measure of how soon (a loaded machine may take seconds)
	check "SIG$sig during the run: stops on it, not at the run's end (${took}s)" test "$took" -le 30
	grepq "SIG$sig during the run: prints the results so far" '^IO Summary: ' "$TMP/out"
	check "SIG$sig during the run: the tree is removed" test ! -e "$TMP/sig"
done

# --- SIGTERM while creating the fileset --------------------------------------
cat >"$TMP/big.f" <<F
define fileset name=big,path=$TMP/big,entries=200000,size=1k,dirwidth=100,prealloc
define process name=p { thread name=t { flowop statfile name=s,filesetname=big } }
run 60
F
signal_after TERM 1 "$TMP/big.f"
if grep -q "Starting" "$TMP/out"; then
	skip "SIGTERM during creation: creating 200000 files took under 1 s here"
else
	check "SIGTERM during creation: exits 1" test "$rc" -eq 1
	check "SIGTERM during creation: stops on it (${took}s, a guard of 30)" test "$took" -le 30
	grepq "SIGTERM during creation: says so" 'interrupted while creating files' "$TMP/err"
	check "SIGTERM during creation: the partial tree is removed" test ! -e "$TMP/big"
fi

# --- symlinks planted in the tree while it runs ------------------------------
# A symlink at the top, files replaced by symlinks to a sentinel file, a
# directory replaced by a symlink to the sentinel, one deep in the tree:
# the run may fail on them (ELOOP) but never writes, creates or deletes
# through them.  The cleanup unlinks those bearing fbrun's names without
# following them, and leaves the two it did not name (evil, evil2), says
# so and exits 1.
# (fbrun is stopped (SIGSTOP) while they are planted, then ended by
# SIGINT: planting that outlasted the run would race the removal)
script "$TMP/sym.f" "$TMP/sym" data 50
rc=0
rm -f "$TMP/out" "$TMP/err" # not a previous run's output
timeout 60 "$FBRUN" --continue-on-error "$TMP/sym.f" >"$TMP/out" 2>"$TMP/err" &
pid=$!
T=$TMP/sym/data
# plant them once the run is going, not while the tree is being made (a
# loaded machine can take more than a second to get there)
i=0
while [ "$i" -lt 100 ] && ! grep -q 'Running for' "$TMP/out" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
fpid=$(ps -o pid= --ppid "$pid" | tr -d ' ')
kill -STOP "$fpid"
{
	ln -s "$S" "$T/evil" || :
	F=$(filedir "$T")
	if [ -n "$F" ]; then
		for f in "$F"/*; do rm -f "$f" && ln -s "$S/precious" "$f" || :; done
	fi
	rm -rf "$T/00000002" && ln -s "$S" "$T/00000002" || :
	d=$(find "$T" -mindepth 2 -type d | head -1)
	[ -n "$d" ] && ln -s "$S" "$d/evil2" || :
} 2>/dev/null
kill -CONT "$fpid"
kill -INT "$fpid" 2>/dev/null || : # it may have ended by itself: no file left
wait "$pid" || rc=$?
check "symlinks planted during the run: no hang, no crash (exit $rc)" test "$rc" -le 1
grepq "symlinks planted during the run: the run reports the symlinks it met" \
	'Too many levels of symbolic links|^IO Summary' "$TMP/out"
# what is left: evil and evil2, nothing bearing fbrun's names
left=$(cd "$TMP/sym/data" 2>/dev/null && find . ! -type d ! -name .fbrun-fileset | sort | tr '\n' ' ')
bad=$(cd "$TMP/sym/data" 2>/dev/null && find . ! -type d ! -name .fbrun-fileset ! -name evil ! -name evil2)
if [ -L "$TMP/sym/data/evil" ] && [ -z "$bad" ]; then
	pass "symlinks planted during the run: only what fbrun did not name is left ($left)"
else
	fail "symlinks planted during the run: only what fbrun did not name is left ($left)"
	diag <"$TMP/err"
fi
grepq "symlinks planted during the run: the error names what was left" \
	"error: not removing '$T/[^']+'( \\(and [0-9]+ more\\))?, which fbrun did not make" "$TMP/err"
check "symlinks planted during the run: exits 1 (exit $rc)" test "$rc" -eq 1
rm -rf "$TMP/sym" # rm -rf never follows symlinks either
sentinel_ok "symlinks planted during the run"

# ... and in a tree kept with --keep, then taken over by a second run
script "$TMP/sym1.f" "$TMP/sym" data 1
fb --keep "$TMP/sym1.f"
ln -s "$S" "$T/evil"
F=$(filedir "$T")
check "symlinks in a kept tree: a directory holds files (${F#"$T"/})" test -n "$F"
if [ -n "$F" ]; then
	for f in "$F"/*; do rm -f "$f"; ln -s "$S/precious" "$f"; done
fi
rm -rf "$T/00000003"
ln -s "$S" "$T/00000003"
(cd "$T" && find . | sort) >"$TMP/kept.before"
fb "$TMP/sym1.f"
# evil is not a name fbrun makes: the tree is refused whole, untouched
check "symlinks in a kept tree: the second run is refused (exit $rc)" test "$rc" -eq 2
grepq "symlinks in a kept tree: says why" \
	"'$T' holds '$T/evil', which fbrun did not make; not using or removing it" "$TMP/err"
check "symlinks in a kept tree: untouched" \
	sh -c 'cd "$1" && find . | sort | cmp -s - "$2"' sh "$T" "$TMP/kept.before"
rm "$T/evil"
fb "$TMP/sym1.f"
check "symlinks in a kept tree, evil gone: the run exits 0 (exit $rc)" test "$rc" -eq 0
check "symlinks in a kept tree, evil gone: the tree is removed" test ! -e "$TMP/sym/data"
sentinel_ok "symlinks in a kept tree"
rm -rf "$TMP/sym"

# --- deletes and directory ops never act through a symlinked directory -----
# Every directory below the root is swapped for a symlink to a look-alike
# (files and leaf directories named as the tree's) while the thread waits
# in a delay; then it deletes, removes and makes entries.  unlinkat and
# mkdirat follow symlinks on the way, so fbrun must not use them by path.
L=$TMP/lookalike
mkdir -p "$L"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	n=$(printf %08d "$i")
	echo keep >"$L/$n"
	mkdir "$L/$n.d"
done
# the leaf directory names too: serials run on after the files
for i in 13 14 15 16 17 18 19 20; do mkdir "$L/$(printf %08d "$i")"; done
lsnap() { (cd "$L" && find . -printf '%p %y %s\n' | sort); }
lsnap >"$TMP/look.before"
# fbrun is stopped (SIGSTOP) as soon as the tree is made and the swap is
# done before it goes on: its thread, in a first delay of 5 s, cannot have
# started deleting unless this shell was held up that long.
cat >"$TMP/swap.f" <<F
define fileset name=data,path=$TMP/swap,entries=40,size=0,dirwidth=4,prealloc=100,leafdirs=16
define process name=p { thread name=t {
  flowop delay name=wait,value=5
  flowop deletefile name=delete,filesetname=data
  flowop removedir name=rmdir,filesetname=data
  flowop makedir name=mkdir,filesetname=data
  flowop statfile name=stat,filesetname=data } }
run 8
F
rc=0
rm -f "$TMP/out" "$TMP/err" # not a previous run's output
timeout 120 "$FBRUN" --continue-on-error "$TMP/swap.f" >"$TMP/out" 2>"$TMP/err" &
pid=$!
i=0
while [ "$i" -lt 600 ] && ! grep -q 'data populated' "$TMP/out" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
fbpid=$(pgrep -P "$pid" -x fbrun || echo "$pid")
kill -STOP "$fbpid"
for d in "$TMP/swap/data"/0*; do
	rm -rf "$d"
	ln -s "$L" "$d"
done
kill -CONT "$fbpid"
wait "$pid" || rc=$?
check "symlinked directories: the run ends (exit $rc)" test "$rc" -le 1
grepq "symlinked directories: the deletes fail, counted" \
	'^delete +[0-9]+ failed: (Not a directory|Too many levels of symbolic links)' "$TMP/out"
grepq "symlinked directories: so do the directory removals" \
	'^rmdir +[0-9]+ failed: (Not a directory|Too many levels of symbolic links)' "$TMP/out"
grepq "symlinked directories: the error says what was in the way" \
	"a symlink or a non-directory on its path: not followed" "$TMP/err"
lsnap >"$TMP/look.now"
if cmp -s "$TMP/look.before" "$TMP/look.now"; then
	pass "symlinked directories: nothing outside the tree was deleted or made"
else
	fail "symlinked directories: nothing outside the tree was deleted or made"
	diff "$TMP/look.before" "$TMP/look.now" | diag
fi
check "symlinked directories: the tree is removed" test ! -e "$TMP/swap"
rm -rf "$TMP/swap"

# --- a mount planted in the tree: never descended into ---------------------
if ! $is_root; then
	skip "bind mount in the tree: needs root"
else
	script "$TMP/mnt.f" "$TMP/mnt" data 2
	rm -f "$TMP/out" "$TMP/err" # not a previous run's output
	timeout 60 "$FBRUN" "$TMP/mnt.f" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	i=0
	while [ "$i" -lt 300 ] && ! grep -q 'Running for' "$TMP/out" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	mp=$TMP/mnt/data/00000002/mp
	if mkdir "$mp" && mount --bind "$S" "$mp" 2>"$TMP/merr"; then
		mounts="$mp $mounts"
		rc=0
		wait "$pid" || rc=$?
		check "bind mount in the tree: exits 1" test "$rc" -eq 1
		# mp is not a name fbrun makes: left, not entered
		grepq "bind mount in the tree: says it will not remove the mount point" \
			"not removing '$mp', which fbrun did not make" "$TMP/err"
		umount "$mp"
		mounts=""
		sentinel_ok "bind mount in the tree"
	else
		wait "$pid" || :
		skip "bind mount in the tree: cannot bind-mount here: $(head -1 "$TMP/merr")"
	fi
	rm -rf --one-file-system "${TMP:?}/mnt"
fi

# --- path=/ : refused outright (exit 2), nothing of / touched ----------------
name=fbrun-cleanup-test-$$
ln -s / "$TMP/toroot"
for p in / // "$TMP/toroot"; do
	if [ -e "/$name" ]; then
		skip "path=$p: /$name exists already"
		continue
	fi
	script "$TMP/root.f" "$p" "$name" 1
	fb "$TMP/root.f"
	check "path=$p: refused with exit 2" test "$rc" -eq 2
	grepq "path=$p: says why" "path '$p' is the root directory; refusing" "$TMP/err"
	check "path=$p: nothing runs" test -z "$(grep '^IO Summary' "$TMP/out")"
	check "path=$p: /$name was never created" test ! -e "/$name"
done

# --- a fileset name that is not one directory name ---------------------------
# name=.. would make the root <path>/.., the parent of path: with a kept
# tree of ours there, it would be emptied.
script "$TMP/k.f" "$TMP/k" data 1
fb --keep "$TMP/k.f"
(cd "$TMP/k" && find . | sort) >"$TMP/k.before"
for n in .. . a/b; do
	script "$TMP/name.f" "$TMP/k/data/00000001" "$n" 1
	fb "$TMP/name.f"
	check "fileset name '$n': refused with exit 2" test "$rc" -eq 2
	grepq "fileset name '$n': says why" "fileset name '$n' must be one directory name" "$TMP/err"
	check "fileset name '$n': the kept tree next to it is untouched" \
		sh -c '(cd "$1/k" && find . | sort) | cmp -s - "$1/k.before"' sh "$TMP"
done
script "$TMP/name.f" "$TMP/newdir/sub" .. 1
fb "$TMP/name.f"
check "fileset name '..': nothing created" test ! -e "$TMP/newdir"
rm -rf "$TMP/k"

# --- a path with '..' in it: works, and removes only what it made -----------
script "$TMP/dots.f" "$TMP/p/../q" data 1
fb "$TMP/dots.f"
check "path with '..': exits 0" test "$rc" -eq 0
check "path with '..': removes the tree and the directories it made" \
	test ! -e "$TMP/p" -a ! -e "$TMP/q"
script "$TMP/dots2.f" "$S/../q2" data 1
fb "$TMP/dots2.f"
check "path through the sentinel's '..': exits 0" test "$rc" -eq 0
check "path through the sentinel's '..': removes its tree" test ! -e "$TMP/q2"
sentinel_ok "path with '..'"

# --- what is not ours is refused, untouched (exit 2) ------------------------
mkdir -p "$TMP/foreign/data"
echo mine >"$TMP/foreign/data/keep.txt"
(cd "$TMP/foreign" && find . -printf '%p %s %T@\n' | sort) >"$TMP/foreign.before"
script "$TMP/foreign.f" "$TMP/foreign" data 1
fb "$TMP/foreign.f"
check "non-empty foreign directory: refused with exit 2" test "$rc" -eq 2
grepq "non-empty foreign directory: says why" "not made by fbrun; refusing" "$TMP/err"
check "non-empty foreign directory: untouched" \
	sh -c '(cd "$1/foreign" && find . -printf "%p %s %T@\n" | sort) | cmp -s - "$1/foreign.before"' sh "$TMP"
mkdir -p "$TMP/lnroot"
ln -s "$S" "$TMP/lnroot/data"
script "$TMP/lnroot.f" "$TMP/lnroot" data 1
fb "$TMP/lnroot.f"
check "root that is a symlink to the sentinel: refused with exit 2" test "$rc" -eq 2
check "root that is a symlink: the symlink stays" test -L "$TMP/lnroot/data"
# a marker that is not a regular file is not ours: neither "no marker" nor ours
for kind in dir link fifo; do
	rm -rf "$TMP/odd"
	mkdir -p "$TMP/odd/data"
	case $kind in
	dir) mkdir "$TMP/odd/data/.fbrun-fileset" ;;
	link) ln -s "$S/precious" "$TMP/odd/data/.fbrun-fileset" ;;
	fifo) mkfifo "$TMP/odd/data/.fbrun-fileset" ;;
	esac
	echo mine >"$TMP/odd/data/keep.txt"
	script "$TMP/odd.f" "$TMP/odd" data 1
	fb "$TMP/odd.f"
	check "marker that is a $kind: refused with exit 2 (exit $rc)" test "$rc" -eq 2
	grepq "marker that is a $kind: says why" \
		"'$TMP/odd/data/.fbrun-fileset' is not a regular file; not using or removing" "$TMP/err"
	check "marker that is a $kind: untouched" test -f "$TMP/odd/data/keep.txt" -a -e "$TMP/odd/data/.fbrun-fileset"
done
# --- reuse on a read-only mount: a whole tree needs no write -----------------
# ro_script FILE SIZE ATTRS: reads of a kept tree on $ro (made writable first)
ro_script() {
	cat >"$1" <<F
define fileset name=data,path=$ro/sub,entries=20,size=$2,dirwidth=5,prealloc$3
define fileset name=half,path=$ro,entries=20,size=4k,dirwidth=5,prealloc=50,leafdirs=4$3
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=data,fd=1
  flowop readwholefile name=read,fd=1,iosize=4k
  flowop closefile name=close,fd=1
  flowop statfile name=stat,filesetname=half
  flowop finishoncount name=done,value=40 } }
run 30
F
}
ro=$TMP/ro
if ! tmpfs_at size=16m "$ro"; then
	skip "reuse on a read-only mount: $why"
else
	ro_script "$TMP/ro.f" 4k ",reuse,readonly"
	fb "$TMP/ro.f"
	check "reuse tree made on a tmpfs (exit 0)" test "$rc" -eq 0
	(cd "$ro" && find . -printf '%p %s\n' | sort) >"$TMP/ro.before"
	mount -o remount,ro "$ro"
	fb --format json "$TMP/ro.f"
	check "read-only mount: the kept reuse tree is used (exit 0)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	if command -v python3 >/dev/null 2>&1; then
		got=$(python3 -c "import json,sys
r = json.load(open(sys.argv[1]))
f = [f for f in r['flowops'] if f['name'] == 'read'][0]
print(f['ops'] > 0 and f['bytes'] == 4096 * f['ops'])" "$TMP/out" 2>/dev/null || :)
		check "read-only mount: reads counted, 4k each" test "$got" = True
	fi
	check "read-only mount: the tree is as it was" \
		sh -c '(cd "$1/ro" && find . -printf "%p %s\n" | sort) | cmp -s - "$1/ro.before"' sh "$TMP"
	ro_script "$TMP/ro8k.f" 8k ",reuse,readonly"
	fb "$TMP/ro8k.f"
	check "read-only mount: a tree to rewrite fails (exit 1)" test "$rc" -eq 1
	grepq "read-only mount: the error names the file to write" \
		"cannot rewrite '$ro/sub/data/[0-9/]+': Read-only file system \(only a reuse tree" "$TMP/err"
	ro_script "$TMP/rono.f" 4k ",readonly"
	fb "$TMP/rono.f"
	check "read-only mount: without reuse the tree is remade, which fails (exit 1)" test "$rc" -eq 1
	grepq "read-only mount: the error names the marker" \
		"cannot create '$ro/sub/data/.fbrun-fileset': Read-only file system" "$TMP/err"
	umount "$ro"
	mounts=""
fi
sentinel_ok "everything"

done_testing
