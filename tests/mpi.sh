#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun-mpi under mpirun on this one machine: 1, 2 and 4 ranks, shared
# memory and TCP; merged counts against the ranks' own; per-rank trees
# made and removed; script errors, ENOSPC, SIGINT and a killed rank end
# every rank.  Facts only: counts, files, exit codes, JSON.
. "$srcdir/tests/lib.sh"

MPI_FBRUN=$(dirname "$FBRUN")/fbrun-mpi
have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

why=""
if ! command -v mpirun >/dev/null 2>&1; then
	why="mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
elif [ ! -x "$MPI_FBRUN" ]; then
	why="fbrun-mpi was not built (configure found no mpicc: apt-get install openmpi-bin libopenmpi-dev)"
elif ! $have_python; then
	why="needs python3 to read the JSON"
fi

# $rank and $nranks exist in plain fbrun too: 0 and 1
cat >"$TMP/ranks.f" <<'F'
echo "rank $rank of $nranks"
F
run_fbrun "$TMP/ranks.f"
grepq "fbrun: \$rank is 0 and \$nranks 1" "rank 0 of 1" "$TMP/out"
run_fbrun --stonewall "$TMP/ranks.f"
check "fbrun: --stonewall is refused (it is for fbrun-mpi), exit 2" test "$rc" -eq 2
grepq "... saying why" "^fbrun: error: --stonewall is for fbrun-mpi" "$TMP/err"

if [ -n "$why" ]; then
	skip "fbrun-mpi: $why"
	done_testing
	exit
fi
# The ranks run as $TMP/bin/fbrun-mpi: the signal tests below find this
# test's ranks by that path, never another test's (make -j check)
mkdir "$TMP/bin"
ln -s "$(cd "$(dirname "$MPI_FBRUN")" && pwd)/fbrun-mpi" "$TMP/bin/fbrun-mpi"
MPI_FBRUN=$TMP/bin/fbrun-mpi

mpi_setup

# mpi NP [mpirun options --] fbrun-mpi ARGS...: status in $rc
mpi() {
	np=$1
	shift
	mopts=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		mopts="$mopts $1"
		shift
	done
	[ $# -gt 0 ] && shift
	rc=0
	# shellcheck disable=SC2086
	timeout -s KILL $GUARD mpirun $mopts -np "$np" "$MPI_FBRUN" "$@" \
		>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
}

# The same exact work on every rank: one thread reads until its count.
dir=$TMP/fs
cat >"$TMP/count.f" <<F
set \$dir=$dir
define fileset name=fs1,path=\$dir,entries=16,size=8k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop openfile name=open1,filesetname=fs1,fd=1
  flowop readwholefile name=read1,fd=1,iosize=8k
  flowop closefile name=close1,fd=1
  flowop finishoncount name=fin,value=300,target=read1 } }
echo "rank \$rank of \$nranks"
run 600
F
for np in 1 2 4; do
	rm -f "$TMP/r.json"
	mpi "$np" -- -o "$TMP/r.json" "$TMP/count.f"
	check "$np ranks: exit 0" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	grepq "$np ranks: rank 0 prints the job's IO Summary" "^IO Summary: +[0-9]+ ops" "$TMP/out"
	check "$np ranks: the IO Summary is printed once" test "$(grep -c '^IO Summary' "$TMP/out")" -eq 1
	grepq "$np ranks: a per-rank table" "^Per-rank \($np ranks? on 1 host\)" "$TMP/out"
	grepq "$np ranks: rank 0 only logs: rank 0 of $np" "rank 0 of $np\$" "$TMP/out"
	check "$np ranks: no other rank prints" eval '! grep -q "rank [1-9] of" "$TMP/out"'
	[ -f "$TMP/r.json" ] || { fail "$np ranks: -o written"; continue; }
	check "$np ranks: JSON mpi.ranks is $np" test "$(json "$TMP/r.json" "r['mpi']['ranks']")" -eq "$np"
	check "$np ranks: each rank read exactly 300 times: job read1 = $((300 * np))" \
		test "$(json "$TMP/r.json" "[f for f in r['flowops'] if f['name']=='read1'][0]['ops']")" -eq $((300 * np))
	check "$np ranks: job bytes of read1 = $((300 * np)) x 8 KiB" \
		test "$(json "$TMP/r.json" "[f for f in r['flowops'] if f['name']=='read1'][0]['bytes']")" -eq $((300 * np * 8192))
	check "$np ranks: the job's ops are the sum of the ranks' ops" \
		test "$(json "$TMP/r.json" "r['summary']['ops'] == sum(k['ops'] for k in r['ranks'])")" = True
	check "$np ranks: each flowop's merged histogram counts sum to its ops" \
		test "$(json "$TMP/r.json" "all(sum(b['count'] for b in f['histogram']) == f['ops'] for f in r['flowops'])")" = True
	check "$np ranks: threads summed over ranks ($np)" test "$(json "$TMP/r.json" "r['threads']")" -eq "$np"
	check "$np ranks: every rank's tree is removed" test -z "$(ls -A "$dir" 2>/dev/null)"
