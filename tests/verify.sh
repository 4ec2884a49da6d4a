#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# verify (doc/language.md, "Data verification"): every write path stamps
# verify's blocks or is accounted for (fallocatefile, holes past the end),
# every read path checks what it read, a file cut short by another
# program is a verify error, and a kept tree is checked before a run uses
# it.  tests/data.sh has the basics (read, write, appends, reuse).
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true
# vjson NAME EXPR: a value of $TMP/NAME.json's results (r; f by flowop)
vjson() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); f={o['name']: o for o in r['flowops']}; print($2)" "$TMP/$1.json"; }
files() { find "$1" -type f ! -name .fbrun-fileset | sort; }
# byte FILE OFFSET: its value; flip FILE OFFSET: add one to it in place
byte() { od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' '; }
flip() {
	v=$(( ($(byte "$1" "$2") + 1) % 256 ))
	printf "\\$(printf %03o "$v")" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# gens FILE: the blocks whose generation (header bytes 24..31) is not 0,
# that is, written by a run's flowop rather than by preallocation
gens() {
	n=0 off=0 size=$(stat -c %s "$1")
	while [ "$off" -lt "$size" ]; do
		[ "$(od -An -tx1 -j $((off + 24)) -N 8 "$1" | tr -d ' \n')" = 0000000000000000 ] || n=$((n + 1))
		off=$((off + 4096))
	done
	echo "$n"
}
# ok_run NAME: fbrun -o NAME.json on NAME.f exited 0 without a verify error
ok_run() {
	run_fbrun -q --keep -o "$TMP/$1.json" "$TMP/$1.f"
	check "$1: exits 0 (exit $rc)" test "$rc" -eq 0
	if grep -q verify "$TMP/err"; then
		fail "$1: no verify error"
		diag <"$TMP/err"
	else
		pass "$1: no verify error"
	fi
	if $have_python && [ "$rc" -eq 0 ]; then
		check "$1: verify_errors 0 in the JSON" \
			test "$(vjson "$1" "r['summary']['verify_errors']")" = 0
	fi
}

# --- fbrun's own writes are not verify errors ---------------------------------
# mmapwrite stamps verify's blocks through the mapping as write does; the
# reads (read, readwholefile, mmapread, aioread) then find them right.
cat >"$TMP/mmapw.f" <<F
set mode quit firstdone
define fileset name=m,path=$TMP/mmapw,entries=3,dirwidth=100,size=20k,prealloc,verify
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=m,fd=1
  flowop mmapwrite name=mw,fd=1,iosize=3000,random
  flowop mmapwrite name=mws,fd=1,iosize=5000
  flowop mmapread name=mr,fd=1,iosize=4k,random
  flowop closefile name=close,fd=1
  flowop openfile name=open2,filesetname=m,fd=2
  flowop readwholefile name=rwf,fd=2,iosize=4k
  flowop read name=rd,fd=2,iosize=3000,random
  flowop aioread name=ar,fd=2,iosize=4k,random
  flowop aiowait name=aw
  flowop closefile name=close2,fd=2
  flowop finishoncount name=fin,target=open,value=20 } }
run 10
F
ok_run mmapw
n=0
for f in $(files "$TMP/mmapw/m"); do n=$((n + $(gens "$f"))); done
check "mmapw: mmapwrite's blocks are in the files, stamped by the run ($n)" test "$n" -gt 0

# fallocatefile at the end and at random past it, and write and aiowrite
# at random in a working set past the end: what they leave unwritten (a
# hole, fallocated zeros) is not fbrun's data, and not a verify error
cat >"$TMP/holes.f" <<F
set mode quit firstdone
define fileset name=h,path=$TMP/holes,entries=3,dirwidth=100,size=20k,prealloc,verify
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=h,fd=1
  flowop fallocatefile name=fa,fd=1,iosize=5000
  flowop fallocatefile name=far,fd=1,iosize=8k,random,workingset=200k
  flowop write name=wr,fd=1,iosize=3000,random,workingset=400k
  flowop aiowrite name=aw,fd=1,iosize=4k,random,workingset=600k
  flowop aiowait name=wait
  flowop readwholefile name=rwf,fd=1,iosize=4k
  flowop read name=rd,fd=1,iosize=8k,random,workingset=600k
  flowop aioread name=ar,fd=1,iosize=8k,random,workingset=600k
  flowop aiowait name=wait2
  flowop closefile name=close,fd=1
  flowop openfile name=open2,filesetname=h,fd=2
  flowop mmapread name=mr,fd=2,iosize=8k
  flowop closefile name=close2,fd=2
  flowop finishoncount name=fin,target=open,value=20 } }
