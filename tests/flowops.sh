#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Every flowop, run on a tiny fileset: a fact about its effect on disk or
# in the counters (never a timing), and composite flowops with iters and
# $locals.  Runs are bounded by finishoncount where a count is enough, so
# most take milliseconds; the rate facts need a few seconds.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true


# fb NAME [ARGS]: run $TMP/NAME.f keeping its tree; results in
# $TMP/NAME.json, output in $TMP/NAME.out and $TMP/NAME.err, status in $rc
fb() {
	n=$1
	shift
	run_fbrun -q --keep -o "$TMP/$n.json" "$@" "$TMP/$n.f"
	cp "$TMP/out" "$TMP/$n.out"
	cp "$TMP/err" "$TMP/$n.err"
}

# ran NAME: the run of NAME exited 0
ran() {
	if [ "$rc" -eq 0 ] && [ -s "$TMP/$1.json" ]; then
		pass "$1: runs and exits 0"
	else
		fail "$1: runs and exits 0 (exit $rc)"
		diag <"$TMP/$1.err"
	fi
}

# jv NAME EXPR: a Python expression over NAME's results: r is the JSON,
# op(x) the flowop named x, ops(x) and nbytes(x) its counts, secs the
# measured seconds, errors the failed operations of all flowops
jv() {
	python3 - "$TMP/$1.json" "$2" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
def op(n):
    for f in r['flowops']:
        if f['name'] == n:
            return f
    raise KeyError('no flowop ' + n)
ops = lambda n: op(n)['ops']
nbytes = lambda n: op(n)['bytes']
secs = r['seconds']
errors = sum(f['errors'] for f in r['flowops'])
within = lambda x, want, frac: abs(x - want) <= frac * want
print(eval(sys.argv[2]))
EOF
}

# jcheck DESC NAME EXPR: ok if EXPR is true of NAME's results
jcheck() {
	if ! $have_python; then
		skip "$1: needs python3"
		return 0
	fi
	if [ "$(jv "$2" "$3" 2>"$TMP/jerr")" = True ]; then
		pass "$1"
	else
		fail "$1"
		{
			echo "$3"
			cat "$TMP/jerr"
			jv "$2" "'seconds %s ended_by %s' % (secs, r['ended_by'])" || :
			jv "$2" "'\n'.join('%s %s: ops %d bytes %d errors %d' % (f['name'], f['type'], f['ops'], f['bytes'], f['errors']) for f in r['flowops'])" || :
		} 2>&1 | diag
	fi
}

# files DIR: number of regular files of a fileset tree (not the marker)
files() { find "$1" -type f ! -name .fbrun-fileset | wc -l | tr -d ' '; }
# ndirs DIR: number of directories in the tree, the root included
ndirs() { find "$1" -type d | wc -l | tr -d ' '; }
# size FILE: its size in bytes (-1 if missing)
size() { stat -c %s "$1" 2>/dev/null || echo -1; }
# tree_bytes DIR: the sizes of its files added up
tree_bytes() {
	find "$1" -type f ! -name .fbrun-fileset -exec stat -c %s {} + |
		awk '{ s += $1 } END { print s + 0 }'
}
# the one file of a `define file` NAME under PATH
onefile() { find "$1/$2" -type f ! -name .fbrun-fileset; }
# sized DIR BYTES: number of files in the tree of exactly that size
sized() { find "$1" -type f ! -name .fbrun-fileset -size "$2"c | wc -l | tr -d ' '; }

# --- write: random within the working set, sequential growth ---------------
cat >"$TMP/write.f" <<F
set mode quit firstdone
define file name=ws,path=$TMP/write,size=16k,prealloc
define file name=seq,path=$TMP/write,size=0,prealloc
define process name=p { thread name=t {
  flowop write name=rnd,filesetname=ws,fd=1,iosize=4k,random,workingset=64k
  flowop write name=sq,filesetname=seq,fd=2,iosize=4k
  flowop finishoncount name=fin,target=rnd,value=2000 } }
run 10
F
fb write
ran write
s=$(size "$(onefile "$TMP/write" ws)")
check "random writes with workingset=64k grow a 16k file to 64k, never beyond ($s)" \
	test "$s" -eq 65536
jcheck "random write: bytes = ops x iosize, 2000 ops" write \
	"ops('rnd') == 2000 and nbytes('rnd') == 2000 * 4096"
s=$(size "$(onefile "$TMP/write" seq)")
jcheck "sequential write grows an empty file to ops x iosize ($s)" write \
	"ops('sq') == 2000 and nbytes('sq') == ops('sq') * 4096 == $s"

# --- read: sequential wraps at end of file, random stays within ----------
cat >"$TMP/read.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/read,size=64k,prealloc
define file name=g,path=$TMP/read,size=64k,prealloc
define process name=p { thread name=t {
  flowop read name=sq,filesetname=f,fd=1,iosize=4k
  flowop read name=rnd,filesetname=g,fd=2,iosize=4k,random,workingset=16k
  flowop finishoncount name=fin,target=sq,value=1000 } }
run 10
F
fb read
ran read
# 16 reads of 4k, then one at end of file that reads 0 and rewinds
jcheck "sequential read of a 16-block file: every 17th read is 0 bytes (wrap)" read \
	"ops('sq') == 1000 and nbytes('sq') == 4096 * (1000 - 1000 // 17)"
jcheck "random read: every read is whole, bytes = ops x iosize" read \
	"ops('rnd') == 1000 and nbytes('rnd') == 1000 * 4096"
check "reads leave the file as it was" test "$(size "$(onefile "$TMP/read" f)")" -eq 65536

# --- stride, startrecord: sequential records placed apart -------------------
cat >"$TMP/stride.f" <<F
set mode quit firstdone
define file name=w,path=$TMP/stride,size=0,prealloc,data=random
define process name=p { thread name=t {
  flowop write name=sw,filesetname=w,fd=1,iosize=4k,stride=3,startrecord=1
  flowop finishoncount name=finw,target=sw,value=5 } }
run 10
F
cat >"$TMP/strider.f" <<F
set mode quit firstdone
define file name=r,path=$TMP/stride,size=32k,prealloc
define process name=p { thread name=u {
  flowop read name=sr,filesetname=r,fd=1,iosize=4k,stride=2,startrecord=1
  flowop finishoncount name=finr,target=sr,value=10 } }
run 10
F
fb stride
ran stride
fb strider
ran strider
f=$(onefile "$TMP/stride" w)
check "stride=3,startrecord=1: 5 writes at records 1, 4, .. 13: the file is 14 records" \
	test "$(size "$f")" -eq $((14 * 4096))
if dd if="$f" bs=4096 skip=13 count=1 2>/dev/null | cmp -s - /dev/zero -n 4096 ||
	! dd if="$f" bs=4096 skip=12 count=1 2>/dev/null | cmp -s - /dev/zero -n 4096; then
	fail "... record 13 written, record 12 (between strides) a hole of zeros"
else
	pass "... record 13 written, record 12 (between strides) a hole of zeros"
fi
# records 1, 3, 5, 7, then 9 is past the end (0 bytes): again from 1
jcheck "stride=2,startrecord=1 over 8 records: 4 whole reads, then one at the end, again" strider \
	"ops('sr') == 10 and nbytes('sr') == 8 * 4096 and errors == 0"
cat >"$TMP/strand.f" <<F
define file name=w,path=$TMP/strand,size=0,prealloc
define process name=p { thread name=t {
  flowop write name=sw,filesetname=w,fd=1,iosize=4k,random,stride=2 } }
run 1
F
run_fbrun "$TMP/strand.f"
check "stride with random: exit 2" test "$rc" -eq 2
grepq "... located, saying why" "strand\.f:3:[0-9]+: error: flowop 'sw' \(write\) is random: stride and startrecord place sequential I/O" "$TMP/err"
# A record past the largest file offset (2^63 - 1) is an error against
# the flowop, not an offset wrapped round to the start of the file: the
# second record here, 2^62 x 4 bytes, is 2^64 (0 once wrapped)
cat >"$TMP/strbig.f" <<F
set mode quit firstdone
define file name=r,path=$TMP/strbig,size=8,prealloc
define process name=p { thread name=u {
  flowop read name=sr,filesetname=r,fd=1,iosize=4,stride=4611686018427387904
  flowop finishoncount name=finr,target=sr,value=2 } }
run 10
F
fb strbig
check "stride past 2^63 bytes, read: exit 1 (exit $rc)" test "$rc" -eq 1
jcheck "... the first record read, the second an error: EOVERFLOW" strbig \
	"ops('sr') == 1 and nbytes('sr') == 4 and op('sr')['errors'] == 1 and op('sr')['errnos'][0]['errno'] == 75"