done

# A replay on each rank, one pass per instance: its op that failed in the
# recording and succeeds (an EPERM stat, as root) summed over the ranks
printf '%s\n' 'fbrun-trace 1' 'stream "s"' \
	'0.000000000 - stat path="b" = EPERM' '0.000100000 - stat path="b" = 0' \
	>"$TMP/mm.trace"
cat >"$TMP/mm.f" <<F
set mode quit alldone
define fileset name=f,path=$TMP/mm,entries=0,dirwidth=1
define trace name=t,path=$TMP/mm.trace
define process name=p { thread name=t,instances=2 {
  flowop replay name=R,trace=t,filesetname=f,value=1 } }
run 600
F
rm -f "$TMP/r.json"
mpi 2 -- -q -o "$TMP/r.json" "$TMP/mm.f"
check "a replay, 2 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if [ -f "$TMP/r.json" ]; then
	check "a replay, 2 ranks x 2 instances: R.stat's mismatches summed (4)" \
		test "$(json "$TMP/r.json" "[f for f in r['flowops'] if f['name']=='R.stat'][0]['mismatches']")" -eq 4
else
	fail "a replay, 2 ranks: -o written"
fi

# Over TCP, as between machines
rm -f "$TMP/r.json"
mpi 2 --mca btl tcp,self -- -o "$TMP/r.json" "$TMP/count.f"
check "TCP (btl tcp,self), 2 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if [ -f "$TMP/r.json" ]; then
	check "TCP: job read1 = 600 (300 per rank)" \
		test "$(json "$TMP/r.json" "[f for f in r['flowops'] if f['name']=='read1'][0]['ops']")" -eq 600
	check "TCP: the job's ops are the sum of the ranks' ops" \
		test "$(json "$TMP/r.json" "r['summary']['ops'] == sum(k['ops'] for k in r['ranks'])")" = True
else
	fail "TCP: -o written"
fi

# --repeat and --warmup in a job: the runs agreed, rank 0 keeps them
rm -f "$TMP/r.json"
mpi 2 -- -q --repeat 2 -o "$TMP/r.json" "$TMP/count.f"
check "--repeat 2, 2 ranks: exit 0" test "$rc" -eq 0
if [ -f "$TMP/r.json" ]; then
	check "--repeat 2: two runs of 600 reads each (300 per rank)" \
		test "$(json "$TMP/r.json" "[[f['ops'] for f in x['flowops'] if f['name']=='read1'][0] for x in r['repeats']]")" = "[600, 600]"
fi
# (a finish condition reached in the warm-up ends the run there, as in
# fbrun: a timed run shows the warm-up's end instead)
cat >"$TMP/warm.f" <<F
define fileset name=fs1,path=$dir,entries=8,size=4k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop statfile name=st,filesetname=fs1 } }
run 600
F
rm -f "$TMP/r.json"
mpi 2 -- -q --warmup 1 -t 1 -o "$TMP/r.json" "$TMP/warm.f"
check "--warmup 1, 2 ranks: exit 0" test "$rc" -eq 0
if [ -f "$TMP/r.json" ]; then
	check "--warmup: every rank's warm-up ended, its ops apart from the measured ones" \
		test "$(json "$TMP/r.json" "r['warmup']['completed'] and r['warmup']['ops'] > 0 and r['summary']['ops'] > 0 and r['ended_by'] == 'timeout'")" = True
fi

# A tree per rank under <path>/rank-N, kept with --keep
mpi 3 -- --keep -q "$TMP/count.f"
check "--keep, 3 ranks: exit 0" test "$rc" -eq 0
check "--keep: a tree per rank: rank-0, rank-1, rank-2" \
	test "$(ls "$dir" | tr '\n' ' ')" = "rank-0 rank-1 rank-2 "
check "--keep: each holds the fileset's 16 files" \
	test "$(find "$dir/rank-2/fs1" -type f ! -name '.fbrun*' | wc -l)" -eq 16
rm -rf "$dir"

# A shared fileset: one tree, made by rank 0, read by every rank; it
# holds entries for each rank (12 x 3)
cat >"$TMP/shared.f" <<F
define fileset name=pub,path=$dir,entries=12,size=8k,dirwidth=4,prealloc=100,shared
define process name=p { thread name=t,memsize=64k {
  flowop openfile name=open1,filesetname=pub,fd=1
  flowop readwholefile name=read1,fd=1,iosize=8k
  flowop closefile name=close1,fd=1
  flowop finishoncount name=fin,value=100,target=read1 } }