run 10
F
ok_run holes
big=$(files "$TMP/holes/h" | while read -r f; do [ "$(stat -c %s "$f")" -gt 20480 ] && echo "$f"; done | wc -l)
check "holes: the files grew past their 20 KiB ($big of 3)" test "$big" -eq 3
zeros=0
for f in $(files "$TMP/holes/h"); do
	[ "$(dd if="$f" bs=4096 skip=5 2>/dev/null | tr -d '\000' | wc -c)" -lt "$(($(stat -c %s "$f") - 20480))" ] && zeros=$((zeros + 1))
done
check "holes: and hold zeros past their 20 KiB ($zeros of 3)" test "$zeros" -eq 3

# a file createfile made and wrote at random (holes in it) read back
cat >"$TMP/newfile.f" <<F
set mode quit firstdone
define fileset name=c,path=$TMP/newfile,entries=8,dirwidth=100,size=64k,prealloc=50,verify
define process name=p { thread name=t {
  flowop createfile name=create,filesetname=c,fd=1
  flowop write name=wr,fd=1,iosize=4k,random
  flowop write name=wr2,fd=1,iosize=5000,random
  flowop readwholefile name=rwf,fd=1,iosize=3000
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=create,value=4 } }
run 10
F
ok_run newfile

# --- every read checks what it read ---------------------------------------------
# The tree is made (create files), one byte of its file changed by another
# program (system), then the run reads it: each read flowop reports it.
cat >"$TMP/flip.sh" <<F
f=\$(find "$TMP/one/o" -type f ! -name .fbrun-fileset)
echo "\$f" >"$TMP/victim"
v=\$(( (\$(od -An -tu1 -j 5000 -N 1 "\$f" | tr -d ' ') + 1) % 256 ))
printf "\\\\\$(printf %03o "\$v")" | dd of="\$f" bs=1 seek=5000 conv=notrunc 2>/dev/null
F
cat >"$TMP/cut.sh" <<F
f=\$(find "$TMP/one/o" -type f ! -name .fbrun-fileset)
echo "\$f" >"$TMP/victim"
truncate -s 10000 "\$f"
F
# one NAME SCRIPT FLOWOPS: $TMP/NAME.f, a 20 KiB file changed by SCRIPT
# after it is made, then FLOWOPS on it (finishing after 4 ops of r)
one() {
	cat >"$TMP/$1.f" <<F
set mode quit firstdone
define fileset name=o,path=$TMP/one,entries=1,dirwidth=100,size=20k,prealloc,verify
create files
system "sh $TMP/$2"
define process name=p { thread name=t {
$3
  flowop finishoncount name=fin,target=r,value=4 } }
run 10
F
	rm -rf "$TMP/one"
	run_fbrun -q -o "$TMP/$1.json" "$TMP/$1.f"
	victim=$(cat "$TMP/victim" 2>/dev/null || echo none)
}
# bad NAME FLOWOP WHAT: the run failed with one verify error of r, WHAT said
bad() {
	check "$1: exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "$1: $2 reports it, with the file and the offset" \
		"^fbrun: error: verify: '$victim' at offset $3: flowop r $4$" "$TMP/err"
	if $have_python && [ -s "$TMP/$1.json" ]; then
		check "$1: one verify error of r in the JSON" \
			test "$(vjson "$1" "f['r']['verify_errors'], r['summary']['verify_errors']")" = "1 1"
	fi
}
wrong="read data fbrun did not write there"
one mmapread flip.sh "  flowop mmapread name=r,filesetname=o,iosize=4k"
bad mmapread mmapread 5000 "$wrong"
one mmapread-random flip.sh "  flowop mmapread name=r,filesetname=o,iosize=20k,random"
bad mmapread-random "mmapread random" 5000 "$wrong"
one aioread flip.sh "  flowop aioread name=r,filesetname=o,iosize=4k
  flowop aiowait name=w"
