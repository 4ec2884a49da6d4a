#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun model TRACE: the synthetic script fitted to a trace.  Facts: a
# hand-written trace gives tests/model/tiny.f byte for byte, the same
# again and through -o; the script runs (exit 0) and does the trace's
# operations per type and its bytes; bad traces give the located error
# trace/bad/*.err holds, exit 2, and no file; -o never writes through a
# symlink or into a FIFO; the models of the readers' fixtures do their
# traces' operations and bytes within 1%.  Then real programs recorded
# with strace (tar
# -x, git init/add/commit, sqlite3 inserts, make -j2): each model, run
# once, does within 10% of the recording's operations per type
# (tests/tools/tracedump's counts of those that succeeded) and of its
# bytes read and written; the figures are printed as diagnostics.
. "${srcdir:-.}/tests/lib.sh"

TRACEDUMP=${TRACEDUMP:-$(dirname "$FBRUN")/tests/tools/tracedump}
M=$srcdir/tests/model

# The categories both sides count in: the model's flowops as the trace's
# types (a stat of an open file is a statfile too; fsync takes
# fdatasync; a listdir stands for a getdents).
# want TRACE: "TYPE COUNT" for the ops that succeeded, then the bytes
want() {
	"$TRACEDUMP" "$1" | awk '$1 == "op" {
		c = $2; n = $4 - $8
		if (c == "lstat" || c == "fstat") c = "stat"
		if (c == "fdatasync") c = "fsync"
		if (c ~ /^(open|close|read|write|fsync|stat|unlink|rename|link|mkdir|rmdir|readdir)$/)
			t[c] += n
		if ($2 == "read") rb = $6
		if ($2 == "write") wb = $6
	} END {
		for (c in t) print c, t[c]
		print "bytes-read", rb + 0
		print "bytes-written", wb + 0
	}' | sort
}

# got JSON: the same from the model's run, and "errors N"
got() {
	python3 - "$1" <<'EOF' | sort
import json, sys
r = json.load(open(sys.argv[1]))
as_type = {'openfile': 'open', 'createfile': 'open', 'closefile': 'close',
           'read': 'read', 'write': 'write', 'appendfile': 'write',
           'fsync': 'fsync', 'statfile': 'stat', 'deletefile': 'unlink',
           'renamefile': 'rename', 'linkfile': 'link', 'makedir': 'mkdir',
           'removedir': 'rmdir', 'listdir': 'readdir'}
t, rb, wb, err = {}, 0, 0, 0
for f in r['flowops']:
    err += f['errors']
    c = as_type.get(f['type'])
    if c:
        t[c] = t.get(c, 0) + f['ops']
        rb += f['read_bytes']
        wb += f['write_bytes']
for c, n in t.items():
    print(c, n)
print('bytes-read', rb)
print('bytes-written', wb)
print('errors', err)
EOF
}

# within PCT: every category of $TMP/want within PCT percent in
# $TMP/got (one the trace has none of: none); prints the table
within() {
	join -a1 -a2 -e0 -o 0,1.2,2.2 "$TMP/want" "$TMP/got" |
		awk -v pct="$1" '
		$1 == "errors" { next }
		{
			d = $3 - $2; if (d < 0) d = -d
			if ($2 > 0) {
				ok = d * 100 <= pct * $2
				rel = ($3 - $2) * 100 / $2
			} else {
				ok = $3 == 0
				rel = 0
			}
			printf "%-14s %10d %10d %7.1f%% %s\n", $1, $2, $3, rel,
				(ok ? "" : "OFF")
			if (!ok) bad++
		}
		END { exit bad > 0 }' >"$TMP/table"
}

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# --- a hand-written trace: exactly the expected script ------------------
(cd "$M" && "$FBRUN" model tiny.trace) >"$TMP/tiny.f" 2>"$TMP/err" ||
	{ fail "fbrun model tiny.trace exits 0"; diag <"$TMP/err"; }
if cmp -s "$M/tiny.f" "$TMP/tiny.f"; then
	pass "tiny.trace gives tests/model/tiny.f byte for byte"
else
	fail "tiny.trace gives tests/model/tiny.f"
	diff "$M/tiny.f" "$TMP/tiny.f" | diag
fi
(cd "$M" && "$FBRUN" model tiny.trace) >"$TMP/again.f" 2>/dev/null || :
(cd "$M" && "$FBRUN" model -o "$TMP/o.f" --format fbrun tiny.trace) \
	>"$TMP/out" 2>&1 || :
cmp -s "$TMP/tiny.f" "$TMP/again.f" && cmp -s "$TMP/tiny.f" "$TMP/o.f" &&
	[ ! -s "$TMP/out" ] &&
	pass "the same trace gives the same bytes, on stdout and through -o" ||
	{ fail "the same bytes again and through -o"; diag <"$TMP/out"; }

run_fbrun -q -D dir="$TMP/run" -o "$TMP/tiny.json" "$TMP/tiny.f"
[ "$rc" -eq 0 ] && pass "the tiny model runs and exits 0" ||
	{ fail "the tiny model runs (exit $rc)"; diag <"$TMP/err"; }
