#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Scale without fixed pools: 1000 threads, a fileset of 10,000,000
# entries, 100 filesets in one script, and the peak memory in the JSON.
# And when the machine cannot supply threads, memory or descriptors: a
# clear error saying which, exit 1, no hang, no tree left behind.
# Every fbrun call runs under `timeout -k`.
. "${srcdir:-.}/tests/lib.sh"



have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true
# json_has FILE EXPR ERE: EXPR of FILE's JSON matches ERE
json_has() { json "$1" "$2" 2>/dev/null | grep -Eq -e "$3"; }
sanitized=false
if command -v ldd >/dev/null 2>&1 &&
	ldd "$FBRUN" 2>/dev/null | grep -Eq 'lib(asan|tsan|ubsan)'; then
	sanitized=true
fi
have_time=false
/usr/bin/time -f %M -o "$TMP/t" true 2>/dev/null && have_time=true

# fb SECS ARGS...: fbrun ARGS under `timeout -k 5 SECS`, output in
# $TMP/out, $TMP/err; sets $rc and $kb (peak RSS in KB, "" if unknown)
fb() {
	lim=$1
	shift
	rc=0 kb=""
	if $have_time; then
		/usr/bin/time -f '%M' -o "$TMP/time" \
			timeout -k 5 "$lim" "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
		kb=$(tail -1 "$TMP/time")
	else
		timeout -k 5 "$lim" "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	fi
}
# with_limit ULIMIT-ARGS SECS ARGS...: fb with a ulimit set on fbrun alone,
# and only descriptors 0-2 open below 10 (a test driver or make may pass
# others down, which would shift what a low ulimit -n leaves)
with_limit() {
	ul=$1 lim=$2
	shift 2
	rc=0
	timeout -k 5 "$lim" sh -c "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
		ulimit $ul && exec \"\$0\" \"\$@\"" "$FBRUN" "$@" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
}
no_hang() { [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; }
# how long a call may take before it counts as a hang: a guard, not a
# measure (a loaded machine may take long over a run of 1 s)
GUARD=${LIMITS_GUARD:-300}
no_crash() { [ "$rc" -lt 124 ] && ! grep -Eq 'ERROR: [A-Za-z]*Sanitizer|WARNING: ThreadSanitizer|runtime error:' "$TMP/err"; }
no_tree() { [ -z "$(ls -A "$1" 2>/dev/null)" ]; }

# --- 1000 threads ---------------------------------------------------------------
cat >"$TMP/t1000.f" <<F
define fileset name=fs,path=$TMP/t1000,entries=100,size=1k,dirwidth=10,prealloc=100
define process name=p { thread name=t,instances=1000 {
  flowop statfile name=stat,filesetname=fs } }
run 1
F
fb "$GUARD" -q -o "$TMP/t1000.json" "$TMP/t1000.f"
check "1000 threads: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || head -5 "$TMP/err" | diag
check "1000 threads: the tree is removed" no_tree "$TMP/t1000"
if $have_python && [ -f "$TMP/t1000.json" ]; then
	n=$(json "$TMP/t1000.json" "r['threads']")
	check "1000 threads: JSON threads == 1000 ($n)" test "$n" -eq 1000
	n=$(json "$TMP/t1000.json" "[f['ops'] for f in r['flowops'] if f['name'] == 'stat'][0]")
	check "1000 threads: stat ran at least 1000 times ($n)" test "$n" -ge 1000
	n=$(json "$TMP/t1000.json" "sum(f['errors'] for f in r['flowops'])")
	check "1000 threads: no errors ($n)" test "$n" -eq 0
else
	skip "1000 threads: needs python3 and the JSON results"
fi
# Each thread stats once, then blocks until the end: exactly 1000 stats
# proves every one of the 1000 threads ran its flowop.
cat >"$TMP/t1000b.f" <<F
define fileset name=fs,path=$TMP/t1000b,entries=100,size=1k,dirwidth=10,prealloc=100
define process name=p { thread name=t,instances=1000 {
  flowop statfile name=stat,filesetname=fs
  flowop block name=wait } }
run 1
F
fb "$GUARD" -q -o "$TMP/t1000b.json" "$TMP/t1000b.f"
check "1000 threads each stat once, then block: exit 0 (exit $rc)" test "$rc" -eq 0
if $have_python && [ -f "$TMP/t1000b.json" ]; then
	n=$(json "$TMP/t1000b.json" "[f['ops'] for f in r['flowops'] if f['name'] == 'stat'][0]")
	check "every one of the 1000 threads ran its flowop: stat ops == 1000 ($n)" test "$n" -eq 1000
else
	skip "1000 threads each stat once: needs python3 and the JSON results"
fi

# --- peak memory in the JSON ------------------------------------------------------
peak=""
if $have_python && [ -f "$TMP/t1000.json" ]; then
	peak=$(json "$TMP/t1000.json" "r.get('peak_rss_bytes', '')")
fi
if ! $have_python; then
	skip "peak_rss_bytes: needs python3"
elif [ -z "$peak" ]; then
	skip "peak_rss_bytes not in JSON yet"
else
	check "JSON has a top-level peak_rss_bytes > 0 ($peak)" \
		eval 'printf "%s" "$peak" | grep -Eq "^[1-9][0-9]*$"'
fi

# --- memsize: only what the I/O can use is made resident ---------------------------
# 8 threads of memsize=256m reading 4k: touching every buffer would make
# 2 GiB resident; the 4k each one reads into is all that is needed.
cat >"$TMP/mem.f" <<F
define file name=f,path=$TMP/mem,size=64k,prealloc
define process name=p { thread name=t,memsize=256m,instances=8 {
  flowop read name=rd,filesetname=f,iosize=4k,random } }
run 1
F
fb "$GUARD" -q -o "$TMP/mem.json" "$TMP/mem.f"
check "memsize=256m x 8 threads reading 4k: exit 0 (exit $rc)" test "$rc" -eq 0
if $have_python && [ -f "$TMP/mem.json" ]; then
	p=$(json "$TMP/mem.json" "r['peak_rss_bytes']")
	# a sanitizer keeps up to 256 MB of freed memory in quarantine; touched
	# buffers would still show as 2 GiB there
	if $sanitized; then
		check "memsize=256m x 8 threads reading 4k: peak RSS under 1 GiB, sanitized build ($p)" test "$p" -lt 1073741824
	else
		check "memsize=256m x 8 threads reading 4k: peak RSS under 256 MB ($p)" test "$p" -lt 268435456
	fi
	n=$(json "$TMP/mem.json" "r['flowops'][0]['bytes'] == 4096 * r['flowops'][0]['ops'] > 0")
	check "memsize=256m x 8 threads reading 4k: every read moved 4k ($n)" test "$n" = True
else
	skip "memsize residency: needs python3 and the JSON results"
fi

# --- the run's CPU time in the JSON, split into user and system ---------------------
if $have_python && [ -f "$TMP/mem.json" ]; then
	# the summary's cpu per op is the same process time, over the I/O ops
	n=$(json "$TMP/mem.json" "abs(r['summary']['cpu_user_seconds'] + r['summary']['cpu_sys_seconds'] - r['summary']['cpu_us_per_op'] * r['summary']['ops'] / 1e6) < 1e-3 and r['summary']['cpu_sys_seconds'] > 0")
	check "JSON: cpu_user_seconds + cpu_sys_seconds is the run's CPU time, system part > 0 ($n)" test "$n" = True
else
	skip "cpu_user_seconds: needs python3 and the JSON results"
fi

# --- a fileset of 10,000,000 entries, not preallocated ----------------------------
# dirwidth=10000: about 1000 directories are made; the entries exist only
# in memory (8 bytes each and two bits) until createfile makes them.
cat >"$TMP/big.f" <<F
define fileset name=big,path=$TMP/big,entries=10000000,size=0,dirwidth=10000,prealloc=0
define process name=p { thread name=t {
  flowop createfile name=create,filesetname=big,fd=1
  flowop closefile name=close,fd=1 } }
run 1
F
fb "$GUARD" -q -o "$TMP/big.json" "$TMP/big.f"
check "10,000,000 entries: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || head -5 "$TMP/err" | diag
check "10,000,000 entries: the tree is removed" no_tree "$TMP/big"
if $have_python && [ -f "$TMP/big.json" ]; then
	n=$(json "$TMP/big.json" "[f['ops'] for f in r['flowops'] if f['name'] == 'create'][0]")
	check "10,000,000 entries: createfile made files ($n)" test "$n" -gt 0
	n=$(json "$TMP/big.json" "sum(f['errors'] for f in r['flowops'])")
	check "10,000,000 entries: no errors ($n)" test "$n" -eq 0
	n=$(json "$TMP/big.json" "r['filesets'][0]['entries']")
	check "10,000,000 entries: JSON says so ($n)" test "$n" -eq 10000000
	p=$(json "$TMP/big.json" "r.get('peak_rss_bytes', '')")
	if [ -z "$p" ]; then
		skip "peak_rss_bytes not in JSON yet"
	else
		check "10,000,000 entries: peak_rss_bytes under 500 MB ($p)" test "$p" -lt 524288000
		if $have_time && [ -n "$kb" ] && ! $sanitized; then
			# the kernel's figure for the whole process, within 25%
			check "10,000,000 entries: peak_rss_bytes agrees with the kernel's peak ($p vs ${kb} KB)" \
				awk -v p="$p" -v k="$kb" 'BEGIN { exit !(p >= k * 1024 * 0.75 && p <= k * 1024 * 1.25) }'
		fi
	fi
else
	skip "10,000,000 entries: needs python3 and the JSON results"
fi
if $have_time && [ -n "$kb" ] && ! $sanitized; then
	check "10,000,000 entries: peak RSS under 500 MB (${kb} KB)" test "$kb" -lt 512000
fi

# --- 100 filesets, each used by a flowop -------------------------------------------
{
	awk -v d="$TMP/h100" 'BEGIN { for (i = 0; i < 100; i++) printf "define fileset name=fs%d,path=%s,entries=4,size=1k,dirwidth=4,prealloc=100\n", i, d }'
	echo 'define process name=p { thread name=t {'
	awk 'BEGIN { for (i = 0; i < 100; i++) printf "  flowop statfile name=stat%d,filesetname=fs%d\n", i, i }'
	echo '} }'
	echo 'run 1'
} >"$TMP/h100.f"
fb "$GUARD" -q -o "$TMP/h100.json" "$TMP/h100.f"
check "100 filesets: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || head -5 "$TMP/err" | diag
check "100 filesets: all trees are removed" no_tree "$TMP/h100"
if $have_python && [ -f "$TMP/h100.json" ]; then
	n=$(json "$TMP/h100.json" "len(r['filesets'])")
	check "100 filesets: JSON lists 100 filesets ($n)" test "$n" -eq 100
	n=$(json "$TMP/h100.json" "len([f for f in r['flowops'] if f['name'].startswith('stat') and f['ops'] > 0 and f['errors'] == 0])")
	check "100 filesets: each fileset's flowop counted ops ($n of 100)" test "$n" -eq 100
else
	skip "100 filesets: needs python3 and the JSON results"
fi

# --- no threads to be had -----------------------------------------------------------
# RLIMIT_NPROC counts the threads of the real user and does not bind
# root: run fbrun as nobody (setpriv) with room for about 50 more threads
# (prlimit, as shells spell ulimit -u differently).
if ! as_nobody; then
	skip "no threads: $why_not"
elif ! command -v prlimit >/dev/null 2>&1 || ! prlimit --nproc=1000:1000 true 2>/dev/null; then
	skip "no threads: prlimit cannot set RLIMIT_NPROC here"
else
	mkdir -m 777 "$TMP/np" "$TMP/npo"
	sed "s|path=$TMP/t1000,|path=$TMP/np,|" "$TMP/t1000.f" >"$TMP/np.f"
	chmod 644 "$TMP/np.f"
	busy=$(ps -L -u 65534 --no-headers 2>/dev/null | wc -l)
	rc=0
	# shellcheck disable=SC2086
	timeout -k 5 "$GUARD" prlimit --nproc=$((busy + 50)):$((busy + 50)) -- \
		$as_user "$UFBRUN" -q -o "$TMP/npo/np.json" "$TMP/np.f" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "no threads (ulimit -u): no hang (exit $rc)" no_hang
	check "no threads (ulimit -u): exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "no threads (ulimit -u): the message says a thread could not be started" \
		'error: cannot start thread [0-9]+ of 1000: ' "$TMP/err"
	check "no threads (ulimit -u): one error message" test "$(grep -c 'error:' "$TMP/err")" -eq 1
	grepq "no threads (ulimit -u): the results so far are printed" 'IO Summary' "$TMP/out"
	check "no threads (ulimit -u): the tree is removed" no_tree "$TMP/np"
	# the results say why the run ended, as for a flowop's failure
	if ! $have_python; then
		skip "no threads (ulimit -u): the JSON's error: needs python3"
	elif [ ! -f "$TMP/npo/np.json" ]; then
		fail "no threads (ulimit -u): -o is written"
	else
		check "no threads (ulimit -u): -o has ended_by error" \
			test "$(json "$TMP/npo/np.json" "r['ended_by']")" = error
		check "no threads (ulimit -u): -o has the error: cannot start thread N of 1000" \
			json_has "$TMP/npo/np.json" "r.get('error', '')" '^cannot start thread [0-9]+ of 1000: '
	fi
	rc=0
	# shellcheck disable=SC2086
	timeout -k 5 "$GUARD" prlimit --nproc=$((busy + 50)):$((busy + 50)) -- \
		$as_user "$UFBRUN" -q --format json "$TMP/np.f" \
		>"$TMP/np.out" 2>"$TMP/err" || rc=$?
	check "no threads, --format json: exit 1 (exit $rc)" test "$rc" -eq 1
	if $have_python; then
		check "no threads, --format json: ended_by error, with the error" \
			json_has "$TMP/np.out" "r['ended_by'] + ': ' + r.get('error', '')" '^error: cannot start thread [0-9]+ of 1000: '
	fi
	check "no threads, --format json: the tree is removed" no_tree "$TMP/np"
fi

# 10^12 threads asked for: 1000000 instances of a process of 1000000
cat >"$TMP/tera.f" <<F
define fileset name=fs,path=$TMP/tera,entries=10,size=1k,dirwidth=10,prealloc=100
define process name=p,instances=1000000 { thread name=t,instances=1000000 {
  flowop statfile name=stat,filesetname=fs } }
run 1
F
# (a sanitizer would abort on the huge allocation instead of failing it)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" \
	fb "$GUARD" -q "$TMP/tera.f"
check "10^12 threads: no hang, no crash (exit $rc)" eval 'no_hang && no_crash'
check "10^12 threads: refused as a script error, exit 2 (exit $rc)" test "$rc" -eq 2
grepq "10^12 threads: the message says threads and the limit" \
	'tera.f:2:1: error: too many threads: .* 1000000000000 .*at most 100000' "$TMP/err"
check "10^12 threads: a caret under the process" grep -q '^ *\^~' "$TMP/err"
check "10^12 threads: no tree created" no_tree "$TMP/tera"
# Two processes of 60000 each pass the limit together.
cat >"$TMP/two.f" <<F
define fileset name=fs,path=$TMP/two,entries=10,size=1k,dirwidth=10,prealloc=100
define process name=p { thread name=t,instances=60000 {
  flowop statfile name=stat,filesetname=fs } }
define process name=q,instances=2 { thread name=t,instances=30000 {
  flowop statfile name=stat,filesetname=fs } }
run 1
F
fb "$GUARD" --parse-only "$TMP/two.f"
check "2 x 60000 threads: refused at parse time, exit 2 (exit $rc)" test "$rc" -eq 2
grepq "2 x 60000 threads: the message names the second process and the total" \
	"two.f:4:1: error: too many threads: process 'q' starts 60000, making 120000" "$TMP/err"
# The limit itself is allowed.
sed 's/instances=60000/instances=40000/' "$TMP/two.f" >"$TMP/two2.f"
fb "$GUARD" --parse-only "$TMP/two2.f"
check "100000 threads in all: accepted by --parse-only (exit $rc)" test "$rc" -eq 0

# --- no memory to be had ------------------------------------------------------------
# memsize is allocated and touched before the run: under ulimit -v 1 GiB a
# 4 GiB memsize cannot be had.  (Not under a sanitizer, which needs terabytes
# of address space for itself.)
cat >"$TMP/mem.f" <<F
define fileset name=fs,path=$TMP/mem,entries=10,size=1k,dirwidth=10,prealloc=100
define process name=p { thread name=t,memsize=4g {
  flowop read name=read,filesetname=fs,iosize=1k } }
run 1
F
if $sanitized; then
	for i in 1 2 3 4 5 6 7 8 9 10; do
		skip "no memory: a sanitizer build cannot run under ulimit -v"
	done
else
	with_limit "-v 1048576" "$GUARD" -q "$TMP/mem.f"
	check "no memory (memsize=4g, ulimit -v 1 GiB): no hang, no crash (exit $rc)" eval 'no_hang && no_crash'
	check "no memory (memsize=4g, ulimit -v 1 GiB): exit 1 (exit $rc)" test "$rc" -eq 1
	check "no memory (memsize=4g, ulimit -v 1 GiB): the message names memsize or memory" \
		grep -Eqi 'error: .*(memsize|memory)' "$TMP/err"
	check "no memory (memsize=4g, ulimit -v 1 GiB): the tree is removed" no_tree "$TMP/mem"

	# an I/O buffer that cannot be had: iosize=8t, no memsize
	sed 's/,memsize=4g//; s/iosize=1k/iosize=8t/' "$TMP/mem.f" >"$TMP/mem2.f"
	with_limit "-v 1048576" "$GUARD" -q "$TMP/mem2.f"
	check "no memory (iosize=8t): no hang, no crash (exit $rc)" eval 'no_hang && no_crash'
	check "no memory (iosize=8t): exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "no memory (iosize=8t): the message says memory could not be allocated" \
		'error: .*(Cannot allocate memory|out of memory)' "$TMP/err"
	check "no memory (iosize=8t): the tree is removed" no_tree "$TMP/mem"

	# the threads' own state: 100000 threads x 200 flowops of statistics
	{
		echo "define fileset name=fs,path=$TMP/mem,entries=10,size=1k,dirwidth=10,prealloc=100"
		echo 'define process name=p { thread name=t,instances=100000 {'
		awk 'BEGIN { for (i = 0; i < 200; i++) printf "  flowop statfile name=s%d,filesetname=fs\n", i }'
		echo '} }'
		echo 'run 1'
	} >"$TMP/mem3.f"
	with_limit "-v 1048576" "$GUARD" "$TMP/mem3.f"
	check "no memory (100000 threads x 200 flowops): no hang, no crash (exit $rc)" eval 'no_hang && no_crash'
	check "no memory (100000 threads x 200 flowops): exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "no memory (100000 threads x 200 flowops): the message says the threads' state" \
		'error: cannot allocate the state of 100000 threads' "$TMP/err"
	check "no memory (100000 threads x 200 flowops): one error message" \
		test "$(grep -c 'error:' "$TMP/err")" -eq 1
	grepq "no memory (100000 threads x 200 flowops): the results are printed" \
		'IO Summary' "$TMP/out"
	check "no memory (100000 threads x 200 flowops): the tree is removed" no_tree "$TMP/mem"
fi

# --- no descriptors to be had ---------------------------------------------------------
# ulimit -n 4 leaves one descriptor beyond stdin/out/err: not enough to
# read the marker of the fileset root it makes; 5 and 6 are enough to run
# and to clean up.  Reading the marker failing (EMFILE) is an error, never
# "no marker".
cat >"$TMP/fd.f" <<F
define fileset name=fs,path=$TMP/fd,entries=10,size=1k,dirwidth=10,prealloc=100
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=fs,fd=1
  flowop closefile name=close,fd=1 } }