run 600
F
rm -f "$TMP/r.json"
mpi 3 -- --keep -o "$TMP/r.json" "$TMP/shared.f"
check "shared, 3 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "shared: one tree at <path>/pub, no rank-N" test "$(ls "$dir" | tr '\n' ' ')" = "pub "
check "shared: made once: 12 files for each of 3 ranks" \
	test "$(find "$dir/pub" -type f ! -name '.fbrun*' | wc -l)" -eq 36
check "shared: rank 0 says it creates it, once" test "$(grep -c 'Creating fileset pub' "$TMP/out")" -eq 1
if [ -f "$TMP/r.json" ]; then
	check "shared: every rank read it 100 times" \
		test "$(json "$TMP/r.json" "[k['ops'] for k in r['ranks']]")" = "[300, 300, 300]"
fi
mpi 3 -- -q "$TMP/shared.f"
check "shared, without --keep: exit 0" test "$rc" -eq 0
check "shared: rank 0 removes it after every rank is done" test -z "$(ls -A "$dir" 2>/dev/null)"
# fbrun alone: shared changes nothing
run_fbrun -q -t 1 --keep "$TMP/shared.f"
check "fbrun: a shared fileset is an ordinary one (exit 0, at <path>/pub)" \
	test "$rc" -eq 0 -a -f "$dir/pub/.fbrun-fileset"
check "fbrun: ... of its 12 entries" \
	test "$(find "$dir/pub" -type f ! -name '.fbrun*' | wc -l)" -eq 12
rm -rf "$dir"

# Entries made and removed in a shared tree: entry i is rank i mod N's,
# so each rank creates exactly its own 10 and deletes them, no two ranks
# take one entry (that would leave fewer files, or fail a delete)
cat >"$TMP/shmk.f" <<F
define fileset name=pub,path=$dir,entries=10,size=4k,dirwidth=1000,prealloc=0,shared
define process name=p { thread name=t,memsize=64k {
  flowop createfile name=create1,filesetname=pub,fd=1
  flowop closefile name=close1,fd=1
  flowop finishoncount name=fin,value=10,target=create1 } }
run 600
F
rm -f "$TMP/r.json"
mpi 3 -- -q --keep -o "$TMP/r.json" "$TMP/shmk.f"
check "shared + createfile, 3 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "... 30 files, each made once" \
	test "$(find "$dir/pub" -type f ! -name '.fbrun*' | wc -l)" -eq 30
if [ -f "$TMP/r.json" ]; then
	check "... 30 creates, no errors on any rank" \
		test "$(json "$TMP/r.json" "[f['ops'] for f in r['flowops'] if f['name'] == 'create1'] == [30] and [k['errors'] for k in r['ranks']] == [0] * 3")" = True
fi
sed 's/prealloc=0,shared/prealloc=100,shared,reuse,trusttree/
s/flowop createfile name=create1,filesetname=pub,fd=1/flowop deletefile name=create1,filesetname=pub/
/closefile/d' "$TMP/shmk.f" >"$TMP/shdel.f"
rm -f "$TMP/r.json"
mpi 3 -- -q -o "$TMP/r.json" "$TMP/shdel.f"
check "shared + deletefile, 3 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if [ -f "$TMP/r.json" ]; then
	check "... 30 deletes, no errors on any rank" \
		test "$(json "$TMP/r.json" "[f['ops'] for f in r['flowops'] if f['name'] == 'create1'] == [30] and [k['errors'] for k in r['ranks']] == [0] * 3")" = True
fi
check "... no file left" test "$(find "$dir/pub" -type f ! -name '.fbrun*' | wc -l)" -eq 0
rm -rf "$dir"

# leaf directories are split the same way: each rank makes its own 5
cat >"$TMP/shdir.f" <<F
define fileset name=pub,path=$dir,entries=2,size=4k,dirwidth=1000,leafdirs=5,prealloc=0,shared
define process name=p { thread name=t,memsize=64k {
  flowop makedir name=mk,filesetname=pub
  flowop finishoncount name=fin,value=5,target=mk } }
run 600
F
rm -f "$TMP/r.json"
mpi 2 -- -q --keep -o "$TMP/r.json" "$TMP/shdir.f"
check "shared + makedir, 2 ranks: exit 0" test "$rc" -eq 0
check "... 10 leaf directories, each made once" \
	test "$(find "$dir/pub" -mindepth 2 -type d | wc -l)" -eq 10
if [ -f "$TMP/r.json" ]; then
	check "... 10 makedirs, no errors on any rank" \
		test "$(json "$TMP/r.json" "[f['ops'] for f in r['flowops'] if f['name'] == 'mk'] == [10] and [k['errors'] for k in r['ranks']] == [0] * 2")" = True
fi
rm -rf "$dir"

