#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# --seed N: every random number of a run comes from N.  The same seed
# gives the same trees (names, sizes, which files exist, their bytes) and,
# for one thread, the same system calls in the same order; another seed
# another tree; the JSON records the seed and a rerun with it is the
# same run; a reuse tree serves every seed.  Runs end by count, never by
# time, so two runs do the same number of operations.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# --- the option ------------------------------------------------------------------
cat >"$TMP/none.f" <<'F'
echo "nothing"
F
for bad in -1 abc 1k "" 9223372036854775808; do
	run_fbrun --seed "$bad" "$TMP/none.f"
	check "--seed '$bad': exit 2 (exit $rc)" test "$rc" -eq 2
	grepq "... saying what it expects" \
		"^fbrun: error: --seed expects a whole number from 0 to 9223372036854775807, got '$bad'\$" "$TMP/err"
done
run_fbrun --seed 9223372036854775807 "$TMP/none.f"
check "--seed 2^63-1 is taken: exit 0" test "$rc" -eq 0
grepq "... the first log line names it" "^0\.[0-9]+: fbrun [0-9.]+: .*none\.f, seed 9223372036854775807\$" "$TMP/out"
run_fbrun "$TMP/none.f"
grepq "without --seed the log line says seed 0" "none\.f, seed 0\$" "$TMP/out"

# --- (a) trees: names, sizes, which files exist, their bytes ----------------------
# tree: gamma depths and widths from filebench's stream, cvar-gamma sizes
# drawn from it too, 70% preallocated with random data by several
# writers; widths: randvar widths and sizes (the fileset's own numbers)
cat >"$TMP/trees.f" <<'F'
set $dir=/nonexistent
set $par=false
set $sz = cvar(type=cvar-gamma, parameters=mean:6000;gamma:1.5)
set $w = randvar(type=uniform, min=2, mean=4)
set $rs = randvar(type=gamma, mean=3000, gamma=1500)
define fileset name=tree, path=$dir, entries=300, dirwidth=5, size=$sz, prealloc=70, data=random, paralloc=$par
define fileset name=widths, path=$dir, entries=60, dirwidth=$w, size=$rs, prealloc=50
define process name=p { thread name=t, memsize=64k {
  flowop statfile name=st, filesetname=tree
  flowop finishoncount name=fin, value=5, target=st } }
run 600
F
# snap DIR NAME: the trees under DIR (entries with sizes, then each
# file's checksum; markers left out: they name the run) in $TMP/NAME
snap() {
	(cd "$1" && find . ! -name .fbrun-fileset -printf '%y %P %s\n' |
		sed 's/^d \(.*\) [0-9]*$/d \1/' | sort &&
		find . -type f ! -name .fbrun-fileset -exec md5sum {} + | sort) \
		>"$TMP/$2"
}
# tree_run NAME ARGS...: the trees of a run with ARGS, kept, in $TMP/NAME
tree_run() {
	name=$1
	shift
	rm -rf "$TMP/t"
	run_fbrun -q --keep -D dir="$TMP/t" "$@" "$TMP/trees.f"
	check "$name: exit 0 (exit $rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	snap "$TMP/t" "$name"
}
tree_run s11a --seed 11
tree_run s11b --seed 11
tree_run s12 --seed 12
tree_run s11par --seed 11 -D par=true
tree_run d1
tree_run d2
tree_run s0 --seed 0
check "--seed 11 made files" test "$(grep -c '^f ' "$TMP/s11a")" -gt 200
if cmp -s "$TMP/s11a" "$TMP/s11b"; then
	pass "the same seed twice: the same directories, files, sizes and bytes"
else
	fail "the same seed twice: the same directories, files, sizes and bytes"
	diff "$TMP/s11a" "$TMP/s11b" | head -20 | diag
fi
check "another seed: another tree" eval '! cmp -s "$TMP/s11a" "$TMP/s12"'
for f in tree widths; do
	grep " $f/" "$TMP/s11a" | grep -v '^[0-9a-f]\{32\} ' >"$TMP/a"
	grep " $f/" "$TMP/s12" | grep -v '^[0-9a-f]\{32\} ' >"$TMP/b"
	check "... fileset $f's directories, names or sizes differ" eval '! cmp -s "$TMP/a" "$TMP/b"'
done
grep '^[0-9a-f]\{32\} ' "$TMP/s11a" | sed 's/ .*//' | sort >"$TMP/a"
grep '^[0-9a-f]\{32\} ' "$TMP/s12" | sed 's/ .*//' | sort >"$TMP/b"
check "... and so do the files' bytes" eval '! cmp -s "$TMP/a" "$TMP/b"'
# several writers (paralloc) make each file as one writer does
if cmp -s "$TMP/s11a" "$TMP/s11par"; then
	pass "paralloc: the same tree and bytes as one writer, whoever wrote each file"
