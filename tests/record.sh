#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun record: its errors (no command, no strace on PATH, a command
# that is not there, a link or a FIFO where a file goes: refused before
# anything runs, nothing written through them), the command's status
# (files written, exit 1), a trace fbrun cannot read (a fake strace:
# located error, exit 2, NAME.trace kept, NAME.f not written), a
# command that leaves a daemon (record ends with the command), SIGINT and
# SIGTERM to fbrun (the recording cut short, written), a full TMPDIR,
# and a small program recorded and replayed with the NAME.f written.
#
# Then programs no one here wrote (issue 27, proof 3(b)): tar -x of a
# tarball, git init/add/commit of a tree, sqlite3 inserting rows, make
# -j2 of a small C project.  Each is recorded in one copy of its input,
# run again under `strace -f -C -y` in another (an independent run) and
# the recording replayed (fbrun NAME.f -o JSON).  The replay's ops per
# type and bytes read and written must equal the independent run's
# within 2% (tests/record-count.py: strace's own summary per system
# call, less the calls on pipes, sockets, /proc, /sys and /dev, found by
# code of its own); tar's written bytes must also be the sizes of the
# files it extracted.
. "${srcdir:-.}/tests/lib.sh"

COUNT=$srcdir/tests/record-count.py

# --- without strace ---------------------------------------------------------
run_fbrun record --help
check "--help: exit 0" test "$rc" -eq 0
grepq "... the usage names -o" '^  -o, --output NAME' "$TMP/out"

run_fbrun record
check "no command: exit 2 ($rc)" test "$rc" -eq 2
grepq "... saying so" "no command given: fbrun record" "$TMP/err"

mkdir "$TMP/nostrace" "$TMP/w"
rc=0
(cd "$TMP/w" && PATH=$TMP/nostrace "$FBRUN" record /bin/true) \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "strace not on PATH: exit 2 ($rc)" test "$rc" -eq 2
grepq "... naming strace and its Debian package" \
	"strace is not installed: .*Debian's package strace" "$TMP/err"
check "... nothing written" test -z "$(ls -A "$TMP/w")"

# a strace of the test's own (first on PATH): what it writes, fbrun reads
mkdir "$TMP/fake"
cat >"$TMP/fake/strace" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do
	case $1 in -o) out=$2; shift ;; --) break ;; esac
	shift
done
printf '%s' "$FAKE_TEXT" >"$out"
EOF
chmod +x "$TMP/fake/strace"
fake() {
	rc=0
	(cd "$TMP/w" && FAKE_TEXT=$1 PATH=$TMP/fake:$PATH "$FBRUN" record \
		-o bad true) >"$TMP/out" 2>"$TMP/err" || rc=$?
}
fake 'garbage, not strace output
'
check "a trace fbrun cannot read: exit 2 ($rc)" test "$rc" -eq 2
grepq "... its located error" "^bad\.trace:1:1: error: " "$TMP/err"
check "... bad.trace kept to look at, bad.f not written" \
	test -f "$TMP/w/bad.trace" -a ! -e "$TMP/w/bad.f"
rm -f "$TMP/w/bad.trace"
fake ''
check "strace wrote nothing: exit 1 ($rc)" test "$rc" -eq 1
grepq "... saying so" "strace recorded nothing" "$TMP/err"
check "... nothing written" test -z "$(ls -A "$TMP/w")"

if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
	skip "recording: strace is not installed or cannot trace here"
	done_testing
	exit
fi

# --- what fbrun refuses -------------------------------------------------------
run_fbrun record no-such-command-fbrun
check "a command not on PATH: exit 2 ($rc)" test "$rc" -eq 2
grepq "... saying so" "cannot run 'no-such-command-fbrun': no such command on PATH" "$TMP/err"

