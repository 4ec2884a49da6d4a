#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The trace readers (src/trace/) through tests/tools/tracedump: per op
# type the counts, bytes and failures of each format checked against an
# independent count (awk over the same file, the files a tar holds),
# fbrun's own format written and read back, and bad traces refused with
# their located error (tests/trace/bad/X -> X.err, exit 2).
# UPDATE_GOLDEN=1 rewrites the .err files.
. "${srcdir:-.}/tests/lib.sh"

TRACEDUMP=${TRACEDUMP:-$(dirname "$FBRUN")/tests/tools/tracedump}
T=$srcdir/tests/trace

# dump FILE [OPTIONS]: tracedump's report in $TMP/dump, its status in $rc
dump() {
	dump_file=$1
	shift
	rc=0
	"$TRACEDUMP" "$@" "$dump_file" >"$TMP/dump" 2>"$TMP/dumperr" || rc=$?
}

# the op lines of the dump for the types named, "TYPE COUNT BYTES FAILED"
ops_of() {
	for ty in "$@"; do
		awk -v t="$ty" '$1 == "op" && $2 == t { print t, $4, $6, $8; f = 1 }
			END { if (!f) print t, 0, 0, 0 }' "$TMP/dump"
	done
}

# the same from a dbench loadfile, counted by its own names
dbench_count() {
	awk '
	BEGIN {
		m["NTCreateX"] = "open"; m["Close"] = "close"; m["ReadX"] = "read"
		m["WriteX"] = "write"; m["Flush"] = "fsync"
		m["QUERY_PATH_INFORMATION"] = "stat"; m["QUERY_FILE_INFORMATION"] = "fstat"
		m["QUERY_FS_INFORMATION"] = "statfs"; m["SET_FILE_INFORMATION"] = "setattr"
		m["FIND_FIRST"] = "readdir"; m["Unlink"] = "unlink"; m["Rename"] = "rename"
		m["Mkdir"] = "mkdir"; m["Rmdir"] = "rmdir"; m["Deltree"] = "deltree"
		m["LockX"] = "lock"; m["UnlockX"] = "unlock"
	}
	/^#/ || NF < 2 { next }
	{
		i = $1 ~ /^[0-9]/ ? 2 : 1
		if (!($i in m)) next
		t = m[$i]; n[t]++
		if ($NF != "NT_STATUS_OK") bad[t]++
		else if (t == "read" || t == "write") b[t] += $(i + 4)
	}
	END { for (t in n) print t, n[t], b[t] + 0, bad[t] + 0 }' "$1"
}

