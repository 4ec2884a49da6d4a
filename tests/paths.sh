#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Paths and cleanup: fbrun resolves ".." by name before it makes anything,
# holds a lock on each tree for the whole run, removes the directories it
# made (once per path, even those of a run killed with SIGKILL), and only
# removes what it made: a tree whose marker names another fileset is
# refused, a file fbrun did not make is left and named, a root replaced
# during the run is reported (exit 1), a mount planted in the tree is
# never written into, and -o may not point into a tree or nowhere.
. "${srcdir:-.}/tests/lib.sh"

fb() {
	rc=0
	timeout 60 "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

# child PID: the process `timeout` runs (fbrun itself)
child() { ps -o pid= --ppid "$1" | tr -d ' '; }

# script FILE PATH NAME RUN [LINES]: a small workload; LINES go before
# the process (create files, system ...)
script() {
	cat >"$1" <<F
define fileset name=$3,path=$2,entries=40,size=1k,dirwidth=5,prealloc=50
${5:-}
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=$3,fd=1
  flowop readwholefile name=read,fd=1,iosize=1k
  flowop closefile name=close,fd=1 } }
run $4
F
}

# tree DIR: every path and size under DIR, to compare
tree() { (cd "$1" && find . -printf '%p %y %s\n' | sort); }

S=$TMP/sentinel
mkdir -p "$S/sub"
echo precious >"$S/precious"
tree "$S" >"$TMP/sentinel.before"
sentinel_ok() {
	if tree "$S" | cmp -s - "$TMP/sentinel.before"; then
		pass "$1: the sentinel directory is untouched"
	else
		fail "$1: the sentinel directory is untouched"
		tree "$S" | diff "$TMP/sentinel.before" - | diag
	fi
}

# --- ".." in a path that does not exist yet ----------------------------------
# $TMP/x/none/../../.. ... climbs to "/" by name: refused like path=/,
# before anything is made (the kernel cannot resolve it: none is missing)
name=fbrun-paths-test-$$
up=$TMP/x/none
for _ in $(printf %s "$TMP/x/none" | tr -cd / | sed 's|/|& |g'); do up=$up/..; done
if [ -e "/$name" ]; then
	skip "path $up: /$name exists already"
else
	script "$TMP/up.f" "$up" "$name" 1
	fb --keep "$TMP/up.f" # (a tree made would stay, to be seen)
	check "path climbing to / by '..' through a missing directory: refused with exit 2 (exit $rc)" \
		test "$rc" -eq 2
	grepq "... says why" "path '$up' is the root directory; refusing" "$TMP/err"
	check "... /$name was never created" test ! -e "/$name"
	check "... nor $TMP/x" test ! -e "$TMP/x"
	# (a fbrun that made it: take it away again, only if it is ours)
	[ -f "/$name/.fbrun-fileset" ] && rm -rf --one-file-system "/${name:?}"
	rm -rf "$TMP/x"
fi
# ".." inside the path is resolved by name: a/none/../b is a/b
script "$TMP/dots.f" "$TMP/a/none/../b" data 1
fb --keep "$TMP/dots.f"
check "a/none/../b: runs (exit $rc)" test "$rc" -eq 0
check "a/none/../b: the tree is in a/b" test -f "$TMP/a/b/data/.fbrun-fileset"
check "a/none/../b: a/none was never made" test ! -e "$TMP/a/none"
fb "$TMP/dots.f"
check "a/none/../b: the next run removes the tree and the path (exit $rc)" \
	test "$rc" -eq 0 -a ! -e "$TMP/a"

# --- two runs on one tree ------------------------------------------------------
script "$TMP/lock.f" "$TMP/lock" data 60
rm -f "$TMP/out1" "$TMP/err1" # not a previous run's output
timeout 60 "$FBRUN" "$TMP/lock.f" >"$TMP/out1" 2>"$TMP/err1" &
pid=$!
wait_for "$TMP/out1" 'Running for'
first=$(child "$pid")
tree "$TMP/lock" >"$TMP/lock.before"
fb "$TMP/lock.f"
check "a second run on a tree in use: refused with exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... naming the run that holds it (pid $first)" \
	"'$TMP/lock/data' is in use by another fbrun run \\(pid $first on " "$TMP/err"