bad aioread aioread 5000 "$wrong"
one aioread-depth flip.sh "  flowop aioread name=r,filesetname=o,iosize=4k,iodepth=4"
bad aioread-depth "aioread iodepth=4" 5000 "$wrong"
# with --continue-on-error the run goes on: the file is closed all the
# same when its closefile reaps the read that failed the check
one aioread-cont flip.sh "  flowop openfile name=open,filesetname=o,fd=1
  flowop aioread name=r0,fd=1,iosize=4k
  flowop aioread name=r,fd=1,iosize=4k
  flowop closefile name=close,fd=1"
run_fbrun -q --continue-on-error -o "$TMP/aioread-cont.json" "$TMP/aioread-cont.f"
check "aioread-cont: exit 1 (exit $rc)" test "$rc" -eq 1
if grep -q "busy" "$TMP/err"; then fail "aioread-cont: the fd is closed for the next openfile"; diag <"$TMP/err"; else pass "aioread-cont: the fd is closed for the next openfile"; fi
if $have_python; then
	check "aioread-cont: each of the 4 reads of the changed block counted, the run done" \
		test "$(vjson aioread-cont "f['open']['ops'], f['r']['verify_errors'], f['r0']['verify_errors'], r['ended_by']")" = "4 4 0 done"
fi

# --- a file cut by another program ------------------------------------------
cut="found the end of the file there; fbrun wrote 20480 bytes"
one cut-read cut.sh "  flowop read name=r,filesetname=o,iosize=4k"
bad cut-read read 10000 "$cut"
one cut-rwf cut.sh "  flowop readwholefile name=r,filesetname=o,iosize=4k"
bad cut-rwf readwholefile 10000 "$cut"
one cut-random cut.sh "  flowop read name=r,filesetname=o,iosize=20k,random"
bad cut-random "read random" 10000 "$cut"
one cut-aio cut.sh "  flowop aioread name=r,filesetname=o,iosize=4k
  flowop aiowait name=w"
bad cut-aio aioread 10000 "$cut"
one cut-mmap cut.sh "  flowop mmapread name=r,filesetname=o,iosize=4k"
bad cut-mmap mmapread 10000 "$cut"
grepq "cut-mmap: the run's failure says where the file ends" \
	"flowop r failed: verify: '$victim' at offset 10000 is the end of the file; fbrun wrote 20480 bytes" "$TMP/err"
# the same run on the whole file: nothing to say
one whole-read true "  flowop read name=r,filesetname=o,iosize=4k
  flowop readwholefile name=rwf,filesetname=o,iosize=4k
  flowop aioread name=ar,filesetname=o,iosize=4k
  flowop aiowait name=w
  flowop mmapread name=mr,filesetname=o,iosize=4k"
check "whole-read: a file as fbrun wrote it reads without a verify error (exit $rc)" test "$rc" -eq 0

# --- a kept tree is checked before the run uses it ---------------------------
# A reuse tree a verifying run left whole says so in its marker; the next
# run checks every file and says what another program changed, cut or
# removed (exit 1), leaving it as it found it.
vdef="define fileset name=k,path=$TMP/kept,entries=4,dirwidth=100,size=20k,prealloc,reuse,verify"
cat >"$TMP/kwrite.f" <<F
set mode quit firstdone
$vdef
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=k,fd=1
  flowop write name=wr,fd=1,iosize=3000,random
  flowop appendfilerand name=app,fd=1,iosize=5000
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=open,value=8 } }
run 10
F
cat >"$TMP/kread.f" <<F
set mode quit firstdone
$vdef
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=k,fd=1
  flowop readwholefile name=rwf,fd=1,iosize=4k
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=rwf,value=8 } }
run 10
F
marker="$TMP/kept/k/.fbrun-fileset"
ok_run kwrite
grepq "kept: the writing run's marker says the tree is whole" "^verify: whole [0-9a-f]{16}$" "$marker"
ok_run kread
victim=$(files "$TMP/kept/k" | sed -n 2p)
lost="not as fbrun left them; not using it"
cp "$victim" "$TMP/saved"
flip "$victim" 5000
old=$(byte "$victim" 5000)
run_fbrun -q -o "$TMP/kflip.json" "$TMP/kread.f"
check "kept, a byte changed: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "kept, a byte changed: the file and the offset said" \
	"^fbrun: error: verify: '$victim' at offset 5000: the kept tree holds data fbrun did not write there$" "$TMP/err"