echo "not fbrun's" >"$TMP/victim"
# refused TARGET: a link or FIFO at $TMP/w/x.TARGET; nothing written or run
refused() {
	rc=0
	(cd "$TMP/w" && timeout -k 10 120 "$FBRUN" record -o x sh -c 'touch ran') \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "$1: exit 2 ($rc)" test "$rc" -eq 2
	grepq "... named in the error" "cannot write 'x\.$2': it is $3" "$TMP/err"
	check "... the command did not run, nothing else written" \
		test "$(ls -A "$TMP/w")" = "x.$2"
	check "... what the link names is as it was" \
		test "$(cat "$TMP/victim")" = "not fbrun's"
	rm -f "$TMP/w/x.$2"
}
ln -s "$TMP/victim" "$TMP/w/x.trace"
refused "a symbolic link at x.trace" trace "a symbolic link"
ln -s "$TMP/victim" "$TMP/w/x.f"
refused "a symbolic link at x.f" f "a symbolic link"
mkfifo "$TMP/w/x.trace"
refused "a FIFO at x.trace" trace "a FIFO"

# --- the command's status -----------------------------------------------------
rc=0
(cd "$TMP/w" && "$FBRUN" record -o st sh -c 'exit 3') >"$TMP/out" 2>"$TMP/err" || rc=$?
check "a command that exits 3: exit 1 ($rc)" test "$rc" -eq 1
grepq "... its status said" "exited with status 3" "$TMP/out"
check "... both files written" test -s "$TMP/w/st.trace" -a -s "$TMP/w/st.f"
rc=0
(cd "$TMP/w" && "$FBRUN" record -o st -- sh -c 'kill -KILL $$') >"$TMP/out" 2>"$TMP/err" || rc=$?
check "a command killed by a signal: exit 1 ($rc)" test "$rc" -eq 1
grepq "... the signal said" "was killed by signal 9" "$TMP/out"
grepq "... the old files replaced" "signal 9" "$TMP/w/st.f"
rm -f "$TMP/w"/st.*
# a TERM sent to fbrun goes to the command, which ends recorded
(cd "$TMP/w" && exec "$FBRUN" record -o st -- sh -c 'touch started; exec sleep 120') \
	>"$TMP/out" 2>"$TMP/err" &
