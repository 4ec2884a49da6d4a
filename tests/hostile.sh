#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Hostile scripts: truncated, huge, deep, long, binary or self-referencing
# input must give a clean error (exit 2 and a file:line:col: error: line)
# or be accepted, never crash (exit < 128, no sanitizer report), never
# wrap a number, and `fbrun --parse-only` must never hang or take more
# than 500 MB.  Every fbrun call runs under `timeout -k`, a guard against
# a hang, not a measure of speed (bench/ measures the parser's).
. "${srcdir:-.}/tests/lib.sh"



have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# A sanitizer build is several times slower and bigger: do not judge its
# memory.
sanitized=false
if command -v ldd >/dev/null 2>&1 &&
	ldd "$FBRUN" 2>/dev/null | grep -Eq 'lib(asan|tsan|ubsan)'; then
	sanitized=true
fi
LIMIT=${HOSTILE_LIMIT:-300}
MEM_KB=512000 # 500 MB
have_time=false
/usr/bin/time -f %M -o "$TMP/t" true 2>/dev/null && have_time=true
if $sanitized; then
	skip "memory limits: not judged on a sanitizer build"
elif ! $have_time; then
	skip "memory limits: need GNU time as /usr/bin/time (apt-get install time)"
fi

# fbp FILE [OPTIONS...]: fbrun --parse-only FILE under `timeout -k 2
# $LIMIT`; output in $TMP/out, $TMP/err; sets $rc, $secs, $kb ("" unknown)
fbp() {
	f=$1
	shift
	fbt "$LIMIT" --parse-only "$@" "$f"
}
# fbt SECS ARGS...: fbrun ARGS under `timeout -k 2 SECS`; as fbp
fbt() {
	lim=$1
	shift
	rc=0 secs="" kb=""
	if $have_time; then
		/usr/bin/time -f '%e %M' -o "$TMP/time" \
			timeout -k 2 "$lim" "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
		# shellcheck disable=SC2046
		set -- $(tail -1 "$TMP/time")
		secs=${1:-}
		kb=${2:-}
	else
		t0=$(date +%s)
		timeout -k 2 "$lim" "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
		secs=$(($(date +%s) - t0))
	fi
}

# The slower cases run in the background while the quick ones go on;
# bg_wait collects one as fbp would.
# bg_start NAME: fbrun --parse-only $TMP/NAME.f in the background
bg_start() {
	(
		rc=0
		if $have_time; then
			/usr/bin/time -f '%e %M' -o "$TMP/$1.time" \
				timeout -k 2 "$LIMIT" "$FBRUN" --parse-only "$TMP/$1.f" \
				>"$TMP/$1.out" 2>"$TMP/$1.err" || rc=$?
		else
			t0=$(date +%s)
			timeout -k 2 "$LIMIT" "$FBRUN" --parse-only "$TMP/$1.f" \
				>"$TMP/$1.out" 2>"$TMP/$1.err" || rc=$?
			echo "$(($(date +%s) - t0))" >"$TMP/$1.time"
		fi
		echo "$rc" >"$TMP/$1.rc"
	) &
	eval "bg_pid_$1=\$!"
}
# bg_wait NAME: wait for it; sets $rc, $secs, $kb and $TMP/out, $TMP/err
bg_wait() {
	eval "wait \"\$bg_pid_$1\"" || :
	rc=$(cat "$TMP/$1.rc")
	# shellcheck disable=SC2046
	set -- "$1" $(tail -1 "$TMP/$1.time")
	secs=${2:-} kb=${3:-}
	cp "$TMP/$1.out" "$TMP/out"
	cp "$TMP/$1.err" "$TMP/err"
}

# located NAME: stderr has "NAME.f:LINE:COL: error: "
located() { grep -Eq "(^|/)$1\.f:[0-9]+:[0-9]+: error: " "$TMP/err"; }
no_sanitizer() { ! grep -Eq 'ERROR: [A-Za-z]*Sanitizer|WARNING: ThreadSanitizer|runtime error:' "$TMP/err"; }
no_crash() { [ "$rc" -lt 124 ] && no_sanitizer; }
in_limits() {
	no_crash || return 1
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || return 1
	if $have_time && ! $sanitized && [ -n "$kb" ]; then
		[ "$kb" -lt "$MEM_KB" ] || return 1
	fi
	return 0
}
is_error() { [ "$rc" -eq 2 ] && located "$1" && no_sanitizer; }
is_ok() { [ "$rc" -eq 0 ] && no_sanitizer; }
is_ok_or_error() { is_ok || is_error "$1"; }
what() { echo "exit $rc, ${secs:-?} s, ${kb:-?} KB"; }

