#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
# make install and make uninstall of this build tree (into $TMP, with
# DESTDIR): the installed fbrun finds its own workloads by name, the man
# pages, completion and vim files are installed and removed again, an
# install emptied by make uninstall does not hide a build tree's
# workloads, and no source or build path is compiled into fbrun.
. "${srcdir:-.}/tests/lib.sh"

builddir=$(cd "$(dirname "$FBRUN")" && pwd)
src=$(cd "$srcdir" && pwd)
nwork=$(ls "$src"/workloads/*.f "$src"/workloads/*/*.f | wc -l)
mpi=false
[ -x "$builddir/fbrun-mpi" ] && mpi=true

# make ARGS...: make in the build tree, on its own (not as a part of the
# make check that runs this test: none of its flags or variables)
make_here() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		make -C "$builddir" "$@" >"$TMP/make.log" 2>&1
}
# listed FBRUN: how many workloads FBRUN --list-workloads lists, from
# another directory, without $FBRUN_WORKLOADS
listed() {
	(cd "$TMP" && env -u FBRUN_WORKLOADS "$1" --list-workloads 2>"$TMP/err") |
		grep -c '^[a-z]' || :
}

if ! command -v make >/dev/null 2>&1 || [ ! -f "$builddir/Makefile" ]; then
	skip "no make, or no Makefile in $builddir"
	done_testing
	exit 0
fi

root=$TMP/root
rc=0
make_here install DESTDIR="$root" || rc=$?
check "make install DESTDIR=...: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/make.log"
find "$root" ! -type d | sort >"$TMP/installed"
inst=$(grep '/bin/fbrun$' "$TMP/installed" || :)
if [ -z "$inst" ]; then
	fail "make install put fbrun in a bin directory"
	diag <"$TMP/installed"
	done_testing
	exit 1
fi
prefix=${inst%/bin/fbrun}
share=$prefix/share/fbrun/workloads

check "the installed fbrun lists the installed workloads ($nwork)" \
	test "$(listed "$inst")" -eq "$nwork"
# a line added to the installed varmail.f: the error names the installed copy
printf 'flowop installed_copy\n' >>"$share/varmail.f"
rc=0
(cd "$TMP" && env -u FBRUN_WORKLOADS "$inst" --parse-only varmail) 2>"$TMP/err" || rc=$?
check "the installed fbrun runs varmail by name from the installed copy (exit $rc)" \
	grep -q "^$share/varmail.f:[0-9]*:[0-9]*: error: " "$TMP/err"
[ "$rc" -eq 2 ] || diag <"$TMP/err"

for f in share/man/man1/fbrun.1 share/bash-completion/completions/fbrun \
	share/vim/vimfiles/ftdetect/fbrun.vim share/vim/vimfiles/syntax/fbrun.vim; do
	check "installed: $f" test -f "$prefix/$f"
done
if $mpi; then
	check "installed: bin/fbrun-mpi" test -x "$prefix/bin/fbrun-mpi"
	check "installed: share/man/man1/fbrun-mpi.1" test -f "$prefix/share/man/man1/fbrun-mpi.1"
	check "installed: fbrun-mpi's completion, a link to fbrun's" \
		test "$(readlink "$prefix/share/bash-completion/completions/fbrun-mpi")" = fbrun
else
	skip "fbrun-mpi is not built: its files"
fi
check "the man page names the installed workloads" \
	grep -q "share/fbrun/workloads" "$prefix/share/man/man1/fbrun.1"

rc=0
make_here uninstall DESTDIR="$root" || rc=$?
check "make uninstall DESTDIR=...: exit 0 (exit $rc)" test "$rc" -eq 0
find "$root" ! -type d >"$TMP/left"
check "make uninstall leaves no file" test ! -s "$TMP/left"
diag <"$TMP/left"
check "... but the workload directory, empty" test -d "$share"

# An fbrun beside that emptied install, with workloads one level up (as
# a build tree has them beside build/): the empty directory comes first
# in the lookup, and is passed over.
cp "$FBRUN" "$prefix/bin/fbrun"
cp -R "$src/workloads" "$prefix/workloads"
check "an fbrun beside an emptied install finds the workloads further on" \
	test "$(listed "$prefix/bin/fbrun")" -eq "$nwork"
rm -rf "$prefix/workloads"
# the configured install directory comes last: it may hold workloads here
if ls "${prefix#"$root"}"/share/fbrun/workloads/*.f >/dev/null 2>&1; then
	skip "fbrun is installed in ${prefix#"$root"} on this machine"
	skip "... so an fbrun always finds workloads"
else
	rc=0
	(cd "$TMP" && env -u FBRUN_WORKLOADS "$prefix/bin/fbrun" --list-workloads) \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
	check "... and with none, says so: exit 2 (exit $rc)" test "$rc" -eq 2
	grepq "... 'no workload directory found'" 'no workload directory found' "$TMP/err"
fi

# the build tree's own fbrun, without FBRUN_WORKLOADS: workloads/ beside
# it or one level up (not so in make distcheck's build, elsewhere)
up=$(cd "$builddir/.." && pwd)
if [ "$builddir" = "$src" ] || [ "$up" = "$src" ]; then
	check "the build tree's fbrun lists the source tree's workloads" \
		test "$(listed "$FBRUN")" -eq "$nwork"
else
	skip "the build tree is not in the source tree or a directory of it"
fi

# no source or build path in what would be shipped (debug info aside:
# it names the build directory unless -ffile-prefix-map says otherwise),
# but the configured install directory (in make distcheck, inside the
# source tree)
configured=${prefix#"$root"}
if command -v strip >/dev/null 2>&1 && command -v strings >/dev/null 2>&1; then
	for b in fbrun fbrun-mpi; do
		[ -x "$builddir/$b" ] || continue
		strip -o "$TMP/stripped" "$builddir/$b"
		strings "$TMP/stripped" | grep -F -e "$src" -e "$builddir" |
			grep -vF "$configured/" >"$TMP/paths" || :
		check "$b, stripped, holds no source or build path" test ! -s "$TMP/paths"
		diag <"$TMP/paths"
	done
else
	skip "no strip or strings (binutils)"
fi

done_testing
