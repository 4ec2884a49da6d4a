#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Data patterns: the bytes that preallocation and each write flowop put on
# disk with data=, compress= and --data, checked in the files themselves
# (zero bytes, distinct byte values, what gzip -1 makes of them), which
# setting wins, and what the JSON records.
. "${srcdir:-.}/tests/lib.sh"

# fb NAME [ARGS]: run $TMP/NAME.f keeping its tree, JSON in $TMP/NAME.json
fb() {
	n=$1
	shift
	run_fbrun -q --keep -o "$TMP/$n.json" "$@" "$TMP/$n.f"
	if [ "$rc" -eq 0 ]; then
		pass "$n: runs and exits 0"
	else
		fail "$n: runs and exits 0 (exit $rc)"
		diag <"$TMP/err"
	fi
}

# the one file of a `define file` NAME under DIR
onefile() { find "$1/$2" -type f ! -name .fbrun-fileset; }
size() { stat -c %s "$1"; }
# bytes of FILE other than 0x00 (other than 0x00 and 0x01 with "01")
nonzero() { tr -d '\000' <"$1" | wc -c | tr -d ' '; }
not01() { tr -d '\000\001' <"$1" | wc -c | tr -d ' '; }
gz() { gzip -1 -c "$1" | wc -c | tr -d ' '; }
# saved FILE: percent by which gzip -1 shrinks it
saved() { echo $(( (100 * ($(size "$1") - $(gz "$1"))) / $(size "$1") )); }

# --- appendfile with each pattern: 256 writes of 8k = 2 MiB per file -------
cat >"$TMP/pat.f" <<F
set mode quit firstdone
define file name=z,path=$TMP/pat,size=0,prealloc,data=zeros
define file name=b,path=$TMP/pat,size=0,prealloc,data=bonnie
define file name=r,path=$TMP/pat,size=0,prealloc,data=random
define file name=c,path=$TMP/pat,size=0,prealloc,compress=50
define file name=d,path=$TMP/pat,size=0,prealloc
define process name=p { thread name=t {
  flowop appendfile name=z,filesetname=z,fd=1,iosize=8k
  flowop appendfile name=b,filesetname=b,fd=2,iosize=8k
  flowop appendfile name=r,filesetname=r,fd=3,iosize=8k
  flowop appendfile name=c,filesetname=c,fd=4,iosize=8k
  flowop appendfile name=d,filesetname=d,fd=5,iosize=8k
  flowop finishoncount name=fin,target=d,value=256 } }
run 10
F
fb pat
for n in z b r c d; do
	f=$(onefile "$TMP/pat" $n)
	check "pattern $n: 2 MiB written" test "$(size "$f")" -eq 2097152
done
f=$(onefile "$TMP/pat" z)
check "data=zeros: every byte is 0" test "$(nonzero "$f")" -eq 0
f=$(onefile "$TMP/pat" b)
check "data=bonnie: only bytes 0x00 and 0x01, both present" \
	test "$(not01 "$f")" -eq 0 -a "$(nonzero "$f")" -gt 0
# one byte more is 0x01 before each write: 1 + 2 + ... + 256 of them
check "data=bonnie: one more 0x01 per write ($(nonzero "$f") = 32896)" \
	test "$(nonzero "$f")" -eq 32896
check "data=bonnie: gzip -1 compresses it more than 100:1 ($(gz "$f") bytes)" \
	test "$(gz "$f")" -lt 20972
f=$(onefile "$TMP/pat" r)
check "data=random: gzip -1 output is at least 99% of it ($(gz "$f"))" \
	test "$(gz "$f")" -ge 2076180
