#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
# vim's files for .f workloads (contrib/vim): the syntax file names every
# flowop, attribute and command fbrun knows; vim takes a workload as
# fbrun's and a Fortran .f as Fortran, and colours a workload's parts.
. "${srcdir:-.}/tests/lib.sh"

syntax=$srcdir/contrib/vim/syntax/fbrun.vim

# words WORD...: the syntax file's keywords of these groups, one a line
words() {
	for g in "$@"; do
		sed -n "s/^syn keyword $g \(contained \)\{0,1\}//p" "$syntax"
	done | tr ' ' '\n' | sed '/^$/d' | sort -u
}
# covered WANT GOT: every line of WANT is in GOT (the missing shown)
covered() {
	comm -23 "$1" "$2" >"$TMP/missing"
	[ ! -s "$TMP/missing" ] && return 0
	diag <"$TMP/missing"
	return 1
}

run_fbrun --list-flowops
awk '{ print $1 }' "$TMP/out" | sort -u >"$TMP/flowops"
words fbrunFlowop >"$TMP/got"
check "the syntax has every flowop of --list-flowops ($(wc -l <"$TMP/flowops"))" \
	covered "$TMP/flowops" "$TMP/got"
check "... and no other" covered "$TMP/got" "$TMP/flowops"

run_fbrun --list-attributes
sed -n '/^## Flowops/q; s/^| \(`[^|]*\) |.*/\1/p' "$TMP/out" | tr -d '`()' |
	tr ' ' '\n' | sed '/^$/d' | sort -u >"$TMP/attrs"
words fbrunAttribute >"$TMP/got"
check "the syntax has every attribute of --list-attributes ($(wc -l <"$TMP/attrs"))" \
	covered "$TMP/attrs" "$TMP/got"
check "... and no other" covered "$TMP/got" "$TMP/attrs"

sed -n 's/^KEYWORD([A-Z]*, "\([a-z]*\)".*/\1/p' "$srcdir/grammar/keywords.h" |
	sort -u >"$TMP/keywords"
grep '^syn ' "$syntax" | grep -v -e '^syn keyword fbrunFlowop ' -e '^syn keyword fbrunAttribute ' |
	grep -oE '[a-z]+' | sort -u >"$TMP/got"
check "the syntax has every keyword of grammar/keywords.h ($(wc -l <"$TMP/keywords"))" \
	covered "$TMP/keywords" "$TMP/got"

if ! command -v vim >/dev/null 2>&1; then
	skip "vim is not installed: the detection and the colours"
	done_testing
	exit 0
fi

# probe FILE: vim's filetype of FILE, then "PATTERN GROUP" for each
# pattern of $TMP/patterns (the syntax group at its first match), in
# $TMP/probe
probe() {
	cat >"$TMP/probe.vim" <<'V'
let s:out = [&filetype]
for s:pat in readfile($PROBE_PATTERNS)
  call cursor(1, 1)
  let [s:l, s:c] = searchpos(s:pat, 'cW')
  call add(s:out, s:pat . ' ' . synIDattr(synID(s:l, s:c, 1), 'name'))
endfor
call writefile(s:out, $PROBE_OUT)
qall!
V
	rm -f "$TMP/probe"
	# paths through the environment: a checkout's path may hold spaces
	PROBE_PATTERNS=$TMP/patterns PROBE_OUT=$TMP/probe HOME=$TMP \
		PROBE_RTP=$srcdir/contrib/vim PROBE_FILE=$1 \
		vim -es -N -u NONE -i NONE \
		--cmd 'let &rtp = escape($PROBE_RTP, ",\\") . "," . &rtp' \
		-c 'filetype on' -c 'syntax on' \
		-c 'exe "edit " . fnameescape($PROBE_FILE)' -S "$TMP/probe.vim" \
		</dev/null >/dev/null 2>&1 || :
	[ -f "$TMP/probe" ] || echo "(vim wrote nothing)" >"$TMP/probe"
}
# group PATTERN GROUP: the probe found GROUP at PATTERN
group() { grep -qxF -- "$1 $2" "$TMP/probe" || { diag <"$TMP/probe"; return 1; }; }

cat >"$TMP/patterns" <<'P'
^# varmail
^define
\$nfiles
flowop \zsdeletefile
filesetname
^set.*=\zs16k
^set.*"\zs\$tmpdir
=\zscvar(
cvar-gamma
P
probe "$srcdir/workloads/varmail.f"
check "vim: workloads/varmail.f is filetype fbrun" test "$(head -1 "$TMP/probe")" = fbrun
check "... a comment" group '^# varmail' fbrunComment
check "... a command" group '^define' fbrunCommand
check "... a variable" group '\$nfiles' fbrunVariable
check "... a flowop" group 'flowop \zsdeletefile' fbrunFlowop
check "... an attribute" group filesetname fbrunAttribute
check "... a number with a suffix" group '^set.*=\zs16k' fbrunNumber
check "... a variable inside a string" group '^set.*"\zs\$tmpdir' fbrunVariable
check "... cvar()" group '=\zscvar(' fbrunFunction
check "... a distribution" group cvar-gamma fbrunConstant

# a flowop's name only after "flowop": "name=read" is no flowop
printf 'define process name=read\n{\n  thread name=t { flowop read name=sync,fd=1 }\n}\n' \
	>"$TMP/names.f"
printf '%s\n' 'name=\zsread' 'flowop \zsread' 'name=\zssync' >"$TMP/patterns"
probe "$TMP/names.f"
check "vim: a script starting with define is fbrun's" test "$(head -1 "$TMP/probe")" = fbrun
check "... 'read' after flowop is a flowop" group 'flowop \zsread' fbrunFlowop
check "... 'read' as a value is not" group 'name=\zsread' ''
check "... nor 'sync'" group 'name=\zssync' ''

: >"$TMP/patterns"
for f in "$srcdir"/tests/parse/*.f; do
	probe "$f"
	[ "$(head -1 "$TMP/probe")" = fbrun ] || echo "$f: $(head -1 "$TMP/probe")"
done >"$TMP/notours"
check "vim: every script of tests/parse is fbrun's ($(ls "$srcdir"/tests/parse/*.f | wc -l))" \
	test ! -s "$TMP/notours"
diag <"$TMP/notours"

# Fortran stays Fortran: fixed form (C comment, statement in column 7),
# a free-form one, and one whose first statement is an assignment to a
# variable named run
printf 'C     A FORTRAN PROGRAM\n      PROGRAM HELLO\n      PRINT *, 1\n      END\n' >"$TMP/hello.f"
printf '! free form\nprogram main\n  set = 1\nend program main\n' >"$TMP/free.f"
printf '      run = 1\n      end\n' >"$TMP/run.f"
for f in hello free run; do
	probe "$TMP/$f.f"
	check "vim: Fortran $f.f stays fortran" test "$(head -1 "$TMP/probe")" = fortran
done

done_testing