else
	fail "paralloc: the same tree and bytes as one writer, whoever wrote each file"
	diff "$TMP/s11a" "$TMP/s11par" | head -20 | diag
fi
check "no --seed: the same tree every run" cmp -s "$TMP/d1" "$TMP/d2"
check "... the tree of --seed 0" cmp -s "$TMP/d1" "$TMP/s0"
check "... not that of --seed 11" eval '! cmp -s "$TMP/d1" "$TMP/s11a"'

# --- reuse: one kept tree serves every seed ---------------------------------------
# own (not reuse) is defined after keep and drawn first; with --seed it is
# laid out from the seed, keep where it would be without one
cat >"$TMP/reuse.f" <<'F'
set $dir=/nonexistent
define fileset name=keep, path=$dir, entries=120, dirwidth=4, size=2k, prealloc=80, reuse
define fileset name=own, path=$dir, entries=80, dirwidth=3, size=1k, prealloc=60
define process name=p { thread name=t, memsize=64k {
  flowop openfile name=open1, filesetname=keep, fd=1
  flowop read name=rd, fd=1, iosize=512, random
  flowop closefile name=close1, fd=1
  flowop finishoncount name=fin, value=20, target=rd } }
run 600
F
rm -rf "$TMP/r"
run_fbrun -q -D dir="$TMP/r" "$TMP/reuse.f"
check "reuse, no --seed: exit 0" test "$rc" -eq 0
(cd "$TMP/r" && find keep ! -name .fbrun-fileset -printf '%P %s\n' | sort) >"$TMP/keep0"
check "... the reuse tree is kept" test "$(wc -l <"$TMP/keep0")" -gt 100
for s in 5 6; do
	run_fbrun -q --seed $s -D dir="$TMP/r" "$TMP/reuse.f"
	check "reuse, --seed $s: exit 0 (exit $rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	(cd "$TMP/r" && find keep ! -name .fbrun-fileset -printf '%P %s\n' | sort) >"$TMP/keep$s"
	check "... the kept tree is the same" cmp -s "$TMP/keep0" "$TMP/keep$s"
done
rm -rf "$TMP/r"
run_fbrun -q --seed 5 -D dir="$TMP/r" "$TMP/reuse.f"
(cd "$TMP/r" && find keep ! -name .fbrun-fileset -printf '%P %s\n' | sort) >"$TMP/keepnew"
check "a reuse tree made with --seed 5 is the one made without" cmp -s "$TMP/keep0" "$TMP/keepnew"
rm -rf "$TMP/r"
run_fbrun -q --keep --seed 5 -D dir="$TMP/r" "$TMP/reuse.f"
(cd "$TMP/r" && find own ! -name .fbrun-fileset -printf '%P %s\n' | sort) >"$TMP/own5"
rm -rf "$TMP/r"
run_fbrun -q --keep -D dir="$TMP/r" "$TMP/reuse.f"
(cd "$TMP/r" && find own ! -name .fbrun-fileset -printf '%P %s\n' | sort) >"$TMP/own0"
check "... while the other fileset's follows the seed" eval '! cmp -s "$TMP/own0" "$TMP/own5"'
rm -rf "$TMP/r"

# --- (b) one thread's operations, system call by system call ----------------------
cat >"$TMP/ops.f" <<'F'
set $dir=/nonexistent
set $sz = cvar(type=cvar-gamma, parameters=mean:16384;gamma:1.5)
define fileset name=ops, path=$dir, entries=100, dirwidth=4, size=$sz, prealloc=70, data=random
define process name=p { thread name=t, memsize=1m {
  flowop openfile name=open1, filesetname=ops, fd=1
  flowop read name=rd, fd=1, iosize=512, random
  flowop write name=wr, fd=1, iosize=1k, random, workingset=8k
  flowop closefile name=close1, fd=1
  flowop statfile name=stat1, filesetname=ops
  flowop deletefile name=del1, filesetname=ops
  flowop createfile name=create1, filesetname=ops, fd=2
  flowop appendfilerand name=app1, fd=2, iosize=2k
  flowop closefile name=close2, fd=2
  flowop finishoncount name=fin, value=60, target=rd } }
