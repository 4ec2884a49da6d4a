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
mounts=""
cleanup() {
	for m in $mounts; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || :
	done
	rm -rf --one-file-system "${TMP:?}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

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

# run_fbrun ARGS...: runs fbrun, leaving stdout, stderr and status in
# $TMP/out, $TMP/err and $rc
run_fbrun() {
	rc=0
	"$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}