# no 4 KiB block repeats: a deduplicating layer finds nothing to share
n=$(split -b 4096 --filter='md5sum' "$f" | sort -u | wc -l | tr -d ' ')
check "data=random: all 512 4 KiB blocks differ ($n)" test "$n" -eq 512
f=$(onefile "$TMP/pat" c)
s=$(saved "$f")
check "compress=50: gzip -1 saves 40..60% ($s%)" test "$s" -ge 40 -a "$s" -le 60
n=$(split -b 4096 --filter='md5sum' "$f" | sort -u | wc -l | tr -d ' ')
check "compress=50: all 512 4 KiB blocks differ ($n)" test "$n" -eq 512
f=$(onefile "$TMP/pat" d)
check "no pattern: what fbrun always wrote (the thread buffer, not zeros)" \
	test "$(nonzero "$f")" -eq 2097152

# --- compress=N over the range, with writes of 3000 bytes (not blocks) -----
for pct in 0 25 75 90; do
	cat >"$TMP/c$pct.f" <<F
set mode quit firstdone
define file name=c,path=$TMP/c$pct,size=0,prealloc
define process name=p { thread name=t {
  flowop appendfile name=c,filesetname=c,fd=1,iosize=3000,compress=$pct
  flowop finishoncount name=fin,target=c,value=700 } }
run 10
F
	fb c$pct
	s=$(saved "$(onefile "$TMP/c$pct" c)")
	check "compress=$pct in 3000-byte writes: gzip -1 saves $pct +-10% ($s%)" \
		test "$s" -ge $((pct - 10)) -a "$s" -le $((pct + 10))
done

# --- every write flowop honours data= ---------------------------------------
# alldone: t stops after 100 rounds, t2 once ww is full; with firstdone
# t2 could end the run before t wrote anything
cat >"$TMP/ops.f" <<F
set mode quit alldone
define fileset name=w,path=$TMP/ops,entries=1,dirwidth=10,size=0,prealloc
define fileset name=a,path=$TMP/ops,entries=1,dirwidth=10,size=0,prealloc
define fileset name=ar,path=$TMP/ops,entries=1,dirwidth=10,size=0,prealloc
define fileset name=ww,path=$TMP/ops,entries=2,dirwidth=10,size=64k,prealloc=0
define fileset name=aio,path=$TMP/ops,entries=1,dirwidth=10,size=0,prealloc
define process name=p { thread name=t {
  flowop write name=w,filesetname=w,fd=1,iosize=4k,data=zeros
  flowop appendfile name=a,filesetname=a,fd=2,iosize=4k,data=zeros
  flowop appendfilerand name=ar,filesetname=ar,fd=3,iosize=4k,data=zeros
  flowop aiowrite name=aio,filesetname=aio,fd=4,iosize=4k,data=zeros
  flowop aiowait name=aw
  flowop finishoncount name=fin,target=w,value=100 }
 thread name=t2 {
  flowop createfile name=cr,filesetname=ww,fd=1
  flowop writewholefile name=ww,fd=1,iosize=5000,data=zeros
  flowop closefile name=cl,fd=1 } }
run 10
F
fb ops
for n in w a ar ww aio; do
	nz=$(find "$TMP/ops/$n" -type f ! -name .fbrun-fileset -exec cat {} + |
		tr -d '\000' | wc -c | tr -d ' ')
	b=$(find "$TMP/ops/$n" -type f ! -name .fbrun-fileset -exec cat {} + |
		wc -c | tr -d ' ')
	check "flowop $n with data=zeros wrote $b bytes, all zero ($nz not)" \
		test "$b" -gt 0 -a "$nz" -eq 0
done

# --- preallocation: the fileset's data=, else --data ------------------------
cat >"$TMP/pre.f" <<F
define file name=z,path=$TMP/pre,size=3m,prealloc,data=zeros
define fileset name=b,path=$TMP/pre,entries=4,dirwidth=10,size=1m,prealloc,paralloc,data=bonnie
define file name=c,path=$TMP/pre,size=3m,prealloc,compress=75
define file name=cli,path=$TMP/pre,size=3m,prealloc
create files
F
fb pre --data random
check "prealloc data=zeros: every byte is 0" \
	test "$(nonzero "$(onefile "$TMP/pre" z)")" -eq 0
