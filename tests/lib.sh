# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Shared by the shell tests: strict mode, a private temp dir removed on
# exit, and TAP output (ok / not ok N - text, then 1..N).
set -eu
LC_ALL=C
export LC_ALL
: "${FBRUN:=$(pwd)/fbrun}"
: "${srcdir:=.}"

tap_n=0
tap_failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fbrun-test.XXXXXX")
is_root=false
[ "$(id -u)" -eq 0 ] && is_root=true

# Mounts a test makes go in $mounts: unmounted whatever happens, before
# $TMP is removed (never across into another file system).
# Loop devices it attaches go in $loops: detached once those are unmounted.
mounts=""
loops=""
cleanup() {
	for m in $mounts; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || :
	done
	mounts=""
	for l in $loops; do
		losetup -d "$l" 2>/dev/null || :
	done
	loops=""
	rm -rf --one-file-system "${TMP:?}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# loop_on_file SIZE [FILE]: a loop device over a new file of SIZE (FILE,
# else $TMP/img); $loop is the device, detached by cleanup.  Returns
# non-zero with the reason in $why.
loop_on_file() {
	why=""
	truncate -s "$1" "${2:-$TMP/img}"
	if ! loop=$(losetup -f --show "${2:-$TMP/img}" 2>"$TMP/losetup.err"); then
		loop=""
		why="no loop device: $(head -1 "$TMP/losetup.err")"
		return 1
	fi
	loops="$loop $loops"
}

# ext4_on_loop SIZE DIR: an ext4 of SIZE on a loop device over a file in
# $TMP, mounted at DIR (made); $loop is the device, both are undone by
# cleanup.  Returns non-zero with the reason in $why.
ext4_on_loop() {
	loop_on_file "$1" "$TMP/ext4.img" || return 1
	if ! mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
		"$loop" >"$TMP/mkfs.err" 2>&1; then
		why="mkfs.ext4 failed: $(head -1 "$TMP/mkfs.err")"
	elif ! mkdir "$2" || ! mount "$loop" "$2" 2>"$TMP/merr"; then
		why="cannot mount the ext4: $(head -1 "$TMP/merr")"
	else
		mounts="$2 $mounts"
		return 0
	fi
	return 1
}

# tmpfs_at OPTIONS DIR: a tmpfs mounted with OPTIONS (size=2m,...) at DIR
# (made), unmounted by cleanup.  Returns non-zero with the reason in $why
# (root is needed).
tmpfs_at() {
	why=""
	if ! $is_root; then
		why="needs root to mount a tmpfs"
	elif ! mkdir -p "$2" ||
		! mount -t tmpfs -o "$1" fbrun-test "$2" 2>"$TMP/merr"; then
		why="cannot mount a tmpfs here: $(head -1 "$TMP/merr")"
	else
		mounts="$2 $mounts"
		return 0
	fi
	return 1
}

pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
fail() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
# check DESCRIPTION COMMAND...: ok if the command succeeds
check() { d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }
diag() { sed 's/^/# /'; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
# grepq DESCRIPTION PATTERN FILE: ok if an extended regex matches
grepq() { if grep -Eq -- "$2" "$3"; then pass "$1"; else fail "$1"; diag <"$3"; fi; }
# kb BUG DESCRIPTION COMMAND...: a check a known bug makes fail today;
# once the bug is fixed, turn it back into `check`
kb() {
	kb_bug=$1 kb_desc=$2
	shift 2
	if "$@"; then pass "$kb_desc"; else skip "known bug: $kb_bug ($kb_desc)"; fi
}
done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }
# trace_formats: the words define trace's format= takes, "auto, strace,
# ... or fbrun", as its error lists them from src/trace/format_list.h
trace_formats() {
	printf 'define trace name=t,path=t,format=nosuch\n' >"$TMP/formats.f"
	"$FBRUN" --parse-only "$TMP/formats.f" 2>&1 |
		sed -n "s/.*unknown trace format 'nosuch'; expected //p"
}
# json FILE EXPR: prints EXPR, a Python expression over r, the JSON FILE
# holds (a results file)
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

# mpi_setup: what every test of fbrun-mpi on this machine needs: root may
# run mpirun when it says so, the ranks may outnumber the CPUs, Open MPI's
# memory kept to the end is not taken for fbrun's leaks, and GUARD, a
# limit against a hang (not a time any test expects).
mpi_setup() {
	OMPI_ALLOW_RUN_AS_ROOT=1
	OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	OMPI_MCA_rmaps_base_oversubscribe=1
	export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
		OMPI_MCA_rmaps_base_oversubscribe
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
	GUARD=300
}

# mpi NP ARGS...: $MPI_FBRUN on NP ranks, its output in $TMP/out and
# $TMP/err, its status in $rc (after mpi_setup)
mpi() {
	np=$1
	shift
	rc=0
	timeout -s KILL "$GUARD" mpirun -np "$np" "$MPI_FBRUN" "$@" \
		>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
}

# wait_until COMMAND...: until the command succeeds, looked at every 0.1 s;
# 300 s at most, a guard against a hang and not a time any test expects
# (the caller checks the condition itself afterwards)
wait_until() {
	wu_i=0
	while [ "$wu_i" -lt 3000 ] && ! "$@" 2>/dev/null; do
		sleep 0.1
		wu_i=$((wu_i + 1))
	done
}
# wait_for FILE PATTERN: until the pattern is in the file
wait_for() { wait_until grep -q -- "$2" "$1"; }

# as_nobody: for a test that runs fbrun as an unprivileged user (root
# bypasses permissions and limits).  Sets $as_user to a command prefix
# that runs as uid and gid 65534 and $UFBRUN to an fbrun that user can
# run: $FBRUN, or a copy of it in $TMP/pub when the build tree cannot be
# reached (a checkout under a 0700 /root).  Returns 1 with the reason in
# $why_not when that cannot be arranged.
as_nobody() {
	as_user="" UFBRUN="" why_not=""
	if ! $is_root; then
		why_not="needs root to run fbrun as an unprivileged user"
	elif command -v setpriv >/dev/null 2>&1 &&
		setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	elif command -v runuser >/dev/null 2>&1 && runuser -u nobody -- true 2>/dev/null; then
		as_user="runuser -u nobody --"
	else
		why_not="neither setpriv nor runuser can drop privileges here"
	fi
	[ -z "$why_not" ] || return 1
	chmod 755 "$TMP"
	if ! $as_user test -x "$TMP"; then
		why_not="$TMP is not reachable by an unprivileged user (set TMPDIR to a world-readable directory)"
		return 1
	fi
	UFBRUN=$FBRUN
	if ! $as_user test -x "$FBRUN"; then
		mkdir -p "$TMP/pub"
		chmod 755 "$TMP/pub"
		cp "$FBRUN" "$TMP/pub/fbrun"
		UFBRUN=$TMP/pub/fbrun
	fi
}

# run_fbrun ARGS...: runs fbrun, leaving stdout, stderr and status in
# $TMP/out, $TMP/err and $rc
run_fbrun() {
	rc=0
	"$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}