# the same from strace output: calls on files, not on /proc, /sys, /dev,
# pipes or sockets, "?" results left out, unfinished calls joined
strace_count() {
	awk '
	function pseudo(p) { return p ~ /^\/(proc|sys|dev)(\/|$)/ }
	function fdfile(a,   p) {
		if (a !~ /^[0-9]+<\//) return 0
		p = substr(a, index(a, "<") + 1); p = substr(p, 1, index(p, ">") - 1)
		return !pseudo(p)
	}
	# the first quoted path, from the directory the first argument names
	function qpath(a, at,   q, d) {
		q = substr(a, index(a, "\"") + 1); q = substr(q, 1, index(q, "\"") - 1)
		if (q ~ /^\// || !at) return q
		d = substr(a, index(a, "<") + 1); d = substr(d, 1, index(d, ">") - 1)
		return d "/" q
	}
	function add(t, ok, by) { n[t]++; if (!ok) bad[t]++; else b[t] += by }
	{
		line = $0; pid = ""
		if (match(line, /^[0-9]+ +/)) { pid = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1) }
		sub(/^[0-9]+\.[0-9]+ /, "", line)
		if (line ~ / <unfinished \.\.\.>$/) { sub(/ <unfinished \.\.\.>$/, "", line); pend[pid] = line; next }
		if (line ~ /^<\.\.\. [a-z0-9_]+ resumed>/) { sub(/^<\.\.\. [a-z0-9_]+ resumed>/, "", line); line = pend[pid] line }
		if (line !~ /^[a-z0-9_]+\(/) next
		name = substr(line, 1, index(line, "(") - 1)
		r = 0; s = line
		while ((k = index(s, ") = ")) > 0) { r += k + 3; s = substr(s, k + 4) }
		if (!r) next
		args = substr(line, length(name) + 2, r - length(name) - 5)
		ret = substr(line, r + 1); sub(/[ <].*/, "", ret)
		if (ret == "?") next
		okc = ret !~ /^-/
		if (name ~ /^p?readv?(64|2)?$/ && fdfile(args)) add("read", okc, ret)
		else if (name ~ /^p?writev?(64|2)?$/ && fdfile(args)) add("write", okc, ret)
		else if (name ~ /^(close|fsync|fdatasync|getdents64)$/ && fdfile(args))
			add(name == "getdents64" ? "readdir" : name, okc, 0)
		else if (name ~ /^(open|openat|creat|mkdir|mkdirat|unlink|unlinkat|rmdir|rename|renameat|renameat2)$/) {
			if (pseudo(qpath(args, name ~ /at2?$/))) next
			t = name; sub(/at2?$/, "", t)
			if (t == "creat") t = "open"
			if (t == "unlink" && args ~ /AT_REMOVEDIR/) t = "rmdir"
			add(t, okc, 0)
		}
	}
	END { for (t in n) print t, n[t], b[t] + 0, bad[t] + 0 }' "$1"
}

# the fio iolog's I/O lines counted
fio_count() {
	awk 'NR == 1 { v = $3; next }
	{
		i = v == 3 ? 2 : 1; a = $(i + 1)
		if (a == "open" || a == "close") n[a]++
		else if (a == "read" || a == "write") { n[a]++; b[a] += $(i + 3) }
		else if (a == "sync") n["fsync"]++
		else if (a == "datasync") n["fdatasync"]++
	}
	END { for (t in n) print t, n[t], b[t] + 0, 0 }' "$1"
}

# same_counts DESC WANTFILE TYPES...: the dump's op lines for TYPES equal
# those in WANTFILE (types missing there count 0)
same_counts() {
	d=$1 want=$2
	shift 2
	ops_of "$@" >"$TMP/got"
	for ty in "$@"; do
		awk -v t="$ty" '$1 == t { print; f = 1 } END { if (!f) print t, 0, 0, 0 }' "$want"
	done >"$TMP/want"
	if cmp -s "$TMP/want" "$TMP/got"; then
		pass "$d"
	else
		fail "$d"
		diff "$TMP/want" "$TMP/got" | diag || true
	fi
}

# round_trip DESC FILE: fbrun's format written, read back, the same dump
round_trip() {
	dump "$2"
	grep -v '^format' "$TMP/dump" >"$TMP/dump1"
	"$TRACEDUMP" -w "$2" >"$TMP/rt.trace" 2>"$TMP/dumperr" || :
	dump "$TMP/rt.trace"
	if [ "$rc" -eq 0 ] && grep -qx 'format fbrun' "$TMP/dump" &&
		grep -v '^format' "$TMP/dump" | cmp -s "$TMP/dump1" -; then
		pass "$1"
	else
		fail "$1 (exit $rc)"
		diag <"$TMP/dumperr"
	fi
}

all_types="open close read write fsync fdatasync stat fstat statfs setattr readdir unlink rename mkdir rmdir deltree lock unlock"
file_types="open close read write fsync fdatasync readdir mkdir unlink rmdir rename"

# ---- the committed fixtures
dump "$T/small.loadfile"
dbench_count "$T/small.loadfile" >"$TMP/count"
same_counts "small dbench loadfile: counts, bytes and failures per type" "$TMP/count" $all_types
grep -E '^initial' "$TMP/dump" >"$TMP/init" || :
printf 'initial dir shared\ninitial file shared/readme 1000\n' | cmp -s - "$TMP/init" &&
	pass "small dbench loadfile: the initial state (what it reads before making)" ||
	{ fail "small dbench loadfile: the initial state"; diag <"$TMP/init"; }
round_trip "small dbench loadfile: fbrun's format round trip" "$T/small.loadfile"

for f in tar.strace threads.strace shell.strace; do
	dump "$T/$f"
	strace_count "$T/$f" >"$TMP/count"
	same_counts "$f: counts, bytes and failures per type against awk" "$TMP/count" $file_types
	round_trip "$f: fbrun's format round trip" "$T/$f"
done
dump "$T/tar.strace"
grep -qx 'initial file x.tar 61440' "$TMP/dump" &&
	pass "tar.strace: the archive it reads is in the initial state, whole" ||
	fail "tar.strace: the archive in the initial state"
dump "$T/threads.strace"
grep -E '^initial' "$TMP/dump" >"$TMP/init" || :
printf 'initial file in.dat 20000\ninitial dir old\ninitial dir out\n' |
	cmp -s - "$TMP/init" &&
	pass "threads.strace: the initial state holds the directory it removes" ||
	{ fail "threads.strace: the initial state"; diag <"$TMP/init"; }
dump "$T/detached.strace"
grep -E '^(op|ignored unfinished|initial) ' "$TMP/dump" >"$TMP/got" || :
printf 'op open count 2 bytes 0 failed 0\nop close count 1 bytes 0 failed 0\nop read count 1 bytes 6 failed 0\nignored unfinished 1\ninitial file in.txt 6\n' |
	cmp -s - "$TMP/got" && test "$rc" -eq 0 &&
	pass "detached.strace: a call strace let go of mid-way (<detached ...>) is read as one that never finished" ||
	{ fail "detached.strace: read ($rc)"; diag <"$TMP/dump"; }
dump "$T/inherit.strace"
grep -E '^initial' "$TMP/dump" >"$TMP/init" || :
printf 'initial file log 0\n' | cmp -s - "$TMP/init" &&
	pass "inherit.strace: a handle the child inherited and only replaced (a shell's stdout) is in the initial state: the replay opens it at the child's first op" ||
	{ fail "inherit.strace: the initial state"; diag <"$TMP/init"; }
dump "$T/shell.strace"
grep -E '^initial' "$TMP/dump" >"$TMP/init" || :
printf 'initial file in.txt 6\ninitial file out.log 0\n' | cmp -s - "$TMP/init" &&
	pass "shell.strace: the initial state: what the child inherits is made in the trace, not before it" ||
	{ fail "shell.strace: the initial state"; diag <"$TMP/init"; }
grep -E '^op (symlink|lock|unlock) ' "$TMP/dump" >"$TMP/got" || :
printf 'op symlink count 1 bytes 0 failed 0\nop lock count 1 bytes 0 failed 0\nop unlock count 1 bytes 0 failed 0\n' |
	cmp -s - "$TMP/got" &&
	pass "shell.strace: symlinkat, and fcntl's F_SETLK of a lock and of F_UNLCK (not F_GETLK)" ||
	{ fail "shell.strace: symlink, lock and unlock"; diag <"$TMP/got"; }
# strace -y's escapes in annotations and strings (\76 for '>', octal
# UTF-8, \n, \t, \" and \\), and close(-1) = -1 EBADF: a failed call
dump "$T/escape.strace"
check "escape.strace: read, exit 0 ($rc)" test "$rc" -eq 0
grep -E '^initial' "$TMP/dump" >"$TMP/init" || :
printf 'initial file donn\303\251es\t 1\n' | cmp -s - "$TMP/init" &&
	pass "escape.strace: the annotation's path decoded, under the root a>b decoded" ||
	{ fail "escape.strace: the initial state"; diag <"$TMP/init"; }
grepq "escape.strace: close(-1) kept as a close that failed" \
	'^op close count 2 bytes 0 failed 1$' "$TMP/dump"
"$TRACEDUMP" -w "$T/escape.strace" >"$TMP/esc.trace" 2>"$TMP/dumperr" || :
grepq "escape.strace: the file's name decoded, one path for the string and the annotation" \
	'^[0-9.]+ [0-9.]+ open h=0 path="x\\"<y>\\\\ z\\x0a" ' "$TMP/esc.trace"
grepq "escape.strace: the close on a bad descriptor, on no handle" \
	'^[0-9.]+ [0-9.]+ close = EBADF$' "$TMP/esc.trace"
round_trip "escape.strace: fbrun's format round trip" "$T/escape.strace"
# renames of directories in the initial state, both ways: what a renamed
# directory holds is known under its new name (made, or there since the
# start under the old one, read to its size there), and a name below it
# the trace never named was below the old name at the start
dump "$T/renames.strace"
grep -E '^initial' "$TMP/dump" >"$TMP/init" || :
printf 'initial dir old\ninitial dir old/a\ninitial dir old/a/b\ninitial file old/a/b/c 0\ninitial dir pre\ninitial file pre/x 2\ninitial file pre/y 3\n' |
	cmp -s - "$TMP/init" &&
	pass "renames.strace: the initial state followed through the directories' renames" ||
	{ fail "renames.strace: the initial state"; diag <"$TMP/init"; }
# 20,000 directories renamed, a file below each then removed
awk 'BEGIN { for (i = 0; i < 20000; i++) {
	printf "1 1796317320.%06d renameat(AT_FDCWD</r>, \"d%d\", AT_FDCWD</r>, \"e%d\") = 0 <0.000001>\n", 2 * i, i, i
	printf "1 1796317320.%06d unlinkat(AT_FDCWD</r>, \"e%d/x\", 0) = 0 <0.000001>\n", 2 * i + 1, i } }' \
	>"$TMP/ren.strace"