# expect KIND NAME DESCRIPTION [OPTIONS...]: parse $TMP/NAME.f; KIND is
# error (exit 2, located), ok (exit 0) or either; then its resources.
expect() {
	e_kind=$1 e_name=$2 e_desc=$3
	shift 3
	fbp "$TMP/$e_name.f" "$@"
	case $e_kind in
	error) check "$e_desc: a clean error ($(what))" is_error "$e_name" ;;
	ok) check "$e_desc: accepted ($(what))" is_ok ;;
	either) check "$e_desc: accepted or a clean error ($(what))" is_ok_or_error "$e_name" ;;
	esac
	check "$e_desc: no crash, no hang, under 500 MB" in_limits
	if ! is_ok && ! is_error "$e_name"; then head -5 "$TMP/err" | cut -c1-200 | diag; fi
}

# rep N STRING: STRING N times, no newline
rep() { awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }
# chars N C: the character C N times
chars() { head -c "$1" /dev/zero | tr '\0' "$2"; }

FS="define fileset name=fs,path=$TMP/never,entries=10,dirwidth=5"
PROC='define process name=p { thread name=t { flowop statfile name=s,filesetname=fs } }'

# --- truncated at every byte offset ---------------------------------------
# Every prefix of a real workload is either a complete script or a clean,
# located error.  Two at a time, to use both CPUs.
wl="$srcdir/workloads/varmail.f"
n=$(wc -c <"$wl")
mkdir "$TMP/trunc"
: >"$TMP/trunc.bad"
t0=$(date +%s)
# every prefix at once (a process per prefix costs more than fbrun)
LC_ALL=C awk -v dir="$TMP/trunc" '
	{ s = s $0 "\n" }
	END {
		for (i = 0; i <= length(s); i++) {
			f = dir "/p" i ".f"
			printf "%s", substr(s, 1, i) >f
			close(f)
		}
	}' "$wl"
[ "$(tail -c 1 "$wl" | od -An -c | tr -d ' ')" = '\n' ] || rm -f "$TMP/trunc/p$((n + 1)).f"
export FBRUN LIMIT TMP
# per prefix: exit 0, or exit 2 with a located first line; no sanitizer text
awk -v n="$n" 'BEGIN { for (i = 0; i <= n; i++) print i }' |
	xargs -P 2 -n 64 sh -c '
	for i; do
		f=$TMP/trunc/p$i.f
		rc=0
		timeout -k 2 "$LIMIT" "$FBRUN" --parse-only "$f" >/dev/null 2>"$f.err" || rc=$?
		first="" ok=false
		[ -s "$f.err" ] && read -r first <"$f.err"
		case $rc:$first in
		0:*) ok=true ;;
		2:"$f":[0-9]*:[0-9]*": error: "*) ok=true ;;
		esac
		while read -r line; do
			case $line in *"ERROR: "*Sanitizer*|*"WARNING: ThreadSanitizer"*|*"runtime error:"*) ok=false ;; esac
		done <"$f.err"
		$ok || echo "offset $i: exit $rc: $first" >>"$TMP/trunc.bad"
	done' sh
took=$(($(date +%s) - t0))
nbad=$(wc -l <"$TMP/trunc.bad")
check "varmail.f cut at each of its $((n + 1)) byte offsets: exit 0 or a clean located error (${took}s; $nbad bad)" \
	test "$nbad" -eq 0
head -10 "$TMP/trunc.bad" | diag

# --- the slow inputs, started now -------------------------------------------
{ rep 116509 'set $a=1 '; echo; } >"$TMP/longline.f"
v=$(chars 102400 v)
{ echo "set \$$v=1"; echo "echo \$$(chars 102399 v)w"; } >"$TMP/nearvar.f"
{
	echo 'set $a0="xxxxxxxx"'
	awk 'BEGIN { for (i = 1; i < 64; i++) printf "set $a%d=\"$a%d$a%d\"\n", i, i - 1, i - 1 }'
	echo 'echo $a63'
} >"$TMP/laugh.f"
for name in longline nearvar laugh; do bg_start "$name"; done

# --- huge numbers -----------------------------------------------------------
echo 'set $n=12345678901234567890' >"$TMP/int20.f"
expect error int20 "a 20-digit integer"
printf '%s\n%s\n' "define fileset name=fs,path=$TMP/never,entries=99999999999999999999,dirwidth=5" \
	"$PROC" >"$TMP/attr20.f"