grepq "... said, with the flowop, the file and the record" \
	"error: flowop sr failed: cannot read '$TMP/strbig/r/[0-9/]+' at record 4611686018427387904 \(stride=, startrecord=\): its 4 bytes would end past the largest file offset, 2\^63 - 1: Value too large" \
	"$TMP/strbig.err"
jcheck "... and in the JSON: ended_by error, the error" strbig \
	"r['ended_by'] == 'error' and 'at record 4611686018427387904' in r['error']"
sed 's/flowop read/flowop write/; s/size=8,prealloc/size=0,prealloc/' \
	"$TMP/strbig.f" >"$TMP/strbigw.f"
fb strbigw
check "stride past 2^63 bytes, write: exit 1 (exit $rc)" test "$rc" -eq 1
jcheck "... the first record written, the second an error: EFBIG" strbigw \
	"ops('sr') == 1 and nbytes('sr') == 4 and op('sr')['errors'] == 1 and op('sr')['errnos'][0]['errno'] == 27"
check "... the file holds the first record only (4 bytes)" \
	test "$(size "$(onefile "$TMP/strbig" r)")" -eq 4
rm -rf "$TMP/strbig"
# the first record known past it: refused before the run, located
sed 's/stride=4611686018427387904/startrecord=2305843009213693951/' \
	"$TMP/strbig.f" >"$TMP/strbigc.f"
run_fbrun "$TMP/strbigc.f"
check "startrecord x iosize past 2^63 - 1: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... located, saying why" \
	"strbigc\.f:4:[0-9]+: error: flowop 'sr' \(read\): record 2305843009213693951 of iosize 4 would end past the largest file offset, 2\^63 - 1" \
	"$TMP/err"
check "... nothing is created" test ! -e "$TMP/strbig"
# the last record that fits is no error: ends at 2^63 - 4, past the end
sed 's/stride=4611686018427387904/startrecord=2305843009213693950/' \
	"$TMP/strbig.f" >"$TMP/strbigl.f"
fb strbigl
check "startrecord 2^61 - 2 of iosize 4 (the last record): exit 0 (exit $rc)" test "$rc" -eq 0
jcheck "... two reads of nothing past the end, no error" strbigl \
	"ops('sr') == 2 and nbytes('sr') == 0 and errors == 0"
rm -rf "$TMP/strbig"

# --- appendfile and appendfilerand ----------------------------------------
cat >"$TMP/append.f" <<F
set mode quit firstdone
define file name=a,path=$TMP/append,size=8k,prealloc
define file name=ar,path=$TMP/append,size=0,prealloc
define process name=p { thread name=t {
  flowop appendfile name=app,filesetname=a,fd=1,iosize=1k
  flowop appendfilerand name=rnd,filesetname=ar,fd=2,iosize=8k
  flowop finishoncount name=fin,target=app,value=4000 } }
run 10
F
fb append
ran append
s=$(size "$(onefile "$TMP/append" a)")
jcheck "appendfile grows the file by exactly ops x iosize (8k -> $s)" append \
	"ops('app') == 4000 and nbytes('app') == 4000 * 1024 == $s - 8192"
s=$(size "$(onefile "$TMP/append" ar)")
jcheck "appendfilerand grows the file by exactly the bytes counted ($s)" append \
	"ops('rnd') == 4000 and nbytes('rnd') == $s"
jcheck "appendfilerand appends iosize/2 on average (within 10%)" append \
	"within(nbytes('rnd') / ops('rnd'), 4096, 0.10)"

# --- readwholefile ---------------------------------------------------------
cat >"$TMP/rwhole.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/rwhole,entries=3,dirwidth=10,size=16k,prealloc
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=set,fd=1
  flowop readwholefile name=chunks,fd=1,iosize=5000
  flowop readwholefile name=whole,fd=1
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=close,value=30 } }
run 10
F
fb rwhole
ran rwhole
jcheck "readwholefile in 5000-byte chunks: bytes = ops x file size" rwhole \
	"ops('chunks') == 30 and nbytes('chunks') == 30 * 16384"
jcheck "readwholefile without iosize: bytes = ops x file size" rwhole \
	"ops('whole') == 30 and nbytes('whole') == 30 * 16384"

# --- writewholefile: the file's size, or srcfd's ---------------------------
cat >"$TMP/wwhole.f" <<F
define fileset name=dst,path=$TMP/wwhole,entries=3,dirwidth=10,size=12k,prealloc=0
define fileset name=src,path=$TMP/wwhole,entries=2,dirwidth=10,size=20k,prealloc
define fileset name=copy,path=$TMP/wwhole,entries=3,dirwidth=10,size=4k,prealloc=0
define process name=p { thread name=t {
  flowop createfile name=create,filesetname=dst,fd=1
  flowop writewholefile name=whole,fd=1,iosize=5000
  flowop closefile name=close,fd=1
  flowop openfile name=open,filesetname=src,fd=2
  flowop createfile name=create2,filesetname=copy,fd=3
  flowop writewholefile name=copyit,fd=3,srcfd=2,iosize=8k
  flowop closefile name=close3,fd=3
  flowop closefile name=close2,fd=2 } }
run 10
F
fb wwhole
ran wwhole
grep -q "run ended early.*no file left to create" "$TMP/wwhole.err" &&
	pass "writewholefile: the run ends when every file is created" ||
	{ fail "writewholefile: the run ends when every file is created"; diag <"$TMP/wwhole.err"; }
check "writewholefile writes each new file to its size (3 x 12k)" \
	test "$(files "$TMP/wwhole/dst"):$(tree_bytes "$TMP/wwhole/dst")" = "3:36864"
jcheck "writewholefile: bytes = ops x file size" wwhole \
	"ops('whole') == 3 and nbytes('whole') == 3 * 12288"
check "writewholefile srcfd= writes the source file's size (3 x 20k, not 4k)" \
	test "$(files "$TMP/wwhole/copy"):$(tree_bytes "$TMP/wwhole/copy")" = "3:61440"
jcheck "writewholefile srcfd=: bytes = ops x source size" wwhole \
	"ops('copyit') == 3 and nbytes('copyit') == 3 * 20480"

# --- createfile, deletefile: files on disk follow the counts --------------
cat >"$TMP/churn.f" <<F
define fileset name=set,path=$TMP/churn,entries=40,dirwidth=5,size=1k,prealloc=50
define process name=p { thread name=t,instances=3 {
  flowop createfile name=create,filesetname=set,fd=1
  flowop closefile name=close,fd=1
  flowop deletefile name=delete,filesetname=set } }
run 1
F
fb churn
ran churn
n=$(files "$TMP/churn/set")
jcheck "3 threads create/delete: files on disk = prealloc + creates - deletes ($n)" churn \
	"ops('create') > 0 and ops('delete') > 0 and 20 + ops('create') - ops('delete') == $n"

cat >"$TMP/create.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/create,entries=20,dirwidth=5,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop createfile name=create,filesetname=set,fd=1
  flowop closefile name=close,fd=1
  flowop createfile name=create2,filesetname=set,fd=1
  flowop closefile name=close2,fd=1
  flowop openfile name=open,filesetname=set,fd=2
  flowop deletefile name=delete,fd=2
  flowop closefile name=close3,fd=2
  flowop finishoncount name=fin,target=delete,value=8 } }
run 10
F
fb create
ran create
n=$(files "$TMP/create/set")
check "two creates and one delete per pass, 8 passes: 10 + 16 - 8 files ($n)" test "$n" -eq 18
jcheck "createfile and deletefile fd= counts" create \
	"ops('create') + ops('create2') == 16 and ops('delete') == 8 and errors == 0"
n=$(sized "$TMP/create/set" 0)
check "created files are empty until written (at least 16 - 8 left: $n)" test "$n" -ge 8

# deletefile fd= deletes the file open in fd, even while other threads
# stat it (its entry is busy for a moment then)
cat >"$TMP/delfd.f" <<F
define fileset name=set,path=$TMP/delfd,entries=10,dirwidth=100,size=1k,prealloc=50
define process name=p {
  thread name=a { flowop openfile name=open,filesetname=set,fd=1
                  flowop deletefile name=delete,fd=1
                  flowop closefile name=close,fd=1
                  flowop createfile name=create,filesetname=set,fd=2
                  flowop closefile name=close2,fd=2 }
  thread name=b,instances=2 { flowop statfile name=stat,filesetname=set }
}
run 1
F
fb delfd
ran delfd
n=$(files "$TMP/delfd/set")
jcheck "deletefile fd= deletes the open file every pass, even while it is stat'ed" delfd \
	"ops('open') > 100 and ops('open') - 1 <= ops('delete') <= ops('open')"
jcheck "and files on disk = prealloc + creates - deletes ($n)" delfd \
	"5 + ops('create') - ops('delete') == $n"