dump "$TMP/ren.strace"
check "20,000 directories renamed: 20,000 files below their old names at the start (exit $rc)" \
	test "$rc" -eq 0 -a "$(grep -c '^initial file d[0-9]*/x 0$' "$TMP/dump")" -eq 20000
rm -f "$TMP/ren.strace"
dump "$T/randrw.iolog3"
grep -qx 'initial file _abs/tmp/fiot/data/f1 65536' "$TMP/dump" &&
	pass "randrw.iolog3: what it reads past its own writes was in the file" ||
	{ fail "randrw.iolog3: the file's initial size"; grep initial "$TMP/dump" | diag; }
dump "$T/tar.strace"
grep -qx 'op write count 10 bytes 50034 failed 0' "$TMP/dump" &&
	pass "tar.strace: tar wrote the bytes of the files it held (50034)" ||
	fail "tar.strace: tar's writes"

for f in seqwrite.iolog2 randrw.iolog3; do
	dump "$T/$f"
	fio_count "$T/$f" >"$TMP/count"
	same_counts "$f: counts and bytes per type against awk" "$TMP/count" open close read write fsync fdatasync
	round_trip "$f: fbrun's format round trip" "$T/$f"
done

# ---- bad traces: the located error, exit 2, nothing on stdout
cd "$srcdir/tests"
for f in trace/bad/*; do
	case $f in *.err) continue ;; esac
	rc=0
	"$TRACEDUMP" "$f" >"$TMP/out" 2>"$TMP/err" || rc=$?
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$TMP/err" "$f.err"
	fi
	if [ "$rc" -eq 2 ] && cmp -s "$TMP/err" "$f.err" && [ ! -s "$TMP/out" ]; then
		pass "$f: its located error, exit 2"
	else
		fail "$f (exit $rc)"
		diff -u "$f.err" "$TMP/err" | diag || true
	fi
done

# a descriptor that is not a number: refused without reading what was
# never set (valgrind's memcheck on the plain build)
if ldd "$TRACEDUMP" 2>/dev/null | grep -Eq 'lib(asan|tsan|ubsan)'; then
	skip "memcheck of the strace reader: valgrind cannot run a sanitizer build"
elif ! command -v valgrind >/dev/null 2>&1; then
	skip "memcheck of the strace reader: needs valgrind"
else
	rc=0
	valgrind -q --error-exitcode=9 "$TRACEDUMP" trace/bad/strace-badfd.strace \
		>/dev/null 2>"$TMP/vg" || rc=$?
	check "read(abc, ...): its located error under memcheck, no uninitialised read (exit $rc)" \
		test "$rc" -eq 2
	[ "$rc" -eq 2 ] || diag <"$TMP/vg"
fi
cd "$TMP"

# ---- dbench's own loadfile
client=/usr/share/dbench/client.txt
if [ -r "$client" ]; then
	dump "$client"
	dbench_count "$client" >"$TMP/count"
	same_counts "dbench client.txt: counts, bytes and failures per type" "$TMP/count" $all_types
	check "dbench client.txt: one stream" grep -qx 'streams 1' "$TMP/dump"
	round_trip "dbench client.txt: fbrun's format round trip" "$client"
else
	skip "dbench is not installed (apt-get install dbench)"
fi

# ---- real programs recorded now
if ! command -v strace >/dev/null 2>&1; then
	skip "strace is not installed (apt-get install strace)"
elif ! strace -f -o /dev/null true 2>/dev/null; then
	skip "strace cannot trace here (ptrace is not allowed)"
else
	mkdir -p "$TMP/rec/src/d/e"
	cd "$TMP/rec"
	i=1
	for n in 5000 70000 300 0; do
		head -c "$n" /dev/urandom >"src/f$i"
		i=$((i + 1))
	done
	echo hello >src/d/e/g
	tar -cf x.tar src
	held=$(find src -type f -exec cat {} + | wc -c)
	rm -rf src
	strace -f -ttt -T -y -o tar.strace tar -xf x.tar </dev/null >/dev/null 2>&1
	dump tar.strace
	strace_count tar.strace >"$TMP/count"
	same_counts "tar -x recorded: counts, bytes and failures against awk" "$TMP/count" $file_types
	grep -Eq "^op write count [0-9]+ bytes $held " "$TMP/dump" &&
		pass "tar -x recorded: it wrote the $held bytes the archive held" ||
		{ fail "tar -x recorded: the bytes written"; diag <"$TMP/dump"; }
	grep -qx "initial file x.tar $(wc -c <x.tar)" "$TMP/dump" &&
		pass "tar -x recorded: the archive in the initial state, whole" ||
		fail "tar -x recorded: the archive in the initial state"
	round_trip "tar -x recorded: fbrun's format round trip" tar.strace
	if command -v git >/dev/null 2>&1; then
		strace -f -ttt -T -y -o ../git.strace sh -c 'git init -q . &&
			git add . && git -c user.name=t -c user.email=t@t commit -qm m' \
			</dev/null >/dev/null 2>&1
		dump ../git.strace
		strace_count ../git.strace >"$TMP/count"
		same_counts "git init, add, commit recorded: counts, bytes and failures against awk" \
			"$TMP/count" $file_types
		streams=$(awk '$1 == "streams" { print $2 }' "$TMP/dump")
		pids=$(awk '{ print $1 }' ../git.strace | sort -u | wc -l)
		check "git recorded: a stream per process ($pids)" [ "$streams" = "$pids" ]
		round_trip "git recorded: fbrun's format round trip" ../git.strace
	else
		skip "git is not installed (apt-get install git)"
	fi
	cd "$TMP"
fi

if command -v fio >/dev/null 2>&1; then
	mkdir -p "$TMP/fio"
	if fio --name=j --directory="$TMP/fio" --filename=f --size=256k --bs=4k \
		--rw=randrw --fsync=4 --write_iolog="$TMP/fio.iolog" >/dev/null 2>&1; then
		dump "$TMP/fio.iolog"
		fio_count "$TMP/fio.iolog" >"$TMP/count"
		same_counts "fio's own iolog: counts and bytes against awk" "$TMP/count" open close read write fsync
		round_trip "fio's own iolog: fbrun's format round trip" "$TMP/fio.iolog"
	else
		skip "fio cannot write an iolog here"
	fi
else
	skip "fio is not installed (apt-get install fio)"
fi
done_testing