expect error attr20 "a 20-digit integer as an attribute"
echo 'set $n=99999999999g' >"$TMP/g.f"
expect error g "99999999999g"
for num in 8388608t 9007199254740992k 8796093022208m 8589934592g -8388609t; do
	echo "set \$n=$num" >"$TMP/sfx.f"
	fbp "$TMP/sfx.f"
	check "suffix overflow $num: a clean error ($(what))" is_error sfx
done
echo 'set $n=8388607t' >"$TMP/sfxok.f"
expect ok sfxok "8388607t (2^63 - 2^40) still fits"
printf '%s\n%s\npsrun -9223372036854775809\n' "$FS" "$PROC" >"$TMP/psneg.f"
expect error psneg "psrun -9223372036854775809"
grepq "... says the integer is too small" \
	"error: integer '-9223372036854775809' is too small \\(the limit is -2\\^63\\)" "$TMP/err"
printf '%s\n%s\npsrun -9223372036854775808\n' "$FS" "$PROC" >"$TMP/psmin.f"
expect error psmin "psrun -9223372036854775808 (its negation overflows)"
printf '%s\n%s\nrun 99999999999999999999\n' "$FS" "$PROC" >"$TMP/run20.f"
expect error run20 "run 99999999999999999999"

# -D values combined with the script's numbers
printf '%s\n%s\nrun 1\n' "define fileset name=fs,path=$TMP/never,entries=\$big,dirwidth=5" \
	"$PROC" >"$TMP/dbig.f"
expect error dbig "-D big=99999999999999999999 used as entries" -D big=99999999999999999999
expect error dbig "-D big=99999999999g used as entries" -D big=99999999999g
fbt "$LIMIT" --parse-only -t 99999999999999999999 "$TMP/sfxok.f"
check "-t 99999999999999999999: exit 2 with an error ($(what))" \
	eval '[ "$rc" -eq 2 ] && grep -q "error: --runtime" "$TMP/err"'

# entries=$big where $big is 8e18: nothing may wrap; the run must refuse
# it with an error, before anything is created
printf '%s\n%s\n%s\nrun 1\n' \
	"define fileset name=fs,path=$TMP/e8,entries=\$big,size=1k,dirwidth=10000,prealloc=0" \
	'define process name=p { thread name=t { flowop createfile name=c,filesetname=fs,fd=1' \
	'flowop closefile name=cl,fd=1 } }' >"$TMP/e8.f"
for big in 8000000000000000000 9223372036854775807 2305843009213693951; do
	fbp "$TMP/e8.f" -D big="$big"
	check "entries=\$big, big=$big: --parse-only copes ($(what))" is_ok_or_error e8
	fbt 20 -q -t 1 -D big="$big" "$TMP/e8.f"
	check "entries=\$big, big=$big: the run fails with an error naming the fileset ($(what))" \
		eval '{ [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ]; } && grep -Eq "error: .*fileset .?fs" "$TMP/err"'
	check "entries=\$big, big=$big: nothing is created" test ! -e "$TMP/e8/fs"
done

# iosize and memsize at the top of the range
printf '%s\n%s\n' "$FS" \
	'define process name=p { thread name=t,memsize=1m { flowop read name=r,filesetname=fs,iosize=9223372036854775807 } }' \
	>"$TMP/iomem.f"
expect error iomem "iosize 9223372036854775807 over a memsize of 1m"
printf '%s\n%s\n' "$FS" \
	'define process name=p { thread name=t,memsize=8388607t { flowop read name=r,filesetname=fs,iosize=9223372036854775807 } }' \
	>"$TMP/iomem2.f"
expect error iomem2 "iosize 9223372036854775807 over a memsize of 8388607t"

# randtable percentages whose sum wraps to exactly 2^64 (0 in 64 bits)
echo 'set $t=randvar(type=tabular, randtable={{9223372036854775807, 1, 2}, {9223372036854775807, 1, 2}, {2, 1, 2}})' \
	>"$TMP/pct.f"
expect error pct "randtable percentages summing to 2^64"