# deletefile fd=N after closefile fd=N deletes the file the slot held
# last, as filebench does (netsfs.f's read-modify-write); the statfile
# that follows picks among existing files only, so it fails if the
# fileset still counted a deleted file as there
cat >"$TMP/delclosed.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/delclosed,entries=10,dirwidth=100,size=1k,prealloc=100
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=set,fd=1
  flowop closefile name=close,fd=1
  flowop deletefile name=delete,fd=1
  flowop statfile name=stat,filesetname=set
  flowop finishoncount name=fin,target=delete,value=6 } }
run 10
F
fb delclosed
ran delclosed
n=$(files "$TMP/delclosed/set")
check "deletefile fd= after closefile: 6 of 10 files gone ($n left)" test "$n" -eq 4
jcheck "deletefile fd= after closefile: 6 deletes, a stat after each, no errors" delclosed \
	"ops('delete') == 6 and ops('stat') == 6 and errors == 0"

# --- makedir, removedir: leaf directories follow the counts ---------------
# dirs0 makes the same tree (its layout comes from the fileset's name) and
# only stats: its directory count is the one before any makedir/removedir
cat >"$TMP/dirs0.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/dirs,entries=4,dirwidth=2,leafdirs=10,prealloc=50,size=1k
define process name=p { thread name=t {
  flowop statfile name=stat,filesetname=set
  flowop finishoncount name=fin,target=stat,value=1 } }
run 10
F
fb dirs0
ran dirs0
d0=$(ndirs "$TMP/dirs/set")
cat >"$TMP/dirs.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/dirs,entries=4,dirwidth=2,leafdirs=10,prealloc=50,size=1k
define process name=p { thread name=t {
  flowop makedir name=mk,filesetname=set
  flowop makedir name=mk2,filesetname=set
  flowop removedir name=rm,filesetname=set
  flowop finishoncount name=fin,target=rm,value=4 } }
run 10
F
fb dirs
ran dirs
d1=$(ndirs "$TMP/dirs/set")
check "two makedirs and one removedir per pass, 4 passes: 4 more directories ($d0 -> $d1)" \
	test "$((d1 - d0))" -eq 4
jcheck "makedir/removedir counts" dirs "ops('mk') + ops('mk2') == 8 and ops('rm') == 4 and errors == 0"
cat >"$TMP/dirs2.f" <<F
define fileset name=set,path=$TMP/dirs,entries=4,dirwidth=2,leafdirs=10,prealloc=50,size=1k
define process name=p { thread name=t,instances=2 {
  flowop makedir name=mk,filesetname=set
  flowop removedir name=rm,filesetname=set } }
run 1
F
fb dirs2
ran dirs2
d1=$(ndirs "$TMP/dirs/set")
jcheck "2 threads for 1 s: directories = prealloc + makedirs - removedirs ($d0 -> $d1)" dirs2 \
	"ops('mk') > 0 and $d0 + ops('mk') - ops('rm') == $d1"

# --- listdir, statfile ------------------------------------------------------
cat >"$TMP/list.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/list,entries=10,dirwidth=5,size=1k,prealloc
define process name=p { thread name=t {
  flowop listdir name=ls,filesetname=set
  flowop statfile name=stat,filesetname=set
  flowop openfile name=open,filesetname=set,fd=1
  flowop statfile name=fstat,fd=1
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=ls,value=100 } }
run 10
F
fb list
ran list
jcheck "listdir reads entries: bytes > 0" list "ops('ls') == 100 and nbytes('ls') > 0"
jcheck "statfile (by name and through fd=) runs without errors" list \
	"ops('stat') == 100 and ops('fstat') == 100 and errors == 0"
jcheck "listdir and statfile are I/O in the summary, moving no file data" list \
	"r['summary']['ops'] == 500 and nbytes('stat') == 0"
check "nothing changed on disk" test "$(files "$TMP/list/set"):$(tree_bytes "$TMP/list/set")" = "10:10240"

# --- fsync, fsyncset --------------------------------------------------------
cat >"$TMP/fsync.f" <<F
set mode quit firstdone
define fileset name=a,path=$TMP/fsync,entries=3,dirwidth=10,size=4k,prealloc
define fileset name=b,path=$TMP/fsync,entries=1,dirwidth=10,size=4k,prealloc
define process name=p { thread name=t {
  flowop openfile name=open1,filesetname=a,fd=1
  flowop write name=write,fd=1,iosize=4k
  flowop fsync name=sync,fd=1
  flowop openfile name=open2,filesetname=a,fd=2
  flowop openfile name=open3,filesetname=b,fd=3
  flowop fsyncset name=syncset,filesetname=a
  flowop closefile name=close1,fd=1
  flowop closefile name=close2,fd=2
  flowop closefile name=close3,fd=3
  flowop finishoncount name=fin,target=close1,value=10 } }
run 20
F
fb fsync
ran fsync
jcheck "fsync: one per pass" fsync "ops('sync') == 10 and errors == 0"
jcheck "fsyncset: one fsync per open file of its fileset (2 of 3 open)" fsync \
	"ops('syncset') == 2 * 10"
check "write at the start of each opened file keeps every size" \
	test "$(tree_bytes "$TMP/fsync/a")" -eq 12288

# --- truncatefile: the size set, nothing written ---------------------------
cat >"$TMP/trunc.f" <<F
set mode quit firstdone
set \$sz = randvar(type=uniform, min=1000, mean=1500)
define file name=cut,path=$TMP/trunc,size=64k,prealloc
define file name=grow,path=$TMP/trunc,size=1k,prealloc
define file name=rnd,path=$TMP/trunc,size=8k,prealloc
define process name=p { thread name=t {
  flowop truncatefile name=cut,filesetname=cut,fd=1,iosize=5000
  flowop truncatefile name=grow,filesetname=grow,fd=2,iosize=1m
  flowop truncatefile name=rnd,filesetname=rnd,fd=3,iosize=\$sz
  flowop finishoncount name=fin,target=cut,value=50 } }
run 10
F
fb trunc
ran trunc
check "truncatefile: cuts the file to iosize" \
	test "$(size "$(onefile "$TMP/trunc" cut)")" -eq 5000
check "truncatefile: extends the file to iosize" \
	test "$(size "$(onefile "$TMP/trunc" grow)")" -eq 1048576
s=$(size "$(onefile "$TMP/trunc" rnd)")
check "truncatefile: a random iosize gives a size in its range ($s)" \
	test "$s" -ge 1000 -a "$s" -le 2000
jcheck "truncatefile: each op counted, no bytes, no errors" trunc \
	"ops('cut') == ops('grow') == ops('rnd') == 50 and nbytes('cut') + nbytes('grow') + nbytes('rnd') == 0 and errors == 0"
# a read-only file cannot be cut: counted against the flowop with its errno
sed 's/size=64k,prealloc/size=64k,prealloc,readonly/' "$TMP/trunc.f" >"$TMP/truncro.f"
fb truncro
check "truncatefile on a read-only file: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "truncatefile on a read-only file: the error names the flowop and the call" \
	"flowop cut failed: .*truncate" "$TMP/truncro.err"
rm -rf "$TMP/trunc"

# --- mmapread, mmapwrite: copies to and from a shared mapping --------------
cat >"$TMP/mmap.f" <<F
set mode quit firstdone
define file name=odd,path=$TMP/mmap,size=20k,prealloc
define file name=rnd,path=$TMP/mmap,size=64k,prealloc
define file name=half,path=$TMP/mmap,size=64k,prealloc
define file name=empty,path=$TMP/mmap,size=0,prealloc
define process name=p { thread name=t {
  flowop mmapread name=sq,filesetname=odd,fd=1,iosize=8k
  flowop mmapread name=rnd,filesetname=rnd,fd=2,iosize=4k,random,workingset=16k
  flowop mmapwrite name=mw,filesetname=half,fd=3,iosize=4k,data=zeros
  flowop mmapread name=none,filesetname=empty,fd=4,iosize=4k
  flowop finishoncount name=fin,target=sq,value=8 } }
run 10
F
fb mmap
ran mmap
# 20k in 8k chunks: 8k, 8k, a short 4k, then from the start again
jcheck "sequential mmapread: short last chunk, wraps (8 ops = 56k)" mmap \
	"ops('sq') == 8 and nbytes('sq') == 57344 and errors == 0"
jcheck "random mmapread: bytes = ops x iosize" mmap \
	"ops('rnd') == 8 and nbytes('rnd') == 8 * 4096"
jcheck "mmapread of an empty file: ops of 0 bytes" mmap \
	"ops('none') == 8 and nbytes('none') == 0"
jcheck "mmapwrite: counted as written, 8 x 4k" mmap \
	"ops('mw') == 8 and nbytes('mw') == 8 * 4096"
h=$(onefile "$TMP/mmap" half)
check "mmapwrite: the first 32k of the file are its zeros" \
	test "$(head -c 32768 "$h" | tr -d '\000' | wc -c)" -eq 0
