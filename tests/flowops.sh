#!/bin/sh
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
grep -q '^IO Summary:' "$TMP/count2.out" && grep -q "run ended early" "$TMP/count2.err" &&
	pass "finishoncount in timeout mode prints the results and says it ended early" ||
	fail "finishoncount in timeout mode prints the results and says it ended early"
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
# may find it still on its way back, so a few can be missed, never added
jcheck "block returns once per wakeup (blocks = wakeups, a few may be missed)" sync \
	"ops('wk') > 10 and 0.9 * ops('wk') <= ops('blk') <= ops('wk')"
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

# --- dsync, directio: the open flags, seen in /proc while running ----------
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
	echo "} }" >>"$TMP/flags.f"
	echo "run 2" >>"$TMP/flags.f"
	"$FBRUN" -q -o "$TMP/flags.json" "$TMP/flags.f" >"$TMP/flags.out" 2>"$TMP/flags.err" &
	pid=$!
	syncfl='' directfl=''
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		sleep 0.1
		for fd in /proc/$pid/fd/*; do
			case $(readlink "$fd" 2>/dev/null) in
			"$TMP/flags/sync/"*) syncfl=$(awk '/^flags:/ { print $2 }' "/proc/$pid/fdinfo/${fd##*/}" 2>/dev/null) ;;
			"$TMP/flags/direct/"*) directfl=$(awk '/^flags:/ { print $2 }' "/proc/$pid/fdinfo/${fd##*/}" 2>/dev/null) ;;
			esac
		done
		[ -n "$syncfl" ] && { ! $direct || [ -n "$directfl" ]; } && break
	done
	rc=0
	wait "$pid" || rc=$?
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
