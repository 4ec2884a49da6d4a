#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
# The bash completion (contrib/bash-completion/fbrun, as the build makes
# it from fbrun.in and fbrun's tables): what a Tab offers after options,
# subcommands, workload names, files and -D, as bash would call it, with
# fbrun found on PATH.
. "${srcdir:-.}/tests/lib.sh"

completion=$(dirname "$FBRUN")/contrib/bash-completion/fbrun

if ! command -v bash >/dev/null 2>&1; then
	skip "bash is not installed"
	done_testing
	exit 0
fi
if [ ! -f "$completion" ]; then
	skip "the completion is not built: no $completion"
	done_testing
	exit 0
fi

mkdir "$TMP/bin" "$TMP/cwd"
ln -s "$FBRUN" "$TMP/bin/fbrun"
: >"$TMP/cwd/mine.f"
: >"$TMP/cwd/mine.txt"
: >"$TMP/cwd/run.json"
mkdir "$TMP/cwd/sub"

# comp [-c N] WORD...: the words of the line as bash splits them ("=" a
# word of its own), the cursor on the last (or on word N); prints
# COMPREPLY one per line, sorted, into $TMP/reply
comp() {
	(cd "$TMP/cwd" && PATH="$TMP/bin:$PATH" bash -c '
		. "$1"
		shift
		cword=$(($# - 1))
		if [ "$1" = -c ]; then
			cword=$2
			shift 2
		fi
		COMP_WORDS=("$@")
		COMP_CWORD=$cword
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_fbrun
		printf "%s\n" "${COMPREPLY[@]}"
	' comp "$completion" "$@") 2>"$TMP/comp-err" |
		sed '/^$/d' | sort >"$TMP/reply"
}
# is WORD...: the reply is exactly these words (shown if not)
is() {
	if [ $# -eq 0 ]; then
		[ ! -s "$TMP/reply" ] && return 0
	elif printf '%s\n' "$@" | sort | cmp -s - "$TMP/reply"; then
		return 0
	fi
	diag <"$TMP/reply"
	return 1
}
# has WORD: the reply holds WORD
has() { grep -qxF -- "$1" "$TMP/reply"; }

PATH="$TMP/bin:$PATH" bash -c '. "$1" && complete -p fbrun fbrun-mpi' comp \
	"$completion" >"$TMP/spec" 2>&1 || :
check "sourcing it registers _fbrun for fbrun and fbrun-mpi" \
	test "$(grep -c -- '-F _fbrun fbrun' "$TMP/spec")" -eq 2

comp fbrun --rep
check "fbrun --rep<Tab>: --repeat" is --repeat
check "... and nothing on standard error" test ! -s "$TMP/comp-err"

comp fbrun -
"$FBRUN" --help | grep -oE '^ +(-[A-Za-z], )?--[a-z-]+' | grep -oE -- '-{1,2}[A-Za-z][a-z-]*' |
	sort >"$TMP/want"
check "fbrun -<Tab>: every option of --help, short and long ($(wc -l <"$TMP/want"))" \
	cmp -s "$TMP/want" "$TMP/reply"
check "... --allow-device-writes (alone on its line) and --steady ([=PCT])" \
	eval 'has --allow-device-writes && has --steady'

comp fbrun var
check "fbrun var<Tab>: varmail" is varmail
comp fbrun com
check "fbrun com<Tab>: compare" is compare
comp fbrun co
check "fbrun co<Tab>: compare and copyfiles" is compare copyfiles
comp fbrun -q com
check "fbrun -q com<Tab>: no subcommand after an option" is
comp fbrun bonnie/re
check "fbrun bonnie/re<Tab>: bonnie/rewrite" is bonnie/rewrite
comp fbrun mi
check "fbrun mi<Tab>: a .f file, not another" is mine.f
comp fbrun ""
check "fbrun <Tab>: .f files, directories, every shipped workload, the subcommands" \
	eval 'has mine.f && has sub && ! has mine.txt && has fileserver && has scale/ior-easy-write && has bonnie/putc && has report'
comp fbrun varmail ""
check "after the script: nothing" is

comp fbrun -D ""
check "fbrun -D <Tab> before any script: nothing (attributes are not variables)" is
comp -c 2 fbrun -D "" varmail
sed -n 's/^set \$\([a-z]*\)=.*/\1=/p' "$srcdir/workloads/varmail.f" | sort >"$TMP/want"
check "fbrun -D <Tab> varmail: varmail's variables ($(wc -l <"$TMP/want"))" \
	cmp -s "$TMP/want" "$TMP/reply"
comp -c 3 fbrun -q --define "" mine.f
check "... those of a .f file on the line (none)" is
printf 'set $width=3\n  set   $depth = 2 # set $not\n' >"$TMP/cwd/mine.f"
comp -c 3 fbrun -q --define "" mine.f
check "... with its set lines' names" is width= depth=
comp -c 3 fbrun --define = "" varmail
check "fbrun --define=<Tab> varmail: the names" eval 'has nfiles='
comp fbrun -D nfi = ""
check "fbrun -D nfiles=<Tab>: no value offered" is

comp fbrun --format ""
check "fbrun --format <Tab>: text json csv" is text json csv
comp fbrun --format = j
check "fbrun --format=j<Tab>: json" is json
comp fbrun -t ""
check "fbrun -t <Tab>: a number, nothing offered" is
comp fbrun --show bonnie/p
check "fbrun --show bonnie/p<Tab>: bonnie/putc" is bonnie/putc
comp fbrun -o r
check "fbrun -o r<Tab>: any file" is run.json

comp fbrun compare --h
check "fbrun compare --h<Tab>: compare's --help and --html" is --help --html
comp fbrun compare ""
check "fbrun compare <Tab>: .json files and directories" is run.json sub --
comp fbrun report --format ""
check "fbrun report --format <Tab>: text csv html" is text csv html
comp fbrun bonnie --csv
check "fbrun bonnie --csv<Tab>: --csv-format" is --csv-format
comp fbrun bonnie -d s
check "fbrun bonnie -d s<Tab>: a directory" is sub

# fbrun-mpi: asks the fbrun beside it
if [ -x "$(dirname "$FBRUN")/fbrun-mpi" ]; then
	comp "$(dirname "$FBRUN")/fbrun-mpi" --stone
	check "fbrun-mpi --stone<Tab>: --stonewall" is --stonewall
else
	skip "fbrun-mpi is not built"
fi

done_testing