check "mmapwrite: the rest is the preallocated data, the size unchanged" \
	test "$(tail -c 32768 "$h" | tr -d '\000' | wc -c)" -gt 0 -a "$(size "$h")" -eq 65536
check "mmapread leaves the files as they were" \
	test "$(size "$(onefile "$TMP/mmap" odd)")" -eq 20480
rm -rf "$TMP/mmap"

# a file closed and another opened in the fd: mapped anew, its own size
cat >"$TMP/mmapre.f" <<F
set mode quit firstdone
define file name=big,path=$TMP/mmapre,size=64k,prealloc
define file name=small,path=$TMP/mmapre,size=4k,prealloc
define process name=p { thread name=t {
  flowop openfile name=o1,filesetname=big,fd=1
  flowop mmapread name=r1,fd=1,iosize=64k
  flowop closefile name=c1,fd=1
  flowop openfile name=o2,filesetname=small,fd=1
  flowop mmapread name=r2,fd=1,iosize=64k
  flowop closefile name=c2,fd=1
  flowop finishoncount name=fin,target=c2,value=3 } }
run 10
F
fb mmapre
ran mmapre
jcheck "mmapread after closefile and openfile maps the new file (64k, then 4k)" mmapre \
	"ops('r1') == ops('r2') == 3 and nbytes('r1') == 3 * 65536 and nbytes('r2') == 3 * 4096"
rm -rf "$TMP/mmapre"

# mmapwrite does not extend: a file smaller than iosize is an error
cat >"$TMP/mmapsmall.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/mmapsmall,size=4k,prealloc
define process name=p { thread name=t {
  flowop mmapwrite name=mw,filesetname=f,fd=1,iosize=8k
  flowop finishoncount name=fin,target=mw,value=2 } }
run 10
F
fb mmapsmall
check "mmapwrite to a file smaller than iosize: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "mmapwrite to a file smaller than iosize: the error says why" \
	"flowop mw failed: .*fewer than iosize 8192 \(mmapwrite does not extend a file\)" \
	"$TMP/mmapsmall.err"
check "mmapwrite to a file smaller than iosize leaves its size" \
	test "$(size "$(onefile "$TMP/mmapsmall" f)")" -eq 4096
rm -rf "$TMP/mmapsmall"

# the file cut under its mapping: SIGBUS is caught and counted, no crash
cat >"$TMP/mmapbus.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/mmapbus,size=64k,prealloc
define process name=p { thread name=t {
  flowop mmapread name=mr,filesetname=f,fd=1,iosize=8k
  flowop truncatefile name=cut,fd=1,iosize=1
  flowop finishoncount name=fin,target=mr,value=4 } }
run 10
F
fb mmapbus
check "mmapread past the end of a cut file: exit 1, not a crash (exit $rc)" \
	test "$rc" -eq 1
grepq "mmapread past the end of a cut file: the error names SIGBUS" \
	"flowop mr failed: .*SIGBUS: the file was cut shorter than its mapping" \
	"$TMP/mmapbus.err"
jcheck "mmapread past the end of a cut file: the first op counted, the second an error" mmapbus \
	"ops('mr') == 1 and op('mr')['errors'] == 1"
rm -rf "$TMP/mmapbus"

# fsync of an fd with a writable mapping: msync(MS_SYNC), then fsync
cat >"$TMP/mmapsync.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/mmapsync,size=64k,prealloc
define process name=p { thread name=t {
  flowop mmapwrite name=mw,filesetname=f,fd=1,iosize=4k
  flowop fsync name=fs,fd=1
  flowop finishoncount name=fin,target=fs,value=3 } }
run 10
F
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	rc=0
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=msync,fsync -o "$TMP/mmapsync.st" \
		"$FBRUN" -q "$TMP/mmapsync.f" >/dev/null 2>"$TMP/mmapsync.err" || rc=$?
	[ "$rc" -eq 0 ] || diag <"$TMP/mmapsync.err"
	got=$(awk '/msync\(.*MS_SYNC/ { m++; last = "m" }
		/[^m]fsync\(/ { if (last == "m") p++; last = "f" }
		END { print m + 0, p + 0 }' "$TMP/mmapsync.st")
	check "fsync after mmapwrite: each of 3 is an msync(MS_SYNC), then the fsync ($got)" \
		test "$got" = "3 3"
else
	skip "fsync after mmapwrite msyncs first: strace cannot run"
fi
rm -rf "$TMP/mmapsync"

# a file system for the errors the one under $TMP does not give: ramfs
# has neither fallocate nor user xattrs.  Sets $ramfs, or $why_not.
ramfs=""
if ! $is_root; then
	why_not="needs root to mount a ramfs"
elif ! mkdir -p "$TMP/ramfs" ||
	! mount -t ramfs fbrun-test "$TMP/ramfs" 2>"$TMP/merr"; then
	why_not="cannot mount a ramfs here: $(head -1 "$TMP/merr")"
else
	ramfs=$TMP/ramfs
	mounts="$ramfs $mounts"
fi

# --- fallocatefile: space allocated at the end or in the working set -------
cat >"$TMP/falloc.f" <<F
set mode quit firstdone
define file name=grow,path=$TMP/falloc,size=4k,prealloc
define file name=rnd,path=$TMP/falloc,size=0,prealloc
define process name=p { thread name=t {
  flowop fallocatefile name=grow,filesetname=grow,fd=1,iosize=8k
  flowop fallocatefile name=rnd,filesetname=rnd,fd=2,iosize=16k,random,workingset=64k
  flowop finishoncount name=fin,target=grow,value=40 } }
run 10
F
fb falloc
ran falloc
f=$(onefile "$TMP/falloc" grow)
check "fallocatefile: each op adds iosize at the end ($(size "$f"))" \
	test "$(size "$f")" -eq $((4096 + 40 * 8192))
check "fallocatefile: the space is allocated, not a hole" \
	test "$(($(stat -c '%b * %B' "$f")))" -ge $((4096 + 40 * 8192))
f=$(onefile "$TMP/falloc" rnd)
check "fallocatefile random: the working set allocated, never beyond ($(size "$f"))" \
	test "$(size "$f")" -eq 65536
jcheck "fallocatefile: ops counted, no bytes (nothing written), no errors" falloc \
	"ops('grow') == ops('rnd') == 40 and nbytes('grow') + nbytes('rnd') == 0 and errors == 0"
sed 's/size=4k,prealloc/size=4k,prealloc,readonly/' "$TMP/falloc.f" >"$TMP/fallocro.f"
fb fallocro
check "fallocatefile on a read-only file: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "fallocatefile on a read-only file: the error names the flowop and the call" \
	"flowop grow failed: cannot fallocate .*Bad file descriptor" "$TMP/fallocro.err"
rm -rf "$TMP/falloc"

# --- setxattr / getxattr: user.fbrun, iosize bytes ---------------------------
cat >"$TMP/xattr.f" <<F
set mode quit firstdone
define file name=x,path=$TMP/xattr,size=1k,prealloc
define process name=p { thread name=t {
  flowop setxattr name=set,filesetname=x,fd=1,iosize=1000
  flowop getxattr name=get,filesetname=x,fd=1,iosize=4k
  flowop finishoncount name=fin,target=set,value=30 } }
run 10
F
mkdir -p "$TMP/xprobe"
: >"$TMP/xprobe/f"
if ! $have_python; then
	skip "setxattr/getxattr: needs python3 to read xattrs"
elif ! python3 -c "import os, sys; os.setxattr(sys.argv[1], 'user.fbrun', b'x')" \
	"$TMP/xprobe/f" 2>"$TMP/xerr"; then
	skip "setxattr/getxattr: $TMP refuses user xattrs: $(tail -1 "$TMP/xerr")"
else
	fb xattr
	ran xattr
	n=$(python3 -c "import os, sys; print(len(os.getxattr(sys.argv[1], 'user.fbrun')))" \
		"$(onefile "$TMP/xattr" x)" 2>&1 || :)
	check "setxattr: the file holds user.fbrun of iosize bytes ($n)" test "$n" = 1000
	jcheck "setxattr/getxattr: bytes = ops x the value's size, no errors" xattr \
		"ops('set') == ops('get') == 30 and nbytes('set') == nbytes('get') == 30 * 1000 and errors == 0"
	jcheck "setxattr/getxattr: their bytes in the IO Summary, neither reads nor writes" xattr \
		"r['summary']['bytes'] == 60 * 1000 and r['summary']['reads_per_sec'] == r['summary']['writes_per_sec'] == 0"
	# a file without the attribute: ENODATA counted against getxattr
	sed '/flowop setxattr/d; s/target=set/target=get/' "$TMP/xattr.f" >"$TMP/noxattr.f"
	fb noxattr
	check "getxattr without the attribute: exit 1 (exit $rc)" test "$rc" -eq 1
	jcheck "getxattr without the attribute: one error, ENODATA, no op" noxattr \
		"ops('get') == 0 and [(e['errno'], e['count']) for e in op('get')['errnos']] == [(61, 1)]"
fi
rm -rf "$TMP/xattr" "$TMP/xprobe"

# --- where the file system has neither: EOPNOTSUPP counted -----------------
if [ -z "$ramfs" ]; then
	skip "fallocatefile, setxattr on ramfs: $why_not"
else
	for op in fallocatefile setxattr; do
		cat >"$TMP/nosup.f" <<F
define file name=f,path=$ramfs,size=0,prealloc
define process name=p { thread name=t {
  flowop $op name=op,filesetname=f,fd=1,iosize=1k } }
run 5
F
		fb nosup
		check "$op where the file system has none: exit 1 (exit $rc)" test "$rc" -eq 1
		jcheck "$op where the file system has none: EOPNOTSUPP counted" nosup \
			"[(e['errno'], e['count']) for e in op('op')['errnos']] == [(95, 1)]"
		rm -rf "${ramfs:?}"/f
	done
fi

# --- linkfile: every free name gets a link to an existing file -------------
cat >"$TMP/link.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/link,entries=20,dirwidth=4,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop linkfile name=lnk,filesetname=set } }
run 10
F
fb link
ran link
check "linkfile: 20 names on disk, for the 10 files there were" \
	test "$(files "$TMP/link/set"):$(find "$TMP/link/set" -type f ! -name .fbrun-fileset -printf '%i\n' | sort -u | wc -l | tr -d ' ')" = "20:10"
jcheck "linkfile: one op per free name, then none left; no bytes, no errors" link \
	"ops('lnk') == 10 and nbytes('lnk') == 0 and errors == 0"
jcheck "linkfile: the thread ends when no name is free" link \
	"'found no free name to link' in r.get('note', '')"
rm -rf "$TMP/link"

# --- renamefile: the exists-state moves with the name ----------------------
# 10 of 20 exist; each pass renames one and deletes one: were the old name
# still taken as existing, a delete would find it gone (ENOENT)
cat >"$TMP/ren.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/ren,entries=20,dirwidth=4,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop renamefile name=ren,filesetname=set
  flowop deletefile name=del,filesetname=set } }
