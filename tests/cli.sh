#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The command line: options, exit codes, standard input, -D, and that a
# broken script touches nothing on disk.
. "${srcdir:-.}/tests/lib.sh"

run_fbrun --help
check "--help exits 0 and prints usage" test "$rc" -eq 0 -a -s "$TMP/out"
grep -q -- '--parse-only' "$TMP/out" && pass "--help lists --parse-only" || fail "--help lists --parse-only"

run_fbrun --version
check "--version exits 0" test "$rc" -eq 0
grep -q '^fbrun [0-9]' "$TMP/out" && pass "--version prints the version" || fail "--version prints the version"
# then what the build has, a "name: value" line each
check "--version: the version and four features, five lines" test "$(wc -l <"$TMP/out")" -eq 5
grepq "... the aio engine, and for io_uring the ring setup the kernel takes" \
	'^aio: (io_uring \(liburing( [0-9]+\.[0-9]+)?; (defer taskrun, single issuer, coop taskrun|single issuer, coop taskrun|coop taskrun|no setup flags|no io_uring here)\)|POSIX aio)$' "$TMP/out"
grepq "... no MPI in fbrun (fbrun-mpi says its own)" '^mpi: no; ' "$TMP/out"
# ... and whether fbrun-mpi is beside it: the build tree's, then a copy of
# fbrun alone in a directory, then with an fbrun-mpi put there
if [ -x "$(dirname "$FBRUN")/fbrun-mpi" ]; then
	grepq "... fbrun-mpi beside it in the build tree" \
		'^mpi: no; fbrun-mpi beside it: /.*/fbrun-mpi$' "$TMP/out"
else
	grepq "... no fbrun-mpi beside it in the build tree" \
		'^mpi: no; no fbrun-mpi beside it$' "$TMP/out"
fi
mkdir "$TMP/alone"
cp "$FBRUN" "$TMP/alone/fbrun"
"$TMP/alone/fbrun" --version >"$TMP/v" 2>&1
grepq "... a copy of fbrun alone: no fbrun-mpi beside it" \
	'^mpi: no; no fbrun-mpi beside it$' "$TMP/v"
printf '#!/bin/sh\n' >"$TMP/alone/fbrun-mpi"
chmod +x "$TMP/alone/fbrun-mpi"
"$TMP/alone/fbrun" --version >"$TMP/v" 2>&1
grepq "... with an fbrun-mpi put in its directory: it is named" \
	"^mpi: no; fbrun-mpi beside it: $TMP/alone/fbrun-mpi\$" "$TMP/v"
grepq "... libblkid: its version, or no" '^libblkid: (no|[0-9]+\.[0-9]+[0-9.]*)$' "$TMP/out"
grepq "... jansson's version" '^jansson: [0-9]+\.[0-9]+' "$TMP/out"
config=$(dirname "$FBRUN")/config.h
if [ -f "$config" ]; then
	want="POSIX aio"
	grep -q '^#define HAVE_LIBURING 1' "$config" && want="io_uring"
	grepq "... the aio engine configure chose: $want" "^aio: $want" "$TMP/out"
else
	skip "--version's aio as configured: no config.h beside $FBRUN"
fi
# a program linked with libblkid says its version
if command -v ldd >/dev/null 2>&1 && ldd "$FBRUN" >"$TMP/ldd" 2>/dev/null; then
	want=no
	grep -q 'libblkid\.so' "$TMP/ldd" && want="[0-9]"
	grepq "... libblkid as fbrun is linked ($want)" "^libblkid: $want" "$TMP/out"
else
	skip "--version's libblkid as linked: ldd cannot read $FBRUN"
fi
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists jansson; then
	v=$(pkg-config --modversion jansson)
	grepq "... the jansson installed: $v" "^jansson: $v( |\$)" "$TMP/out"
else
	skip "--version's jansson against pkg-config's: no pkg-config or jansson.pc"
fi

run_fbrun --bogus x.f
check "an unknown option exits 2" test "$rc" -eq 2
grep -q "unknown option '--bogus'" "$TMP/err" && pass "names the unknown option" || fail "names the unknown option"

run_fbrun
check "no script exits 2" test "$rc" -eq 2

run_fbrun --parse-only "$TMP/does-not-exist.f"
check "a missing script exits 2" test "$rc" -eq 2
grep -q "cannot read" "$TMP/err" && pass "says it cannot read the script" || fail "says it cannot read the script"

