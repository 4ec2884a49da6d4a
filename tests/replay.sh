#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# flowop replay (define trace) and fbrun replay: each fixture of tests/trace and dbench's
# client.txt replayed by 1 and 2 thread instances, one pass each.  Facts:
# the rows' op counts per type are the trace's (tests/tools/tracedump)
# times the instances, and so are the bytes of the reads and writes; no
# operation fails unexpectedly and none that failed in the recording
# succeeds; the files each replay's tree holds at the end are those the
# trace leaves; nothing but the replays' trees is made in the fileset's
# root and nothing outside it; a bad trace is its located error, exit 2,
# with nothing made.
. "${srcdir:-.}/tests/lib.sh"

TRACEDUMP=${TRACEDUMP:-$(dirname "$FBRUN")/tests/tools/tracedump}
T=$srcdir/tests/trace

# script TRACE INSTANCES [ROOT]: $TMP/r.f replays TRACE once per instance
script() {
	cat >"$TMP/r.f" <<EOF
set mode quit alldone
define fileset name=f,path="${3:-$TMP/fs}",entries=0,dirwidth=1
define trace name=t,path="$1"
define process name=p {
  thread name=th,instances=$2 {
    flowop replay name=R,trace=t,filesetname=f
    flowop finishoncount name=done,target=R,value=1
  }
}
run 3600
EOF
}

# the trace's "R.TYPE COUNT BYTES" (bytes of reads and writes only)
want() {
	"$TRACEDUMP" "$1" | awk -v n="$2" '$1 == "op" {
		printf "R.%s %.0f %.0f\n", $2, $4 * n,
			($2 == "read" || $2 == "write") ? $6 * n : 0
	}' | sort
}

# the same from the run's CSV, and "errors ROW N" for any row with some
got() {
	awk -F, 'NR > 1 && $1 ~ /^R\./ {
		print $1, $4, ($1 ~ /\.(read|write)$/) ? $9 : 0
		if ($12 != 0) print "errors", $1, $12
	}' "$TMP/out" | sort
}

# replay TRACE INSTANCES LABEL: run it (keeping the tree) and check
replay() {
	rm -rf "$TMP/fs"
	mkdir "$TMP/fs"
	script "$1" "$2"
	run_fbrun -q --keep --format csv "$TMP/r.f"
	if [ "$rc" -ne 0 ]; then
		fail "$3, $2 instance(s): runs and exits 0 (exit $rc)"
		diag <"$TMP/err"
		return
	fi
	pass "$3, $2 instance(s): runs and exits 0"
	want "$1" "$2" >"$TMP/want"
	got >"$TMP/got"
	if cmp -s "$TMP/want" "$TMP/got"; then
		pass "$3, $2 instance(s): ops per type and bytes are the trace's, no errors"
	else
		fail "$3, $2 instance(s): ops per type and bytes"
		diff "$TMP/want" "$TMP/got" | diag
	fi
	if grep -q 'succeeded' "$TMP/err"; then
		fail "$3, $2 instance(s): no op that failed in the recording succeeds"
		diag <"$TMP/err"
	else
		pass "$3, $2 instance(s): no op that failed in the recording succeeds"
	fi
	ls -A "$TMP/fs/f" >"$TMP/root"
	{
		echo .fbrun-fileset
		i=0
		while [ "$i" -lt "$2" ]; do
			echo "replay-0-$i"
			i=$((i + 1))
		done
	} | sort | cmp -s - "$TMP/root" &&
		pass "$3, $2 instance(s): the fileset's root holds the replays' trees alone" ||
		{ fail "$3, $2 instance(s): the fileset's root"; diag <"$TMP/root"; }
}

# tree DIR: what DIR holds, "d PATH" and "f PATH SIZE", sorted
tree() {
	(cd "$1" && find . -mindepth 1 \( -type d -printf 'd %P\n' \) -o \
		\( -type f -printf 'f %P %s\n' \) -o -printf '? %P\n') | sort
}

touch "$TMP/outside"
for f in small.loadfile tar.strace threads.strace shell.strace escape.strace renames.strace \
	seqwrite.iolog2 randrw.iolog3; do
	for n in 1 2; do
		replay "$T/$f" "$n" "$f"
	done
done

