#!/bin/sh
# The full test suite, as CI runs it, each part in its own build tree:
#   build/       the whole suite with -Werror, then make distcheck
#   build-asan/  the whole suite under AddressSanitizer + UBSan
#   build-tsan/  the engine and sampler tests under ThreadSanitizer
#   build-fuzz/  the parser fuzzer for $FUZZ_SECONDS (60) under ASan + UBSan
#   valgrind     memcheck on a short run
# Ends with one line "N passed, N failed, N skipped"; exits non-zero on
# any failure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=${JOBS:-2}
fuzz_seconds=${FUZZ_SECONDS:-60}

autoreconf -fi
if [ -f config.status ]; then
	echo "run-all: the source tree is configured in place; run 'make distclean' first" >&2
	exit 2
fi

# build DIR CONFIGURE-ARGS...: configure (once) and build in DIR
build() {
	dir=$1
	shift
	mkdir -p "$dir"
	(cd "$dir" && { [ -f Makefile ] || ../configure "$@"; } && make -j"$jobs")
}

build build --enable-werror
(cd build && make -j"$jobs" check)
(cd build && make distcheck)

build build-asan --enable-asan --enable-ubsan
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 make -j"$jobs" check)

build build-tsan --enable-tsan
(cd build-tsan && TSAN_OPTIONS="halt_on_error=1 suppressions=$top/tests/tsan.supp" \
	make -j"$jobs" check TESTS="tests/unit/test-fileset tests/e2e.sh tests/output.sh")

if command -v clang >/dev/null 2>&1; then
	build build-fuzz CC=clang --enable-fuzz --enable-asan --enable-ubsan
	seeds=$(mktemp -d)
	cp tests/parse/*.f tests/errors/*.f tests/warnings/*.f workloads/*.f "$seeds"
	# a crash leaves its input as build-fuzz/crash-*: add it to tests/fuzz/corpus
	(cd build-fuzz && ./tests/fuzz/fuzz-parse -max_total_time="$fuzz_seconds" \
		-timeout=10 "$seeds" "$top/tests/fuzz/corpus" >fuzz.log 2>&1) ||
		{ tail -30 build-fuzz/fuzz.log; rm -rf "$seeds"; exit 1; }
	rm -rf "$seeds"
	tail -1 build-fuzz/fuzz.log
else
	echo "run-all: clang not found: fuzzing skipped" >&2
fi

if command -v valgrind >/dev/null 2>&1; then
	vdir=$(mktemp -d)
	valgrind --quiet --error-exitcode=1 --leak-check=full \
		--errors-for-leak-kinds=definite build/fbrun -q -t 1 \
		-D dir="$vdir/img" -D nfiles=40 -D nthreads=2 -D ncreators=1 \
		workloads/images.f >/dev/null
	rm -rf "$vdir"
	echo "run-all: valgrind memcheck clean"
fi

cat build/test-suite.log build-asan/test-suite.log build-tsan/test-suite.log |
	awk '/^# PASS:/ {p += $3} /^# FAIL:/ {f += $3} /^# ERROR:/ {f += $3}
	     /^# SKIP:/ {s += $3} END {printf "%d passed, %d failed, %d skipped\n", p, f, s}'