run_fbrun --list-flowops
check "--list-flowops lists every flowop" test "$rc" -eq 0 -a "$(wc -l <"$TMP/out")" -eq "$(grep -c "^FLOWOP(" "$srcdir/src/lang/flowop_list.h")"

cat >"$TMP/ok.f" <<'F'
set $dir=/nonexistent-dir
define fileset name=a,path=$dir,entries=4,dirwidth=2,prealloc
define process name=p { thread name=t { flowop statfile name=s,filesetname=a } }
run 1
F
rc=0
"$FBRUN" --dump-ir - <"$TMP/ok.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
check "'-' reads the script from standard input" test "$rc" -eq 0
grep -q 'path="/nonexistent-dir"' "$TMP/out" && pass "stdin script compiled" || fail "stdin script compiled"

run_fbrun --dump-ir -D dir="$TMP/data" "$TMP/ok.f"
grep -q "path=\"$TMP/data\"" "$TMP/out" && pass "-D overrides the script's set" || fail "-D overrides the script's set"

# a -D the script never uses (a typo, most often) is refused, as a
# misspelt variable in the script is, unless --define-unused=warn
run_fbrun --dump-ir -D dri="$TMP/data" "$TMP/ok.f"
check "an unused -D exits 2 (exit $rc)" test "$rc" -eq 2
grepq "... and says which, with the nearest name" \
	"^<command line>:1:4: error: -D dri is not used by the script; did you mean 'dir'\?\$" "$TMP/err"
grepq "... and how to run all the same" "note: --define-unused=warn" "$TMP/err"
run_fbrun --dump-ir -D zzzqq=1 "$TMP/ok.f"
check "an unused -D with no near name exits 2 (exit $rc)" test "$rc" -eq 2
grepq "... and offers no name" "error: -D zzzqq is not used by the script\$" "$TMP/err"
run_fbrun --dump-ir --define-unused=warn -D dri=1 -D dir="$TMP/data" "$TMP/ok.f"
check "--define-unused=warn: an unused -D exits 0 (exit $rc)" test "$rc" -eq 0
grepq "... with a warning" "warning: -D dri is not used by the script; did you mean 'dir'" "$TMP/err"
grep -q "path=\"$TMP/data\"" "$TMP/out" && pass "... and the used -D still applies" || fail "... and the used -D still applies"
run_fbrun --dump-ir --define-unused=error -D dri=1 "$TMP/ok.f"
check "--define-unused=error is the default (exit $rc)" test "$rc" -eq 2
run_fbrun --dump-ir --define-unused=maybe "$TMP/ok.f"
check "--define-unused=maybe exits 2 (exit $rc)" test "$rc" -eq 2
grepq "... naming the words it takes" "error: --define-unused expects error or warn, got 'maybe'" "$TMP/err"
run_fbrun curve --levels 10 -D dri=1 "$TMP/ok.f"
check "fbrun curve: an unused -D exits 2 before any level runs (exit $rc)" test "$rc" -eq 2
grepq "... saying so" "error: -D dri is not used by the script" "$TMP/err"
# a -D of a variable the script sets but never reads is used: it is
# the script's own knob
printf 'set $spare=1\n%s' "$(cat "$TMP/ok.f")" >"$TMP/spare.f"
run_fbrun --dump-ir -D spare=2 "$TMP/spare.f"
check "a -D of a variable the script sets (unread) exits 0 (exit $rc)" test "$rc" -eq 0

run_fbrun --dump-ir -D 1bad=2 "$TMP/ok.f"
check "-D with a bad name exits 2" test "$rc" -eq 2

run_fbrun --dump-ir -D dir "$TMP/ok.f"
check "-D without '=' exits 2" test "$rc" -eq 2

# -D numbers out of range: the same message as in a script
for v in 99999999999999999999 -99999999999999999999; do
	run_fbrun --dump-ir -D dir=x -D big="$v" "$TMP/ok.f"
	check "-D big=$v: exits 2 (exit $rc)" test "$rc" -eq 2
	case $v in -*) want="too small \(the limit is -2\^63\)" ;; *) want="too large \(the limit is 2\^63-1\)" ;; esac
	grepq "-D big=$v: says the integer is too $(echo "$want" | cut -d' ' -f2)" \
		"^<command line>:2:4: error: -D big: integer '$v' is $want\$" "$TMP/err"
done

# Output that cannot be written is a run failure, not success
printf 'echo hello\n' >"$TMP/echo.f"
rc=0
"$FBRUN" "$TMP/echo.f" >/dev/full 2>"$TMP/err" || rc=$?
check "stdout on /dev/full: exits 1 (exit $rc)" test "$rc" -eq 1
grepq "stdout on /dev/full: says it cannot write" \
	'^fbrun: error: cannot write to standard output' "$TMP/err"
rc=0
"$FBRUN" --dump-ir "$TMP/ok.f" >/dev/full 2>"$TMP/err" || rc=$?
check "--dump-ir on /dev/full: exits 1 (exit $rc)" test "$rc" -eq 1
grepq "--dump-ir on /dev/full: names the errno" \
	'^fbrun: error: cannot write to standard output: No space left on device$' "$TMP/err"