# the files the last pass of each instance left (2 instances kept)
replay "$T/small.loadfile" 2 small.loadfile
printf 'd clients\nd shared\nf shared/readme 1000\n' >"$TMP/want"
for i in 0 1; do
	tree "$TMP/fs/f/replay-0-$i" >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" &&
		pass "small.loadfile: instance $i's tree is what the trace leaves" ||
		{ fail "small.loadfile: instance $i's tree"; diag <"$TMP/got"; }
done
replay "$T/threads.strace" 1 threads.strace
printf 'd out\nf in.dat 20000\nf out/log.1 6\n' >"$TMP/want"
tree "$TMP/fs/f/replay-0-0" >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got" &&
	pass "threads.strace: the tree is what the trace leaves (old removed, log renamed)" ||
	{ fail "threads.strace: the tree"; diag <"$TMP/got"; }
# a shell's redirections (open, dup2 to 1, close; a child writing to
# what its parent opened for it), its stdout written, a symbolic link
replay "$T/shell.strace" 1 shell.strace
printf '? d/l\nd d\nf d/a 6\nf d/b 6\nf in.txt 6\nf out.log 5\n' >"$TMP/want"
tree "$TMP/fs/f/replay-0-0" >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got" &&
	pass "shell.strace: the tree is what the trace leaves (the link not followed)" ||
	{ fail "shell.strace: the tree"; diag <"$TMP/got"; }
replay "$T/tar.strace" 1 tar.strace
tree "$TMP/fs/f/replay-0-0" | grep -c '^f src/' >"$TMP/n" || :
[ "$(cat "$TMP/n")" -gt 0 ] &&
	pass "tar.strace: the files tar extracted are in the tree" ||
	{ fail "tar.strace: the files tar extracted"; tree "$TMP/fs/f/replay-0-0" | diag; }

ls -A "$TMP" | grep -v -e '^fs$' -e '^r\.f$' -e '^out$' -e '^err$' \
	-e '^want$' -e '^got$' -e '^root$' -e '^n$' -e '^top$' \
	>"$TMP/top" || :
printf 'outside\n' | cmp -s - "$TMP/top" &&
	pass "nothing outside the fileset's path was made" ||
	{ fail "nothing outside the fileset's path"; diag <"$TMP/top"; }

# without --keep the trees go with the fileset
script "$T/small.loadfile" 2
rm -rf "$TMP/fs"
mkdir "$TMP/fs"
run_fbrun -q "$TMP/r.f"
[ "$rc" -eq 0 ] && [ -z "$(ls -A "$TMP/fs")" ] &&
	pass "the replays' trees are removed with the fileset" ||
	{ fail "the replays' trees removed (exit $rc)"; ls -AR "$TMP/fs" | diag; }

# a tree kept (reuse) is emptied before the replay, a symlink planted in
# it removed itself, never followed out
rm -rf "$TMP/fs"
mkdir "$TMP/fs" "$TMP/victim"
echo keep >"$TMP/victim/keep.txt"
script "$T/small.loadfile" 1
sed -i 's/dirwidth=1$/dirwidth=1,reuse/' "$TMP/r.f"
run_fbrun -q --keep "$TMP/r.f"
ln -s "$TMP/victim" "$TMP/fs/f/replay-0-0/planted"
ln -s "$TMP/victim" "$TMP/fs/f/replay-0-0/shared/planted"
run_fbrun -q --keep "$TMP/r.f"
[ "$rc" -eq 0 ] && [ -f "$TMP/victim/keep.txt" ] &&
	[ ! -L "$TMP/fs/f/replay-0-0/planted" ] &&
	[ ! -L "$TMP/fs/f/replay-0-0/shared/planted" ] &&
	pass "a kept tree is emptied: planted symlinks removed, not followed" ||
	{ fail "a kept tree emptied (exit $rc)"; diag <"$TMP/err"; ls -lR "$TMP/fs" "$TMP/victim" | diag; }
rm -rf "$TMP/victim"

# value=N: N passes each, the thread then done (no finishoncount)
rm -rf "$TMP/fs"
mkdir "$TMP/fs"
script "$T/small.loadfile" 2
sed -i -e 's/filesetname=f$/filesetname=f,value=3/' -e '/finishoncount/d' \
	"$TMP/r.f"