# Which rank has which entries: rank 0's (entries 0, 2, 4: the odd
# serials) are removed behind fbrun's back; a trusting read finds them
# gone on the rank that reads rank 0's entries: rank 0, or with
# rankshift=1 rank 1 (it works on the entries of the rank after it)
cat >"$TMP/shown.f" <<F
define fileset name=pub,path=$dir,entries=3,size=4k,dirwidth=1000,prealloc=100,shared,reuse,trusttree,rankshift=\$shift
define process name=p { thread name=t,memsize=64k {
  flowop openfile name=open1,filesetname=pub,fd=1
  flowop closefile name=close1,fd=1
  flowop finishoncount name=fin,value=3,target=open1 } }
run 600
F
# a -D the script never uses: refused on every rank, as in fbrun
mpi 2 -- -q --parse-only -D shfit=0 "$TMP/shown.f"
check "an unused -D: exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... saying so" "error: -D shfit is not used by the script" "$TMP/err"
mpi 2 -- -q --parse-only --define-unused=warn -D shfit=0 -D shift=0 "$TMP/shown.f"
check "... --define-unused=warn: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... with a warning and the nearest name" "warning: -D shfit is not used by the script; did you mean 'shift'" "$TMP/err"
mpi 2 -- -q -D shift=0 "$TMP/shown.f"
check "shared, reuse: the tree for 2 ranks is made (exit 0)" test "$rc" -eq 0
check "... 6 files, kept" \
	test "$(find "$dir/pub" -type f ! -name '.fbrun*' | wc -l)" -eq 6