cat >"$TMP/full.f" <<F
define fileset name=a,path=$TMP/full,entries=4,dirwidth=2,prealloc
define process name=p { thread name=t { flowop statfile name=s,filesetname=a } }
run 1
F
rc=0
"$FBRUN" "$TMP/full.f" >/dev/full 2>"$TMP/err" || rc=$?
check "a run with stdout on /dev/full: exits 1 (exit $rc)" test "$rc" -eq 1
check "a run with stdout on /dev/full: the tree is removed" test ! -e "$TMP/full"

# A broken script must not create its fileset directory.
cat >"$TMP/bad.f" <<F
define fileset name=a,path=$TMP/tree,entries=4,dirwidth=2,prealloc
define process name=p { thread name=t { flowop statfil name=s,filesetname=a } }
run 1
F
run_fbrun "$TMP/bad.f"
check "a script error exits 2" test "$rc" -eq 2
check "a script error creates nothing" test ! -e "$TMP/tree"
grep -q "bad.f:2:48: error: unknown flowop 'statfil'; did you mean 'statfile'?" "$TMP/err" \
	&& pass "the error is located and suggests a fix" || fail "the error is located and suggests a fix"

run_fbrun --list-workloads
n=$(ls "$srcdir"/workloads/*.f "$srcdir"/workloads/*/*.f | wc -l)
check "--list-workloads lists every shipped workload, bonnie's too" \
	test "$rc" -eq 0 -a "$(grep -c '^[a-z]' "$TMP/out")" -eq "$n"
grepq "... bonnie's by their folder" '^bonnie/rewrite  *bonnie' "$TMP/out"
grep -q '^varmail  *a mail server' "$TMP/out" && pass "each with what it models" || fail "each with what it models"
check "... in lines of at most 79 characters" \
	test "$(awk 'length($0) > 79' "$TMP/out" | wc -l)" -eq 0
check "... not the license lines every file starts with" \
	test "$(grep -c 'SPDX\|Copyright' "$TMP/out")" -eq 0
# each description whole: the words of the header's first sentence
first=$(sed -n '/ -- /,/\.\( \|$\)/p' "$srcdir/workloads/createdelete-swing.f" |
	sed 's/^# *//; s/^createdelete-swing\.f -- //' | tr '\n' ' ' |
	sed 's/\. .*/./; s/  */ /g; s/ $//')
shown=$(sed -n '/^createdelete-swing /,/^[a-z]/p' "$TMP/out" | sed '$d' |
	sed 's/^createdelete-swing//' | tr '\n' ' ' | sed 's/  */ /g; s/^ //; s/ $//')
check "... whole, wrapped, not cut" test "$first" = "$shown"

run_fbrun imagse
check "a misspelt workload: exit 2" test "$rc" -eq 2
grepq "... with the shipped name it is closest to" \
	"cannot read 'imagse': .*; did you mean 'images'\\?$" "$TMP/err"
run_fbrun --show rewrite
grepq "--show without the folder: did you mean bonnie/rewrite" \
	"no workload 'rewrite'; did you mean 'bonnie/rewrite'\\?" "$TMP/err"

run_fbrun --help
grepq "--help names fbrun bonnie" '^ +fbrun bonnie ' "$TMP/out"
grepq "--help names fbrun compare" '^ +fbrun compare ' "$TMP/out"
grepq "--help says an interrupted run exits 1" 'interrupted' "$TMP/out"
(cd "$TMP" && FBRUN_WORKLOADS="$srcdir/workloads" "$FBRUN" --parse-only varmail) 2>"$TMP/err" \
	&& pass "a bare name runs the shipped workload" || fail "a bare name runs the shipped workload"

# filebench's plurals: `define filesets`, `define processes`
cat >"$TMP/one.f" <<F
define fileset name=a,path=$TMP/pl,entries=10,dirwidth=5,size=1k,prealloc
define process name=p { thread name=t { flowop statfile name=s,filesetname=a } }
run 1
F
sed 's/define fileset /define filesets /; s/define process /define processes /' \
	"$TMP/one.f" >"$TMP/many.f"
run_fbrun --dump-ir "$TMP/one.f"
cp "$TMP/out" "$TMP/one.ir"
run_fbrun --dump-ir "$TMP/many.f"
check "define filesets / define processes: read as the singular (exit $rc)" \
	test "$rc" -eq 0 -a -s "$TMP/out"
check "... the same workload" cmp -s "$TMP/out" "$TMP/one.ir"

run_fbrun --list-attributes
if [ "$rc" -eq 0 ] && cmp -s "$TMP/out" "$srcdir/doc/attributes.md"; then
	pass "doc/attributes.md matches the compiler's tables"
else
	fail "doc/attributes.md is stale: run make update-golden"
fi

done_testing