# Numbers combined at run time: seconds to nanoseconds.  18446744074 s
# is 2^64 ns + 0.29 s: a wrap makes it 0.29 s.  Accepted values must
# be honoured (still running after 2 s; SIGINT ends it), or refused (2).
mkdir -p "$TMP/rt"
rtf() { # rtf NAME RUNLINE [FLOWOPS]: a statfile workload on a tiny fileset
	{
		echo "define fileset name=fs,path=$TMP/rt,entries=4,size=1k,dirwidth=4,prealloc=100"
		echo "define process name=p { thread name=t { ${3:-flowop statfile name=s,filesetname=fs} } }"
		echo "$2"
	} >"$TMP/$1.f"
}
# not_wrapped: refused (2) or still running when SIGINT came (124)
not_wrapped() { [ "$rc" -eq 2 ] || [ "$rc" -eq 124 ]; }
rt_run() { # rt_run ARGS...: fbrun, SIGINT after 2 s
	rc=0
	timeout -s INT -k 3 2 "$FBRUN" -q "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}
rtf runbig "run 18446744074"
rt_run "$TMP/runbig.f"
check "run 18446744074: refused or honoured, not wrapped to 0.3 s (exit $rc)" not_wrapped
rtf run1 "run 1"
rt_run -t 18446744074 "$TMP/run1.f"
check "-t 18446744074: refused or honoured, not wrapped (exit $rc)" not_wrapped
rtf sleepbig "sleep 922337203685477581
run 1"
rt_run "$TMP/sleepbig.f"
check "sleep 922337203685477581: refused or honoured (exit $rc)" not_wrapped
rtf psbig "psrun -18446744074 2"
rc=0
timeout -k 3 10 "$FBRUN" "$TMP/psbig.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
ni=$(grep -c 'interval of' "$TMP/out" || :)
check "psrun -18446744074 2: refused, or no interval report in 2 s (exit $rc, $ni reports)" \
	eval '[ "$rc" -eq 2 ] || { [ "$rc" -eq 0 ] && [ "$ni" -eq 0 ]; }'
rtf delaybig "run 1" "flowop delay name=d,value=18446744074"
rc=0
timeout -k 3 10 "$FBRUN" -q -o "$TMP/delay.json" "$TMP/delaybig.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
if [ "$rc" -eq 2 ]; then
	pass "delay value=18446744074: refused"
elif $have_python && [ -f "$TMP/delay.json" ]; then
	nd=$(json "$TMP/delay.json" "[f['ops'] for f in r['flowops'] if f['name'] == 'd'][0]")
	check "delay value=18446744074 in a 1 s run: no delay completes ($nd did)" test "$nd" -eq 0
else
	skip "delay value=18446744074: needs python3 to read the results"
fi
# hog loops value times without looking at the clock or the signals
rtf hog "run 1" "flowop hog name=h,value=9223372036854775807"
rc=0
timeout -s INT -k 1 3 "$FBRUN" -q "$TMP/hog.f" >"$TMP/out" 2>"$TMP/err" || rc=$?
check "hog value=9223372036854775807, run 1: ends on time (exit $rc)" test "$rc" -eq 0

# --- deep nesting -----------------------------------------------------------
chars 100000 '{' >"$TMP/braces.f"
expect error braces "100000 '{'"
{ printf 'define process name=p '; chars 100000 '{'; echo; } >"$TMP/pbraces.f"
expect error pbraces "define process with 100000 '{'"
{ printf 'define process name=p '; chars 100000 '{'; chars 100000 '}'; echo; } >"$TMP/balanced.f"
expect error balanced "100000 balanced braces in a process"
{ printf 'set $t=randvar(type=tabular, randtable='; chars 100000 '{'; printf '100, 1, 2'; chars 100000 '}'; echo ')'; } >"$TMP/table.f"
expect error table "randtable lists nested 100000 deep"
{ printf 'set $t=randvar'; chars 100000 '('; echo; } >"$TMP/parens.f"
expect error parens "100000 '('"
{ printf 'echo "'; rep 100000 '${'; echo '"'; } >"$TMP/dollars.f"
expect either dollars "100000 '\${' in a string"
# chain N: N composite flowops, each using the one before, the last in a thread
chain() {
	echo "$FS"
	echo 'define flowop name=c0 { flowop statfile name=s,filesetname=fs }'
	awk -v n="$1" 'BEGIN { for (i = 1; i < n; i++) printf "define flowop name=c%d { flowop c%d name=x%d }\n", i, i - 1, i }'
	echo "define process name=p { thread name=t { flowop c$(($1 - 1)) name=top } }"
	echo 'run 1'
}
# (each level's name repeats the outer ones: the depth is bounded)
chain 100 >"$TMP/chain100.f"
expect ok chain100 "100 composite flowops each using the next"
chain 101 >"$TMP/chain101.f"
expect error chain101 "101 composite flowops each using the next"
grepq "... says how deep they may nest" \
	"chain101.f:[0-9]+:[0-9]+: error: composite flowops nested more than 100 deep" "$TMP/err"
chain 10000 >"$TMP/chain.f"
expect error chain "10000 composite flowops each using the next"
check "... one error, not one a level" test "$(grep -c ': error: ' "$TMP/err")" -eq 1
# and a duplicate name among them is still found
sed 's/^define flowop name=c50 { flowop c49 name=x50 }$/define flowop name=c50 { flowop c49 name=x50\
  flowop statfile name=x50,filesetname=fs }/' "$TMP/chain100.f" >"$TMP/chaindup.f"
fbp "$TMP/chaindup.f"
check "... a repeated name among them: accepted, as filebench does (exit $rc)" test "$rc" -eq 0
grepq "... with a warning saying so" \
	"chaindup.f:[0-9]+:[0-9]+: warning: flowop name '.*x50' is already used in thread 't'; its results are reported as '.*x50#2'" "$TMP/err"

# --- recursive composites -----------------------------------------------------
printf 'define flowop name=a { flowop a name=x }\ndefine process name=p { thread name=t { flowop a name=y } }\nrun 1\n' >"$TMP/rec1.f"
expect error rec1 "a composite using itself"
check "... and says it uses itself" grep -q "uses itself" "$TMP/err"
printf 'define flowop name=a { flowop b name=x }\ndefine flowop name=b { flowop a name=x }\ndefine process name=p { thread name=t { flowop a name=y } }\nrun 1\n' >"$TMP/rec2.f"
expect error rec2 "two composites using each other"
printf 'define flowop name=a { flowop b name=x }\ndefine flowop name=b { flowop c name=x }\ndefine flowop name=c { flowop a name=x }\ndefine process name=p { thread name=t { flowop c name=y } }\nrun 1\n' >"$TMP/rec3.f"
expect error rec3 "a cycle of three composites"
{
	echo "$FS"
	echo 'define flowop name=c0 { flowop c999 name=back }'
	awk 'BEGIN { for (i = 1; i < 1000; i++) printf "define flowop name=c%d { flowop c%d name=x%d }\n", i, i - 1, i }'
	echo 'define process name=p { thread name=t { flowop c999 name=top } }'
	echo 'run 1'
} >"$TMP/rec1000.f"
expect error rec1000 "a cycle of 1000 composites"
grepq "... says it uses itself" "error: flowop 'c[0-9]+' uses itself through other composites" "$TMP/err"

# --- very long lines ------------------------------------------------------------
{ printf '# '; chars 1048576 x; echo; } >"$TMP/longcomment.f"
expect ok longcomment "a 1 MB comment line"
expect ok longline "a 1 MB line of 116509 statements"
{ printf 'set $a='; chars 1048576 1; echo; } >"$TMP/longint.f"
expect error longint "a 1 MB integer"
check "... whose message stays short ($(wc -c <"$TMP/err") bytes)" test "$(wc -c <"$TMP/err")" -lt 65536
{ printf 'set $a='; chars 102400 a; echo; } >"$TMP/word.f"
expect ok word "a 100 KB word"
{ printf 'define fileset name=fs,path=/'; chars 102400 a; echo ',entries=10,dirwidth=5'; echo "$PROC"; } >"$TMP/path.f"
expect either path "a 100 KB path"
{ printf 'set $a="'; chars 102400 b; echo '"'; echo 'echo $a'; } >"$TMP/string.f"
expect ok string "a 100 KB quoted string"
{ printf 'echo "'; chars 102400 b; echo; } >"$TMP/unterm.f"
expect error unterm "an unterminated 100 KB string"
{ echo 'set $a=1'; printf 'echo "'; rep 51200 '$a'; echo '"'; } >"$TMP/manyrefs.f"
expect ok manyrefs "a 100 KB string of 51200 variable references"
{ echo "set \$$v=1"; echo "echo \$$v"; echo "echo \"\${$v}\""; } >"$TMP/longvar.f"
expect ok longvar "a 100 KB variable name, set and used"
echo "echo \$$v" >"$TMP/unsetvar.f"
expect error unsetvar "an unset 100 KB variable name"
expect error nearvar "a 100 KB variable name one letter off a set one"
{ echo "$FS"; printf 'define process name=p { thread name=t { flowop '; chars 102400 r; echo ' name=s } }'; } >"$TMP/longflowop.f"
expect error longflowop "an unknown 100 KB flowop name"

# --- names past NAME_MAX, roots past PATH_MAX: errors at the value --------------
{ printf 'define fileset name='; chars 100000 n; echo ',path=/tmp/x,entries=1,dirwidth=1'; } >"$TMP/longname.f"
expect error longname "a 100000-byte fileset name"
grepq "... at the name, which is longer than NAME_MAX" \
	"longname.f:1:21: error: fileset name is 100000 bytes long; a file name may have at most 255 \(NAME_MAX\)\$" "$TMP/err"
check "... in a short message ($(wc -c <"$TMP/err") bytes)" test "$(wc -c <"$TMP/err")" -lt 1024
{ printf 'define fileset name='; chars 255 n; echo ',path=/tmp/x,entries=1,dirwidth=1'; } >"$TMP/name255.f"
expect ok name255 "a 255-byte fileset name"
{ printf 'define fileset name='; chars 256 n; echo ',path=/tmp/x,entries=1,dirwidth=1'; } >"$TMP/name256.f"
expect error name256 "a 256-byte fileset name"
# root = path + "/fs": 4092 + 3 bytes fit in PATH_MAX (4096 with the NUL)
p4092=$(rep 2046 /a)
printf 'define fileset name=fs,path=%s,entries=1,dirwidth=1\n' "$p4092" >"$TMP/root4095.f"
expect ok root4095 "a fileset root of 4095 bytes"
printf 'define fileset name=fs,path=%sb,entries=1,dirwidth=1\n' "$p4092" >"$TMP/root4096.f"
expect error root4096 "a fileset root of 4096 bytes"
grepq "... at the path, which is longer than PATH_MAX - 1" \
	"root4096.f:1:29: error: fileset root <path>/fs is 4096 bytes long; a path may have at most 4095 \(PATH_MAX - 1\)\$" "$TMP/err"

# --- line ends and size ------------------------------------------------------------
# old Mac files: a lone CR ends a line (and a comment), as LF and CR LF do
printf 'set $a=1\r# a comment\rset $b=2 x\r' >"$TMP/cr.f"
expect error cr "CR-only line ends"
grepq "... located on line 3" "cr.f:3:10: error: unknown command 'x'" "$TMP/err"
check "... showing the line without its CR" grep -q '^    set \$b=2 x$' "$TMP/err"
printf 'set $a=1\r\n# a comment\r\nset $b=2 x\r\n' >"$TMP/crlf.f"
expect error crlf "CR LF line ends"
grepq "... located on line 3" "crlf.f:3:10: error: unknown command 'x'" "$TMP/err"
# a script may be at most 64 MiB: one byte more is refused before it is parsed
head -c 67108865 /dev/zero | tr '\0' ' ' >"$TMP/big.f"
expect_big() {
	check "$1: exit 2 saying the limit ($(what))" \
		eval '[ "$rc" -eq 2 ] && grep -q "error: cannot read .*: a script may be at most 64 MiB\$" "$TMP/err" && no_sanitizer'
}
fbp "$TMP/big.f"
expect_big "a script of 64 MiB and one byte"
rm -f "$TMP/big.f"
# /dev/zero never ends (memory capped, so a reader without a limit fails
# at once rather than taking the machine's memory)
rc=0 secs="" kb=""
if $sanitized; then
	timeout -k 2 "$LIMIT" "$FBRUN" --parse-only /dev/zero >"$TMP/out" 2>"$TMP/err" || rc=$?
else
	(ulimit -v 1048576 && exec timeout -k 2 "$LIMIT" "$FBRUN" --parse-only /dev/zero) \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
fi
expect_big "/dev/zero as the script"

# --- NUL bytes --------------------------------------------------------------------
printf '\0set $a=1\n' >"$TMP/nul_start.f"
expect error nul_start "a NUL byte first"
printf 'set $a=1\0\n' >"$TMP/nul_after.f"
expect error nul_after "a NUL byte after a statement"
printf 'set $a\0b=1\n' >"$TMP/nul_var.f"
expect error nul_var "a NUL byte in a variable name"
printf 'define fileset name=f\0s,path=/tmp/x,entries=1\n' >"$TMP/nul_word.f"
expect error nul_word "a NUL byte in a word"
printf 'set $a="ab\0cd"\n' >"$TMP/nul_string.f"
expect error nul_string "a NUL byte in a string"
printf '# a \0 comment\nset $a=1\n' >"$TMP/nul_comment.f"
expect either nul_comment "a NUL byte in a comment"
head -c 100000 /dev/zero >"$TMP/nul_all.f"
expect error nul_all "100000 NUL bytes"

# --- invalid UTF-8 ------------------------------------------------------------------
printf 'set $a=\377\376\n' >"$TMP/u_value.f"
expect error u_value "invalid UTF-8 as a value"
printf 'define fileset name=\351t\351,path=/tmp/x,entries=1\n' >"$TMP/u_word.f"
expect error u_word "Latin-1 bytes in a word"
printf 'set $\303\251=1\n' >"$TMP/u_var.f"
expect error u_var "UTF-8 in a variable name"
printf 'set $a="\303\050 \355\240\200 \370\210\200\200\200 \377"\necho $a\n' >"$TMP/u_string.f"
expect either u_string "invalid UTF-8 in a string"
printf '# \303\050 \377\376 \355\240\200 \300\257\nset $a=1 # \377 trailing\n' >"$TMP/u_comment.f"
expect ok u_comment "invalid UTF-8 in comments"
printf 'set $a="x\303' >"$TMP/u_eof.f"
expect error u_eof "a string cut inside a UTF-8 sequence"
printf '\357\273\277set $a=1\n' >"$TMP/bom.f"
expect ok bom "a UTF-8 byte-order mark at the start"
printf '\357\273\277set $a=1 x\n' >"$TMP/bom1.f"
fbp "$TMP/bom1.f"
grepq "... columns after it count as the editor shows them" "bom1.f:1:10: error: unknown command 'x'" "$TMP/err"
printf 'set $a=1\n\357\273\277set $b=1\n' >"$TMP/bom2.f"
expect error bom2 "a UTF-8 byte-order mark on line 2"

# --- variables ------------------------------------------------------------------------
{
	awk 'BEGIN { for (i = 0; i < 20000; i++) printf "set $v%d=%d\n", i, i }'
	awk 'BEGIN { for (i = 0; i < 20000; i++) printf "echo \"$v%d\"\n", i }'
} >"$TMP/vars.f"
expect ok vars "20000 variables, each set and used"
printf 'set $a="$b"\nset $b="$a"\necho $a\n' >"$TMP/mutual.f"
expect error mutual "two quoted variables referring to each other"
{
	echo 'set $a0="x"'
	awk 'BEGIN { for (i = 1; i < 40; i++) printf "set $a%d=\"$a%d\"\n", i, i - 1 }'
	echo 'echo $a39'
} >"$TMP/qchain.f"
fbp "$TMP/qchain.f" --dump-ir
check "40 quoted variables each quoting the previous one: accepted ($(what))" is_ok
grepq "... and expanded to the first one's value" '^var \$a39 = "x"$' "$TMP/out"
{
	echo 'set $a0="x"'
	awk 'BEGIN { for (i = 1; i < 1000; i++) printf "set $a%d=\"$a%d\"\n", i, i - 1 }'
	echo 'set $a0="$a999"'
	echo 'echo $a999'
} >"$TMP/qcycle.f"
expect error qcycle "a cycle of 1000 quoted variables"
grepq "... says it refers to itself" "refers to itself through quoted strings" "$TMP/err"
bg_wait laugh
check "64 quoted variables each doubling the previous: refused quickly ($(what))" \
	eval 'is_error laugh && in_limits'
grepq "... at the use, saying the string is too long" \
	"laugh.f:65:6: error: this quoted string expands to more than 1048576 bytes" "$TMP/err"
# the same, expanding to nothing (no output to bound) and never used
sed 's/xxxxxxxx//; $d' "$TMP/laugh.f" >"$TMP/laugh0.f"
expect ok laugh0 "64 unused quoted variables each doubling the previous, all empty"

# --- thousands of filesets, threads, flowops (compile only) -------------------------
{
	awk -v d="$TMP/never" 'BEGIN { for (i = 0; i < 5000; i++) printf "define fileset name=fs%d,path=%s,entries=10,dirwidth=5\n", i, d }'
	echo 'define process name=p {'
	awk 'BEGIN { for (i = 0; i < 5000; i++) printf "thread name=t%d { flowop statfile name=s%d,filesetname=fs%d }\n", i, i, i }'
	echo '}'
	echo 'run 1'
} >"$TMP/threads.f"
expect ok threads "5000 filesets and 5000 threads"
{
	awk -v d="$TMP/never" 'BEGIN { for (i = 0; i < 5000; i++) printf "define fileset name=fs%d,path=%s,entries=10,dirwidth=5\n", i, d }'
	awk 'BEGIN { for (i = 0; i < 5000; i++) printf "define process name=p%d { thread name=t { flowop statfile name=s,filesetname=fs%d } }\n", i, i }'
	echo 'run 1'
} >"$TMP/procs.f"
expect ok procs "5000 filesets and 5000 processes"
{
	echo "$FS"
	echo 'define process name=p { thread name=t {'
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "flowop statfile name=s%d,filesetname=fs\n", i }'
	echo '} }'
	echo 'run 1'
} >"$TMP/flowops.f"
expect ok flowops "10000 flowops in one thread"
{
	awk 'BEGIN { for (i = 0; i < 3000; i++) printf "define fileset name=fs%d,entries=10\n", i }'
	echo 'run 1'
} >"$TMP/errors.f"
expect error errors "3000 errors"
n=$(grep -c ': error: ' "$TMP/err" || :)
check "... of which at most 20 are shown ($n)" test "$n" -le 20

