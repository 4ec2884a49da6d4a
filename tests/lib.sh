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
trap 'rm -rf "$TMP"' EXIT

pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
fail() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
# check DESCRIPTION COMMAND...: ok if the command succeeds
check() { d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }
diag() { sed 's/^/# /'; }
done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }

# run_fbrun ARGS...: runs fbrun, leaving stdout, stderr and status in
# $TMP/out, $TMP/err and $rc
run_fbrun() {
	rc=0
	"$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}
