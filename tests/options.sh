#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun's options and subcommands are one table each
# (src/cli/option_list.h, src/cmd/command_list.h): --help, README's usage,
# the man pages' OPTIONS and the bash completion name the same options as
# the table, none missing and none more.  So are each subcommand's options
# (its table in src/cmd/) in fbrun.1's section of them and in the
# completion.
. "${srcdir:-.}/tests/lib.sh"

build=$(dirname "$FBRUN")
# same WHAT WANT GOT: ok if the two lists are the same, else the diff
same() {
	if diff "$2" "$3" >"$TMP/d"; then
		pass "$1"
	else
		fail "$1"
		diag <"$TMP/d"
	fi
}

# the table: "--long -X|- none|required|optional all|fbrun-mpi mpi-man|-"
# a line per option, then "command WORD all|fbrun" a line per subcommand,
# then "option WORD --long|- -X|- none|required|optional" a line per
# option of the subcommand WORD
rc=0
"$FBRUN" --help-options=names >"$TMP/table" 2>"$TMP/err" || rc=$?
check "--help-options=names: exit 0 (exit $rc)" test "$rc" -eq 0
grep '^--' "$TMP/table" >"$TMP/rows" || :
check "the table has options ($(wc -l <"$TMP/rows"))" test -s "$TMP/rows"
check "... and subcommands" grep -q '^command ' "$TMP/table"
# NAMES: each option's names, the long one then the short one, in order
awk '{ print $1; if ($2 != "-") print $2 }' "$TMP/rows" >"$TMP/names"
awk '{ print $1 }' "$TMP/rows" | sort >"$TMP/longs"
awk '$1 == "command" { print $2 }' "$TMP/table" | sort >"$TMP/commands"

rc=0
"$FBRUN" --help-options=bogus >/dev/null 2>"$TMP/err" || rc=$?
check "--help-options=bogus: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... naming what it takes" \
	"--help-options expects man, mpi-man, completion or names, got 'bogus'" "$TMP/err"

# --- --help ---------------------------------------------------------------------
run_fbrun --help
grep -E '^  (-[A-Za-z], |    )--[a-z]' "$TMP/out" |
	sed -E 's/^  (-[A-Za-z]), (--[a-z-]+).*/\2\n\1/; s/^      (--[a-z-]+).*/\1/' >"$TMP/got"
same "--help names the table's options, in its order" "$TMP/names" "$TMP/got"
sed -n 's/^ *\(usage:\)\{0,1\} *fbrun \([a-z][a-z]*\) .*/\2/p' "$TMP/out" | sort >"$TMP/got"
same "--help names the table's subcommands" "$TMP/commands" "$TMP/got"
check "... and not --help-options, which is for the build" \
	eval '! grep -q -- --help-options "$TMP/out"'

# --- README -----------------------------------------------------------------------
# its usage block: --help's lines of options, indented two more
sed -n '/^    fbrun \[options\] SCRIPT/,/^    fbrun [a-z]/p' "$srcdir/README" |
	grep -E '^    (-[A-Za-z], |    )--[a-z]' >"$TMP/readme"
sed -E 's/^    (-[A-Za-z]), (--[a-z-]+).*/\2\n\1/; s/^        (--[a-z-]+).*/\1/' \
	"$TMP/readme" >"$TMP/got"
same "README's usage names the table's options, in its order" "$TMP/names" "$TMP/got"
sed -n '/^    fbrun \[options\] SCRIPT/,/^    fbrun [a-z]/p' "$srcdir/README" |
	sed -n '/^    fbrun \[options\]/,$p' | sed '1d' >"$TMP/block"
sed -n '/^  -D, --define/,/^  -V, --version/p' "$TMP/out" | sed 's/^/  /' >"$TMP/want"
sed -n '/^    -D, --define/,/^    -V, --version/p' "$srcdir/README" >"$TMP/got"
same "... each option as --help says it, word for word" "$TMP/want" "$TMP/got"
sed -n 's/^    fbrun \([a-z][a-z]*\) .*/\1/p' "$srcdir/README" | sort -u >"$TMP/got"
same "README's usage names the table's subcommands" "$TMP/commands" "$TMP/got"
# the man page's SYNOPSIS is written by hand: a line for each subcommand
sed -n '/^\.SH SYNOPSIS/,/^\.SH /s/^\.B fbrun \([a-z][a-z]*\)$/\1/p' \
	"$srcdir/doc/fbrun.1.in" | sort -u >"$TMP/got"