# --- parse and compile time grow linearly ------------------------------------------
# Instructions counted by callgrind (repeatable, whatever the machine is
# doing) for N and 10 N statements: 10 times the script may cost at most
# 12 times the instructions.  A lookup by scanning (a quadratic compile)
# costs 100 times.  Reallocation by one element is invisible to callgrind;
# the sanitizer build's time limits above catch that one.
# scale NAME N: write $TMP/NAME-N.f, a script of N of each statement kind
scale_script() {
	case $1 in
	sets) awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "set $v%d=%d\n", i, i
		for (i = 0; i < n; i++) printf "echo \"x $v%d\"\n", i }' ;;
	threads) awk -v n="$2" -v d="$TMP/never" 'BEGIN {
		for (i = 0; i < n; i++) printf "define fileset name=fs%d,path=%s,entries=10,dirwidth=5\n", i, d
		print "define process name=p {"
		for (i = 0; i < n; i++) printf "thread name=t%d { flowop statfile name=s%d,filesetname=fs%d }\n", i, i, i
		print "}"; print "run 1" }' ;;
	procs) awk -v n="$2" -v d="$TMP/never" 'BEGIN {
		for (i = 0; i < n; i++) printf "define fileset name=fs%d,path=%s,entries=10,dirwidth=5\n", i, d
		for (i = 0; i < n; i++) printf "define process name=p%d { thread name=t { flowop wakeup name=w%d,target=b%d\nflowop block name=b%d } }\n", i, i, (i + 1) % n, i
		print "run 1" }' ;;
	esac >"$TMP/$1-$2.f"
}
# irefs FILE: instructions fbrun --parse-only FILE executes
irefs() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$FBRUN" \
		--parse-only "$1" 2>&1 >/dev/null |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