run_fbrun -q --format csv "$TMP/r.f"
want "$T/small.loadfile" 6 >"$TMP/want"
got >"$TMP/got"
[ "$rc" -eq 0 ] && cmp -s "$TMP/want" "$TMP/got" &&
	awk -F, '$1 == "R" && $4 == 6 { f = 1 } END { exit !f }' "$TMP/out" &&
	pass "value=3, 2 instances: 6 passes, each op of the trace 6 times" ||
	{ fail "value=3, 2 instances (exit $rc)"; diff "$TMP/want" "$TMP/got" | diag; diag <"$TMP/err"; }

# fbrun replay TRACE: the same through the command
rm -rf "$TMP/fs"
run_fbrun replay -q --format csv -D dir="$TMP/fs" -D clients=2 \
	"$T/threads.strace"
sed 's/^replay\./R./' "$TMP/out" >"$TMP/csv" && mv "$TMP/csv" "$TMP/out"
want "$T/threads.strace" 2 >"$TMP/want"
got >"$TMP/got"
[ "$rc" -eq 0 ] && cmp -s "$TMP/want" "$TMP/got" &&
	pass "fbrun replay -D clients=2: each op of the trace twice" ||
	{ fail "fbrun replay -D clients=2 (exit $rc)"; diff "$TMP/want" "$TMP/got" | diag; diag <"$TMP/err"; }
# $TMP/fs was made by fbrun for the fileset's path: gone with it
[ ! -e "$TMP/fs" ] &&
	pass "fbrun replay: its tree removed at the end" ||
	{ fail "fbrun replay: its tree removed"; ls -AR "$TMP/fs" | diag; }
run_fbrun replay -q -t 1 --format csv -D dir="$TMP/fs" "$T/small.loadfile"
[ "$rc" -eq 0 ] && awk -F, '$1 == "replay" && $4 > 1 { f = 1 } END { exit !f }' "$TMP/out" &&
	pass "fbrun replay -t 1: the trace loops until the time is up" ||
	{ fail "fbrun replay -t 1 loops (exit $rc)"; diag <"$TMP/out"; diag <"$TMP/err"; }
# the log says what the run will do: its passes, or the time with -t
run_fbrun replay -D dir="$TMP/fs" "$T/threads.strace"
grepq "fbrun replay: the log says it runs until the trace is replayed once" \
	'Running for at most 86400 seconds: until the trace is replayed 1 time\.\.\.$' "$TMP/out"
run_fbrun replay -D dir="$TMP/fs" -D passes=3 "$T/threads.strace"
grepq "... -D passes=3: three times" 'until the trace is replayed 3 times\.\.\.$' "$TMP/out"
run_fbrun replay -t 1 -D dir="$TMP/fs" "$T/small.loadfile"
grepq "... -t 1: for the second, the trace over and over" \
	'Running for 1 seconds, the trace replayed over and over\.\.\.$' "$TMP/out"
run_fbrun replay -q -D dir="$TMP/badfs" "$T/bad/dbench-escape.loadfile"
[ "$rc" -eq 2 ] && [ ! -e "$TMP/badfs" ] &&
	grep -q "dbench-escape.loadfile:1:8: error:" "$TMP/err" &&
	pass "fbrun replay of a bad trace: its located error, exit 2, nothing made" ||
	{ fail "fbrun replay of a bad trace (exit $rc)"; diag <"$TMP/err"; }
run_fbrun replay
[ "$rc" -eq 2 ] && grep -q "no trace given" "$TMP/err" &&
	pass "fbrun replay without a trace: exit 2, said" ||
	fail "fbrun replay without a trace (exit $rc)"

# a bad trace: its located error, exit 2, nothing made
script "$T/bad/dbench-escape.loadfile" 1 "$TMP/badfs"
run_fbrun -q "$TMP/r.f"
[ "$rc" -eq 2 ] && [ ! -e "$TMP/badfs" ] &&
	pass "a bad trace: exit 2, nothing made" ||
	fail "a bad trace: exit 2 (got $rc), nothing made"
grepq "a bad trace: its located error" \
	"dbench-escape.loadfile:1:8: error: path '../../etc/passwd' climbs out" \
	"$TMP/err"
grepq "a bad trace: the script's define named" \
	"r.f:3:[0-9]+: error: trace 't' cannot be replayed" "$TMP/err"