nb=$(find "$TMP/pre/b" -type f ! -name .fbrun-fileset -exec cat {} + | tr -d '\000\001' | wc -c)
check "prealloc data=bonnie with paralloc: only 0x00 and 0x01 ($nb others)" \
	test "$nb" -eq 0
s=$(saved "$(onefile "$TMP/pre" c)")
check "prealloc compress=75: gzip -1 saves 65..85% ($s%)" test "$s" -ge 65 -a "$s" -le 85
f=$(onefile "$TMP/pre" cli)
check "prealloc with --data random and no data=: incompressible" \
	test "$(gz "$f")" -ge $(( $(size "$f") * 99 / 100 ))

# --- precedence: flowop over fileset over --data ----------------------------
cat >"$TMP/prec.f" <<F
set mode quit firstdone
define file name=fz,path=$TMP/prec,size=0,prealloc,data=zeros
define file name=fb,path=$TMP/prec,size=0,prealloc,data=bonnie
define file name=fn,path=$TMP/prec,size=0,prealloc
define process name=p { thread name=t {
  flowop appendfile name=over,filesetname=fz,fd=1,iosize=8k,data=random
  flowop openfile name=open,filesetname=fb,fd=2
  flowop appendfile name=byfd,fd=2,iosize=8k
  flowop closefile name=close,fd=2
  flowop appendfile name=cli,filesetname=fn,fd=3,iosize=8k
  flowop finishoncount name=fin,target=cli,value=64 } }
run 10
F
fb prec --data zeros
f=$(onefile "$TMP/prec" fz)
check "flowop data=random wins over its fileset's data=zeros" \
	test "$(gz "$f")" -ge $(( $(size "$f") * 99 / 100 ))
f=$(onefile "$TMP/prec" fb)
check "a write by fd takes the file's fileset's data=bonnie over --data zeros" \
	test "$(not01 "$f")" -eq 0 -a "$(nonzero "$f")" -gt 0
f=$(onefile "$TMP/prec" fn)
check "with neither, --data zeros is written" \
	test "$(size "$f")" -gt 0 -a "$(nonzero "$f")" -eq 0

# --- the JSON records the patterns -----------------------------------------
if command -v python3 >/dev/null 2>&1; then
	got=$(python3 - "$TMP/prec.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
fs = {f['name']: f.get('data') for f in r['filesets']}
fo = {f['name']: f.get('data') for f in r['flowops']}
print(r['data'], fs['fz'], fs['fb'], fs['fn'], fo['over'], fo['byfd'])
EOF
)
	check "JSON: --data, each fileset's and flowop's data= where set ($got)" \
		test "$got" = "zeros zeros bonnie None random None"
	got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"])' "$TMP/pat.json")
	check "JSON: without --data the default is 'default' ($got)" test "$got" = default
else
	skip "JSON data fields: needs python3"
fi

# --- verify: stamped blocks, checked by the reads ---------------------------
# A run with reuse makes 4 files (stamped by preallocation) and writes into
# them at random and at their ends (cut back to their size by the next
# run's reuse); a read-only run then finds them right.  One byte changed behind fbrun's back is a verify error of the
# read that meets it, with the file and the offset, said once per file,
# and the run fails (exit 1) unless --continue-on-error lets it go on.
# (Those runs trust the tree: otherwise the byte is found before the run,
# in the kept tree's check that tests/verify.sh tests.)
have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true
vdef="define fileset name=vset,path=$TMP/v,entries=4,dirwidth=100,size=20k,prealloc=100,reuse,verify"
cat >"$TMP/vprep.f" <<F
set mode quit firstdone
$vdef
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=vset,fd=1
  flowop write name=wr,fd=1,iosize=3000,random
  flowop appendfilerand name=app,fd=1,iosize=5000
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=open,value=8 } }
run 10
F
cat >"$TMP/vread.f" <<F
set mode quit firstdone
$vdef
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=vset,fd=1
  flowop readwholefile name=rwf,fd=1,iosize=3000
  flowop read name=rd,fd=1,iosize=4k,random
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=rwf,value=8 } }
run 10
F
# vjson NAME EXPR: a value of NAME's results (r), python3 needed
vjson() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); f={o['name']: o for o in r['flowops']}; print($2)" "$TMP/$1.json"; }
run_fbrun -q -o "$TMP/vprep.json" "$TMP/vprep.f"
check "verify: the writing run exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if $have_python; then
	check "verify: and writes 8 times at random and 8 times at the end" \
		test "$(vjson vprep "f['wr']['ops'], f['app']['ops'], r['summary']['verify_errors']")" = "8 8 0"
