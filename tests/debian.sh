#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
# The Debian packages (debian/): built with dpkg-buildpackage from a copy
# of the tree in $TMP, checked by lintian and against what README and
# the man page say of them (the thumper example, the documents by the
# names the man page gives, its SYNOPSIS, Suggests: strace), and as root
# installed, run (fbrun -t 2 varmail, fbrun-mpi under mpirun), and
# purged, leaving nothing of theirs behind.  A package of that name
# already installed is never touched.  It builds from the source, not
# from this build tree, so a sanitizer build (tests/run-all.sh's second
# suite) skips it.
. "${srcdir:-.}/tests/lib.sh"

src=$(cd "$srcdir" && pwd)
builddir=$(dirname "$FBRUN")
jobs=${JOBS:-2}

why=""
if grep -q '^SAN_CFLAGS = .*-fsanitize' "$builddir/Makefile" 2>/dev/null; then
	why="a sanitizer build: the packages are tested with the plain one"
elif [ ! -f "$src/debian/control" ]; then
	why="no debian/ in $src (a dist tarball has none)"
elif ! command -v dpkg-buildpackage >/dev/null 2>&1; then
	why="no dpkg-buildpackage (apt-get install devscripts debhelper fakeroot)"
fi
if [ -n "$why" ]; then
	skip "the Debian packages: $why"
	done_testing
	exit 0
fi

# --- a copy of the tree: what git has (committed or not, less what it
# ignores), or with no git the tree less its build directories
pkg=$TMP/pkg/fbrun
mkdir -p "$pkg"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		xargs -0 cp --parents -t "$pkg")
else
	tar -C "$src" --exclude=./.git --exclude='./build*' -cf - . | tar -C "$pkg" -xf -
fi

# --- build: both packages, or fbrun alone when Open MPI is missing
profile=""
if ! (cd "$pkg" && dpkg-checkbuilddeps) >"$TMP/deps" 2>&1; then
	if (cd "$pkg" && dpkg-checkbuilddeps -P pkg.fbrun.nompi) >/dev/null 2>&1; then
		profile="--build-profiles=pkg.fbrun.nompi"
	else
		skip "the Debian packages: build dependencies missing: $(sed 's/^dpkg-checkbuilddeps: error: //' "$TMP/deps" | tr '\n' ' ')"
		done_testing
		exit 0
	fi