# ops that failed in the recording and succeed here (as root: an EACCES,
# an EPERM): counted per row in the text and the JSON, the run still 0
cat >"$TMP/mismatch.trace" <<'EOF'
fbrun-trace 1
stream "s"
0.000000000 - open path="a" flags=write|creat mode=0644 = EACCES
0.000100000 - stat path="b" = EPERM
0.000200000 - stat path="b" = 0
EOF
rm -rf "$TMP/fs"
mkdir "$TMP/fs"
script "$TMP/mismatch.trace" 2
run_fbrun -o "$TMP/mm.json" "$TMP/r.f"
check "mismatches: the run exits 0 (exit $rc)" test "$rc" -eq 0
grepq "mismatches: the text counts R.open's (2 instances, one each)" \
	'^R\.open +2 mismatches$' "$TMP/out"
grepq "... and R.stat's" '^R\.stat +2 mismatches$' "$TMP/out"
if command -v python3 >/dev/null 2>&1; then
	check "mismatches: the JSON's rows R, R.open, R.stat: 0 2 2, none for done" test \
		"$(python3 -c 'import json, sys
f = {x["name"]: x for x in json.load(open(sys.argv[1]))["flowops"]}
print(f["R"]["mismatches"], f["R.open"]["mismatches"], f["R.stat"]["mismatches"], "mismatches" in f["done"])' "$TMP/mm.json")" = "0 2 2 False"
else
	skip "mismatches in the JSON: python3 is not installed"
fi
rm -f "$TMP/mismatch.trace" "$TMP/mm.json"

# descriptors: a process's close when it exits (1,100 processes each
# writing to the stdout their shell opened, under a hard limit of 512),
# and the soft limit raised to the hard one for a fio iolog holding
# 2,000 files open at once; a hard limit too low for it refused, nothing
# made
{
	echo '999 1796317320.000000 openat(AT_FDCWD</r>, "out.log", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</r/out.log> <0.000010>'
	echo '999 1796317320.000001 dup2(3</r/out.log>, 1</r/out.log>) = 1</r/out.log> <0.000010>'
	echo '999 1796317320.000002 close(3</r/out.log>) = 0 <0.000010>'
	awk 'BEGIN { for (i = 0; i < 1100; i++) {
		printf "%d 1796317321.%06d write(1</r/out.log>, \"x\\n\", 2) = 2 <0.000001>\n", 1000 + i, i
		printf "%d 1796317321.%06d +++ exited with 0 +++\n", 1000 + i, i } }'
} >"$TMP/procs.strace"
awk 'BEGIN { print "fio version 2 iolog"
	for (a = 0; a < 4; a++) for (i = 0; i < 2000; i++)
		print "d/f" i, (a == 0 ? "add" : a == 1 ? "open" : a == 2 ? "write 0 4096" : "close") }' \
	>"$TMP/files.iolog"
nofile() {
	rc=0
	(ulimit -Sn 256 && ulimit -Hn "$1" && exec "$FBRUN" replay --format csv \
		-D dir="$TMP/nf" "$2") >"$TMP/out" 2>"$TMP/err" || rc=$?
}
nofile 512 "$TMP/procs.strace"
check "1,100 processes writing to their inherited stdout, hard limit 512: exit 0 ($rc)" \
	test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
grepq "... each one's write replayed" '^replay\.write,[^,]*,[^,]*,1100,([^,]*,){7}0,' "$TMP/out"
if [ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 4096 ]; then
	nofile "$(ulimit -Hn)" "$TMP/files.iolog"
	check "a fio iolog holding 2,000 files open, soft limit 256: exit 0 ($rc)" \
		test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	grepq "... the soft limit raised, said" \
		'would hold up to [0-9]+ files open at once: the limit of open files raised from 256 to' "$TMP/err"
	grepq "... its 2,000 opens replayed" '^replay\.open,[^,]*,[^,]*,2000,([^,]*,){7}0,' "$TMP/out"
else
	skip "the soft limit raised: the hard limit of open files is below 4096"
fi
nofile 512 "$TMP/files.iolog"
check "... with a hard limit of 512: exit 1 ($rc)" test "$rc" -eq 1
grepq "... saying so" "files open at once, more than the hard limit of open files, 512 \(ulimit -Hn\); nothing was created" "$TMP/err"
check "... nothing made" test ! -e "$TMP/nf"
rm -f "$TMP/procs.strace" "$TMP/files.iolog"

client=/usr/share/dbench/client.txt
if [ -r "$client" ]; then
	for n in 1 2; do
		replay "$client" "$n" "dbench client.txt"
	done
else
	skip "dbench's client.txt is not installed (Debian's dbench package)"
fi
done_testing