rm -f "$dir"/pub/*/00000001 "$dir"/pub/*/00000003 "$dir"/pub/*/00000005
for shift in 0 1; do
	rm -f "$TMP/r.json"
	mpi 2 -- -q -D shift=$shift -o "$TMP/r.json" "$TMP/shown.f"
	check "rankshift=$shift: a missing file is an error: exit 1" test "$rc" -eq 1
	[ -f "$TMP/r.json" ] || { fail "rankshift=$shift: -o written"; continue; }
	check "rankshift=$shift: only rank $shift met rank 0's removed files" \
		test "$(json "$TMP/r.json" "[k['errors'] > 0 for k in r['ranks']]")" = \
		"$([ $shift -eq 0 ] && echo '[True, False]' || echo '[False, True]')"
done
rm -rf "$dir"
# names of a count of each rank's own would clash in one tree
cat >"$TMP/shnext.f" <<F
define fileset name=pub,path=$dir,entries=10,size=0,dirwidth=1000,prealloc=0,shared
define process name=p { thread name=t,memsize=64k {
  flowop createnext name=cn1,filesetname=pub,entries=10 } }
run 600
F
mpi 2 -- "$TMP/shnext.f"
check "shared + createnext in fbrun-mpi: exit 2" test "$rc" -eq 2
grepq "... located, saying why" "shnext\.f:3:[0-9]+: error: flowop 'cn1' \(createnext\) names files by a count of its own" "$TMP/err"
check "... nothing is created" test ! -e "$dir"

# Every rank lays out the shared tree from its own compile: ranks given
# other values (an MPMD launch, each command its own -D) would work on
# different trees.  Refused before anything is made, said once by rank 0
# with the fileset, the ranks and the first attribute that differs.
# mpmd ARGS...: mpirun ARGS (commands separated by ':'), status in $rc
mpmd() {
	rc=0
	timeout -s KILL $GUARD mpirun "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
}
cat >"$TMP/shdiff.f" <<F
define fileset name=pub,path=$dir,entries=\$n,size=4k,dirwidth=4,prealloc=100,shared
define fileset name=own,path=$dir,entries=\$m,size=4k,dirwidth=4,dirgamma=\$g,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop statfile name=st,filesetname=pub
  flowop finishoncount name=fin,value=10,target=st } }
run 600
F
mpmd -np 1 "$MPI_FBRUN" -q -D n=10 -D m=4 -D g=0 "$TMP/shdiff.f" : \
	-np 2 "$MPI_FBRUN" -q -D n=20 -D m=4 -D g=0 "$TMP/shdiff.f"
check "shared, entries 10 on rank 0 and 20 on ranks 1, 2 (MPMD): exit 2" test "$rc" -eq 2
grepq "... rank 0 names the fileset, the first rank that differs, both values" \
	"^fbrun-mpi: error: shared fileset 'pub' differs between ranks: rank 0 has entries=10, rank 1 has entries=20\$" "$TMP/err"
check "... said once" test "$(grep -c 'error:' "$TMP/err")" -eq 1
check "... nothing is created" test ! -e "$dir"
# the trees are laid out from one random stream, the last defined first:
# own, defined after pub and gamma-shaped (dirgamma), moves pub's layout
mpmd -np 1 "$MPI_FBRUN" -q -D n=10 -D m=4 -D g=1500 "$TMP/shdiff.f" : \
	-np 1 "$MPI_FBRUN" -q -D n=10 -D m=5 -D g=1500 "$TMP/shdiff.f"
check "shared, a fileset laid out before it differs (MPMD): exit 2" test "$rc" -eq 2
grepq "... named, with the attribute" \
	"error: shared fileset 'pub' differs between ranks: its layout takes the random numbers that fileset 'own' \(laid out first\) leaves, and there rank 0 has entries=4, rank 1 has entries=5\$" "$TMP/err"
check "... nothing is created" test ! -e "$dir"
mpmd -np 1 "$MPI_FBRUN" -q -D n=10 -D m=4 -D g=0 "$TMP/shdiff.f" : \
	-np 1 "$MPI_FBRUN" -q -D n=10 -D m=4 -D g=1500 "$TMP/shdiff.f"
check "shared, a fileset laid out before it draws on one rank only: exit 2" test "$rc" -eq 2
grepq "... named, with why it draws" \
	"fileset 'own' \(laid out first\) leaves, which draws some on rank 1 \(dirgamma=1500\) and none on rank 0\$" "$TMP/err"
# what does not move the shared tree may differ: own draws nothing
rm -f "$TMP/r.json"
mpmd -np 1 "$MPI_FBRUN" -q -D n=10 -D m=4 -D g=0 -o "$TMP/r.json" "$TMP/shdiff.f" : \
	-np 2 "$MPI_FBRUN" -q -D n=10 -D m=7 -D g=0 "$TMP/shdiff.f"
check "shared alike, per-rank trees of 4 and 7 entries (MPMD): exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if [ -f "$TMP/r.json" ]; then
	check "... every rank ran: 3 x 10 stats" \
		test "$(json "$TMP/r.json" "[k['ops'] for k in r['ranks']]")" = "[10, 10, 10]"
fi
check "... every tree is removed" test -z "$(ls -A "$dir" 2>/dev/null)"
rm -rf "$dir"
# --seed moves a shared tree: ranks given other seeds are refused too
mpmd -np 1 "$MPI_FBRUN" -q --seed 1 -D n=10 -D m=4 -D g=0 "$TMP/shdiff.f" : \
	-np 1 "$MPI_FBRUN" -q --seed 2 -D n=10 -D m=4 -D g=0 "$TMP/shdiff.f"
check "shared, --seed 1 on rank 0 and 2 on rank 1 (MPMD): exit 2" test "$rc" -eq 2
grepq "... named, with both seeds" \
	"^fbrun-mpi: error: shared fileset 'pub' differs between ranks: rank 0 has --seed 1, rank 1 has --seed 2\$" "$TMP/err"
check "... nothing is created" test ! -e "$dir"

# --seed: every rank lays out from the seed, and its threads draw from
# the seed and its rank: the ranks' random sizes differ, and are the
# same again for the same seed
cat >"$TMP/seed.f" <<F
define fileset name=grow,path=$dir,entries=40,size=1k,dirwidth=8,prealloc=0
define process name=p { thread name=t,memsize=64k {
  flowop createfile name=c1,filesetname=grow,fd=1
  flowop appendfilerand name=a1,fd=1,iosize=64k
  flowop closefile name=cl1,fd=1
  flowop finishoncount name=fin,value=20,target=c1 } }
run 600
F
# seed_run NAME ARGS...: each rank's files and sizes in $TMP/NAME.RANK
seed_run() {
	name=$1
	shift
	rm -rf "$dir"
	mpi 2 -- -q --keep "$@" "$TMP/seed.f"
	check "--seed, 2 ranks ($name): exit 0" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	for k in 0 1; do
		(cd "$dir/rank-$k/grow" 2>/dev/null &&
			find . -type f ! -name .fbrun-fileset -printf '%P %s\n' | sort) \
			>"$TMP/$name.$k"
	done
}
seed_run s7a --seed 7 -o "$TMP/r.json"
seed_run s7b --seed 7
seed_run s8 --seed 8
check "--seed 7: each rank made 20 files" \
	test "$(cat "$TMP/s7a.0" "$TMP/s7a.1" | wc -l)" -eq 40
check "... ranks 0 and 1 drew other sizes" eval '! cmp -s "$TMP/s7a.0" "$TMP/s7a.1"'
check "... the same seed again: rank 0's the same" cmp -s "$TMP/s7a.0" "$TMP/s7b.0"
check "... and rank 1's" cmp -s "$TMP/s7a.1" "$TMP/s7b.1"
check "... another seed: other sizes" eval '! cmp -s "$TMP/s7a.0" "$TMP/s8.0"'
if [ -f "$TMP/r.json" ]; then
	check "... the job's JSON says seed 7" test "$(json "$TMP/r.json" "r['seed']")" = 7
	mpi_lib=$(json "$TMP/r.json" "r['build']['features']['mpi']")
	check "... and names the MPI library: $mpi_lib" test "$mpi_lib" != False
else
	fail "--seed, 2 ranks: -o written"
fi
rm -rf "$dir"
mpi 1 -- --version
check "fbrun-mpi --version: exit 0" test "$rc" -eq 0
grepq "... names its MPI library" "^mpi: [A-Za-z]" "$TMP/out"
check "... not no" eval '! grep -qx "mpi: no" "$TMP/out"'

# IO500's mdtest-easy phases (workloads/scale), small: exact counts per rank
md=$TMP/md
for phase in write stat delete; do
	rm -f "$TMP/r.json"
	mpi 2 -- -q -D dir="$md" -D files=300 -D dirwidth=50 -o "$TMP/r.json" \
		"$srcdir/workloads/scale/mdtest-easy-$phase.f"
	check "mdtest-easy-$phase, 2 ranks: exit 0" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	check "mdtest-easy-$phase: 300 per rank, 600 in all" \
		test "$(json "$TMP/r.json" "r['flowops'][0]['ops']")" -eq 600
	n=$(find "$md" -type f ! -name '.fbrun*' | wc -l)
	case $phase in
	delete) want=0 ;;
	*) want=600 ;;
	esac
	check "mdtest-easy-$phase: $want files on disk after it" test "$n" -eq "$want"
	[ "$phase" = delete ] && check "mdtest-easy-delete: no directory left either" \
		test "$(find "$md" -mindepth 1 2>/dev/null | wc -l)" -eq 0
done
rm -rf "$md"

# IO500's mdtest-hard phases: one directory all ranks share, 3901-byte
# files, each rank its own entries (rankshift=1 after the write phase)
for phase in write stat read delete; do
	rm -f "$TMP/r.json"
	mpi 3 -- -q -D dir="$md" -D files=100 -o "$TMP/r.json" \
		"$srcdir/workloads/scale/mdtest-hard-$phase.f"
	check "mdtest-hard-$phase, 3 ranks: exit 0" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	[ -f "$TMP/r.json" ] || { fail "mdtest-hard-$phase: -o written"; continue; }
	check "mdtest-hard-$phase: 100 per rank, 300 in all, no errors" \
		test "$(json "$TMP/r.json" "r['flowops'][0]['ops'] == 300 and [k['errors'] for k in r['ranks']] == [0] * 3")" = True
	case $phase in
	write | read)
		check "mdtest-hard-$phase: 300 x 3901 bytes" \
			test "$(json "$TMP/r.json" "r['flowops'][1]['bytes']")" -eq $((300 * 3901)) ;;
	esac
	n=$(find "$md" -type f ! -name '.fbrun*' | wc -l)
	case $phase in
	delete) want=0 ;;
	*) want=300 ;;
	esac
	check "mdtest-hard-$phase: $want files on disk after it" test "$n" -eq "$want"
	if [ "$phase" = delete ]; then
		check "mdtest-hard-delete: no directory left either" \
			test "$(find "$md" -mindepth 1 2>/dev/null | wc -l)" -eq 0
	else
		check "mdtest-hard-$phase: in one directory" \
			test "$(find "$md" -mindepth 2 -type d | wc -l)" -eq 1
	fi
	[ "$phase" = write ] && check "mdtest-hard-write: each file 3901 bytes" \
		test "$(find "$md" -type f ! -name '.fbrun*' -size 3901c | wc -l)" -eq 300
done
rm -rf "$md"

# IO500's ior-hard: one file all ranks share, 47008-byte records, rank r
# writes records r, r + 3, ...; each then reads the next rank's
ih=$TMP/ih
for phase in write read; do
	rm -f "$TMP/r.json"
	mpi 3 -- -q -D dir="$ih" -D records=20 -o "$TMP/r.json" \
		"$srcdir/workloads/scale/ior-hard-$phase.f"
	check "ior-hard-$phase, 3 ranks: exit 0" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	[ -f "$TMP/r.json" ] || { fail "ior-hard-$phase: -o written"; continue; }
	check "ior-hard-$phase: 20 records per rank, 60 x 47008 bytes, no errors" \
		test "$(json "$TMP/r.json" "(r['flowops'][0]['ops'], r['flowops'][0]['bytes'], [k['errors'] for k in r['ranks']]) == (60, 60 * 47008, [0] * 3)")" = True
	check "ior-hard-$phase: one file of 60 records, no record written twice or left out" \
		test "$(find "$ih" -type f ! -name '.fbrun*' -size $((60 * 47008))c | wc -l)" -eq 1
done
rm -rf "$ih"

# bonnie++'s tests on every rank at once: the job's line, then each rank's
mkdir -p "$TMP/bon"
mpi 2 -- bonnie -q -d "$TMP/bon" -s 16 -r 8 -n 1 -f -m job
check "fbrun-mpi bonnie, 2 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
check "... three CSV lines: the job's and each rank's" \
	test "$(grep -c '^1\.98,' "$TMP/out")" -eq 3
grepq "... the job's: both ranks' sizes (32M), seeks (16384) and files (2)" '^1\.98,fbrun,job\*2,1,[0-9]+,32M,,16384,[0-9]+,,,[^,]*,[^,]*,[^,]*,[^,]*,,,[^,]*,[^,]*,[^,]*,[^,]*,2,' "$TMP/out"
grepq "... rank 1's own: 16M" '^1\.98,fbrun,rank-1,1,[0-9]+,16M,' "$TMP/out"
check "... every rank's directory is removed" test -z "$(ls -A "$TMP/bon")"
# rank 1 alone finds a phase script that does not compile: every rank
# stops before the first phase (no hang in a collective), nothing made
mkdir -p "$TMP/wl/bonnie"
cp "$srcdir"/workloads/bonnie/*.f "$TMP/wl/bonnie/"
echo "flowop bogus" >>"$TMP/wl/bonnie/rewrite.f"
rc=0
timeout -s KILL $GUARD mpirun -np 1 "$MPI_FBRUN" bonnie -q -d "$TMP/bon" -s 16 -r 8 -n 0 -f : \
	-np 1 env FBRUN_WORKLOADS="$TMP/wl" "$MPI_FBRUN" bonnie -q -d "$TMP/bon" -s 16 -r 8 -n 0 -f \
	>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
check "fbrun-mpi bonnie, rank 1's phase script broken: exit 2" test "$rc" -eq 2
grepq "... rank 1 says where" "wl/bonnie/rewrite\.f:[0-9]+:1: error: " "$TMP/err"
check "... no rank made anything" test -z "$(ls -A "$TMP/bon")"
mpi 2 -- bonnie -d "$TMP/nowhere" -s 16 -r 8 -n 0
check "fbrun-mpi bonnie with a bad -d: exit 2" test "$rc" -eq 2
check "... said once" test "$(grep -c 'error: cannot use directory' "$TMP/err")" -eq 1

# A script error: said once, by rank 0; every rank exits 2; nothing made
cat >"$TMP/bad.f" <<F
define fileset name=fs1,path=$dir,entries=4,size=4k,prealloc
define process name=p { thread name=t { flowop raedfile name=r1,filesetname=fs1 } }
run 5
F
mpi 3 -- "$TMP/bad.f"
check "script error, 3 ranks: mpirun exits 2" test "$rc" -eq 2
check "... the error is printed once" test "$(grep -c 'error:' "$TMP/err")" -eq 1
grepq "... located, by rank 0" "bad\.f:2:[0-9]+: error: " "$TMP/err"
check "... nothing is created" test ! -e "$dir"

# --stonewall: rank 0 does its 50 stats at once; rank N waits N s after
# each, so the others would need minutes
cat >"$TMP/wall.f" <<F
define fileset name=fs1,path=$dir,entries=4,size=4k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop statfile name=st,filesetname=fs1
  flowop delay name=d,value=\$rank
  flowop finishoncount name=fin,value=50,target=st } }
run 600
F
rm -f "$TMP/r.json"
mpi 3 -- --stonewall -o "$TMP/r.json" "$TMP/wall.f"
check "--stonewall, 3 ranks: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
if [ -f "$TMP/r.json" ]; then
	check "--stonewall: ended by done" test "$(json "$TMP/r.json" "r['ended_by']")" = done
	check "--stonewall: rank 0 ended it" test "$(json "$TMP/r.json" "r['mpi']['stopped_by_rank']")" -eq 0
	check "--stonewall: rank 0 stat'ed exactly 50 times" test "$(json "$TMP/r.json" "r['ranks'][0]['ops']")" -eq 50
	grepq "--stonewall: the report names the rank" "^Rank 0's work was done first" "$TMP/out"
else
	fail "--stonewall: -o written"
fi

# ENOSPC on a small tmpfs: the job ends with exit 1, results and the error
mnt=$TMP/full
if ! tmpfs_at size=2m "$mnt"; then
	skip "ENOSPC: $why"
else
	cat >"$TMP/full.f" <<F
define fileset name=data,path=$mnt,entries=2,size=4k,dirwidth=4,prealloc=100
define process name=p { thread name=t {
  flowop appendfile name=append,filesetname=data,fd=1,iosize=64k } }
run 600
F
	rm -f "$TMP/r.json"
	mpi 2 -- -o "$TMP/r.json" "$TMP/full.f"
	check "ENOSPC, 2 ranks: exit 1" test "$rc" -eq 1
	if [ -f "$TMP/r.json" ]; then
		check "ENOSPC: the results say error" test "$(json "$TMP/r.json" "r['ended_by']")" = error
		grepq "ENOSPC: the error names the rank and the errno" \
			"error: rank [01]: .*No space left on device" "$TMP/err"
	else
		fail "ENOSPC: -o written"
	fi
	check "ENOSPC: every rank's tree is removed" test -z "$(ls -A "$mnt")"
fi

# Signals.  long.f runs 600 s: ending sooner is the signal's doing.
cat >"$TMP/long.f" <<F
define fileset name=fs1,path=$dir,entries=8,size=4k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop statfile name=st,filesetname=fs1 } }
run 600
F
# wait_running: until rank 0 logs its run's start, or the guard (run it
# with $TMP/out emptied first: the last run's lines would do)
wait_running() {
	i=0
	while [ $i -lt $GUARD ] && ! grep -q "Running for" "$TMP/out" 2>/dev/null; do
		sleep 1
		i=$((i + 1))
	done
	sleep 1
}
ranks_left() { pgrep -f "^$MPI_FBRUN " | wc -l; }

# SIGINT to one rank: every rank stops, rank 0 prints the job's results
rm -f "$TMP/r.json"
: >"$TMP/out"
(mpi 3 -- -o "$TMP/r.json" "$TMP/long.f"; exit $rc) &
bg=$!
wait_running
kill -INT "$(pgrep -f "^$MPI_FBRUN " | tail -1)" 2>/dev/null || :
rc=0
wait $bg || rc=$?
check "SIGINT to one rank: mpirun exits 1" test "$rc" -eq 1
rc=$(json "$TMP/r.json" "r['ended_by']" 2>/dev/null || echo none)
check "SIGINT to one rank: the job ends, its results say signal" test "$rc" = signal
grepq "SIGINT to one rank: rank 0 prints the job's results" "^Per-rank \(3 ranks" "$TMP/out"
check "SIGINT to one rank: no rank is left" test "$(ranks_left)" -eq 0
check "SIGINT to one rank: every tree is removed" test -z "$(ls -A "$dir" 2>/dev/null)"

# SIGINT to mpirun: it sends SIGTERM to every rank, then SIGKILL after
# odls_base_sigkill_timeout; given the time, rank 0 writes the results
rm -f "$TMP/r.json"
: >"$TMP/out"
(
	exec timeout -s KILL $GUARD mpirun --mca odls_base_sigkill_timeout 30 \
		-np 3 "$MPI_FBRUN" -o "$TMP/r.json" "$TMP/long.f" \
		>"$TMP/out" 2>"$TMP/err" </dev/null
) &
bg=$!
wait_running
pkill -INT -x -P "$bg" mpirun 2>/dev/null || : # this test's mpirun only
rc=0
wait $bg || rc=$?
check "SIGINT to mpirun: exits non-zero" test "$rc" -ne 0
rc=$(json "$TMP/r.json" "r['ended_by']" 2>/dev/null || echo none)
check "SIGINT to mpirun: -o has the job's results, ended by a signal" test "$rc" = signal
[ "$rc" = signal ] || diag <"$TMP/err"
i=0
while [ "$(ranks_left)" -gt 0 ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
check "SIGINT to mpirun: no rank is left" test "$(ranks_left)" -eq 0

# kill -9 of one rank: mpirun ends the job, no rank keeps running
(mpi 3 -- -q "$TMP/long.f"; exit $rc) &
bg=$!
i=0
while [ "$(ranks_left)" -lt 3 ] && [ $i -lt $GUARD ]; do sleep 1; i=$((i + 1)); done
sleep 2
kill -KILL "$(pgrep -f "^$MPI_FBRUN " | tail -1)" 2>/dev/null || :
rc=0
wait $bg || rc=$?
check "kill -9 of a rank: mpirun exits non-zero" test "$rc" -ne 0
i=0
while [ "$(ranks_left)" -gt 0 ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
check "kill -9 of a rank: no rank is left" test "$(ranks_left)" -eq 0
# what it left is cleared by the next run on the same path (markers)
mpi 3 -- -q -t 1 "$TMP/long.f"
check "the next run on that path: exit 0" test "$rc" -eq 0
check "... and every tree is removed" test -z "$(ls -A "$dir" 2>/dev/null)"

# An open loop in a job: rate=N/job split over the ranks, rate=N each
# rank's; the ranks' arrivals added up, their response times merged
cat >"$TMP/open.f" <<F
define fileset name=fs,path=$dir,entries=8,size=8k,dirwidth=4,prealloc=100
define process name=p {
  thread name=job,rate=100/job { flowop read name=r1,filesetname=fs,iosize=4k }
  thread name=each,rate=50 { flowop read name=r2,filesetname=fs,iosize=4k }
}
run 2
F
mpi 2 -- -q -o "$TMP/open.json" "$TMP/open.f"
check "an open loop on 2 ranks: exit 0" test "$rc" -eq 0
check "... 100/job is 100 a second for the job, 50 each rank's 100" test \
	"$(json "$TMP/open.json" "[(a['name'], a['rate'], a['instances']) for a in r['arrivals']]")" = \
	"[('job', 100, 2), ('each', 100, 2)]"
check "... every arrival accounted for, across the ranks" test \
	"$(json "$TMP/open.json" "all(a['offered'] == a['done'] + a['dropped'] + a['unserved'] for a in r['arrivals'])")" = True
check "... a response time for each op of both ranks" test \
	"$(json "$TMP/open.json" "all(f['response_ns']['count'] == f['ops'] > 0 for f in r['flowops'])")" = True

done_testing
