#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun report of fbrun-mpi's results: the job's tables and the per-rank
# table the run printed, byte for byte, for 2 and 3 ranks and a
# --stonewall job; fbrun compare of a 1-rank job against a 2-rank one.
. "${srcdir:-.}/tests/lib.sh"

MPI_FBRUN=$(dirname "$FBRUN")/fbrun-mpi
why=""
if ! command -v mpirun >/dev/null 2>&1; then
	why="mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
elif [ ! -x "$MPI_FBRUN" ]; then
	why="fbrun-mpi was not built (configure found no mpicc)"
fi
if [ -n "$why" ]; then
	skip "fbrun report of fbrun-mpi results: $why"
	done_testing
	exit
fi

mpi_setup

# logless FILE: the run's output without its "0.012: ..." log lines
logless() { grep -Ev '^[0-9]+\.[0-9]{3}: ' "$1" || :; }
same() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1"; diff "$2" "$3" | head -20 | diag; fi
}

# each rank: a fixed count of reads and appends, a flowop that never runs
dir=$TMP/fs
cat >"$TMP/job.f" <<F
define fileset name=fs1,path=$dir,entries=16,size=8k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop openfile name=open1,filesetname=fs1,fd=1
  flowop readwholefile name=read1,fd=1,iosize=8k
  flowop closefile name=close1,fd=1
  flowop appendfilerand name=app1,filesetname=fs1,iosize=1k
  flowop finishoncount name=fin,value=200,target=read1 }
  thread name=idle { flowop delay name=never,value=100 } }
run 600
F
for np in 2 3; do
	rm -f "$TMP/r.json"
	mpi "$np" -o "$TMP/r.json" "$TMP/job.f"
	[ -s "$TMP/r.json" ] || diag <"$TMP/err"
	logless "$TMP/out" >"$TMP/table$np"
	grepq "$np ranks: the run printed its per-rank table" \
		"^Per-rank \\($np ranks on 1 host\\)" "$TMP/table$np"
	grepq "$np ranks: a line for rank $((np - 1))" "^$((np - 1)) +[^ ]+ +[0-9.]+ " \
		"$TMP/table$np"
	run_fbrun report "$TMP/r.json"
	check "$np ranks: report exits 0" test "$rc" -eq 0
	same "$np ranks: report prints the tables the run printed, byte for byte" \
		"$TMP/table$np" "$TMP/out"
	cp "$TMP/r.json" "$TMP/r$np.json"
done

# the page shows the per-rank table; the CSV has the job's rows, as the run's
run_fbrun report --format html "$TMP/r3.json"
grepq "report --format html: the per-rank table" '^Per-rank \(3 ranks on 1 host\)' "$TMP/out"
grep '^Per-rank' -A 5 "$TMP/table3" | grep -v "'" >"$TMP/ranks3"
grep -F -f "$TMP/ranks3" "$TMP/out" >"$TMP/page-ranks" || :
same "report --format html: its lines as the run printed them" "$TMP/ranks3" "$TMP/page-ranks"
rm -f "$TMP/c.json"
mpi 2 -q --format csv -o "$TMP/c.json" "$TMP/job.f"
cp "$TMP/out" "$TMP/c.csv"
run_fbrun report --format csv "$TMP/c.json"
same "report --format csv: the CSV the run printed (the job's rows)" "$TMP/c.csv" "$TMP/out"

# --stonewall: the line naming the rank that ended the run
cat >"$TMP/wall.f" <<F
define fileset name=fs1,path=$dir,entries=4,size=4k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop statfile name=st,filesetname=fs1
  flowop delay name=d,value=\$rank
  flowop finishoncount name=fin,value=50,target=st } }
run 600
F
rm -f "$TMP/r.json"
mpi 2 --stonewall -o "$TMP/r.json" "$TMP/wall.f"
logless "$TMP/out" >"$TMP/wall"
grepq "--stonewall: the run names the rank" "^Rank 0's work was done first" "$TMP/wall"
run_fbrun report "$TMP/r.json"
same "--stonewall: report prints it too, byte for byte" "$TMP/wall" "$TMP/out"

# compare: one client against two, the job's totals like any two runs
rm -f "$TMP/r1.json"
mpi 1 -o "$TMP/r1.json" "$TMP/job.f"
run_fbrun compare "$TMP/r1.json" "$TMP/r2.json"
check "compare of a 1-rank and a 2-rank job: exit 0" test "$rc" -eq 0
grepq "... names the flowops" '^read1 +ops/s ' "$TMP/out"
grepq "... and the IO Summary" '^IO Summary +ops/s ' "$TMP/out"

done_testing