fpid=$!
i=0
while [ ! -e "$TMP/w/started" ] && [ $i -lt 1200 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM "$fpid"
rc=0
wait "$fpid" || rc=$?
check "TERM to fbrun while the command runs: exit 1 ($rc)" test "$rc" -eq 1
grepq "... the command got it" "was killed by signal 15" "$TMP/out"
check "... both files written" test -s "$TMP/w/st.trace" -a -s "$TMP/w/st.f"
rm -f "$TMP/w"/st.* "$TMP/w/started"

# --- record ends with its command, not with what the command left ------------
# the command starts a daemon (a new session) and exits: record ends then
# (timeout is a guard against a hang, not a time anyone expects), says it
# left one process running, and the daemon runs on, let go untraced
rc=0
(cd "$TMP/w" && exec timeout 120 "$FBRUN" record -o dm -- sh -c \
	'setsid sh -c "echo \$\$ >daemon.pid; exec sleep 300" &') \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "a command that leaves a daemon: record ends with it, exit 0 ($rc; 124 is a hang)" \
	test "$rc" -eq 0
grepq "... says it left one process running, untraced" \
	"^the command left 1 process running, let go untraced: its later calls are not in the trace$" "$TMP/out"
wait_until test -s "$TMP/w/daemon.pid"
dpid=$(cat "$TMP/w/daemon.pid" 2>/dev/null || echo 0)
check "... the daemon runs on, no longer traced" \
	eval 'kill -0 "$dpid" && grep -q "^TracerPid:[[:space:]]*0$" "/proc/$dpid/status"'
kill "$dpid" 2>/dev/null || :
check "... its trace reads back (dm.f checks)" \
	eval '"$FBRUN" --dump-ir "$TMP/w/dm.f" >/dev/null'

rm -f "$TMP/w"/dm.* "$TMP/w/daemon.pid"

# stopped COMMAND SIGNAL: fbrun record -o cut under timeout (a hang
# guard) in the background, the command writing its pid then "started";
# the signal is sent once it has started (timeout passes it on to fbrun,
# and to the command: which ignores it, so it runs on)
stopped() {
	rm -f "$TMP/w"/cut.* "$TMP/w/started" "$TMP/w/cmd.pid"
	(cd "$TMP/w" && exec timeout 120 "$FBRUN" record -o cut -- sh -c "$1") \
		>"$TMP/out" 2>"$TMP/err" &
	fpid=$!
	wait_until test -e "$TMP/w/started"
	kill "-$2" "$fpid"
	rc=0
	wait "$fpid" || rc=$?
	cpid=$(cat "$TMP/w/cmd.pid" 2>/dev/null || echo 0)
}
# cut SIGNAL DESC: what a recording cut short by a signal leaves
cut() {
	check "$2: record ends, exit 1 ($rc; 124 is a hang)" test "$rc" -eq 1
	grepq "... the summary says it was cut short" "^cut short by signal $1 " "$TMP/out"
	grepq "... and that the command still runs" "is still running \\(pid $cpid\\), no longer traced" "$TMP/out"
	check "... the trace so far is written and reads back" \
		eval '"$FBRUN" model "$TMP/w/cut.trace" >/dev/null && test -s "$TMP/w/cut.f"'
	kill -KILL "$cpid" 2>/dev/null || :
}
stopped 'trap "" INT; echo $$ >cmd.pid; touch started; exec sleep 300' INT
cut 2 "SIGINT to fbrun, the command ignores it"
stopped 'trap "" TERM; echo $$ >cmd.pid; touch started; exec sleep 300' TERM
cut 15 "SIGTERM to fbrun, the command ignores it"

# --- TMPDIR with no room left: strace's output is not written there ------------
M=$TMP/fulltmp
if ! tmpfs_at size=64k "$M"; then
	skip "a full TMPDIR: $why"
else
	dd if=/dev/zero of="$M/fill" bs=4k 2>/dev/null || :
	rc=0
	(cd "$TMP/w" && TMPDIR=$M timeout 120 "$FBRUN" record -o full -- sh -c \
		'i=0; while [ $i -lt 1500 ]; do : >x; i=$((i + 1)); done; rm x') \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "a full TMPDIR: the recording works, exit 0 ($rc)" test "$rc" -eq 0
	check "... no message of strace's on stderr" eval '! grep -q "^strace: " "$TMP/err"'
	check "... every open of x is in the trace (1500)" \
		test "$(grep -c '"x", O_WRONLY|O_CREAT|O_TRUNC' "$TMP/w/full.trace")" -eq 1500
	rm -f "$TMP/w"/full.*
fi

# --- a small program recorded and replayed -------------------------------------
# it writes to its standard output (a file: a handle open before the
# trace, written) and makes a symbolic link it looks at without following
mkdir "$TMP/small"
rc=0
(cd "$TMP/small" && "$FBRUN" record -o "$TMP/small-rec" -- sh -c \
	'mkdir d && echo hello >d/a && cat d/a >d/b && mv d/b d/c && rm d/a &&
	ln -s c d/l && test -L d/l && echo done') \
	>"$TMP/small.out" 2>"$TMP/err" </dev/null || rc=$?
check "a small program recorded: exit 0 ($rc)" test "$rc" -eq 0
grepq "... the summary says what ran" "^recorded: sh -c '" "$TMP/small.out"
grepq "... and what the trace holds" "^  rename +1$" "$TMP/small.out"
grepq "... the workload says the command" "^# command:  sh -c 'mkdir d" "$TMP/small-rec.f"
grepq "... and reads the trace by its full path" \
	"^set \\\$trace=\"$TMP/small-rec.trace\"$" "$TMP/small-rec.f"
rc=0
(cd / && "$FBRUN" -q --format csv -D dir="$TMP/small-rp" "$TMP/small-rec.f") \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "fbrun NAME.f replays it: exit 0 ($rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
for row in open write rename unlink mkdir symlink lstat; do
	grepq "... a row replay.$row with ops, no errors" \
		"^replay\\.$row,[^,]*,[^,]*,[1-9][0-9]*,([^,]*,){7}0," "$TMP/out"
done
check "... the replay's trees removed after it" \
	test -z "$(ls -A "$TMP/small-rp" 2>/dev/null)"

# --- names strace escapes: UTF-8, < > " \ space, newline, tab -----------------
# recorded in a directory whose own name needs them (strace -y writes
# '>' as \76 in its annotations, the UTF-8 bytes in octal)
esc="$TMP/dé <a>b> \"q\""
mkdir "$esc"
cat >"$TMP/esc.sh" <<'EOF'
n=$(printf 'q"<t>\\ sp\nnl\ttab.')
mkdir "$n" && echo x >"$n/f" && cat "$n/f" >"$n/g" && mv "$n/f" "$n/h"
echo y >données && cat données >/dev/null && rm "$n/g"
EOF
rc=0
(cd "$esc" && "$FBRUN" record -o "$TMP/esc-rec" -- sh "$TMP/esc.sh") \
	>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
check "names strace escapes recorded: exit 0 ($rc)" test "$rc" -eq 0
grepq "... strace escaped them" '\\76b\\76 \\"q\\"' "$TMP/esc-rec.trace"
rc=0
(cd / && "$FBRUN" -q --format csv -D dir="$TMP/esc-rp" "$TMP/esc-rec.f") \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "... replayed: exit 0 ($rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
for row in open write rename unlink mkdir; do
	grepq "... a row replay.$row with ops, no errors" \
		"^replay\\.$row,[^,]*,[^,]*,[1-9][0-9]*,([^,]*,){7}0," "$TMP/out"
done
check "... no op that failed in the recording succeeded" \
	eval '! grep -q succeeded "$TMP/err"'

# --- a pipeline: a child only replaces the stdout it inherited --------------
# sh's children dup2 a pipe onto the stdout (a file here) and never use
# it: the replay opens it at their first op, so it must be in the tree
mkdir "$TMP/pipe"
echo "b a" >"$TMP/pipe/in"
rc=0
(cd "$TMP/pipe" && "$FBRUN" record -o "$TMP/pipe-rec" -- \
	sh -c 'cat in | tr a-z A-Z >up && wc -c <up >>n') \
	>"$TMP/pipe-stdout" 2>"$TMP/err" </dev/null || rc=$?
check "a pipeline with redirections recorded: exit 0 ($rc)" test "$rc" -eq 0
rc=0
"$FBRUN" replay -q --format csv -D dir="$TMP/pipe-rp" "$TMP/pipe-rec.trace" \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "... replayed: exit 0 ($rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"

# --- directories renamed, then what they hold removed --------------------------
i=0
for cmd in 'mkdir tmp && echo x >tmp/x && mv tmp final && rm final/x' \
	'cp -r a b && mv b c && rm -r c' \
	'mkdir -p d/e && mv d f && rm -rf f' \
	'mv pre post && cat post/x >/dev/null && mv post pre && cat pre/y >/dev/null'; do
	i=$((i + 1))
	mkdir -p "$TMP/mv$i/a" "$TMP/mv$i/pre"
	echo 1 >"$TMP/mv$i/a/f"
	echo 2 >"$TMP/mv$i/pre/x"
	echo 3 >"$TMP/mv$i/pre/y"
	rc=0
	(cd "$TMP/mv$i" && "$FBRUN" record -o "$TMP/mv$i-rec" -- sh -c "$cmd") \
		>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	check "'$cmd' recorded: exit 0 ($rc)" test "$rc" -eq 0
	rc=0
	(cd / && "$FBRUN" -q --format csv -D dir="$TMP/mv$i-rp" "$TMP/mv$i-rec.f") \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "... replayed: exit 0 ($rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	grepq "... its renames replayed, no errors" \
		"^replay\\.rename,[^,]*,[^,]*,[1-9][0-9]*,([^,]*,){7}0," "$TMP/out"
done

# --- symbolic links the program made and read through ---------------------------
# followed where they lead beneath the replay's tree (d/l to t, dd to d);
# one to outside the recording's directory is a counted mismatch, the
# run goes on, and nothing outside is read or written
mkdir "$TMP/ln" "$TMP/ln/w"
echo "not fbrun's" >"$TMP/ln/outside"
rc=0
(cd "$TMP/ln/w" && "$FBRUN" record -o "$TMP/ln-rec" -- sh -c \
	'mkdir d && echo hi >d/t && ln -s t d/l && cat d/l >/dev/null &&
	ln -s d dd && cat dd/l dd/t >/dev/null && echo more >>d/l &&
	ln -s "$0/../outside" d/o && cat d/o >/dev/null' "$TMP/ln/w") \
	>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
check "links made and read through, recorded: exit 0 ($rc)" test "$rc" -eq 0
rc=0
(cd / && "$FBRUN" -q --keep --format csv -D dir="$TMP/ln-rp" "$TMP/ln-rec.f") \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "... replayed: exit 0 ($rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
grepq "... the link to outside a counted mismatch, named" \
	"operations? through a symbolic link the recording made to outside its root failed, not followed out of the replay's tree; the first: open 'd/o'" "$TMP/err"
grepq "... replay.open and replay.read without errors" \
	"^replay\\.read,[^,]*,[^,]*,[1-9][0-9]*,([^,]*,){7}0," "$TMP/out"
t=$(find "$TMP/ln-rp" -type d -name 'replay-*' | head -n 1)
check "... d/l points to t, dd to d, d/o nowhere outside" test \
	"$(readlink "$t/d/l") $(readlink "$t/dd") $(readlink "$t/d/o")" = "t d .fbrun-replay-symlink"
check "... d/t holds what was appended through d/l" \
	test "$(wc -c <"$t/d/t")" -gt 0
check "... the file outside is as it was" \
	test "$(cat "$TMP/ln/outside")" = "not fbrun's"
rm -rf "$TMP/ln-rp"

# --- --model: NAME.f fitted to the trace, not a replay ------------------------
mkdir "$TMP/modl"
rc=0
(cd "$TMP/modl" && "$FBRUN" record --model -o "$TMP/modl-rec" -- sh -c \
	'mkdir d && for i in 1 2 3; do echo hello >d/f$i; cat d/f$i; done && rm d/f1') \
	>"$TMP/modl.out" 2>"$TMP/err" </dev/null || rc=$?
check "record --model: exit 0 ($rc)" test "$rc" -eq 0
grepq "... the summary says NAME.f is a model" \
	"and $TMP/modl-rec\.f \(a synthetic script fitted to it\)" "$TMP/modl.out"
grepq "... NAME.f is fbrun model's script of the trace" \
	"^# A synthetic model of $TMP/modl-rec\.trace \(fbrun model\)" "$TMP/modl-rec.f"
check "... with no replay in it" eval '! grep -q "flowop replay" "$TMP/modl-rec.f"'
"$FBRUN" model "$TMP/modl-rec.trace" >"$TMP/modl-same.f" 2>"$TMP/err" || :
check "... the same bytes fbrun model writes of the trace" \
	cmp -s "$TMP/modl-rec.f" "$TMP/modl-same.f"
rc=0
"$FBRUN" -q --format csv -D dir="$TMP/modl-rp" "$TMP/modl-rec.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
check "... and runs: exit 0 ($rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
grepq "... its paths thread removed the file rm did" '^paths\.unlink,[^,]*,[^,]*,1,' "$TMP/out"

# --- tar looks at a symlink it made through an O_PATH descriptor -----------------
mkdir -p "$TMP/lnk/src/d" "$TMP/lnk/out"
echo hi >"$TMP/lnk/src/d/a"
ln -s a "$TMP/lnk/src/d/l"
tar -cf "$TMP/lnk/t.tar" -C "$TMP/lnk/src" d
rc=0
(cd "$TMP/lnk/out" && "$FBRUN" record -o "$TMP/lnk-rec" -- tar -xf "$TMP/lnk/t.tar") \
	>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
check "tar -x of a symlink recorded: exit 0 ($rc)" test "$rc" -eq 0
rc=0
"$FBRUN" -q --format csv -D dir="$TMP/lnk-rp" "$TMP/lnk-rec.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
check "... replayed: exit 0, the link opened as tar did, O_PATH, not followed ($rc)" \
	test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
grepq "... replay.open without errors" "^replay\.open,[^,]*,[^,]*,[1-9][0-9]*,([^,]*,){7}0," "$TMP/out"

# --- cp's copy_file_range, a read and a write; flock named as not replayed -------
mkdir "$TMP/cp"
head -c 300000 /dev/urandom >"$TMP/cp/a"
rc=0
(cd "$TMP/cp" && "$FBRUN" record -o "$TMP/cp-rec" -- cp a b) \
	>"$TMP/cp.out" 2>"$TMP/err" </dev/null || rc=$?
check "cp of 300000 bytes recorded: exit 0 ($rc)" test "$rc" -eq 0
if ! grep -q 'copy_file_range(.*= 300000' "$TMP/cp-rec.trace"; then
	skip "cp's copy replayed: cp did not copy with copy_file_range here"
else
	grepq "... the copy counted as a write of its bytes" \
		"^  write +[1-9][0-9]* +300000 bytes$" "$TMP/cp.out"
	rc=0
	"$FBRUN" -q --format csv -D dir="$TMP/cp-rp" "$TMP/cp-rec.f" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "... replayed: exit 0 ($rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	grepq "... replay.write wrote the 300000 bytes, no errors" \
		'^replay\.write,[^,]*,[^,]*,[1-9][0-9]*,([^,]*,){4}300000,0,300000,0,' "$TMP/out"
fi
if command -v flock >/dev/null 2>&1; then
	rc=0
	(cd "$TMP/cp" && "$FBRUN" record -o "$TMP/fl-rec" -- flock a true) \
		>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	check "flock recorded: exit 0 ($rc)" test "$rc" -eq 0
	grepq "... the summary names flock as not replayed" \
		"^not replayed .*[:,] flock 1(,|$)" "$TMP/out"
else
	skip "flock named as not replayed: flock(1) is not installed (util-linux)"
fi

# --- real programs: counts against an independent run ---------------------------
if ! command -v python3 >/dev/null 2>&1; then
	skip "programs replayed against strace -c: python3 is not installed"
	done_testing
	exit
fi

# prove NAME COMMAND...: $TMP/NAME/a and .../b hold the same input;
# record in a, run the same under strace -C in b, replay, compare
prove() {
	pn=$1
	shift
	pd=$TMP/$pn
	rc=0
	(cd "$pd/a" && "$FBRUN" record -o "$pd/rec" -- "$@") \
		>"$pd/rec.out" 2>"$pd/rec.err" </dev/null || rc=$?
	check "$pn: recorded, exit 0 ($rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || { diag <"$pd/rec.err"; return; }
	(cd "$pd/b" && strace -f -C -y -qq -s 0 -o "$pd/ind.txt" -- "$@") \
		>"$pd/ind.out" 2>"$pd/ind.err" </dev/null || :
	rc=0
	"$FBRUN" -q -o "$pd/replay.json" -D dir="$pd/rp" "$pd/rec.f" \
		>"$pd/replay.out" 2>"$pd/replay.err" || rc=$?
	check "$pn: replayed, exit 0 ($rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || { diag <"$pd/replay.err"; return; }
	python3 "$COUNT" "$pd/ind.txt" "$pd/replay.json" >"$pd/counts" 2>"$TMP/err"
	# TYPE INDEPENDENT REPLAYED: within 2% of the independent count
	awk '!/^#/ { d = $2 - $3; if (d < 0) d = -d
		if (d * 100 > 2 * $2) print "off by more than 2%:", $0 }' \
		"$pd/counts" >"$pd/off"
	check "$pn: the replay's ops per type and bytes are the independent run's, within 2%" \
		test -s "$pd/counts" -a ! -s "$pd/off"
	diag <"$pd/counts"
	[ ! -s "$pd/off" ] || diag <"$pd/off"
}

# tar -x of a tarball of fbrun's sources
if command -v tar >/dev/null 2>&1; then
	mkdir -p "$TMP/tar/a" "$TMP/tar/b"
	tar -cf "$TMP/src.tar" -C "$srcdir" src
	prove tar tar -xf "$TMP/src.tar"
	find "$TMP/tar/b/src" -type f -printf '%s\n' |
		awk '{ s += $1 } END { print s + 0 }' >"$TMP/tarsize"
	awk -v s="$(cat "$TMP/tarsize")" '$1 == "bytes-written" {
		d = $3 - s; if (d < 0) d = -d; exit !(s > 0 && d * 100 <= 2 * s) }' \
		"$TMP/tar/counts"
	check "tar: the bytes written are the extracted files' sizes ($(cat "$TMP/tarsize")), within 2%" \
		test "$?" -eq 0
else
	skip "tar: not installed"
fi

# git init, add and commit of a copy of fbrun's sources
if command -v git >/dev/null 2>&1; then
	mkdir -p "$TMP/git/a" "$TMP/git/b" "$TMP/home"
	cp -R "$srcdir/src" "$TMP/git/a/"
	cp -R "$srcdir/src" "$TMP/git/b/"
	# files as new as git's index are read again at the commit (git's
	# "racy" entries): how many is a matter of timing, run to run
	find "$TMP/git/a" "$TMP/git/b" -exec touch -d 2020-01-01T00:00:00 {} +
	HOME=$TMP/home GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=fbrun \
	GIT_AUTHOR_EMAIL=fbrun@localhost GIT_COMMITTER_NAME=fbrun \
	GIT_COMMITTER_EMAIL=fbrun@localhost \
	GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
		prove git sh -c 'git -c init.defaultBranch=main init -q &&
			git add . && git commit -q -m sources'
else
	skip "git: not installed"
fi

# sqlite3: a table, 200 inserts in a transaction and 20 outside one
if command -v sqlite3 >/dev/null 2>&1; then
	mkdir -p "$TMP/sqlite/a" "$TMP/sqlite/b"
	{
		echo "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL);"
		echo "BEGIN;"
		i=0
		while [ $i -lt 200 ]; do
			echo "INSERT INTO t(name, v) VALUES('row $i', $i.5);"
			i=$((i + 1))
		done
		echo "COMMIT;"
		while [ $i -lt 220 ]; do
			echo "INSERT INTO t(name, v) VALUES('alone $i', $i);"
			i=$((i + 1))
		done
		echo "SELECT count(*) FROM t;"
	} >"$TMP/rows.sql"
	prove sqlite sqlite3 rows.db ".read $TMP/rows.sql"
	grepq "sqlite: the program made its 220 rows" '^220$' "$TMP/sqlite/rec.out"
else
	skip "sqlite3: not installed (Debian's package sqlite3)"
fi

# make -j2 of five C files
if command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
	mkdir -p "$TMP/make/a"
	echo '#define BASE 7' >"$TMP/make/a/base.h"
	for i in 1 2 3 4; do
		printf '#include "base.h"\nint f%s(int x) { return x * %s + BASE; }\n' \
			"$i" "$i" >"$TMP/make/a/f$i.c"
	done
	cat >"$TMP/make/a/main.c" <<'EOF'
#include <stdio.h>
int f1(int), f2(int), f3(int), f4(int);
int main(void) { printf("%d\n", f1(1) + f2(2) + f3(3) + f4(4)); return 0; }
EOF
	printf 'OBJS = main.o f1.o f2.o f3.o f4.o\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n%%.o: %%.c base.h\n\t$(CC) -O2 -c -o $@ $<\n' \
		>"$TMP/make/a/Makefile"
	cp -R "$TMP/make/a" "$TMP/make/b"
	prove make make -j2
	check "make: the program was built" test -x "$TMP/make/a/prog"
else
	skip "make -j2: make or cc is not installed"
fi

done_testing
