#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The full test suite, as CI runs it, each part in its own build tree:
#   build/       the whole suite with -Werror, then make distcheck (the
#                tarball built and installed out of tree, with the tests
#                that read the tree's own files: $DISTCHECK_TESTS)
#   build-asan/  the whole suite under AddressSanitizer + UBSan
#   build-tsan/  the engine and monitor tests under ThreadSanitizer
#   build-fuzz/  the parser fuzzer for $FUZZ_SECONDS (60), compare's
#                results reader and the trace readers for half that
#                each, under ASan + UBSan
#   valgrind     memcheck on a short run
# Every stage runs and reports, whatever an earlier one did.  Ends with
# the skips counted by reason, then one line "N passed, N failed, N
# skipped": the tests of the three suites, plus each other stage as one
# (distcheck, fuzzing, valgrind, and a build that failed); exits non-zero
# if anything failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
jobs=${JOBS:-2}
fuzz_seconds=${FUZZ_SECONDS:-60}

if [ -f config.status ]; then
	echo "run-all: the source tree is configured in place; run 'make distclean' first" >&2
	exit 2
fi
autoreconf -fi || { echo "run-all: autoreconf failed" >&2; exit 2; }

passed=0 failed=0 skipped=0 failures=""
# the reasons of every skip, a line each, for the summary by reason
reasons=$(mktemp)
trap 'rm -f "$reasons"' EXIT
t0=$(date +%s)
# took: $took, the seconds since its last call (each stage says how long
# it took; not in $(...), whose subshell would keep t0 to itself)
took() {
	t1=$(date +%s)
	took="$((t1 - t0)) s"
	t0=$t1
}
# stage NAME OK: count a stage that is not a test suite
stage() {
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
		took
		echo "run-all: $1: ok ($took)"
	else
		failed=$((failed + 1))
		failures="$failures
  $1"
		took
		echo "run-all: $1: FAILED ($took)" >&2
	fi
}
# suite DIR: add the counts of DIR/test-suite.log (a suite that wrote none
# has failed as a stage already)
suite() {
	[ -f "$1/test-suite.log" ] || return 0
	# shellcheck disable=SC2046
	set -- "$1" $(awk '/^# PASS:/ {p += $3} /^# (FAIL|ERROR|XPASS):/ {f += $3}
		/^# SKIP:/ {s += $3} END {print p + 0, f + 0, s + 0}' "$1/test-suite.log")
	passed=$((passed + $2)) failed=$((failed + $3)) skipped=$((skipped + $4))
	# "SKIP: tests/x.sh 5 # SKIP why" in each test's log; a script that
	# skipped whole (exit 77) says why in its log's last line
	for log in "$1"/tests/*.log "$1"/tests/unit/*.log; do
		[ -f "$log" ] || continue
		case $log in */test-suite.log) continue ;; esac
		sed -n 's/^SKIP: [^#]*# SKIP *//p' "$log" >>"$reasons"
		if grep -q '^SKIP: [^ ]*$' "$log"; then
			tail -1 "$log" | sed 's/^# *//' >>"$reasons"
		fi
	done
	if [ "$3" -gt 0 ]; then
		failures="$failures
  $1: $(grep -E '^(FAIL|ERROR|XPASS):' "$1/test-suite.log" | sed 's/ - .*//' |
			sort -u | tr '\n' ' ')"
	fi
}

# build DIR CONFIGURE-ARGS...: configure DIR with exactly these arguments
# (again, from clean, if it was configured otherwise, say by the README's
# first command without --enable-werror) and build it
build() {
	dir=$1
	shift
	want="$*"
	mkdir -p "$dir" || return 1
	(
		cd "$dir" || exit 1
		if [ ! -f Makefile ] || [ "$(cat .run-all-args 2>/dev/null)" != "$want" ]; then
			[ ! -f Makefile ] || make distclean >/dev/null 2>&1 || :
			../configure "$@" || exit 1
			echo "$want" >.run-all-args
		fi
		make -j"$jobs"
	)
}

# check DIR [MAKE-ARGS...]: make check in DIR, from a clean log
check() {
	dir=$1
	shift
	rm -f "$dir/test-suite.log"
	(cd "$dir" && make -j"$jobs" check "$@")
	rc=$?
	[ -f "$dir/test-suite.log" ] || stage "$dir: make check (no test-suite.log)" 1
	suite "$dir"
	took
	echo "run-all: $dir: make check $* ($took)"
	return $rc
}