run 10
F
fb ren
ran ren
jcheck "renamefile: 10 renames and 10 deletes, no errors, no bytes" ren \
	"ops('ren') == 10 and ops('del') == 10 and errors == 0 and nbytes('ren') == 0"
check "renamefile: no file left" test "$(files "$TMP/ren/set")" -eq 0
cat >"$TMP/ren2.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/ren2,entries=20,dirwidth=4,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop renamefile name=ren,filesetname=set
  flowop finishoncount name=fin,target=ren,value=25 } }
run 10
F
fb ren2
ran ren2
check "renamefile: 25 renames keep 10 files of their size" \
	test "$(files "$TMP/ren2/set"):$(sized "$TMP/ren2/set" 1024)" = "10:10"
rm -rf "$TMP/ren" "$TMP/ren2"

# --- symlinkfile: relative links inside the root, never opened through -----
cat >"$TMP/sym.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/sym,entries=20,dirwidth=3,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop symlinkfile name=sym,filesetname=set } }
run 10
F
fb sym
ran sym
root=$TMP/sym/set
check "symlinkfile: 10 links beside the 10 files" \
	test "$(find "$root" -type l | wc -l | tr -d ' '):$(files "$root")" = "10:10"
bad=$(find "$root" -type l | while read -r l; do
	t=$(readlink "$l")
	r=$(realpath -e "$l" 2>/dev/null || echo none)
	case $t:$r in
	/*) echo "$l -> $t" ;;
	*:"$root"/*) [ -f "$r" ] && [ ! -L "$r" ] || echo "$l -> $t" ;;
	*) echo "$l -> $t" ;;
	esac
done)
check "symlinkfile: each target is relative and a file inside the root ($bad)" test -z "$bad"
jcheck "symlinkfile: one op per free name, no bytes, no errors" sym \
	"ops('sym') == 10 and nbytes('sym') == 0 and errors == 0"
# the links exist: stat (the link itself), rename and delete them; a run
# without --keep removes them with the tree
cat >"$TMP/symuse.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/symuse,entries=20,dirwidth=3,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop symlinkfile name=sym,filesetname=set,iters=10
  flowop statfile name=st,filesetname=set,iters=20
  flowop deletefile name=del,filesetname=set,iters=20 } }
run 10
F
run_fbrun -q -o "$TMP/symuse.json" "$TMP/symuse.f"
check "symlinkfile, statfile, deletefile: exits 0 (exit $rc)" test "$rc" -eq 0
jcheck "statfile and deletefile take links as files: 20 each, no errors" symuse \
	"ops('sym') == 10 and ops('st') == 20 and ops('del') == 20 and errors == 0"
cat >"$TMP/symgone.f" <<F
define fileset name=set,path=$TMP/symgone,entries=20,dirwidth=3,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop symlinkfile name=sym,filesetname=set
  flowop linkfile name=lnk,filesetname=set
  flowop renamefile name=ren,filesetname=set } }
run 1
F
run_fbrun -q "$TMP/symgone.f"
check "the links and renamed files are removed with the tree (exit $rc)" \
	test "$rc" -eq 0 -a ! -e "$TMP/symgone"
# reuse: the links a run left at names the next one preallocates (all of
# them: prealloc=100) become files of their own (a symlink is not
# followed, a hard link not shared)
cat >"$TMP/relink.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/relink,entries=40,dirwidth=3,size=1k,prealloc=50,reuse
define process name=p { thread name=t {
  flowop symlinkfile name=sym,filesetname=set
  flowop linkfile name=lnk,filesetname=set } }
run 10
F
run_fbrun -q "$TMP/relink.f"
check "reuse: a run leaves links in the tree (exit $rc)" \
	test "$rc" -eq 0 -a -n "$(find "$TMP/relink" -type l)" -a \
	-n "$(find "$TMP/relink" -type f -links +1)"
sed 's/prealloc=50/prealloc=100/; s/flowop symlinkfile name=sym.*/flowop statfile name=st,filesetname=set/; s/flowop linkfile name=lnk.*/flowop finishoncount name=fin,target=st,value=5 } }/' \
	"$TMP/relink.f" >"$TMP/relink2.f"
run_fbrun -q "$TMP/relink2.f"
check "reuse: the next run replaces them with 40 files of their own, 1k each (exit $rc)" \
	test "$rc:$(find "$TMP/relink" -type l | wc -l | tr -d ' '):$(find "$TMP/relink" -type f -links +1 | wc -l | tr -d ' '):$(sized "$TMP/relink/set" 1024)" = "0:0:0:40"
rm -rf "$TMP/relink"
# opening a link: ELOOP, counted (fbrun follows no symlink in a fileset)
cat >"$TMP/symopen.f" <<F
define fileset name=set,path=$TMP/symopen,entries=2,dirwidth=2,size=1k,prealloc=50
define process name=p { thread name=t {
  flowop symlinkfile name=sym,filesetname=set
  flowop openfile name=o1,filesetname=set,fd=1
  flowop openfile name=o2,filesetname=set,fd=2 } }
run 5
F
fb symopen
check "opening a symlinkfile link: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "opening a symlinkfile link: refused, not followed" \
	"flowop o[12] failed: cannot open .*not followed.*Too many levels of symbolic links" "$TMP/symopen.err"
rm -rf "$TMP/sym" "$TMP/symopen"

# four threads renaming, linking, symlinking, deleting and creating in one
# small fileset: each pair of entries is held by one thread at a time, so
# no call meets a name another thread moved (ENOENT, EEXIST), and a run
# that stops while one waits for a pair does nothing more
cat >"$TMP/names4.f" <<F
define fileset name=set,path=$TMP/names4,entries=40,dirwidth=4,size=1k,prealloc=50
define process name=p { thread name=t,instances=4 {
  flowop renamefile name=ren,filesetname=set
  flowop linkfile name=lnk,filesetname=set
  flowop symlinkfile name=sym,filesetname=set
  flowop statfile name=st,filesetname=set
  flowop deletefile name=del,filesetname=set
  flowop deletefile name=del2,filesetname=set
  flowop deletefile name=del3,filesetname=set
  flowop createfile name=cr,filesetname=set,fd=1
  flowop closefile name=cl,fd=1 } }
run 1
F
fb names4
ran names4
jcheck "names in four threads: every op done, none failed" names4 \
	"ops('ren') > 0 and ops('sym') > 0 and errors == 0"
rm -rf "$TMP/names4"