check "... nothing starts" test -z "$(grep -E 'Starting|IO Summary' "$TMP/out")"
check "... the first run's tree is untouched" \
	sh -c '(cd "$1" && find . -printf "%p %y %s\n" | sort) | cmp -s - "$2"' sh "$TMP/lock" "$TMP/lock.before"
kill -INT "$first" 2>/dev/null || :
rc=0
wait "$pid" || rc=$?
check "... the first run still ends well: exit 1 on SIGINT (exit $rc), its results" \
	grep -q '^IO Summary' "$TMP/out1"
check "... and removes its tree and the path it made" test ! -e "$TMP/lock"

# a system command inherits no descriptor of a tree: the lock would
# outlive a killed fbrun in a command still running
mkdir -p "$TMP/inh"
script "$TMP/inh.f" "$TMP/inh" data 1 "create files
system \"ls -l /proc/self/fd/ >$TMP/fds\""
fb "$TMP/inh.f"
check "a system command holds nothing of the tree open (exit $rc)" \
	sh -c '[ -s "$2" ] && ! grep -q "$1" "$2"' sh "$TMP/inh/data" "$TMP/fds"

# the marker names the fileset and the run
script "$TMP/mark.f" "$TMP/mark/p" data 1
fb --keep "$TMP/mark.f"
m=$TMP/mark/p/data/.fbrun-fileset
grepq "the marker names the fileset" '^fbrun fileset data$' "$m"
grepq "the marker names the run: id, pid, host, start" \
	'^run: [0-9a-f]{16} pid [0-9]+ host [^ ]+ started [0-9T:-]+Z$' "$m"
grepq "the marker names the directory the run made for it" "^made: $TMP/mark\$" "$m"

# --- the directories fbrun made ----------------------------------------------------
# two filesets under one made path: removed after the last of them
cat >"$TMP/two.f" <<F
define fileset name=a,path=$TMP/made/p/q,entries=20,size=1k,dirwidth=5,prealloc=50
define fileset name=b,path=$TMP/made/p/q,entries=20,size=1k,dirwidth=5,prealloc=50
define process name=p { thread name=t {
  flowop statfile name=sa,filesetname=a
  flowop statfile name=sb,filesetname=b } }
run 1
F
fb "$TMP/two.f"
check "two filesets under one made path: exit 0 (exit $rc)" test "$rc" -eq 0
check "... the path fbrun made is removed after both" test ! -e "$TMP/made"
# the root cannot be made whole (a tmpfs with inodes left for the path
# fbrun makes and the root, none for the marker): the path goes
M=$TMP/inodes
if ! tmpfs_at size=4m,nr_inodes=32 "$M"; then
	for c in "exit 1" "the path is removed" "no temporary left" "one error"; do
		skip "a root that cannot be made, $c: $why"
	done
else
	i=0
	while touch "$M/f$i" 2>/dev/null; do i=$((i + 1)); done
	rm "$M/f0" "$M/f1" "$M/f2"
	script "$TMP/nomk.f" "$M/nomk/p" data 1
	fb "$TMP/nomk.f"
	check "a root that cannot be made: exit 1 (exit $rc)" test "$rc" -eq 1
	check "... the path fbrun made for it is removed" test ! -e "$M/nomk"
	left=$(ls -A "$M" | grep -v '^f[0-9]*$' || :)
	check "... and no temporary directory is left ($left)" test -z "$left"
	check "... one error" test "$(grep -c 'error:' "$TMP/err")" -eq 1
	umount "$M"
	mounts=""
fi
# a run killed with SIGKILL: the next run removes its tree and its path
script "$TMP/kill.f" "$TMP/killed/p/q" data 60
rm -f "$TMP/out1" "$TMP/err1" # not a previous run's output
timeout 60 "$FBRUN" "$TMP/kill.f" >"$TMP/out1" 2>"$TMP/err1" &
pid=$!
wait_for "$TMP/out1" 'Running for'
kill -KILL "$(child "$pid")"
wait "$pid" || :
check "SIGKILL: the tree stays behind" test -f "$TMP/killed/p/q/data/.fbrun-fileset"
sed 's/^run 60/run 1/' "$TMP/kill.f" >"$TMP/kill1.f"
fb "$TMP/kill1.f"
check "SIGKILL, then a run: exit 0 (exit $rc)" test "$rc" -eq 0
check "... which removes the stale tree and the path the killed run made" \
	test ! -e "$TMP/killed"

