#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun bonnie: each phase script alone (operation counts, sizes, names and
# data on disk), the whole series on a tiny size (CSV fields in both
# layouts, table, -q, -x, cleanup, SIGINT), option parsing and the size
# rules, and where bonnie++ is installed: bon_csv2txt reading the CSV,
# and each phase's calls against bonnie++'s under strace (the same work
# in each timed phase, so a +++++ on one side alone is speed, not rule).
. "${srcdir:-.}/tests/lib.sh"

D=$TMP/phases
mkdir -p "$D"

# ph NAME ARGS...: run phase bonnie/NAME alone in $D; output in $TMP/NAME.out
ph() {
	n=$1
	shift
	run_fbrun -q -D dir="$D" "$@" "bonnie/$n"
	cp "$TMP/out" "$TMP/$n.out"
	check "bonnie/$n runs alone and exits 0" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
}
# count NAME FLOWOP: the operations of FLOWOP in the latency table
count() {
	awk -v n="$2" '/^Latency \(ms\)/ { t = 1; next } /^$/ { t = 0 }
		t && $1 == n && $2 ~ /^[0-9]+$/ { print $2 }' "$TMP/$1.out"
}
is() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (got '$2', want '$3')"; fi; }
# jfo FILE NAME KEY: a flowop's figure from a JSON result
jfo() {
	python3 -c 'import json, sys
print(*(f[sys.argv[3]] for f in json.load(open(sys.argv[1]))["flowops"]
        if f["name"] == sys.argv[2]))' "$@"
}
# jis DESCRIPTION GOT WANT: is, where jfo could read the JSON
jis() {
	if command -v python3 >/dev/null 2>&1; then
		is "$@"
	else
		skip "$1: python3 is not installed"
	fi
}

IO="-D size=1m -D chunk=4k -D chunks=256"
iofile() { find "$D/bonnie.io" -type f ! -name .fbrun-fileset; }

# shellcheck disable=SC2086
ph putc $IO -D bytechunks=8
is "putc: 8 chunks of one-byte writes" "$(count putc putc)" 8
is "putc: the file holds 8 x 4 KiB" "$(stat -c %s "$(iofile)")" 32768
is "putc: bytes count 0..127 and start over" \
	"$(od -An -tu1 -j126 -N4 "$(iofile)" | tr -s ' ')" " 126 127 0 1"

# shellcheck disable=SC2086
ph block-write $IO -o "$TMP/bw.json"
is "block write: 256 writes" "$(count block-write block)" 256
jis "block write: each writes one 4 KiB chunk, the file's size in all" \
	"$(jfo "$TMP/bw.json" block ops) $(jfo "$TMP/bw.json" block bytes)" "256 1048576"
is "block write: the file is made anew, 1 MiB" "$(stat -c %s "$(iofile)")" 1048576
is "block write: bonnie++'s data, bytes 0 and 1 only" \
	"$(od -An -tu1 -v "$(iofile)" | tr -s ' ' '\n' | grep . | sort -u | tr '\n' ' ')" "0 1 "
cp "$(iofile)" "$TMP/before"

# shellcheck disable=SC2086
ph rewrite $IO
is "rewrite: 256 read-change-write ops" "$(count rewrite rewrite)" 256
is "rewrite: the size stays" "$(stat -c %s "$(iofile)")" 1048576
is "rewrite: one byte changed per chunk" "$(cmp -l "$TMP/before" "$(iofile)" | wc -l | tr -d ' ')" 256

# shellcheck disable=SC2086
ph getc $IO -D bytechunks=8
is "getc: 8 chunks of one-byte reads" "$(count getc getc)" 8
# shellcheck disable=SC2086
ph block-read $IO
is "block read: 256 reads" "$(count block-read block)" 256
# shellcheck disable=SC2086
ph seeks $IO -D seeks=100 -D seekers=3
is "seeks: the threads share 100 tickets" "$(count seeks seek)" 100
is "seeks: the first seeker done removes the file, as bonnie++'s do" \
	"$(iofile | wc -l | tr -d ' ')" 0

# The seek phase's work, counted: 1000 seeks by one seeker (so that no two
# write-backs of a chunk race), the file kept to see what was written.
# shellcheck disable=SC2086
ph block-write $IO
cp "$(iofile)" "$TMP/before"
# shellcheck disable=SC2086
run_fbrun -q --format json -D dir="$D" $IO -D seeks=1000 -D seekers=1 \
	-D delete=false bonnie/seeks