same "the man page's SYNOPSIS names the table's subcommands" "$TMP/commands" "$TMP/got"
# and each has its words in doc/ (its section, or its own page)
while read -r c; do
	grep -ql "fbrun $c" "$srcdir"/doc/*.md ||
		echo "$c" >>"$TMP/undocumented"
done <"$TMP/commands"
check "doc/ shows each subcommand of the table in use (fbrun WORD)" \
	test ! -s "$TMP/undocumented"
[ ! -s "$TMP/undocumented" ] || diag <"$TMP/undocumented"

# --- the man pages ------------------------------------------------------------------
# man_options PAGE: the names of each .TP of its OPTIONS section
man_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$1" | awk 'prev == ".TP" { print } { prev = $0 }' |
		while IFS= read -r tag; do
			printf '%s\n' "$tag" | grep -oE '\\-\\-[a-z\\-]+' | head -n 1 | sed 's/\\-/-/g'
			printf '%s\n' "$tag" | sed -n 's/^\.B[IR]* \\-\([A-Za-z]\) .*/-\1/p'
		done
}
man=$build/doc/fbrun.1
if [ -f "$man" ]; then
	man_options "$man" >"$TMP/got"
	same "fbrun.1's OPTIONS: the table's options, in its order" "$TMP/names" "$TMP/got"
else
	skip "fbrun.1's OPTIONS: $man is not built"
fi
awk '$5 == "mpi-man" { print $1; if ($2 != "-") print $2 }' "$TMP/rows" >"$TMP/want"
check "the table says where fbrun-mpi's options differ ($(wc -l <"$TMP/want"))" test -s "$TMP/want"
man=$build/doc/fbrun-mpi.1
if [ -f "$man" ]; then
	man_options "$man" >"$TMP/got"
	same "fbrun-mpi.1's OPTIONS: the table's options where fbrun-mpi differs" \
		"$TMP/want" "$TMP/got"
else
	skip "fbrun-mpi.1's OPTIONS: $man is not built (no MPI)"
fi
awk '$4 == "fbrun-mpi" { print $1 }' "$TMP/rows" >"$TMP/mpionly"
check "... fbrun-mpi's own options are among them" \
	eval '! grep -vxF -f "$TMP/want" "$TMP/mpionly"'

# --- the bash completion ----------------------------------------------------------
completion=$build/contrib/bash-completion/fbrun
if ! command -v bash >/dev/null 2>&1; then
	skip "the completion's words: bash is not installed"
elif [ ! -f "$completion" ]; then
	skip "the completion's words: $completion is not built"
else
	bash -c '. "$1" && printf "%s\n" "$_fbrun_options" && echo "# $_fbrun_commands"' \
		comp "$completion" >"$TMP/comp" 2>"$TMP/err"
	grep -v '^#' "$TMP/comp" | awk '{ print $1 }' >"$TMP/got"
	same "the completion's options: the table's, in its order" "$TMP/names" "$TMP/got"
	awk '{ v = $3 == "required" ? 1 : 0; print $1, v; if ($2 != "-") print $2, v }' \
		"$TMP/rows" >"$TMP/want"
	grep -v '^#' "$TMP/comp" >"$TMP/got"
	same "... each with whether a value follows it, as the table says" "$TMP/want" "$TMP/got"
	sed -n 's/^# //p' "$TMP/comp" | tr ' ' '\n' | sort >"$TMP/got"
	same "the completion's subcommands: the table's" "$TMP/commands" "$TMP/got"
fi


# --- the subcommands' options -----------------------------------------------------
# sub_man WORD: the names of each .TP of fbrun.1's section of WORD's
# options, the long one then the short one
sub_man() {
	up=$(printf '%s' "$1" | tr a-z A-Z)
	awk -v sh=".SH \"$up OPTIONS\"" '$0 == sh { on = 1; next }
		/^\.SH / { on = 0 } on && prev == ".TP" { print } { prev = $0 }' \
		"$build/doc/fbrun.1" |
		sed -E 's/^\.BI? "([^"]*)".*/\1/; s/\\-/-/g; s/\[$//; s/ $//' |
		awk -F', ' '{ if (NF == 2) print $2; print $1 }'
}
for cmd in $(cat "$TMP/commands"); do
	awk -v c="$cmd" '$1 == "option" && $2 == c' "$TMP/table" >"$TMP/sub"
	check "fbrun $cmd's table has options ($(wc -l <"$TMP/sub"))" test -s "$TMP/sub"
	awk '{ if ($3 != "-") print $3; if ($4 != "-") print $4 }' "$TMP/sub" >"$TMP/want"
	if [ -f "$build/doc/fbrun.1" ]; then
		sub_man "$cmd" >"$TMP/got"
		same "fbrun.1's $cmd options: its table's, in its order" "$TMP/want" "$TMP/got"
	else
		skip "fbrun.1's $cmd options: fbrun.1 is not built"
	fi
	if command -v bash >/dev/null 2>&1 && [ -f "$completion" ]; then
		awk '{ v = $5 == "required" ? 1 : 0
			if ($3 != "-") print $3, v; if ($4 != "-") print $4, v }' \
			"$TMP/sub" >"$TMP/want"
		bash -c '. "$1" && v=_fbrun_$2_options && printf "%s\n" "${!v}"' \
			comp "$completion" "$cmd" >"$TMP/got" 2>"$TMP/err"
		same "the completion's $cmd options: its table's, with their values" \
			"$TMP/want" "$TMP/got"
	else
		skip "the completion's $cmd options: bash or $completion missing"
	fi
done

done_testing