run 1
F
for n in 4 5 6; do
	rm -rf "$TMP/fd"
	with_limit "-n $n" "$GUARD" -q "$TMP/fd.f"
	check "ulimit -n $n: no hang, no crash (exit $rc)" eval 'no_hang && no_crash'
	check "ulimit -n $n: exit 0 or 1 (exit $rc)" eval '[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]'
	if [ "$rc" -eq 1 ]; then
		grepq "ulimit -n $n: the message says descriptors ran out" \
			'error: .*(Too many open files|descriptor)' "$TMP/err"
	else
		pass "ulimit -n $n: the run managed (exit 0)"
	fi
	check "ulimit -n $n: the marker is never taken for absent" \
		eval '! grep -q "no .fbrun-fileset marker" "$TMP/err"'
	check "ulimit -n $n: no tree left behind" no_tree "$TMP/fd"
	check "ulimit -n $n: nor the temporary directory a new root is made in" \
		test -z "$(ls -A "$TMP" | grep '^\.fbrun-new\.' || :)"
done
# a tree of ours kept from before: under ulimit -n 4 its marker cannot be
# read, an error, never "no marker": the tree is not touched
rm -rf "$TMP/fd"
"$FBRUN" -q --keep "$TMP/fd.f" >/dev/null 2>&1
(cd "$TMP/fd" && find . | sort) >"$TMP/fd.before"
with_limit "-n 4" "$GUARD" -q "$TMP/fd.f"
grepq "ulimit -n 4: the error names the marker it could not open" \
	"cannot open '$TMP/fd/fs/.fbrun-fileset': Too many open files" "$TMP/err"
check "ulimit -n 4: the kept tree is untouched" \
	sh -c '(cd "$1" && find . | sort) | cmp -s - "$2"' sh "$TMP/fd" "$TMP/fd.before"
rm -rf "$TMP/fd"
# A deep tree (dirwidth=2) under a few descriptors: creation fails part
# way; what it made goes.
sed 's/entries=10,size=1k,dirwidth=10/entries=1000,size=1k,dirwidth=2/' "$TMP/fd.f" >"$TMP/fd2.f"
for n in 5 8; do
	rm -rf "$TMP/fd"
	with_limit "-n $n" "$GUARD" -q "$TMP/fd2.f"
	check "deep tree, ulimit -n $n: exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "deep tree, ulimit -n $n: the message says descriptors ran out" \
		'error: .*Too many open files' "$TMP/err"
	check "deep tree, ulimit -n $n: no tree left behind" no_tree "$TMP/fd"
done

done_testing