check "seeks: one seeker, 1000 tickets, exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
cp "$TMP/out" "$TMP/seeks.json"
jis "seeks: 1000 seeks" "$(jfo "$TMP/seeks.json" seek ops)" 1000
jis "seeks: each reads one 4 KiB chunk" "$(jfo "$TMP/seeks.json" seek bytes)" 4096000
# a write-back takes one from byte (chunk mod 4096) of its chunk
cmp -l "$TMP/before" "$(iofile)" >"$TMP/seekdiff" || :
is "seeks: write-backs change only byte (chunk mod 4096) of a chunk" \
	"$(awk '{ o = $1 - 1; c = int(o / 4096) } o % 4096 != c % 4096' "$TMP/seekdiff" | wc -l | tr -d ' ')" 0
wb=$(awk 'function oct(s,   i, v) { for (i = 1; i <= length(s); i++) v = v * 8 + substr(s, i, 1); return v }
	{ n += (oct($2) - oct($3) + 256) % 256 } END { print n + 0 }' "$TMP/seekdiff")
if [ "$wb" -ge 50 ] && [ "$wb" -le 150 ]; then
	pass "seeks: about one seek in ten writes its chunk back"
else
	fail "seeks: about one seek in ten writes its chunk back ($wb of 1000)"
fi

F="-D files=50 -D dirs=3"
names() { find "$D/bonnie" -type f ! -name .fbrun-fileset -printf '%f\n'; }
# shellcheck disable=SC2086
ph seq-create $F -D minsize=100 -D maxsize=200 -D sizeend=201
is "seq create: 50 files" "$(count seq-create create)" 50
is "seq create: 50 files on disk" "$(names | wc -l | tr -d ' ')" 50
is "seq create: n/dirs + 1 per directory, in order" \
	"$(for d in 00000 00001 00002; do ls "$D/bonnie/$d" | wc -l; done | tr -d ' ' | tr '\n' ' ')" "17 17 16 "
is "seq create: names are 10 hex digits, then 0-12 random characters" \
	"$(names | grep -Evc '^[0-9a-f]{10}[A-Za-z0-9]{0,12}$')" 0
nums=$(awk 'BEGIN { for (i = 0; i < 50; i++) printf "%010x\n", i }')
is "seq create: the hex digits are the numbers 0-49, once each" \
	"$(names | cut -c1-10 | sort)" "$nums"
is "seq create: sizes from min to max" \
	"$(find "$D/bonnie" -type f ! -name .fbrun-fileset \( -size -100c -o -size +200c \) | wc -l | tr -d ' ')" 0
# shellcheck disable=SC2086
ph seq-stat $F
is "seq stat: 50 files" "$(count seq-stat stat)" 50
# shellcheck disable=SC2086
ph seq-delete $F
is "seq delete: 50 files" "$(count seq-delete delete)" 50
is "seq delete: none left" "$(names | wc -l | tr -d ' ')" 0
# shellcheck disable=SC2086
ph ran-create $F
is "random create: 50 files" "$(count ran-create create)" 50
is "random create: random characters first, then the number" \
	"$(names | grep -Evc '^[A-Za-z0-9]{0,12}[0-9a-f]{10}$')" 0
is "random create: the last ten are the numbers 0-49, once each" \
	"$(names | awk '{ print substr($0, length($0) - 9) }' | sort)" "$nums"
# shellcheck disable=SC2086
ph ran-stat $F
is "random stat: 50 files" "$(count ran-stat stat)" 50
# shellcheck disable=SC2086
ph ran-delete $F
is "random delete: 50 files" "$(count ran-delete delete)" 50
is "random delete: none left" "$(names | wc -l | tr -d ' ')" 0

run_fbrun --show bonnie/putc
grepq "--show prints a phase script" "flowop writebytes" "$TMP/out"

# ------------------------------------------------------------ the series
B=$TMP/series
mkdir -p "$B"
csv() { tail -n 1 "$TMP/out"; }
fld() { csv | cut -d, -f"$1"; }
nf() { awk -F, '{ print NF }'; }

run_fbrun bonnie -d "$B" -s 2:4k:64:2 -r 0 -n 1:1k:0:2 -f1 -z 42 -m box
check "a tiny series exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
is "CSV: 50 fields (1.98)" "$(csv | nf)" 50
is "CSV: format, program, name, concurrency, seed" "$(fld 1-5)" "1.98,fbrun,box,1,42"
is "CSV: size, chunk, seeks, seekers" "$(fld 6-9)" "2M,4k,64,2"
is "CSV: files, max, min, empty slot, dirs" "$(fld 22-26)" "1,1024,,,2"
is "CSV: every figure is a number or +++++" \
	"$(csv | cut -d, -f10-21,27-38 | tr , '\n' | grep -Evc '^([0-9.]+|[+]{3,5})$')" 0
is "CSV: every latency is given" \
	"$(csv | cut -d, -f39-50 | tr , '\n' | grep -Evc '^[0-9]+(us|ms|s)$')" 0
grepq "table: 2.00a's layout, Name:Size etc" "^Name:Size etc +/sec %CP" "$TMP/out"
grepq "table: the I/O rows, size:chunk:concurrency:seeks:seekers" "^box +2M:4k::64:2 +" "$TMP/out"
grepq "table: the file rows" "^ +1:1024:0/2 " "$TMP/out"
grepq "progress on stderr" "^start 'em...done...done...$" "$TMP/err"
is "the scratch trees are removed" "$(ls -A "$B" | wc -l | tr -d ' ')" 0

# --format 1.96: the older table, K/sec and the Concurrency line (the
# series' output kept for bon_csv2txt below)
cp "$TMP/out" "$TMP/series.out"
run_fbrun bonnie -d "$B" -s 2:4k -r 0 -n 0 -f -z 42 -m box --format 1.96
check "--format 1.96 exits 0" test "$rc" -eq 0
grepq "... the Concurrency line" "^Concurrency   1     -Per Chr-" "$TMP/out"
grepq "... K/sec" "^Machine   Size:chnk K/sec %CP" "$TMP/out"
grepq "... the I/O row with Size:chnk" "^box +2M:4k +" "$TMP/out"
run_fbrun bonnie -d "$B" -s 2 -r 0 -n 0 -f --format 1.97
check "--format 1.97: a usage error (exit $rc)" test "$rc" -eq 2
grepq "... naming what it takes" "expected 2.00 or 1.96" "$TMP/err"
cp "$TMP/series.out" "$TMP/out"

# -f: bonnie++ still creates, fsyncs and closes its file before the block
# write, which commits the journal; fbrun syncs the file system there
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	# LeakSanitizer cannot run under ptrace: a sanitizer build would fail
	rc=0
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=syncfs,openat,openat2 -o "$TMP/st" \
		"$FBRUN" bonnie -q -d "$B" -s 1 -r 0 -n 0 -f >/dev/null 2>"$TMP/st.err" || rc=$?
	[ "$rc" -eq 0 ] || diag <"$TMP/st.err"
	# the line of the first syncfs, then of the I/O file's creation
	is "-f: the file system is synced before the block write's file is made" \
		"$(awk '/syncfs\(/ && !s { s = NR } /00000001".*O_CREAT/ && !c { c = NR }
			END { print (s && c && s < c) ? "before" : "not before" }' "$TMP/st")" before
else
	skip "-f: the file system is synced before the block write: strace cannot run"
fi

# Side by side with bonnie++ on the same file system (facts, not speeds:
# which cells print +++++ depends on the speed of the moment near 0.5 s):
# each file phase, between the sync()s that end the create and delete
# phases, makes the same creates, stats and unlinks of the test files as
# bonnie++'s, and the I/O phases read the I/O file as often
if command -v bonnie++ >/dev/null 2>&1 && command -v strace >/dev/null 2>&1 &&
	strace -f -o /dev/null true 2>/dev/null; then
	mkdir "$TMP/bp" "$TMP/fb"
	# bonnie++ refuses to run as root without -u
	user=
	[ "$(id -u)" -eq 0 ] && user="-u root"
	calls=openat,open,creat,stat,lstat,newfstatat,statx,unlink,unlinkat,sync
	(cd "$TMP/bp" && strace -f -o "$TMP/bp.st" -e trace=$calls bonnie++ \
		$user -d "$TMP/bp" -s 0 -r 0 -n 1 -m x -q >/dev/null 2>&1)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o "$TMP/fb.st" -e trace=$calls "$FBRUN" bonnie \
		-d "$TMP/fb" -s 0 -r 0 -n 1 -m x -q >/dev/null 2>&1
	# per phase ending in a sync(): the test files' creates, stats and
	# unlinks that succeeded (a test file's name has 10 hex digits in it)
	phases() {
		awk '
BEGIN { h = "[0-9a-f]"; re = "\"[^\"/.]*" h h h h h h h h h h "[^\"/]*\"" }
/ sync\(\)/ { printf "create %d stat %d unlink %d; sync\n", c, t, u; c = t = u = 0 }
$0 ~ re && / = [0-9]/ {
	if ($0 ~ /O_CREAT/) c++
	else if ($0 ~ /unlink/) u++
	else if ($0 ~ /stat/) t++
}
END { printf "create %d stat %d unlink %d\n", c, t, u }' "$1"
	}
	phases "$TMP/bp.st" >"$TMP/bp.ph"
	phases "$TMP/fb.st" >"$TMP/fb.ph"
	if [ "$(grep -c sync "$TMP/bp.ph")" -eq 4 ] && cmp -s "$TMP/bp.ph" "$TMP/fb.ph"; then
		pass "-n 1: each file phase's creates, stats, unlinks and sync() are bonnie++'s"
	else
		fail "-n 1: each file phase's creates, stats, unlinks and sync() are bonnie++'s"
		diff "$TMP/bp.ph" "$TMP/fb.ph" | diag
	fi
	rm -rf "$TMP/bp"/* "$TMP/fb"/*
	# a read is read() or pread64() (fbrun's sequential ops keep the offset)
	(cd "$TMP/bp" && strace -f -y -o "$TMP/bp2.st" -e trace=read,pread64 bonnie++ \
		$user -d "$TMP/bp" -s 8 -r 0 -n 0 -f -m x -q >/dev/null 2>&1)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -y -o "$TMP/fb2.st" -e trace=read,pread64 "$FBRUN" bonnie \
		-d "$TMP/fb" -s 8 -r 0 -n 0 -f -m x -q >/dev/null 2>&1
	bp=$(grep -Ec 'read(64)?\([0-9]*</[^>]*/Bonnie\.[0-9]*>' "$TMP/bp2.st")
	fb=$(grep -Ec 'read(64)?\([0-9]*</[^>]*/00000001>' "$TMP/fb2.st")
	check "-s 8 -f: the I/O phases read the I/O file as often as bonnie++'s ($bp, $fb)" \
		test "$bp" -gt 0 -a "$bp" -eq "$fb"
else
	skip "side by side with bonnie++: bonnie++ or strace cannot run"
	skip "side by side with bonnie++'s reads: bonnie++ or strace cannot run"
fi

if command -v bon_csv2txt >/dev/null 2>&1; then
	csv >"$TMP/line.csv"
	bon_csv2txt <"$TMP/line.csv" >"$TMP/txt" 2>"$TMP/txterr"
	check "bon_csv2txt reads the CSV" test $? -eq 0 -a ! -s "$TMP/txterr"
	grepq "bon_csv2txt shows the run" "^box " "$TMP/txt"
else
	skip "bon_csv2txt reads the CSV: bonnie++ is not installed"
	skip "bon_csv2txt shows the run: bonnie++ is not installed"
fi

run_fbrun bonnie -q -d "$B" -s 1 -r 0 -n 0 -f --csv-format 1.96 -m q
check "-q: exits 0" test "$rc" -eq 0
is "-q: only the CSV line on stdout" "$(wc -l <"$TMP/out" | tr -d ' ')" 1
is "--csv-format 1.96: 48 fields" "$(csv | nf)" 48
is "--csv-format 1.96: format and name" "$(fld 1-3)" "1.96,fbrun,q"
is "-n 0: the file fields are empty" "$(fld 20-36 | tr -d ,)" ""
grepq "-q: the table goes to stderr" "^Version fbrun" "$TMP/err"
check "-q: no progress" test "$(grep -c "done" "$TMP/err")" -eq 0

run_fbrun bonnie -q -d "$B" -s 0 -r 0 -n 1 -x 2
check "-x 2: exits 0" test "$rc" -eq 0
is "-x 2: a header and two lines" "$(wc -l <"$TMP/out" | tr -d ' ')" 3
is "-x 2: the header names every field" "$(head -n 1 "$TMP/out" | nf),$(csv | nf)" "50,50"
check "-x 2: no table" test "$(grep -c Version "$TMP/err")" -eq 0
is "-s 0: no I/O figures" "$(fld 6-21 | tr -d ,)" ""

# ------------------------------------------------------------ SIGINT
S=$TMP/sig
mkdir -p "$S"
rm -f "$TMP/sigout" "$TMP/sigerr" # not a previous run's output
"$FBRUN" bonnie -d "$S" -s 8 -r 0 -n 0 -f >"$TMP/sigout" 2>"$TMP/sigerr" &
pid=$!
i=0
while ! grep -q "start 'em" "$TMP/sigerr" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
rc=0
wait $pid || rc=$?
is "SIGINT: exit 1" "$rc" 1
grepq "SIGINT: the phases done are printed" "^Version fbrun" "$TMP/sigout"
is "SIGINT: the scratch tree is removed" "$(ls -A "$S" | wc -l | tr -d ' ')" 0

# ------------------------------------------------------------ options
bad() {
	desc=$1 want=$2
	shift 2
	run_fbrun bonnie -d "$B" "$@"
	check "$desc: exit 2" test "$rc" -eq 2
	grepq "$desc: says why" "$want" "$TMP/err"
}
bad "-s 1x" "size is a number of MiB" -s 1x
bad "-s with a chunk not a power of two" "power of two" -s 8:3000
bad "-s under twice RAM" "double RAM" -s 100 -r 1024
bad "-n with links" "not supported" -n 1:-1
bad "-n min above max" "min is larger than max" -n 1:100:200
bad "-p" "not supported" -p 3
bad "--csv-format 2" "expected 1.96 or 1.98" --csv-format 2
bad "-d missing" "cannot use directory" -d "$TMP/nowhere"
: >"$TMP/afile"
bad "-d a regular file" "^fbrun bonnie: error: -d '$TMP/afile' is not a directory\$" -d "$TMP/afile"
bad "an unknown option" "unknown option" --bogus
is "nothing was created by the refused runs" "$(ls -A "$B" | wc -l | tr -d ' ')" 0

plan() { run_fbrun bonnie --dry-run "$@"; }
plan -r 100
grepq "default size: 300 MiB at least" "-D size=314572800 " "$TMP/out"
plan -r 700
grepq "default size: twice RAM (1400M)" "-D size=1468006400 " "$TMP/out"
plan -r 800
grepq "default size: rounded up to GiB over 512 MiB left (2G)" "-D size=2147483648 " "$TMP/out"
plan -s 64 -r 0 -f
check "-f: no per-character phases" test "$(grep -c 'putc\|getc' "$TMP/out")" -eq 0
plan -s 64 -r 0 -f5
grepq "-f5: 5 MiB of per-character I/O" "-D bytechunks=640 .*bonnie/putc" "$TMP/out"
plan -s 0 -n 2:4k
check "-s 0: only file phases" test "$(grep -c ioname "$TMP/out")" -eq 0
grepq "-n 2:4k: 2048 files up to 4 KiB" "-D files=2048 .*-D maxsize=4096 " "$TMP/out"
run_fbrun bonnie -d "$B" -s 0 -n 0
check "-s 0 -n 0: nothing to test, a usage error (exit $rc)" test "$rc" -eq 2
grepq "-s 0 -n 0: says so" "^fbrun bonnie: error: -s 0 and -n 0: nothing to test$" "$TMP/err"
check "-s 0 -n 0: no CSV line" test ! -s "$TMP/out"
plan -s 64 -r 0 -n 0 -b
check "-n 0: only I/O phases" test "$(grep -c 'create' "$TMP/out")" -eq 0
grepq "-b: fsync in the seeks" "-D sync=true bonnie/seeks" "$TMP/out"
check "bonnie++'s data by default" test "$(grep -c 'data=' "$TMP/out")" -eq 0
plan -s 64 -r 0 --random-data
grepq "--random-data: block write writes random data" "-D data=random bonnie/block-write" "$TMP/out"
grepq "--random-data: so do the file creates" "-D data=random bonnie/seq-create" "$TMP/out"
run_fbrun bonnie --help
check "--help exits 0" test "$rc" -eq 0

# A phase script that does not compile (a broken installation): said,
# located, before any phase made anything
mkdir "$TMP/wl" "$TMP/wl/bonnie"
cp "$srcdir"/workloads/bonnie/*.f "$TMP/wl/bonnie/"
echo "flowop bogus" >>"$TMP/wl/bonnie/rewrite.f"
rm -rf "$B" && mkdir "$B"
FBRUN_WORKLOADS=$TMP/wl
export FBRUN_WORKLOADS
run_fbrun bonnie -q -d "$B" -s 2 -r 0 -n 0 -f
unset FBRUN_WORKLOADS
check "a phase script with an error: exit 2" test "$rc" -eq 2
grepq "... located in the script" "wl/bonnie/rewrite\.f:[0-9]+:1: error: " "$TMP/err"
check "... before any phase: nothing made in -d" test -z "$(ls -A "$B")"

done_testing