# --- delay, eventlimit, bwlimit: 3 s ----------------------------------------
cat >"$TMP/rate.f" <<F
eventgen rate=20
define file name=f,path=$TMP/rate,size=1m,prealloc
define process name=p {
  thread name=bw { flowop write name=w,filesetname=f,iosize=64k,random
                   flowop bwlimit name=bwl }
  thread name=ev { flowop eventlimit name=evl }
  thread name=nap { flowop delay name=d,value=1 }
}
run 3
F
fb rate
ran rate
# A limiter may fall behind its rate on a loaded machine, never ahead of
# it: the bounds above are tight, those below loose.
jcheck "delay value=1 in a 3 s run: 1 to 3 delays" rate "1 <= ops('d') <= 3"
jcheck "bwlimit with rate=20 holds writes to at most 20 MiB/s (+10%), at least half" rate \
	"10 <= nbytes('w') / secs / 1048576 <= 22"
jcheck "eventlimit with rate=20 passes at most 20 per second (+10%), at least half" rate \
	"10 <= ops('evl') / secs <= 22"
jcheck "eventlimit never passes more events than were generated" rate \
	"ops('evl') <= 20 * secs + 0.01"

# --- iopslimit counts reads and writes; opslimit every I/O operation ------
cat >"$TMP/iops.f" <<F
eventgen rate=100
define file name=f,path=$TMP/iops,size=64k,prealloc
define process name=p { thread name=t {
  flowop read name=r,filesetname=f,iosize=4k,random
  flowop statfile name=s,filesetname=f
  flowop iopslimit name=lim } }
run 2
F
fb iops
ran iops
jcheck "iopslimit rate=100: at most 100 reads/s (+10%), at least half; statfile is not counted" iops \
	"50 <= ops('r') / secs <= 110 and abs(ops('s') - ops('r')) <= 1"
sed 's/iopslimit/opslimit/' "$TMP/iops.f" >"$TMP/ops.f"
fb ops
ran ops
jcheck "opslimit rate=100: reads + stats at most 100/s (+10%), at least half" ops \
	"50 <= (ops('r') + ops('s')) / secs <= 110"

# --- finishoncount, finishonbytes --------------------------------------------
cat >"$TMP/count.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/count,size=4k,prealloc
define process name=p { thread name=t {
  flowop statfile name=s,filesetname=f
  flowop finishoncount name=fin,target=s,value=500 } }
run 30
F
fb count
ran count
jcheck "finishoncount value=500 firstdone: the target did exactly 500" count \
	"ops('s') == 500 and r['ended_by'] == 'done'"
grep -q '^IO Summary:' "$TMP/count.out" && pass "finishoncount firstdone prints the results" ||
	fail "finishoncount firstdone prints the results"
sed '/set mode/d' "$TMP/count.f" >"$TMP/count2.f"
fb count2
ran count2
jcheck "finishoncount in timeout mode ends the run too, the target did 500" count2 \
	"ops('s') == 500 and secs < 30"
# its work done is a normal end: a log line, not a warning
grep -q '^IO Summary:' "$TMP/count2.out" && ! grep -q "warning" "$TMP/count2.err" &&
	pass "finishoncount in timeout mode prints the results, and no warning" ||
	fail "finishoncount in timeout mode prints the results, and no warning"
run_fbrun "$TMP/count2.f"
grepq "... and says the run is done, and why" \
	"^[0-9.]+: Run done after [0-9.]+ s: flowop fin: 500 operations done$" "$TMP/out"
cat >"$TMP/count3.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/count,size=4k,prealloc
define process name=p { thread name=t {
  flowop statfile name=s,filesetname=f
  flowop statfile name=s2,filesetname=f
  flowop finishoncount name=fin,value=101 } }
run 30
F
fb count3
ran count3
jcheck "finishoncount without target counts every I/O op: 51 passes of 2 reach 101" count3 \
	"ops('s') + ops('s2') == 102"

cat >"$TMP/bytes.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/bytes,size=0,prealloc
define process name=p { thread name=t {
  flowop write name=w,filesetname=f,iosize=4k
  flowop finishonbytes name=fin,target=w,value=40k } }
run 30
F
fb bytes
ran bytes
jcheck "finishonbytes value=40k: the run stops once 40k are written, not one write later" bytes \
	"nbytes('w') == 40960 and r['ended_by'] == 'done'"
check "and the file holds them" test "$(size "$(onefile "$TMP/bytes" f)")" -eq 40960
sed '/set mode/d' "$TMP/bytes.f" >"$TMP/bytes2.f"
fb bytes2
ran bytes2
jcheck "finishonbytes in timeout mode ends the run with results" bytes2 \
	"nbytes('w') == 40960"

# --- block/wakeup, semblock/sempost ----------------------------------------
# the three eventlimits share the 150 events a second: 50/s each
cat >"$TMP/sync.f" <<F
eventgen rate=150
define process name=p {
  thread name=a { flowop block name=blk }
  thread name=b { flowop eventlimit name=ev
                  flowop wakeup name=wk,target=blk }
  thread name=c { flowop semblock name=sb,value=2 }
  thread name=d { flowop eventlimit name=ev2
                  flowop sempost name=sp,target=sb,value=1 }
  thread name=e { flowop eventlimit name=ev3
                  flowop semblock name=sb2,value=1,highwater=4 }
  thread name=f { flowop sempost name=sp2,target=sb2,value=1,blocking }
}
run 2
F
fb sync
ran sync
# a wakeup wakes the block if it is waiting: two events passed back to back
# may find it still on its way back (how many depends on the machine's
# load), so some can be missed, never added
jcheck "block returns once per wakeup at most (blocks <= wakeups, some may be missed)" sync \
	"ops('wk') > 10 and 0 < ops('blk') <= ops('wk')"
jcheck "semblock value=2 takes no more units than sempost value=1 posted" sync \
	"ops('sb') > 10 and 2 * ops('sb') <= ops('sp') <= 2 * ops('sb') + 3"
jcheck "blocking sempost, slow taker: posted - taken stays within highwater + value" sync \
	"ops('sb2') > 10 and 0 <= ops('sp2') - ops('sb2') <= 5"

# --- aiowrite, aiowait -------------------------------------------------------
cat >"$TMP/aio.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/aio,entries=6,dirwidth=10,size=0,prealloc
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=set,fd=1
  flowop aiowrite name=aw,fd=1,iosize=4k,iters=4
  flowop aiowait name=wait
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=close,value=6 } }
run 30
F
fb aio
ran aio
n=$(tree_bytes "$TMP/aio/set")
jcheck "aiowrite+aiowait: the files grew by exactly the bytes written ($n)" aio \
	"ops('aw') == 24 and ops('wait') == 6 and nbytes('aw') == $n == 24 * 4096"
check "sequential aiowrite writes each opened file from its start (6 x 16k)" \
	test "$(sized "$TMP/aio/set" 16384)" -eq 6

# closefile right after aiowrite, no aiowait: the writes still land
cat >"$TMP/aioclose.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/aioclose,entries=6,dirwidth=10,size=0,prealloc
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=set,fd=1
  flowop aiowrite name=aw,fd=1,iosize=64k,iters=16
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=close,value=6 } }
run 30
F
fb aioclose
ran aioclose
n=$(tree_bytes "$TMP/aioclose/set")
jcheck "aiowrites outstanding at closefile all land in their file ($n)" aioclose \
	"ops('aw') == 96 and nbytes('aw') == $n and errors == 0"

# the run ends with 200 writes outstanding: they all land
cat >"$TMP/aioend.f" <<F
set mode quit firstdone
define file name=big,path=$TMP/aioend,size=0,prealloc
define process name=p { thread name=t {
  flowop aiowrite name=aw,filesetname=big,iosize=64k,iters=200
  flowop finishoncount name=fin,target=aw,value=200 } }
run 30
F
fb aioend
ran aioend
s=$(size "$(onefile "$TMP/aioend" big)")
jcheck "aiowrites outstanding at the end of the run all land ($s)" aioend \
	"ops('aw') == 200 and nbytes('aw') == $s == 200 * 65536"

# --- aioread, iodepth ------------------------------------------------------
cat >"$TMP/aior.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/aior,entries=6,dirwidth=10,size=16k,prealloc
define file name=odd,path=$TMP/aior,size=20k,prealloc
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=set,fd=1
  flowop aioread name=ar,fd=1,iosize=4k,iters=4
  flowop aioread name=odd,filesetname=odd,fd=2,iosize=8k,iters=3,iodepth=2
  flowop aiowait name=wait
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=close,value=6 } }
run 30
F
fb aior
ran aior
n=$(tree_bytes "$TMP/aior/set")
jcheck "aioread+aiowait: each file read once, exactly its bytes ($n)" aior \
	"ops('ar') == 24 and nbytes('ar') == $n == 6 * 16384 and ops('wait') == 6 and errors == 0"
# 20k in 8k requests: 8k, 8k and a short 4k, then from the start again
jcheck "sequential aioread: a short last request, then wraps (6 x 20k)" aior \
	"ops('odd') == 18 and nbytes('odd') == 6 * 20480"