run 600
F
# ops NAME ARGS...: the worker thread's system calls (not the main
# thread's, which name the run and the time), one file per thread so no
# call is split by another thread's; sizes and offsets kept, descriptor
# numbers and addresses blanked (the main thread may hold one more at a
# moment, /proc/diskstats), in $TMP/NAME
calls=execve,openat,openat2,read,pread64,write,pwrite64,lseek,close,unlinkat,mkdirat,newfstatat,fstat,statx
ops() {
	name=$1
	shift
	rm -rf "$TMP/o" "$TMP/st".*
	rc=0
	# LeakSanitizer cannot run under ptrace: a sanitizer build would fail
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -ff -qq -o "$TMP/st" -e trace="$calls" \
		"$FBRUN" -q -D dir="$TMP/o" "$@" "$TMP/ops.f" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "$name: exit 0 (exit $rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	# the main thread is the one that ran execve; the others by thread id
	: >"$TMP/$name"
	for f in $(ls "$TMP/st".* | sort -t. -k2 -n); do
		grep -q '^execve(' "$f" && continue
		sed -E -e 's/0x[0-9a-f]+/ADDR/g' \
			-e 's/^([a-z0-9_]+)\([0-9]+([,)])/\1(FD\2/' \
			-e 's/^(openat2?\(.*) = [0-9]+$/\1 = FD/' \
			"$f" >>"$TMP/$name"
	done
}
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	ops o9a --seed 9 -o "$TMP/o9.json"
	ops o9b --seed 9
	ops o10 --seed 10
	ops oda
	ops odb
	check "one thread: reads, writes, opens, unlinks traced ($(grep -c 'pread64\|pwrite64' "$TMP/o9a") reads and writes)" \
		test "$(grep -c 'pread64' "$TMP/o9a")" -ge 60
	grepq "... deletes among them" "^unlinkat\(" "$TMP/o9a"
	grepq "... creates among them" "O_CREAT.*O_EXCL" "$TMP/o9a"
	if cmp -s "$TMP/o9a" "$TMP/o9b"; then
		pass "the same seed twice: the same system calls in the same order, the same offsets and bytes"
	else
		fail "the same seed twice: the same system calls in the same order, the same offsets and bytes"
		diff "$TMP/o9a" "$TMP/o9b" | head -20 | diag
	fi
	check "another seed: other operations" eval '! cmp -s "$TMP/o9a" "$TMP/o10"'
	check "no --seed: the same operations every run" cmp -s "$TMP/oda" "$TMP/odb"
	# (c) the seed a run recorded draws the run again
	if $have_python && [ -f "$TMP/o9.json" ]; then
		s=$(json "$TMP/o9.json" "r['seed']")
		check "the JSON records the seed: $s" test "$s" = 9
		ops orerun --seed "$s"
		check "... rerun with it: the same operations" cmp -s "$TMP/o9a" "$TMP/orerun"
	else
		skip "the JSON's seed reruns the run: needs python3"
		skip "... rerun with it"
	fi
else
	skip "the operations of one thread: strace cannot run here"
fi

# --- (c) the JSON: seed and build -------------------------------------------------
if $have_python; then
	rm -rf "$TMP/o"
	run_fbrun -q -D dir="$TMP/o" -o "$TMP/d.json" "$TMP/ops.f"
	check "no --seed: the JSON says seed 0" test "$(json "$TMP/d.json" "r['seed']")" = 0
	run_fbrun -q --seed 123456789012 -D dir="$TMP/o" -o "$TMP/s.json" "$TMP/ops.f"
	check "--seed 123456789012: the JSON says it exactly" \
		test "$(json "$TMP/s.json" "r['seed']")" = 123456789012
	run_fbrun -q --seed 3 --format json -D dir="$TMP/o" "$TMP/ops.f"
	check "--format json on standard output: seed 3" test "$(json "$TMP/out" "r['seed']")" = 3
	"$FBRUN" --version >"$TMP/version"
	check "build.version is --version's" \
		test "fbrun $(json "$TMP/s.json" "r['build']['version']")" = "$(head -1 "$TMP/version")"
	check "build.features has aio, mpi, libblkid and jansson" \
		test "$(json "$TMP/s.json" "sorted(r['build']['features'])")" = "['aio', 'jansson', 'libblkid', 'mpi']"
	for k in aio mpi libblkid jansson; do
		v=$(json "$TMP/s.json" "r['build']['features']['$k']")
		[ "$v" = False ] && v=no
		# fbrun's mpi line goes on to say whether fbrun-mpi is beside it
		if [ "$k" = mpi ]; then
			check "... $k is --version's ($v)" grep -qE "^mpi: $v(;|\$)" "$TMP/version"
		else
			check "... $k is --version's ($v)" grep -qxF "$k: $v" "$TMP/version"
		fi
	done
	check "... fbrun has no MPI: false" \
		test "$(json "$TMP/s.json" "r['build']['features']['mpi'] is False")" = True
	# a run that could not start records them too
	run_fbrun -q --seed 4 -D dir=/proc/fbrun-none -o "$TMP/e.json" "$TMP/ops.f"
	check "a run that fails before it starts: exit 1 (exit $rc)" test "$rc" -eq 1
	check "... its JSON has seed 4 and the build" \
		test "$(json "$TMP/e.json" "(r['seed'], 'features' in r['build'])")" = "(4, True)"
else
	skip "the JSON's seed and build: needs python3"
fi

done_testing