# a run killed while it made a new root leaves nothing but its temporary
# directory (.fbrun-new.HASH.RUNID beside the first directory it made,
# renamed into place once the root in it is marked): the next run making
# the same directory removes it, unless a live run holds it or it holds
# anything but directories and markers.  Made here as fbrun makes them.
if command -v python3 >/dev/null 2>&1; then
	h=$(python3 -c 'import sys
h = 1469598103934665603
for c in sys.argv[1].encode():
    h = ((h ^ c) * 1099511628211) & (2**64 - 1)
print("%016x" % h)' killed2)
	tmpd=$TMP/kp/.fbrun-new.$h.0123456789abcdef
	mkdir -p "$tmpd/p/data" "$TMP/kp/.fbrun-new.$h.fedcba9876543210/p"
	printf 'fbrun fileset data\nroot: made\n' >"$tmpd/p/data/.fbrun-fileset"
	echo mine >"$TMP/kp/.fbrun-new.$h.fedcba9876543210/p/NOTES.txt"
	script "$TMP/kp.f" "$TMP/kp/killed2/p" data 1
	fb "$TMP/kp.f"
	check "debris of a run killed making its root: the next run exits 0 (exit $rc)" test "$rc" -eq 0
	check "... removes it, its tree and its path" test ! -e "$tmpd" -a ! -e "$TMP/kp/killed2"
	check "... but not one holding a file fbrun did not make" \
		test "$(cat "$TMP/kp/.fbrun-new.$h.fedcba9876543210/p/NOTES.txt")" = mine
	rm -rf "$TMP/kp"
else
	skip "debris of a killed run: needs python3"
fi
# an empty directory adopted by a run killed while writing its marker
mkdir -p "$TMP/ad/data"
: >"$TMP/ad/data/.fbrun-fileset.new"
script "$TMP/ad.f" "$TMP/ad" data 1
fb "$TMP/ad.f"
check "an adopted root holding only a half-written marker: adopted again (exit $rc)" test "$rc" -eq 0
check "... and left, empty, as it was found" test -d "$TMP/ad/data" -a -z "$(ls -A "$TMP/ad/data")"

# --- the root replaced by a symlink during the run ---------------------------
R=$TMP/swap/data
script "$TMP/swap.f" "$TMP/swap" data 1 "create files
system \"mv $R $R.moved && ln -s $S $R\""
fb "$TMP/swap.f"
check "root replaced by a symlink: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... says so and where the tree is now" \
	"'$R' was replaced during the run \\(it is a symbolic link now\\) and is not followed; the tree fbrun made there \\(now '$R.moved'\\) is left in place" "$TMP/err"
check "... the symlink and the moved tree stay" test -L "$R" -a -f "$R.moved/.fbrun-fileset"
sentinel_ok "root replaced by a symlink"
rm -rf "$TMP/swap"

# --- what the marker names; what fbrun did not make ---------------------------------
script "$TMP/k.f" "$TMP/k" data 1
sed 's/data/other/g' "$TMP/k.f" >"$TMP/other.f"
fb --keep "$TMP/k.f"
mv "$TMP/k/data" "$TMP/k/other"
echo mine >"$TMP/k/other/NOTES.txt"
tree "$TMP/k" >"$TMP/k.before"
fb "$TMP/other.f"
check "a kept tree renamed, used as another fileset: refused with exit 2 (exit $rc)" \
	test "$rc" -eq 2
grepq "... says whose it is" "'$TMP/k/other' holds fileset 'data', as its marker says" "$TMP/err"
check "... untouched, NOTES.txt with it" \
	sh -c '(cd "$1" && find . -printf "%p %y %s\n" | sort) | cmp -s - "$2"' sh "$TMP/k" "$TMP/k.before"
rm -rf "$TMP/k"
fb --keep "$TMP/k.f"
echo mine >"$TMP/k/data/NOTES.txt"
tree "$TMP/k" >"$TMP/k.before"
fb "$TMP/k.f"
check "a kept tree holding a user's file: refused with exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... naming the file" \
	"'$TMP/k/data' holds '$TMP/k/data/NOTES.txt', which fbrun did not make; not using or removing it" "$TMP/err"
check "... untouched" \
	sh -c '(cd "$1" && find . -printf "%p %y %s\n" | sort) | cmp -s - "$2"' sh "$TMP/k" "$TMP/k.before"
rm -f "$TMP/k/data/NOTES.txt"
fb "$TMP/k.f"
check "... once it is gone, the tree is taken and removed (exit $rc)" \
	test "$rc" -eq 0 -a ! -e "$TMP/k"
# a file added during the run is left, named, and the run says it (exit 1)
script "$TMP/notes.f" "$TMP/n" data 1 "create files
system \"echo mine >$TMP/n/data/00000001/NOTES.txt\""
fb "$TMP/notes.f"
check "a file added to the tree during the run: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... named as not made by fbrun" \
	"error: not removing '$TMP/n/data/00000001/NOTES.txt', which fbrun did not make" "$TMP/err"
check "... it is still there, whole" test "$(cat "$TMP/n/data/00000001/NOTES.txt")" = mine
left=$(cd "$TMP/n/data" 2>/dev/null && find . ! -type d | sort | tr '\n' ' ' || :)
check "... and nothing else of the tree but the marker ($left)" \
	test "$left" = "./.fbrun-fileset ./00000001/NOTES.txt "
rm -rf "$TMP/n"

# --- a bind mount on a directory of the tree, made during the run -------------
if ! $is_root; then
	skip "bind mount on a directory of the tree: needs root"
else
	M=$TMP/bm/data/00000001
	cat >"$TMP/bm.f" <<F
define fileset name=data,path=$TMP/bm,entries=20,size=1k,dirwidth=5,prealloc=0
create files
system "mount --bind $S $M"
define process name=p { thread name=t {
  flowop createfile name=create,filesetname=data,fd=1
  flowop closefile name=close,fd=1 } }
run 1
F
	fb --continue-on-error "$TMP/bm.f"
	if grep -q "mount point" "$TMP/err" || mountpoint -q "$M" 2>/dev/null; then
		mounts="$M $mounts"
		sentinel_ok "bind mount on a directory of the tree: nothing created in it"
		grepq "... the creates there fail, counted" \
			'^create +[0-9]+ failed: Invalid cross-device link' "$TMP/out"
		grepq "... removal refuses the mount point" "'$M' is a mount point; not removing it" "$TMP/err"
		umount "$M"
		mounts=""
	else
		skip "bind mount on a directory of the tree: cannot bind-mount here"
	fi
	rm -rf --one-file-system "${TMP:?}/bm"
fi

# --- -o ------------------------------------------------------------------------
script "$TMP/o.f" "$TMP/o" data 1
mkdir -p "$TMP/o"
fb -o "$TMP/o/data/r.json" "$TMP/o.f"
check "-o inside the fileset's tree: refused with exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says why" "-o '$TMP/o/data/r.json' is inside fileset data's tree '$TMP/o/data'" "$TMP/err"
check "... before anything is made" test -z "$(grep Creating "$TMP/out")$(ls -A "$TMP/o")"
fb -o "$TMP/nowhere/r.json" "$TMP/o.f"
check "-o into a missing directory: refused with exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says why" "-o '$TMP/nowhere/r.json' cannot be made: '$TMP/nowhere': No such file or directory" "$TMP/err"
check "... before anything is made" test -z "$(grep Creating "$TMP/out")$(ls -A "$TMP/o")"
fb -o "$TMP/o" "$TMP/o.f"
check "-o onto a directory: refused with exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... says why" "-o '$TMP/o' is a directory" "$TMP/err"
check "... before anything is made" test -z "$(grep Creating "$TMP/out")$(ls -A "$TMP/o")"
fb -o "$TMP/o/r.json" "$TMP/o.f"
check "-o beside the tree: fine (exit $rc)" test "$rc" -eq 0 -a -s "$TMP/o/r.json"

sentinel_ok "everything"
done_testing