jcheck "aioread: each request has its latency in the histogram" aior \
	"sum(b['count'] for b in op('ar')['histogram']) == ops('ar') > 0"
check "aioread leaves the files as they were" test "$(sized "$TMP/aior/set" 16384)" -eq 6
rm -rf "$TMP/aior"

# the position sequential aio requests move is the descriptor's: a write
# or read between them starts where they ended, and they go on after it
cat >"$TMP/aiopos.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/aiopos,entries=4,dirwidth=10,size=0,prealloc
define file name=r,path=$TMP/aiopos,size=16k,prealloc
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=set,fd=1
  flowop aiowrite name=aw,fd=1,iosize=4k,iters=3
  flowop write name=w,fd=1,iosize=4k
  flowop aiowrite name=aw2,fd=1,iosize=4k
  flowop aiowait name=wait
  flowop closefile name=close,fd=1
  flowop openfile name=openr,filesetname=r,fd=2
  flowop aioread name=ar,fd=2,iosize=4k,iters=2
  flowop read name=rd,fd=2,iosize=8k
  flowop read name=eof,fd=2,iosize=4k
  flowop aiowait name=waitr
  flowop closefile name=closer,fd=2
  flowop finishoncount name=fin,target=close,value=4 } }
run 30
F
fb aiopos
ran aiopos
check "a write after three sequential aiowrites lands at 12k, the next aiowrite at 16k (4 x 20k)" \
	test "$(sized "$TMP/aiopos/set" 20480)" -eq 4
jcheck "a read after two sequential aioreads of 4k reads the file's last 8k, the next one its end" aiopos \
	"nbytes('rd') == 4 * 8192 and nbytes('eof') == 0 and ops('eof') == 4 and errors == 0"
rm -rf "$TMP/aiopos"

# sequential read, write and rewrite go on from the position the slot
# keeps from the open; a flowop that uses the descriptor's own position
# (readbytes, writebytes) starts where they left it, and they go on after
cat >"$TMP/keptpos.f" <<F
set mode quit firstdone
define fileset name=w,path=$TMP/keptpos,entries=3,dirwidth=10,size=0,prealloc
define file name=r,path=$TMP/keptpos,size=16k,prealloc
define process name=p { thread name=t {
  flowop openfile name=openw,filesetname=w,fd=1
  flowop write name=w1,fd=1,iosize=4k,iters=2
  flowop writebytes name=wb,fd=1,iosize=4k
  flowop write name=w2,fd=1,iosize=4k
  flowop fsync name=sync,fd=1
  flowop closefile name=closew,fd=1
  flowop openfile name=openr,filesetname=r,fd=2
  flowop read name=r1,fd=2,iosize=4k
  flowop rewrite name=rw,fd=2,iosize=4k
  flowop readbytes name=rb,fd=2,iosize=4k
  flowop read name=r2,fd=2,iosize=8k
  flowop read name=r3,fd=2,iosize=4k
  flowop closefile name=closer,fd=2
  flowop finishoncount name=fin,target=closew,value=3 } }
run 30
F
fb keptpos
ran keptpos
check "write x2, writebytes, write: 16k in each file (3 x 16k)" \
	test "$(sized "$TMP/keptpos/w" 16384)" -eq 3
jcheck "read, rewrite, readbytes of 4k each, then a read of 8k finds the last 4k and the next one the end" keptpos \
	"nbytes('r2') == 3 * 4096 and nbytes('r3') == 0 and ops('r3') == 3 and nbytes('rw') == 3 * 4096 and errors == 0"
rm -rf "$TMP/keptpos"

# iodepth: a full queue waits for one completion, which is one op: exact
# (the queue is the thread's: the reads and the writes each have their own)
cat >"$TMP/iodepth.f" <<F
set mode quit alldone
define file name=f,path=$TMP/iodepth,size=64k,prealloc
define file name=g,path=$TMP/iodepth,size=64k,prealloc
define process name=p {
  thread name=r {
    flowop aioread name=ar,filesetname=f,fd=1,iosize=4k,iodepth=8
    flowop finishoncount name=fin,target=ar,value=1000 }
  thread name=w {
    flowop aiowrite name=aw,filesetname=g,fd=1,iosize=4k,iodepth=4,random
    flowop finishoncount name=finw,target=aw,value=1000 } }
run 30
F
fb iodepth
ran iodepth
jcheck "aioread iodepth=8 with finishoncount 1000: exactly 1000 reads of 4k" iodepth \
	"ops('ar') == 1000 and nbytes('ar') == 1000 * 4096 and errors == 0"
jcheck "aiowrite iodepth=4 with finishoncount 1000: exactly 1000 writes of 4k" iodepth \
	"ops('aw') == 1000 and nbytes('aw') == 1000 * 4096"
# the first iodepth passes fill the queue and record nothing
jcheck "iodepth=8 and 4: the loops ran 1000 + 8 and 1000 + 4 times" iodepth \
	"ops('fin') == 1008 and ops('finw') == 1004"
check "random aiowrite with iodepth stays within the file" \
	test "$(size "$(onefile "$TMP/iodepth" g)")" -eq 65536
# the ring's setup flags: the JSON says those of the rings the run made,
# as --version does; a kernel from 6.1 on takes all three
"$FBRUN" --version | sed -n 's/^aio: //p' >"$TMP/aio-version"
jcheck "the JSON's build.features.aio is --version's aio line" iodepth \
	"r['build']['features']['aio'] == open('$TMP/aio-version').read().strip()"
kv=$(uname -r | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
if grep -q '^io_uring' "$TMP/aio-version" && [ -n "$kv" ] &&
	[ "$(echo "$kv" | awk '{ print ($1 > 6 || ($1 == 6 && $2 >= 1)) }')" = 1 ]; then
	grepq "kernel $(uname -r): the rings defer their completions' work to the one thread that submits" \
		'defer taskrun, single issuer, coop taskrun' "$TMP/aio-version"
else
	skip "the ring's deferred completions: needs io_uring and a kernel from 6.1 on (here $(uname -r), $(cat "$TMP/aio-version"))"
fi
rm -rf "$TMP/iodepth"

# a request that fails counts against its flowop with its errno
cat >"$TMP/aiorbad.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/aiorbad,size=64k,prealloc,writeonly
define process name=p { thread name=t {
  flowop aioread name=ar,filesetname=f,fd=1,iosize=4k,iodepth=4
  flowop finishoncount name=fin,target=ar,value=100 } }
run 10
F
fb aiorbad
check "aioread of a write-only file: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "aioread of a write-only file: the error names the read and its errno" \
	"flowop ar failed: .*asynchronous read.*: Bad file descriptor" "$TMP/aiorbad.err"
jcheck "aioread of a write-only file: counted as errors, no op" aiorbad \
	"op('ar')['errors'] >= 1 and ops('ar') == 0"
rm -rf "$TMP/aiorbad"

# --- print ------------------------------------------------------------------
cat >"$TMP/print.f" <<F
set mode quit firstdone
set \$who = "world"
define process name=p { thread name=t {
  flowop print name=say,value="hello \$who"
  flowop print name=num,value=42
  flowop finishoncount name=fin,target=say,value=3 } }
run 10
F
fb print
ran print
check "print prints its text, once per op" \
	test "$(grep -c '^hello world$' "$TMP/print.out")" -eq 3
check "print prints a number" test "$(grep -c '^42$' "$TMP/print.out")" -eq 3
jcheck "print ops = lines printed" print "ops('say') == 3 and ops('num') == 3"

# --- testrandvar --------------------------------------------------------------
cat >"$TMP/rv.f" <<F
set mode quit firstdone
set \$u = randvar(type=uniform, min=200, mean=1000)
set \$g = randvar(type=gamma, mean=5000, gamma=1500)
set \$t = randvar(type=tabular, randtable={{50, 100, 200}, {50, 1000, 2000}})
define process name=p { thread name=t {
  flowop testrandvar name=tu,value=\$u
  flowop testrandvar name=tg,value=\$g
  flowop testrandvar name=tt,value=\$t
  flowop finishoncount name=fin,target=tu,value=200000 } }
run 30
F
fb rv
ran rv
jcheck "testrandvar uniform mean=1000: bytes/ops within 10%" rv \
	"ops('tu') == 200000 and within(nbytes('tu') / ops('tu'), 1000, 0.10)"
jcheck "testrandvar gamma mean=5000: bytes/ops within 10%" rv \
	"within(nbytes('tg') / ops('tg'), 5000, 0.10)"
jcheck "testrandvar tabular (mean 825): bytes/ops within 10%" rv \
	"within(nbytes('tt') / ops('tt'), 825, 0.10)"

# --- hog ----------------------------------------------------------------------
cat >"$TMP/hog.f" <<F
set mode quit firstdone
define process name=p { thread name=t {
  flowop hog name=h,value=100000
  flowop finishoncount name=fin,target=h,value=50 } }
run 30
F
fb hog
ran hog
jcheck "hog: 50 ops, no bytes, not I/O in the summary" hog \
	"ops('h') == 50 and nbytes('h') == 0 and r['summary']['ops'] == 0"

# --- indexed=, opennext ------------------------------------------------------
cat >"$TMP/index.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/index,entries=5,dirwidth=100,size=1k,prealloc
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=set,fd=1,indexed=7
  flowop appendfile name=app,fd=1,iosize=1k
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=close,value=100 } }
run 10
F
fb index
ran index
big=$(find "$TMP/index/set" -type f ! -name .fbrun-fileset -size +1024c) || :
check "indexed=7 of 5 files always opens entry 2, the third file" \
	test "$(basename "$big" 2>/dev/null)" = 00000003