if $have_python; then
	want "$M/tiny.trace" >"$TMP/want"
	got "$TMP/tiny.json" >"$TMP/got"
	within 0 &&
		pass "the tiny model does the trace's operations and bytes exactly" ||
		{ fail "the tiny model's operations"; diag <"$TMP/table"; }
	grepq "the tiny model's run has no failed operation" '^errors 0$' \
		"$TMP/got"
else
	skip "the tiny model's counts: python3 is not installed"
fi
[ -z "$(ls -A "$TMP/run" 2>/dev/null)" ] &&
	pass "the model's filesets are removed after the run" ||
	{ fail "the model's filesets removed"; ls -AR "$TMP/run" | diag; }

# a newline in the trace's name stays inside the header's comment
nl="$TMP/a
run 5"
cp "$M/tiny.trace" "$nl"
run_fbrun model -o "$TMP/nl.f" "$nl"
[ "$rc" -eq 0 ] && head -n 1 "$TMP/nl.f" | grep -qx "# A synthetic model of $TMP/a?run 5 (fbrun model)" &&
	! grep -qx 'run 5' "$TMP/nl.f" &&
	pass "a newline in the trace's name is written as ? in the header" ||
	{ fail "a newline in the trace's name (exit $rc)"; head -n 2 "$TMP/nl.f" | diag; }

# --- bad traces: the located error, exit 2, nothing written --------------
for b in fbrun-truncated.trace strace-garbage.strace dbench-unknown.loadfile \
	fio-offset.iolog garbage.bin empty.trace; do
	rc=0
	(cd "$srcdir/tests" && "$FBRUN" model -o "$TMP/bad.f" "trace/bad/$b") \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	if [ "$rc" -eq 2 ] && cmp -s "$srcdir/tests/trace/bad/$b.err" "$TMP/err" &&
		[ ! -e "$TMP/bad.f" ] && [ ! -s "$TMP/out" ]; then
		pass "$b: its located error, exit 2, no script"
	else
		fail "$b: its located error, exit 2, no script (exit $rc)"
		diag <"$TMP/err"
	fi
done
run_fbrun model --format dbench "$M/tiny.trace"
[ "$rc" -eq 2 ] && grep -q 'tiny.trace:[0-9]*:[0-9]*: error: ' "$TMP/err" &&
	pass "--format forces the format: a trace of another is its located error" ||
	{ fail "--format dbench on an fbrun trace (exit $rc)"; diag <"$TMP/err"; }
# --format's words are the formats' table's (define trace's format=)
formats=$(trace_formats)
check "define trace's unknown format= names the formats ($formats)" test -n "$formats"
run_fbrun model --format nosuch "$M/tiny.trace"
[ "$rc" -eq 2 ] && grep -qF "expects $formats, got 'nosuch'" "$TMP/err" &&
	pass "an unknown --format: exit 2, the formats named" ||
	{ fail "an unknown --format: exit 2, the formats named (exit $rc)"; diag <"$TMP/err"; }
"$FBRUN" model --help | tr '\n' ' ' | tr -s ' ' >"$TMP/help"
check "model --help names the formats" \
	grep -qF "auto (from its first lines), ${formats#auto, }" "$TMP/help"
printf 'fbrun-trace 1\nstream "a"\n0 - stat path="x" = ENOENT\n' >"$TMP/none.trace"
run_fbrun model "$TMP/none.trace"
[ "$rc" -eq 2 ] && grep -q 'nothing to model' "$TMP/err" && [ ! -s "$TMP/out" ] &&
	pass "a trace of nothing but failures: nothing to model, exit 2" ||
	{ fail "nothing to model (exit $rc)"; diag <"$TMP/err"; }
run_fbrun model
[ "$rc" -eq 2 ] && pass "no trace: exit 2" || fail "no trace (exit $rc)"

# fbrun-mpi runs no model: it says so, exit 2
MPI_FBRUN=$(dirname "$FBRUN")/fbrun-mpi
if command -v mpirun >/dev/null 2>&1 && [ -x "$MPI_FBRUN" ]; then
	rc=0
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		timeout 300 mpirun -n 1 "$MPI_FBRUN" model "$M/tiny.trace" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" -ne 0 ] && [ ! -s "$TMP/out" ] &&
		grep -q '^fbrun-mpi: error: model runs in one process: run it with fbrun$' "$TMP/err" &&
		pass "fbrun-mpi model: runs in one process, run it with fbrun" ||
		{ fail "fbrun-mpi model refused (exit $rc)"; diag <"$TMP/err"; }
else
	skip "fbrun-mpi model: no mpirun or no fbrun-mpi"
fi

# --- -o: a regular file or none, never through a link or into a FIFO -----
echo keep >"$TMP/target"
ln -s "$TMP/target" "$TMP/link"
run_fbrun model -o "$TMP/link" "$M/tiny.trace"
[ "$rc" -eq 2 ] && [ "$(cat "$TMP/target")" = keep ] && [ -L "$TMP/link" ] &&
	pass "-o a symlink: refused, exit 2, its target untouched" ||
	fail "-o a symlink (exit $rc)"