grepq "kept, a byte changed: 1 of the 4 files lost" \
	"^fbrun: error: fileset k: verify: 1 of the 4 files of the kept tree are $lost$" "$TMP/err"
n=$(grep -c "^fbrun: error: verify: " "$TMP/err" || :)
check "kept, a byte changed: nothing else said ($n)" test "$n" -eq 1
check "kept, a byte changed: not rewritten" test "$(byte "$victim" 5000)" = "$old"
grepq "kept, a byte changed: no operation ran" "IO Summary: +0 ops" "$TMP/out"
run_fbrun -q "$TMP/kwrite.f"
check "kept, a byte changed: said again by the next run (exit $rc)" test "$rc" -eq 1
grepq "kept, a byte changed: the same error" "^fbrun: error: verify: '$victim' at offset 5000:" "$TMP/err"
cp "$TMP/saved" "$victim"
ok_run kread

truncate -s 10000 "$victim"
run_fbrun -q "$TMP/kread.f"
check "kept, a file cut: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "kept, a file cut: where it ends said" \
	"^fbrun: error: verify: '$victim' at offset 10000: the file ends there; fbrun left it 20480 bytes long$" "$TMP/err"
check "kept, a file cut: left as it was" test "$(stat -c %s "$victim")" -eq 10000
rm "$victim"
run_fbrun -q "$TMP/kread.f"
check "kept, a file removed: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "kept, a file removed: said" \
	"^fbrun: error: verify: '$victim': missing, where fbrun left a file of 20480 bytes$" "$TMP/err"
check "kept, a file removed: not made again" test ! -e "$victim"
ln -s "$TMP/saved" "$victim"
run_fbrun -q "$TMP/kread.f"
grepq "kept, a symlink for a file: said (exit $rc)" \
	"^fbrun: error: verify: '$victim': not a regular file, where fbrun left a file of 20480 bytes$" "$TMP/err"
rm "$victim"
cp "$TMP/saved" "$victim"
ok_run kread

# A run that deletes files (and makes them again, at random with holes)
# cannot say the tree is whole: the next run neither reports what it
# deleted nor reads its holes, but remakes what is not verify's.
cat >"$TMP/kdel.f" <<F
set mode quit firstdone
$vdef
define process name=p { thread name=t {
  flowop deletefile name=del,filesetname=k
  flowop createfile name=create,filesetname=k,fd=1
  flowop write name=wr,fd=1,iosize=4k,random
  flowop closefile name=close,fd=1
  flowop deletefile name=del2,filesetname=k
  flowop finishoncount name=fin,target=del,value=3 } }
run 10
F
ok_run kdel
if grep -q "^verify: whole" "$marker"; then
	fail "kdel: its marker does not say the tree is whole"
else
	pass "kdel: its marker does not say the tree is whole"
fi
ok_run kread
grepq "kdel, then kread: the tree is whole again" "^verify: whole [0-9a-f]{16}$" "$marker"

# The script changed (the files' size): the tree is laid out otherwise,
# so it is remade, not checked
sed 's/size=20k/size=24k/' "$TMP/kread.f" >"$TMP/kbigger.f"
ok_run kbigger
n=$(files "$TMP/kept/k" | while read -r f; do [ "$(stat -c %s "$f")" -eq 24576 ] && echo "$f"; done | wc -l)
check "kbigger: every file made 24 KiB ($n of 4)" test "$n" -eq 4

# A tree made without verify, then used with it: its files are remade
sed 's/,verify$//' "$TMP/kwrite.f" >"$TMP/knov.f"
rm -rf "$TMP/kept"
run_fbrun -q "$TMP/knov.f"
check "made without verify: exit 0 (exit $rc)" test "$rc" -eq 0
if grep -q "^verify:" "$marker"; then fail "made without verify: marker says nothing of verify"; else pass "made without verify: marker says nothing of verify"; fi
ok_run kread

done_testing
