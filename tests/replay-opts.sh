#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# flowop replay's options and the trees it leaves.  pace= and fbrun
# replay --pace: the pass takes at least the trace's span divided by the
# speed (a lower bound only), strace shows the naps between the ops, a
# trace without times and a pace of 0 or less are script errors, SIGINT
# stops a paced replay, and stops the making of the trace's initial state
# (300000 files, or one of 12 GiB: fewer made than there are, the root
# left empty).  Facts only: counts, exit codes, messages, JSON.
. "${srcdir:-.}/tests/lib.sh"

T=$srcdir/tests/trace
have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true
# json FILE EXPR: EXPR of the results r, f the flowops by name
json() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in r["flowops"]}
print(eval(sys.argv[2]))' "$1" "$2"
}

# strace_fb ARGS...: strace ARGS; an ASan build's leak check cannot run
# under ptrace (it would fail the run), so it is off there
strace_fb() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}

# script TRACE ATTRS [ROOT]: $TMP/r.f replays TRACE once, ATTRS added
script() {
	cat >"$TMP/r.f" <<EOF
set mode quit alldone
define fileset name=f,path="${3:-$TMP/fs}",entries=0,dirwidth=1
define trace name=t,path="$1"
define process name=p {
  thread name=th {
    flowop replay name=R,trace=t,filesetname=f,value=1$2
  }
}
run 3600
EOF
}

# a trace of two streams whose ops span 0.6 s
cat >"$TMP/span.trace" <<'EOF'
fbrun-trace 1
stream "a"
0.000000000 - mkdir path="d" mode=0755 = 0
0.300000000 - stat path="d" flags=directory = 0
0.600000000 - rmdir path="d" = 0
stream "b"
0.150000000 - statfs = 0
EOF