if $sanitized; then
	skip "linear growth: counted on the plain build (valgrind cannot run a sanitizer build)"
elif ! command -v valgrind >/dev/null 2>&1; then
	skip "linear growth: needs valgrind (apt-get install valgrind)"
else
	for kind in sets threads procs; do
		scale_script "$kind" 1000
		scale_script "$kind" 10000
		i1=$(irefs "$TMP/$kind-1000.f")
		i10=$(irefs "$TMP/$kind-10000.f")
		check "1000 -> 10000 $kind: at most 12 times the instructions (${i1:-?} -> ${i10:-?})" \
			eval '[ -n "$i1" ] && [ -n "$i10" ] && [ "$i10" -le $((i1 * 12)) ]'
	done
fi

# --- odd files ----------------------------------------------------------------------------
: >"$TMP/empty.f"
expect either empty "an empty file"
printf '# only\n\n   # comments\n#\n' >"$TMP/comments.f"
expect either comments "only comments"
mkdir "$TMP/dir.f"
fbp "$TMP/dir.f"
check "a directory: exit 2 saying it is one ($(what))" \
	eval '[ "$rc" -eq 2 ] && grep -q "error: .*Is a directory" "$TMP/err" && no_sanitizer'
fbp "$TMP/nonexistent.f"
check "a missing file: exit 2 saying so ($(what))" \
	eval '[ "$rc" -eq 2 ] && grep -q "error: .*No such file" "$TMP/err" && no_sanitizer'
rc=0
timeout -k 2 "$LIMIT" "$FBRUN" --parse-only "$TMP/comments.f" >"$TMP/out" 2>"$TMP/err" <&- || rc=$?
check "stdin closed, script given by name: exit 0 (exit $rc)" is_ok
rc=0
timeout -k 2 "$LIMIT" "$FBRUN" --parse-only - >"$TMP/out" 2>"$TMP/err" <&- || rc=$?
check "stdin closed, script '-': exit 2 with an error (exit $rc)" \
	eval '[ "$rc" -eq 2 ] && grep -q "error:" "$TMP/err" && no_sanitizer'
rc=0
timeout -k 2 "$LIMIT" "$FBRUN" --parse-only - >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
check "script '-' from /dev/null: no crash (exit $rc)" eval '[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ]'
rtf closed "run 1"
rc=0
timeout -k 2 20 "$FBRUN" -q "$TMP/closed.f" >"$TMP/out" 2>"$TMP/err" <&- || rc=$?
check "a 1 s run with stdin closed: exit 0 (exit $rc)" is_ok
check "... and its tree is removed" test ! -e "$TMP/rt/fs"

done_testing