check "it alone grew, by 100 appends" test "$(size "$big"):$(tree_bytes "$TMP/index/set")" = "103424:107520"

# one thread: openfile opennext walks its own rotor, while statfile moves
# the fileset's shared one: opennext visits every file in turn
cat >"$TMP/next.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/next,entries=4,dirwidth=100,size=1k,prealloc
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=set,fd=1,opennext
  flowop appendfile name=app,fd=1,iosize=1k
  flowop closefile name=close,fd=1
  flowop statfile name=stat,filesetname=set
  flowop finishoncount name=fin,target=close,value=100 } }
run 10
F
fb next
ran next
check "opennext: each of 4 files gets 25 of 100 appends" \
	test "$(sized "$TMP/next/set" 26624)" -eq 4
sed 's/,opennext//' "$TMP/next.f" >"$TMP/shared.f"
fb shared
ran shared
check "without opennext the rotor is shared with statfile: 2 files get 50 each" \
	test "$(sized "$TMP/next/set" 52224):$(sized "$TMP/next/set" 1024)" = "2:2"

# --- dsync, directio: the open flags, as strace sees the opens (or /proc) ----
if ! $have_python || [ ! -r /proc/self/fdinfo/0 ]; then
	skip "dsync/directio open flags: needs python3 and /proc"
else
	direct=true
	dd if=/dev/zero of="$TMP/odirect" bs=4096 count=1 oflag=direct 2>/dev/null ||
		direct=false
	cat >"$TMP/flags.f" <<F
define file name=sync,path=$TMP/flags,size=64k,prealloc
define file name=direct,path=$TMP/flags,size=64k,prealloc
define process name=p { thread name=t {
  flowop write name=ws,filesetname=sync,fd=1,iosize=4k,random,dsync
F
	$direct && echo "  flowop write name=wd,filesetname=direct,fd=2,iosize=4k,random,directio" >>"$TMP/flags.f"
	echo "  flowop finishoncount name=done,value=200 } }" >>"$TMP/flags.f"
	echo "run 60" >>"$TMP/flags.f"
	syncfl='' directfl=''
	if command -v strace >/dev/null 2>&1; then
		# the open calls themselves: each file's flags, whatever the pace
		rc=0
		# LeakSanitizer cannot run under ptrace (a sanitizer build)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -e trace=openat,openat2 -o "$TMP/flags.trace" \
			"$FBRUN" -q -o "$TMP/flags.json" "$TMP/flags.f" \
			>"$TMP/flags.out" 2>"$TMP/flags.err" || rc=$?
		# octal flags of the data files' opens (O_SYNC in one, O_DIRECT
		# in the other), from strace's names
		octal() {
			python3 -c 'import os, re, sys
fl = 0
for n in re.findall(r"O_[A-Z]+", sys.argv[1]):
    fl |= getattr(os, n, 0)
print(oct(fl)[2:])' "$1"
		}
		opens=$(grep -E 'openat2?\(.*O_RDWR\|O_NOCTTY' "$TMP/flags.trace" | grep -v ' = -1' || :)
		syncfl=$(octal "$(printf '%s\n' "$opens" | grep O_SYNC | head -1)")
		directfl=$(octal "$(printf '%s\n' "$opens" | grep O_DIRECT | head -1)")
	else
		# no strace: a run of 3 s, its descriptors looked at in /proc
		sed -i 's/  flowop finishoncount name=done,value=200 //; s/^run 60$/run 3/' "$TMP/flags.f"
		"$FBRUN" -q -o "$TMP/flags.json" "$TMP/flags.f" >"$TMP/flags.out" 2>"$TMP/flags.err" &
		pid=$!
		# look while it runs, however long a loaded machine takes to start
		i=0
		while [ $i -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
			i=$((i + 1))
			sleep 0.1
			# every thread's: each has a descriptor table of its own
			for fd in /proc/$pid/task/*/fd/*; do
				case $(readlink "$fd" 2>/dev/null) in
				"$TMP/flags/sync/"*) syncfl=$(awk '/^flags:/ { print $2 }' "${fd%/fd/*}/fdinfo/${fd##*/}" 2>/dev/null) ;;
				"$TMP/flags/direct/"*) directfl=$(awk '/^flags:/ { print $2 }' "${fd%/fd/*}/fdinfo/${fd##*/}" 2>/dev/null) ;;
				esac
			done
			[ -n "$syncfl" ] && { ! $direct || [ -n "$directfl" ]; } && break
		done
		rc=0
		wait "$pid" || rc=$?
	fi
	ran flags
	has() { python3 -c "import os, sys; f = int(sys.argv[1], 8); print(f & os.$2 == os.$2)" "${1:-0}"; }
	check "dsync opens with O_SYNC (flags $syncfl)" test "$(has "$syncfl" O_SYNC)" = True
	if $direct; then
		check "directio opens with O_DIRECT (flags $directfl)" test "$(has "$directfl" O_DIRECT)" = True
		check "and dsync without O_DIRECT, directio without O_SYNC" \
			test "$(has "$syncfl" O_DIRECT)$(has "$directfl" O_SYNC)" = FalseFalse
		jcheck "directio writes: bytes = ops x iosize, no errors" flags \
			"ops('wd') > 0 and nbytes('wd') == 4096 * ops('wd') and errors == 0"
	else
		skip "directio: O_DIRECT is not supported on ${TMPDIR:-/tmp}"
	fi
fi

# --- iters, composite flowops -------------------------------------------------
cat >"$TMP/iters.f" <<F
set mode quit firstdone
define file name=f,path=$TMP/iters,size=4k,prealloc
define process name=p { thread name=t {
  flowop statfile name=five,filesetname=f,iters=5
  flowop statfile name=one,filesetname=f
  flowop finishoncount name=fin,target=one,value=100 } }
run 10
F
fb iters
ran iters
jcheck "iters=5 runs the flowop 5 times per pass" iters "ops('one') == 100 and ops('five') == 500"

cat >"$TMP/comp.f" <<F
set mode quit firstdone
define fileset name=set,path=$TMP/comp,entries=100,dirwidth=100,size=1k,prealloc=0
define flowop name=mkfile, iters=3, \$sz=1k {
  flowop createfile name=cr,filesetname=set,fd=1
  flowop appendfile name=ap,fd=1,iosize=\$sz,iters=2
  flowop closefile name=cl,fd=1
}
define flowop name=say, iters=2, \$word=hi {
  flowop print name=a,value="A \$word"
  flowop print name=b,value="B \$word"
}
define process name=p { thread name=t {
  flowop mkfile name=big,\$sz=4k
  flowop say name=s1,\$word=one
  flowop say name=s2,iters=3
  flowop finishoncount name=fin,target=big,value=6 } }
run 10
F
fb comp
ran comp
jcheck "composite: iters=3 per pass, 2 passes; children named parent.child" comp \
	"ops('big') == 6 and ops('big.cr') == 6 and ops('big.ap') == 12 and ops('big.cl') == 6"
jcheck "composite: \$sz=4k reaches the child, children in order without errors" comp \
	"nbytes('big.ap') == 12 * 4096 and errors == 0"
check "composite: 6 files of 2 x 4k on disk" \
	test "$(files "$TMP/comp/set"):$(sized "$TMP/comp/set" 8192)" = "6:6"
jcheck "composite: iters= at the use overrides the define's" comp \
	"ops('s1') == 4 and ops('s1.a') == 4 and ops('s2') == 6 and ops('s2.b') == 6"
printf '%s\n' "A one" "B one" "A one" "B one" "A hi" "B hi" "A hi" "B hi" "A hi" "B hi" >"$TMP/want1"
cat "$TMP/want1" "$TMP/want1" >"$TMP/want"
grep -E '^[AB] ' "$TMP/comp.out" >"$TMP/got" || :
if cmp -s "$TMP/want" "$TMP/got"; then
	pass "composite: children run in order, \$word per use"
else
	fail "composite: children run in order, \$word per use"
	diag <"$TMP/got"
fi

done_testing