# --- pace= in the language -------------------------------------------------------
mkdir "$TMP/fs"
for how in "pace=1:0.6" "pace=2:0.3" "pace=0.5:1.2" "pace:0.6"; do
	attr=${how%%:*}
	span=${how#*:}
	script "$TMP/span.trace" ",$attr"
	run_fbrun -q -o "$TMP/p.json" "$TMP/r.f"
	check "$attr: exit 0 (exit $rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	if $have_python; then
		check "$attr: every op once, the pass took at least ${span} s" test \
			"$(json "$TMP/p.json" "(f['R']['ops'], f['R.mkdir']['ops'], f['R.stat']['ops'], f['R.rmdir']['ops'], f['R.statfs']['ops'], f['R']['latency_ns']['sum'] >= $span * 1e9)")" = \
			"(1, 1, 1, 1, 1, True)"
	else
		skip "$attr: the pass's time: python3 is not installed"
	fi
done
rm -rf "$TMP/fs"

# strace: a nap (clock_nanosleep) between the first op and the last, none
# without pace
if command -v strace >/dev/null 2>&1; then
	mkdir "$TMP/fs"
	for attr in ",pace=1" ""; do
		script "$TMP/span.trace" "$attr"
		rc=0
		strace_fb -f -ttt -e trace=mkdirat,unlinkat,clock_nanosleep \
			-o "$TMP/strace" "$FBRUN" -q "$TMP/r.f" >/dev/null 2>&1 || rc=$?
		# the naps after the replay's mkdir of d and before its rmdir
		awk '/mkdirat\(.*"d", / { on = 1 } on && /clock_nanosleep/ { n++ }
		     /unlinkat\(.*"d", AT_REMOVEDIR/ { on = 0 } END { print n + 0 }' \
			"$TMP/strace" >"$TMP/naps"
		if [ -n "$attr" ]; then
			check "strace, pace=1: naps between the ops ($(cat "$TMP/naps"); exit $rc)" \
				test "$rc" -eq 0 -a "$(cat "$TMP/naps")" -gt 0
		else
			check "strace, no pace: no nap between the ops (exit $rc)" \
				test "$rc" -eq 0 -a "$(cat "$TMP/naps")" -eq 0
		fi
	done
	rm -rf "$TMP/fs"
else
	skip "pace's naps under strace: strace is not installed"
fi

# --- fbrun replay --pace ------------------------------------------------------------
run_fbrun replay -q --pace=2 -o "$TMP/p.json" -D dir="$TMP/cmd" "$TMP/span.trace"
check "fbrun replay --pace=2: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if $have_python; then
	check "... the pass took at least 0.3 s, each op once" test \
		"$(json "$TMP/p.json" "(f['replay.stat']['ops'], f['replay']['latency_ns']['sum'] >= 0.3e9)")" = "(1, True)"
fi
run_fbrun replay -q --pace -o "$TMP/p.json" -D dir="$TMP/cmd" "$TMP/span.trace"
check "fbrun replay --pace: exit 0 (exit $rc)" test "$rc" -eq 0
if $have_python; then
	check "... the recorded pace: the pass took at least 0.6 s" test \
		"$(json "$TMP/p.json" "f['replay']['latency_ns']['sum'] >= 0.6e9")" = True
fi
for bad in 0 -1 abc 2x ""; do
	run_fbrun replay --pace="$bad" -D dir="$TMP/cmd" "$TMP/span.trace"
	check "fbrun replay --pace='$bad': exit 2, nothing made (exit $rc)" \
		test "$rc" -eq 2 -a ! -e "$TMP/cmd"
	grepq "... said" "^fbrun: error: --pace expects a speed from 0\.000001 to 1000000 .*got '$bad'\$" "$TMP/err"
done
check "fbrun replay --help lists --pace" eval '"$FBRUN" replay --help | grep -q -- "--pace\[=SPEED\]"'
formats=$(trace_formats)
check "define trace's unknown format= names the formats ($formats)" test -n "$formats"
"$FBRUN" replay --help >"$TMP/help"
check "fbrun replay --help names the formats the format knob takes" \
	grep -qF "  format   auto  ${formats#auto, } to force one" "$TMP/help"
# the slowest speed and an op 100000 s in: due 1e20 ns after the pass
# began, past what 64 bits of nanoseconds hold; it must wait (the run's
# end stops it), not run at once as a wrapped-around time would have it
printf '%s\n' 'fbrun-trace 1' 'stream "s"' '0.000000000 - statfs = 0' \
	'100000.000000000 - statfs = 0' >"$TMP/late.trace"
run_fbrun replay -q -t 1 --pace=0.000001 --format csv -D dir="$TMP/cmd" "$TMP/late.trace"
check "--pace=0.000001, an op 100000 s in: exit 0 (exit $rc)" test "$rc" -eq 0
n=$(awk -F, '$1 == "replay.statfs" { print $4 }' "$TMP/out")
check "... the first op done, the late one waited for, not run at once (ops: $n)" test "$n" = 1
rm -rf "$TMP/cmd"

# --- script errors ----------------------------------------------------------------------
for bad in "pace=0:got 0" "pace=-1:got -1" "pace=0.0:got 0" \
	"pace=fast:expects a number, got 'fast'"; do
	script "$TMP/span.trace" ",${bad%%:*}" "$TMP/bad"
	run_fbrun -q "$TMP/r.f"
	check "${bad%%:*}: exit 2, nothing made (exit $rc)" test "$rc" -eq 2 -a ! -e "$TMP/bad"
	grepq "... said at the attribute" "r\.f:6:[0-9]+: error: flowop attribute 'pace' .*${bad#*:}" "$TMP/err"
done
# small.loadfile's first lines have no time
script "$T/small.loadfile" ",pace=1" "$TMP/bad"
run_fbrun -q "$TMP/r.f"
check "pace with a trace without times: exit 2, nothing made (exit $rc)" \
	test "$rc" -eq 2 -a ! -e "$TMP/bad"
grepq "... said at the attribute" \
	"r\.f:6:[0-9]+: error: flowop replay attribute 'pace' needs the times of the trace's operations: trace 't' has none for 4 of them" \
	"$TMP/err"
run_fbrun replay --pace -D dir="$TMP/bad" "$T/small.loadfile"
check "fbrun replay --pace, a trace without times: exit 2 (exit $rc)" \
	test "$rc" -eq 2 -a ! -e "$TMP/bad"
grepq "... said" "needs the times of the trace's operations" "$TMP/err"
# pace on another flowop: the warning every unused attribute gets
cat >"$TMP/other.f" <<EOF
define fileset name=f,path=$TMP/other,entries=1,size=1k,prealloc
define process name=p { thread name=th {
  flowop statfile name=s,filesetname=f,pace=2
  flowop finishoncount name=fin,target=s,value=1 } }
run 60
EOF
run_fbrun -q "$TMP/other.f"
grepq "pace on another flowop: 'has no effect', at the attribute" \
	"other\.f:3:[0-9]+: warning: attribute 'pace' has no effect on flowop 'statfile'" "$TMP/err"

# --- calls=dbench: the calls dbench makes for a line ------------------------------------
for bad in "calls=dbench:$T/shell.strace:flowop replay attribute 'calls=dbench' needs a dbench loadfile: trace 't' is in strace's format" \
	"calls=bogus:$T/small.loadfile:flowop attribute 'calls' expects recorded or dbench, got 'bogus'"; do
	a=${bad%%:*}
	rest=${bad#*:}
	script "${rest%%:*}" ",$a" "$TMP/bad"
	run_fbrun -q "$TMP/r.f"
	check "$a on ${rest%%:*}: exit 2, nothing made (exit $rc)" \
		test "$rc" -eq 2 -a ! -e "$TMP/bad"
	grepq "... said at the attribute" "r\.f:6:[0-9]+: error: ${rest#*:}" "$TMP/err"
done
# small.loadfile: the same rows and counts whichever calls each line makes
mkdir -p "$TMP/calls"
for c in recorded dbench; do
	script "$T/small.loadfile" ",calls=$c" "$TMP/calls/$c"
	run_fbrun -q --format csv "$TMP/r.f"
	check "small.loadfile, calls=$c: exit 0 (exit $rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	awk -F, 'NR > 1 { print $1, $4, $10, $11, $12 }' "$TMP/out" |
		sort >"$TMP/calls/$c.rows"
done
if [ -s "$TMP/calls/recorded.rows" ] &&
	cmp -s "$TMP/calls/recorded.rows" "$TMP/calls/dbench.rows"; then
	pass "small.loadfile: calls=dbench has calls=recorded's rows, ops, bytes and errors"
else
	fail "small.loadfile: calls=dbench's rows differ from calls=recorded's"
	diff "$TMP/calls/recorded.rows" "$TMP/calls/dbench.rows" | diag
fi
# 40 stats of a name that is absent: with calls=dbench each first looks
# the name up, a stat and then a listing of its directory (getdents64),
# at least 40 more listings than recorded.  A setattr sets the times by
# name.
{
	printf '%s\n' 'Mkdir "\d" NT_STATUS_OK' \
		'NTCreateX "\d\f" 0x40 0x5 1 NT_STATUS_OK' \
		'SET_FILE_INFORMATION 1 1004 NT_STATUS_OK' 'Close 1 NT_STATUS_OK'
	for i in $(seq 1 40); do
		printf '%s\n' 'QUERY_PATH_INFORMATION "\d\Absent" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND'
	done
} >"$TMP/look.loadfile"
if ! command -v strace >/dev/null 2>&1; then
	skip "calls=dbench's lookups: strace is not installed"
else
	for c in recorded dbench; do
		script "$TMP/look.loadfile" ",calls=$c" "$TMP/calls/look-$c"
		rm -f "$TMP/calls/$c.st"
		strace_fb -f -qq -o "$TMP/calls/$c.st" -e trace=getdents64,utimensat \
			"$FBRUN" -q "$TMP/r.f" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		check "look.loadfile under strace, calls=$c: exit 0 (exit $rc)" test "$rc" -eq 0
		[ "$rc" -eq 0 ] || diag <"$TMP/err"
	done
	# fbrun lists directories of its own too (the tree's removal)
	r=$(grep -c 'getdents64(' "$TMP/calls/recorded.st")
	n=$(grep -c 'getdents64(' "$TMP/calls/dbench.st")
	check "calls=dbench: each absent name's lookup lists its directory ($n getdents64, recorded $r)" \
		test "$n" -ge $((r + 40))
	check "calls=dbench: SET_FILE_INFORMATION sets the times by name" \
		grep -Eq 'utimensat\([0-9]+, "f",' "$TMP/calls/dbench.st"
	if grep -Eq 'utimensat\([0-9]+, "f",' "$TMP/calls/recorded.st"; then
		fail "calls=recorded: no times set by name"
		diag <"$TMP/calls/recorded.st"
	else
		pass "calls=recorded: no times set by name"
	fi
fi

# --- SIGINT stops a paced replay whose next op is far away -----------------------------
printf '%s\n' 'fbrun-trace 1' 'stream "s"' '0.000000000 - statfs = 0' \
	'100000.000000000 - statfs = 0' >"$TMP/far.trace"
mkdir "$TMP/fs"
script "$TMP/far.trace" ",pace=1"
rm -f "$TMP/out" "$TMP/err"
# a guard against a hang, not a time the test expects
timeout -s KILL 300 "$FBRUN" -o "$TMP/far.json" "$TMP/r.f" >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
wait_for "$TMP/out" 'Running for'
kill -INT "$(ps -o pid= --ppid "$pid" | tr -d ' ')" 2>/dev/null || :
rc=0
wait "$pid" || rc=$?
check "SIGINT during a pace's nap: fbrun ends, exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... ended by the signal" '"ended_by": "signal"' "$TMP/far.json"
if $have_python; then
	check "... the first op done, the second not, the pass not counted" test \
		"$(json "$TMP/far.json" "(f['R.statfs']['ops'], f['R']['ops'])")" = "(1, 0)"
fi
check "... its tree removed" test -z "$(ls -A "$TMP/fs")"
rm -rf "$TMP/fs"

# --- SIGINT while the trace's initial state is made ---------------------------------
# interrupted ENTRIES DESC: the initial state made of the trace in
# $TMP/init.trace (ENTRIES of them) is interrupted by SIGINT once its
# first file is there: fbrun stops making it (fewer made than there are),
# exits 1 and the root holds nothing of fbrun's afterwards
interrupted() {
	rm -rf "$TMP/fs" "$TMP/out" "$TMP/err"
	mkdir "$TMP/fs"
	script "$TMP/init.trace" ""
	# a guard against a hang, not a time the test expects
	timeout -s KILL 600 "$FBRUN" -q "$TMP/r.f" >"$TMP/out" 2>"$TMP/err" </dev/null &
	pid=$!
	wait_until eval 'test -n "$(find "$TMP/fs" -mindepth 2 -type f -print -quit)"'
	kill -INT "$(ps -o pid= --ppid "$pid" | tr -d ' ')" 2>/dev/null || :
	rc=0
	wait "$pid" || rc=$?
	check "SIGINT while making $2: fbrun ends, exit 1 (exit $rc; 137 is a hang)" test "$rc" -eq 1
	made=$(sed -n 's/.*interrupted while making the trace.s initial state (\([0-9]*\) of \([0-9]*\) entries made).*/\1 \2/p' "$TMP/err")
	check "... it stopped making them ($made of $1 entries)" \
		eval 'set -- $made; test "$#" -eq 2 && test "$1" -lt "$2"'
	check "... the root holds nothing fbrun made" test -z "$(ls -A "$TMP/fs")"
}
{
	echo 'fbrun-trace 1'
	echo 'stream "s"'
	awk 'BEGIN { for (i = 0; i < 300000; i++) printf "0.000000000 - stat path=\"f%d\" = 0\n", i }'
} >"$TMP/init.trace"
interrupted 300000 "300000 files of the initial state"
# one file of 12 GiB, where there is room for it
if [ "$(df -Pk "$TMP" | awk 'NR == 2 { print $4 }')" -gt $((16 * 1024 * 1024)) ]; then
	printf '%s\n' 'fbrun-trace 1' 'stream "s"' \
		'0.000000000 - stat path="big" = 12884901888' >"$TMP/init.trace"
	interrupted 1 "one file of 12 GiB of the initial state"
else
	skip "SIGINT while a file of 12 GiB is made: less than 16 GiB free here"
fi
rm -rf "$TMP/fs" "$TMP/init.trace"

# --- a killed replay's trees, met by a run without replay ---------------------------
# the marker lists the replays (their ids) whose trees the root may hold:
# a later run of a script without replay removes them as fbrun's, and
# still refuses a name of that form the marker does not list
cat >"$TMP/kill.f" <<EOF
define fileset name=f,path=$TMP/kfs,entries=0,dirwidth=1
define trace name=t,path=$TMP/far.trace
define process name=p { thread name=th,instances=2 {
  flowop replay name=R,trace=t,filesetname=f,pace=1 } }
run 600
EOF
cat >"$TMP/plain.f" <<EOF
define fileset name=f,path=$TMP/kfs,entries=4,dirwidth=2,size=1k,prealloc
define process name=p { thread name=th {
  flowop statfile name=s,filesetname=f
  flowop finishoncount name=fin,target=s,value=3 } }
run 60
EOF
rm -f "$TMP/out"
# a guard against a hang, not a time the test expects
timeout -s KILL 300 "$FBRUN" "$TMP/kill.f" >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
# the trees are made before the clock, by each instance, after the log
# says it runs: wait for them
wait_until test -d "$TMP/kfs/f/replay-0-0" -a -d "$TMP/kfs/f/replay-0-1" -a \
	-f "$TMP/kfs/f/.fbrun-fileset"
kill -KILL "$(ps -o pid= --ppid "$pid" | tr -d ' ')" 2>/dev/null || :
wait "$pid" || :
check "a replay killed: its two trees are left" \
	test -d "$TMP/kfs/f/replay-0-0" -a -d "$TMP/kfs/f/replay-0-1"
grepq "... and the marker lists the replay's id" '^replay: 0$' "$TMP/kfs/f/.fbrun-fileset"
mkdir "$TMP/kfs/f/replay-9-0"
run_fbrun -q "$TMP/plain.f"
check "a run without replay, a replay-9-0 the marker does not list: refused, exit 2 (exit $rc)" \
	test "$rc" -eq 2 -a -d "$TMP/kfs/f/replay-0-0"
grepq "... naming it" "holds '$TMP/kfs/f/replay-9-0', which fbrun did not make" "$TMP/err"
rmdir "$TMP/kfs/f/replay-9-0"
run_fbrun -q "$TMP/plain.f"
check "a run without replay on the killed replay's fileset: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "... the killed run's trees removed with the rest" test ! -e "$TMP/kfs"

# --- streams=parallel -------------------------------------------------------------------
# 8 streams, each making, looking at and removing its own directories in
# its own order: every op done once, none failed (an op run before its
# stream's earlier one would fail: rmdir before mkdir, ENOENT)
{
	echo 'fbrun-trace 1'
	for s in 1 2 3 4 5 6 7 8; do
		echo "stream \"s$s\""
		echo "- - mkdir path=\"d$s\" mode=0755 = 0"
		echo "- - mkdir path=\"d$s/e\" mode=0755 = 0"
		echo "- - stat path=\"d$s/e\" flags=directory = 0"
		echo "- - rename path=\"d$s/e\" to=\"d$s/f\" = 0"
		echo "- - rmdir path=\"d$s/f\" = 0"
		echo "- - rmdir path=\"d$s\" = 0"
	done
} >"$TMP/streams.trace"
mkdir "$TMP/fs"
script "$TMP/streams.trace" ",streams=parallel"
sed -i 's/thread name=th {/thread name=th,instances=2 {/' "$TMP/r.f"
run_fbrun -q --format csv "$TMP/r.f"
check "streams=parallel, 8 streams, 2 instances: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
awk -F, 'NR > 1 && $1 ~ /^R/ { print $1, $4, $12 }' "$TMP/out" >"$TMP/got"
printf '%s\n' 'R 2 0' 'R.stat 16 0' 'R.rename 16 0' 'R.mkdir 32 0' 'R.rmdir 32 0' >"$TMP/want"
if cmp -s "$TMP/want" "$TMP/got"; then
	pass "... every op of every stream once per instance, none failed"
else
	fail "... every op of every stream once per instance, none failed"
	diff "$TMP/want" "$TMP/got" | diag
fi
# strace -f: each stream's mkdir from a thread of its own with parallel,
# all from one thread without
if command -v strace >/dev/null 2>&1; then
	for how in parallel sequence; do
		script "$TMP/streams.trace" ",streams=$how"
		rc=0
		strace_fb -f -e trace=mkdirat -o "$TMP/strace" "$FBRUN" -q "$TMP/r.f" \
			>/dev/null 2>&1 || rc=$?
		sed -n 's/^\([0-9]*\) *mkdirat(.*"d[1-8]", .*/\1/p' "$TMP/strace" |
			sort -u | wc -l | tr -d ' ' >"$TMP/tids"
		want=1
		[ "$how" = parallel ] && want=8
		check "strace, streams=$how: the 8 streams' mkdirs from $want thread(s) (exit $rc)" \
			test "$rc" -eq 0 -a "$(cat "$TMP/tids")" -eq "$want"
	done
else
	skip "streams under strace: strace is not installed"
fi
rm -rf "$TMP/fs"
script "$TMP/streams.trace" ",streams=both" "$TMP/bad"
run_fbrun -q "$TMP/r.f"
check "streams=both: exit 2, nothing made (exit $rc)" test "$rc" -eq 2 -a ! -e "$TMP/bad"
grepq "... said with the words it takes" "attribute 'streams' .*sequence.*parallel" "$TMP/err"

# --- free space for the replays' trees ------------------------------------------------
# on a tmpfs of 1 MiB and 40 inodes: the trees' bytes and files are
# counted before anything is made (instances x the trace's initial state)
if ! tmpfs_at size=1m,nr_inodes=40 "$TMP/small"; then
	skip "free space for the replays' trees: $why"
else
	# a file of 600 KiB the trace stats; 30 empty files
	printf '%s\n' 'fbrun-trace 1' 'stream "s"' \
		'0.000000000 - stat path="big" = 614400' >"$TMP/big.trace"
	{
		printf '%s\n' 'fbrun-trace 1' 'stream "s"'
		for i in $(seq 1 30); do
			echo "0.000000000 - stat path=\"f$i\" = 0"
		done
	} >"$TMP/many.trace"
	for t in big many; do
		run_fbrun replay -q -D dir="$TMP/small/r" -D clients=1 "$TMP/$t.trace"
		check "$t, 1 client: it fits, exit 0 (exit $rc)" test "$rc" -eq 0
		[ "$rc" -eq 0 ] || diag <"$TMP/err"
		run_fbrun replay -q -D dir="$TMP/small/r" -D clients=2 "$TMP/$t.trace"
		check "$t, 2 clients: refused, exit 1 (exit $rc)" test "$rc" -eq 1
		check "... nothing made" test -z "$(ls -A "$TMP/small")"
		cp "$TMP/err" "$TMP/err.$t"
	done
	grepq "big, 2 clients: bytes needed and free, said" \
		"^fbrun: error: not enough free space: fileset 'replay', with the trees of replay replay \\(2 copies of its trace's initial state\\), would take 1\\.2 MiB of the file system of '$TMP/small', which has 1\\.0 MiB free; nothing was created \\(--force tries anyway\\)\$" \
		"$TMP/err.big"
	grepq "many, 2 clients: files and directories needed and inodes free, said" \
		"^fbrun: error: not enough free inodes: the trees of replay replay \\(2 copies of its trace's initial state\\) would make 62 files and directories on the file system of '$TMP/small', which has [0-9]+ free; nothing was created" \
		"$TMP/err.many"
fi

done_testing