mkfifo "$TMP/fifo"
run_fbrun model -o "$TMP/fifo" "$M/tiny.trace"
[ "$rc" -eq 2 ] && [ -p "$TMP/fifo" ] &&
	pass "-o a FIFO: refused, exit 2" || fail "-o a FIFO (exit $rc)"

# --- the readers' fixtures (tests/trace): within 1% ---------------------
# fit NAME TRACE PCT: the model of TRACE, run once, within PCT
fit() {
	rm -rf "$TMP/run"
	run_fbrun model -o "$TMP/$1.f" "$2"
	if [ "$rc" -ne 0 ]; then
		fail "$1: fbrun model exits 0 (exit $rc)"
		diag <"$TMP/err"
		return
	fi
	run_fbrun -q -D dir="$TMP/run" -o "$TMP/$1.json" "$TMP/$1.f"
	if [ "$rc" -ne 0 ]; then
		fail "$1: the model runs and exits 0 (exit $rc)"
		diag <"$TMP/err"
		return
	fi
	pass "$1: the model runs and exits 0"
	want "$2" >"$TMP/want"
	got "$TMP/$1.json" >"$TMP/got"
	if within "$3"; then
		pass "$1: the model's ops per type and bytes within $3% of the trace's"
	else
		fail "$1: the model's ops per type and bytes within $3%"
	fi
	printf '%s: %-12s %10s %10s %8s\n' "$1" type trace model diff | diag
	sed "s/^/$1: /" "$TMP/table" | diag
	grepq "$1: the model's run has no failed operation" '^errors 0$' "$TMP/got"
}

if $have_python; then
	for f in tar.strace threads.strace small.loadfile seqwrite.iolog2 \
		randrw.iolog3; do
		fit "$f" "$srcdir/tests/trace/$f" 1
	done
else
	skip "the fixtures' models: python3 is not installed"
fi

# --- real programs recorded with strace ----------------------------------
# record NAME COMMAND...: runs COMMAND in $TMP/NAME under strace
record() {
	n=$1
	shift
	mkdir -p "$TMP/$n"
	(cd "$TMP/$n" && strace -f -ttt -T -y -o "$TMP/$n.trace" "$@") \
		>"$TMP/$n.log" 2>&1
}

# model NAME: the model of $TMP/NAME.trace, run once, within 10%
model() {
	fit "$1" "$TMP/$1.trace" 10
}

if ! command -v strace >/dev/null 2>&1; then
	skip "real programs: strace is not installed"
elif ! $have_python; then
	skip "real programs: python3 is not installed"
elif ! strace -o /dev/null true 2>/dev/null; then
	skip "real programs: strace cannot trace here (ptrace refused)"
else
	if command -v tar >/dev/null 2>&1 && [ -d /usr/include/linux ]; then
		tar -C /usr/include -cf "$TMP/src.tar" linux
		record tar tar -xf "$TMP/src.tar" &&
			model tar || fail "tar -x under strace"
	else
		skip "tar -x: tar or /usr/include/linux is missing"
	fi
	if command -v git >/dev/null 2>&1 && [ -d /usr/include/linux ]; then
		mkdir -p "$TMP/git"
		cp -R /usr/include/linux/netfilter "$TMP/git/tree"
		record git sh -c 'git init -q . && git add . &&
			git -c user.name=fbrun -c user.email=fbrun@localhost \
				commit -q -m tree' &&
			model git || fail "git init/add/commit under strace"
	else
		skip "git: git or /usr/include/linux is missing"
	fi
	if command -v sqlite3 >/dev/null 2>&1; then
		i=0
		{
			echo 'create table t (n integer, s text);'
			while [ "$i" -lt 200 ]; do
				echo "insert into t values ($i, 'row $i');"
				i=$((i + 1))
			done
		} >"$TMP/rows.sql"
		record sqlite sqlite3 db.sqlite ".read $TMP/rows.sql" &&
			model sqlite || fail "sqlite3 under strace"
	else
		skip "sqlite3: not installed"
	fi
	if command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
		mkdir -p "$TMP/make"
		for i in 1 2 3 4 5 6; do
			printf '#include <stdio.h>\n#include <string.h>\nint f%d(int x)\n{\n\tchar b[32];\n\tsnprintf(b, sizeof b, "%%d", x);\n\treturn (int)strlen(b) + %d;\n}\n' \
				"$i" "$i" >"$TMP/make/f$i.c"
		done
		printf 'int f1(int);\nint main(void)\n{\n\treturn f1(3) == 0;\n}\n' \
			>"$TMP/make/main.c"
		printf 'OBJS = main.o f1.o f2.o f3.o f4.o f5.o f6.o\nprog: $(OBJS)\n\tcc -o $@ $(OBJS)\n%%.o: %%.c\n\tcc -O1 -c -o $@ $<\n' \
			>"$TMP/make/Makefile"
		record make make -j2 && model make || fail "make -j2 under strace"
	else
		skip "make -j2: make or cc is missing"
	fi
fi

done_testing