fi
rc=0
# shellcheck disable=SC2086
(cd "$pkg" && DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=$jobs" \
	dpkg-buildpackage -us -uc -b $profile) >"$TMP/build.log" 2>&1 || rc=$?
check "dpkg-buildpackage -us -uc -b${profile:+ $profile}: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || tail -40 "$TMP/build.log" | diag
debs=$(ls "$TMP"/pkg/*.deb 2>/dev/null | sort || :)
if [ -n "$profile" ]; then
	check "built: fbrun (pkg.fbrun.nompi: no fbrun-mpi)" \
		test "$(echo "$debs" | sed 's|.*/||; s|_.*||' | sort | tr '\n' ' ')" = "fbrun "
	skip "fbrun-mpi: Open MPI's build dependencies are missing"
else
	check "built: fbrun and fbrun-mpi" \
		test "$(echo "$debs" | sed 's|.*/||; s|_.*||' | sort | tr '\n' ' ')" = "fbrun fbrun-mpi "
fi
if [ "$rc" -ne 0 ] || [ -z "$debs" ]; then
	done_testing
	exit 1
fi

# what the packages hold, as paths (directories end in /)
for d in $debs; do
	dpkg-deb --fsys-tarfile "$d" | tar -t | sed 's|^\./|/|; /^\/$/d'
done | sort -u >"$TMP/contents"
grep -Fx -e /usr/bin/fbrun -e /usr/share/fbrun/workloads/varmail.f \
	-e /usr/share/man/man1/fbrun.1.gz \
	-e /usr/share/bash-completion/completions/fbrun \
	-e /usr/share/vim/vimfiles/ftdetect/fbrun.vim \
	-e /usr/share/vim/vimfiles/syntax/fbrun.vim "$TMP/contents" >"$TMP/got" || :
check "fbrun holds the program, the workloads, the man page, completion and vim files" \
	test "$(wc -l <"$TMP/got")" -eq 6
if [ -z "$profile" ]; then
	grep -Fx -e /usr/bin/fbrun-mpi -e /usr/share/man/man1/fbrun-mpi.1.gz \
		-e /usr/share/bash-completion/completions/fbrun-mpi "$TMP/contents" >"$TMP/got" || :
	check "fbrun-mpi holds the program, its man page and completion" \
		test "$(wc -l <"$TMP/got")" -eq 3
fi

# README points to the thumper example: shipped, run.sh executable
for d in $debs; do dpkg-deb -c "$d"; done >"$TMP/listing"
check "fbrun holds README's examples/thumper/run.sh, executable" \
	grep -Eq '^-rwxr-xr-x .* \./usr/share/doc/fbrun/examples/thumper/run\.sh$' "$TMP/listing"
check "... and its README.md" grep -Fxq /usr/share/doc/fbrun/examples/thumper/README.md "$TMP/contents"
fbdeb=$(echo "$debs" | grep '/fbrun_')
check "fbrun suggests strace (fbrun record runs it)" \
	eval 'dpkg-deb -f "$fbdeb" Suggests | grep -qw strace'
# the man page as installed: every file it names under /usr/share/doc/fbrun
# is there by that name (not gzipped away), and its SYNOPSIS
dpkg-deb --fsys-tarfile "$fbdeb" | tar -xOf - ./usr/share/man/man1/fbrun.1.gz |
	gzip -dc >"$TMP/fbrun.1" 2>/dev/null || :
grep -o '/usr/share/doc/fbrun/[A-Za-z0-9_./-]*[A-Za-z0-9]' "$TMP/fbrun.1" | sort -u >"$TMP/named"
check "the man page names files under /usr/share/doc/fbrun ($(wc -l <"$TMP/named"))" test -s "$TMP/named"
while IFS= read -r p; do
	grep -Fxq -- "$p" "$TMP/contents" || echo "$p"
done <"$TMP/named" >"$TMP/absent"
check "... each of them in the package, by that name" test ! -s "$TMP/absent"
diag <"$TMP/absent"
# SYNOPSIS: its entries (split at .br), one a command
sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$TMP/fbrun.1" |
	awk '/^\.br/ { print e; e = ""; next } /^\.SH/ { next } { e = e " " $0 } END { print e }' >"$TMP/synopsis"
check "the SYNOPSIS: record and model are lines of their own" \
	eval 'grep -q "^ \.B fbrun record" "$TMP/synopsis" && grep -q "^ \.B fbrun model" "$TMP/synopsis" && ! grep -q "record.*fbrun model" "$TMP/synopsis"'
check "... and compare's lists --html and --label" \
	eval 'grep "^ \.B fbrun compare" "$TMP/synopsis" | grep -F -e "\-\-html" | grep -qF "\-\-label"'

grep -F -e "$src" -e "$pkg" "$TMP/contents" >"$TMP/bad" || :
check "no path of the build in the packages' file names" test ! -s "$TMP/bad"
if command -v strings >/dev/null 2>&1; then
	for d in $debs; do
		dpkg-deb --fsys-tarfile "$d" |
			tar -xOf - ./usr/bin/fbrun ./usr/bin/fbrun-mpi 2>/dev/null || :
	done >"$TMP/programs"
	strings "$TMP/programs" | grep -F -e "$pkg" -e "$src" >"$TMP/bad" || :
	check "no path of the build in the programs ($(wc -c <"$TMP/programs") bytes)" \
		test -s "$TMP/programs" -a ! -s "$TMP/bad"
	diag <"$TMP/bad"
else
	skip "no strings (binutils)"
fi

if command -v lintian >/dev/null 2>&1; then
	lintian "$TMP"/pkg/*.changes >"$TMP/lintian" 2>&1 || :
	check "lintian: no error" eval '! grep -q "^E:" "$TMP/lintian"'
	grep -E '^(E|W):' "$TMP/lintian" | diag
else
	skip "lintian is not installed"
fi

# --- install, run, purge: as root, if no fbrun package is installed
if ! $is_root; then
	skip "installing the packages needs root"
	done_testing
	exit 0
fi
names=$(echo "$debs" | sed 's|.*/||; s|_.*||')
for n in $names; do
	if dpkg -s "$n" >/dev/null 2>&1; then
		skip "the package $n is installed on this machine: not replaced"
		done_testing
		exit 0
	fi
done
# which of the packages' paths exist before (directories of others)
while IFS= read -r p; do
	if [ -e "$p" ] || [ -L "$p" ]; then echo "$p"; fi
done <"$TMP/contents" >"$TMP/before"
ours=false
purge() {
	if $ours; then
		# shellcheck disable=SC2086
		dpkg --purge $names >"$TMP/purge.log" 2>&1 || return 1
		ours=false
	fi
}
trap 'purge || :; cleanup' EXIT

ours=true
rc=0
# shellcheck disable=SC2086
dpkg -i $debs >"$TMP/install.log" 2>&1 || rc=$?
check "dpkg -i: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/install.log"
# shellcheck disable=SC2086
dpkg -L $names | sort -u >"$TMP/listed"
while IFS= read -r p; do
	p=${p%/}
	grep -qxF -- "$p" "$TMP/listed" || echo "$p"
done <"$TMP/contents" >"$TMP/unlisted"
check "dpkg -L lists every path of the packages" test ! -s "$TMP/unlisted"
diag <"$TMP/unlisted"

mkdir "$TMP/run"
rc=0
(cd "$TMP/run" && env -u FBRUN_WORKLOADS TMPDIR="$TMP/run" /usr/bin/fbrun -t 2 varmail) \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
check "installed: fbrun -t 2 varmail exits 0 (exit $rc)" test "$rc" -eq 0
grepq "... and prints its IO Summary" '^IO Summary: +[0-9]+ ops' "$TMP/out"
(cd "$TMP/run" && env -u FBRUN_WORKLOADS /usr/bin/fbrun --show varmail) >"$TMP/shown" 2>&1 || :
check "... from /usr/share/fbrun/workloads" cmp -s "$TMP/shown" /usr/share/fbrun/workloads/varmail.f
check "... and removes its tree" test -z "$(ls -A "$TMP/run")"
(cd "$TMP/run" && PATH=/usr/bin:/bin bash -c '
	. /usr/share/bash-completion/completions/fbrun
	COMP_WORDS=(fbrun var); COMP_CWORD=1; _fbrun; echo "${COMPREPLY[*]}"') \
	>"$TMP/reply" 2>&1 || :
check "installed: the completion offers varmail for fbrun var<Tab>" \
	test "$(cat "$TMP/reply")" = varmail
if command -v vim >/dev/null 2>&1; then
	HOME=$TMP vim -es -N -u NONE -i NONE -c 'filetype on' \
		-c 'edit /usr/share/fbrun/workloads/varmail.f' \
		-c "call writefile([&filetype], '$TMP/ft')" -c 'qall!' </dev/null >/dev/null 2>&1 || :
	check "installed: vim (its default runtimepath) takes varmail.f as fbrun" \
		test "$(cat "$TMP/ft" 2>/dev/null)" = fbrun
else
	skip "vim is not installed"
fi
if [ -z "$profile" ] && command -v mpirun >/dev/null 2>&1; then
	rc=0
	(cd "$TMP/run" && env -u FBRUN_WORKLOADS TMPDIR="$TMP/run" \
		OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		OMPI_MCA_rmaps_base_oversubscribe=1 timeout -s KILL 300 \
		mpirun -np 2 /usr/bin/fbrun-mpi -t 1 -D nfiles=50 -D nthreads=2 varmail) \
		>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	check "installed: mpirun -np 2 fbrun-mpi -t 1 varmail exits 0 (exit $rc)" test "$rc" -eq 0
	grepq "... and prints the job's IO Summary" '^IO Summary: +[0-9]+ ops' "$TMP/out"
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
else
	skip "fbrun-mpi under mpirun: not built or no mpirun"
fi

rc=0
purge || rc=$?
check "dpkg --purge: exit 0 (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/purge.log"
for n in $names; do
	check "dpkg -s $n: not installed" eval '! dpkg -s "$n" >/dev/null 2>&1'
done
while IFS= read -r p; do
	if [ -e "$p" ] || [ -L "$p" ]; then echo "$p"; fi
done <"$TMP/contents" >"$TMP/after"
check "after the purge, every path of the packages is as it was before" \
	cmp -s "$TMP/before" "$TMP/after"
diff "$TMP/before" "$TMP/after" | diag
check "... no /usr/share/fbrun, no /usr/share/doc/fbrun" \
	test ! -e /usr/share/fbrun -a ! -e /usr/share/doc/fbrun

done_testing