# The tests make distcheck runs: those that read the tree's own files
# (scripts, goldens, workloads, examples, the schema, the corpus, the
# completion and vim files, README and the man pages), which a file missing from the tarball would
# break, and make install from that build; the whole suite has run in
# build/ already.
DISTCHECK_TESTS=${DISTCHECK_TESTS:-"tests/golden.sh tests/workloads.sh
	tests/cli.sh tests/readme.sh tests/layers.sh tests/fuzz-regress.sh
	tests/bonnie.sh tests/tree.sh tests/thumper.sh tests/schema.sh
	tests/install.sh tests/completion.sh tests/options.sh tests/vim.sh
	tests/license.sh"}

if build build --enable-werror; then
	check build
	# shellcheck disable=SC2086
	(cd build && make -j"$jobs" distcheck TESTS="$(echo $DISTCHECK_TESTS)")
	stage "make distcheck" $?
else
	stage "build/ (--enable-werror)" 1
fi

if build build-asan --enable-asan --enable-ubsan; then
	ASAN_OPTIONS=detect_leaks=1 check build-asan
else
	stage "build-asan/" 1
fi

if build build-tsan --enable-tsan; then
	TSAN_OPTIONS="halt_on_error=1 suppressions='$top/tests/tsan.supp'" \
		check build-tsan TESTS="tests/unit/test-fileset tests/e2e.sh tests/output.sh"
else
	stage "build-tsan/" 1
fi

# fuzz_half NAME WHAT: tests/fuzz/fuzz-NAME for half the fuzzing time, from
# tests/fuzz/corpus-NAME, as stage WHAT
fuzz_half() {
	seeds=$(mktemp -d)
	(cd build-fuzz && "./tests/fuzz/fuzz-$1" \
		-max_total_time="$((fuzz_seconds / 2))" -timeout=10 \
		"$seeds" "$top/tests/fuzz/corpus-$1" >"fuzz-$1.log" 2>&1)
	rc=$?
	rm -rf "$seeds"
	[ "$rc" -eq 0 ] || tail -30 "build-fuzz/fuzz-$1.log"
	tail -1 "build-fuzz/fuzz-$1.log"
	stage "$2, $((fuzz_seconds / 2)) s" "$rc"
}

if ! command -v clang >/dev/null 2>&1; then
	echo "run-all: clang not found: fuzzing skipped" >&2
	echo "fuzzing: clang not found (apt-get install clang)" >>"$reasons"
	skipped=$((skipped + 1))
elif build build-fuzz CC=clang --enable-fuzz --enable-asan --enable-ubsan; then
	seeds=$(mktemp -d)
	# each under its path's name: the folders share some file names
	for f in tests/parse/*.f tests/errors/*.f tests/warnings/*.f workloads/*.f; do
		cp "$f" "$seeds/$(echo "$f" | tr / _)"
	done
	# a crash leaves its input as build-fuzz/crash-*: add it to tests/fuzz/corpus
	(cd build-fuzz && ./tests/fuzz/fuzz-parse -max_total_time="$fuzz_seconds" \
		-timeout=10 "$seeds" "$top/tests/fuzz/corpus" >fuzz.log 2>&1)
	rc=$?
	rm -rf "$seeds"
	[ "$rc" -eq 0 ] || tail -30 build-fuzz/fuzz.log
	tail -1 build-fuzz/fuzz.log
	stage "parser fuzzer, ${fuzz_seconds} s" "$rc"
	# compare's reader and the trace readers, from their seeds into a
	# scratch corpus; a crash input goes to the seeds' folder
	# (corpus-trace: a first byte that picks the format, then the trace)
	fuzz_half compare "compare fuzzer"
	fuzz_half trace "trace fuzzer"
else
	stage "build-fuzz/" 1
fi

# valgrind 3.19 does not know openat2 (syscall 437): it says so, fails the
# call with ENOSYS, and fbrun takes its fallback walk (doc/running.md).
# Its lines about that are dropped; anything else it says is shown.
if ! command -v valgrind >/dev/null 2>&1; then
	echo "run-all: valgrind not found: memcheck skipped" >&2
	echo "memcheck: valgrind not found (apt-get install valgrind)" >>"$reasons"
	skipped=$((skipped + 1))
elif [ -x build/fbrun ]; then
	vdir=$(mktemp -d)
	valgrind --quiet --error-exitcode=1 --leak-check=full \
		--errors-for-leak-kinds=definite build/fbrun -q -t 1 \
		-D dir="$vdir/img" -D nfiles=40 -D nthreads=2 -D ncreators=1 \
		workloads/images.f >/dev/null 2>"$vdir/log"
	rc=$?
	grep -v -e 'unhandled amd64-linux syscall: 437' \
		-e 'You may be able to write your own handler' \
		-e 'Read the file README_MISSING_SYSCALL_OR_IOCTL' \
		-e 'Nevertheless we consider this a bug' \
		-e 'it at http://valgrind.org/support/bug_reports.html' "$vdir/log" >&2
	rm -rf "$vdir"
	stage "valgrind memcheck" "$rc"
fi

if [ -n "$failures" ]; then
	echo "run-all: failed:$failures" >&2
fi
# the skips counted by reason, most first: what the machine lacked
if [ -s "$reasons" ]; then
	echo "run-all: skipped, by reason:"
	sort "$reasons" | uniq -c | sort -k1,1nr -k2 | sed 's/^ */  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