fi
run_fbrun -q -o "$TMP/vok.json" "$TMP/vread.f"
check "verify: a read-only run over what it wrote exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if $have_python; then
	check "verify: and reads every file twice without a verify error" \
		test "$(vjson vok "f['rwf']['ops'], f['rd']['ops'], r['summary']['verify_errors']")" = "8 8 0"
fi
sed 's/,verify$/,verify,trusttree/' "$TMP/vread.f" >"$TMP/vtrust.f"
victim=$(find "$TMP/v/vset" -type f ! -name .fbrun-fileset | sort | head -n 1)
old=$(od -An -tu1 -j 5000 -N 1 "$victim" | tr -d ' ')
new=$(( (old + 1) % 256 ))
printf "\\$(printf %03o "$new")" | dd of="$victim" bs=1 seek=5000 conv=notrunc 2>/dev/null
check "verify: a byte of $victim changed" \
	test "$(od -An -tu1 -j 5000 -N 1 "$victim" | tr -d ' ')" -eq "$new"
run_fbrun -q -o "$TMP/vbad.json" "$TMP/vtrust.f"
check "verify: the changed byte fails the run (exit $rc)" test "$rc" -eq 1
grepq "verify: the error names the file and the offset" \
	"^fbrun: error: verify: '$victim' at offset 5000: flowop rwf read data fbrun did not write there$" "$TMP/err"
if $have_python; then
	check "verify: one verify error of rwf in the JSON, and no failed syscall" \
		test "$(vjson vbad "f['rwf']['verify_errors'], f['rwf']['errors'], r['summary']['verify_errors'], r['ended_by']")" = "1 0 1 error"
fi
grepq "verify: the text report has the count" "^rwf +1 verify errors$" "$TMP/out"
run_fbrun -q --continue-on-error -o "$TMP/vcont.json" "$TMP/vtrust.f"
check "verify: --continue-on-error: the run goes on and still exits 1 (exit $rc)" test "$rc" -eq 1
n=$(grep -c "^fbrun: error: verify: '$victim' at offset 5000" "$TMP/err" || :)
check "verify: said once for the file, though read twice ($n)" test "$n" -eq 1
if $have_python; then
	check "verify: both whole-file reads of it counted, the run done" \
		test "$(vjson vcont "f['rwf']['ops'], f['rwf']['verify_errors'], r['ended_by']")" = "8 2 done"
fi

# --- the command line --------------------------------------------------------
run_fbrun --data zero "$TMP/pat.f"
check "--data zero: exit 2" test "$rc" -eq 2
grepq "--data zero: says what it takes and suggests zeros" \
	"^fbrun: error: --data expects zeros, bonnie, random or compress=N, got 'zero'; did you mean 'zeros'\?$" "$TMP/err"
run_fbrun --data compress=100 "$TMP/pat.f"
check "--data compress=100: exit 2" test "$rc" -eq 2
grepq "--data compress=100: out of range" "compress= expects a percent from 0 to 99, got '100'" "$TMP/err"
run_fbrun --help
grepq "--help lists --data" "--data PATTERN" "$TMP/out"

done_testing
