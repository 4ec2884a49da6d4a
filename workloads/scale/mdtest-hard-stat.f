# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# mdtest-hard-stat.f -- IO500's mdtest-hard stat phase: every client
# stats files another client created in the one shared directory
# (mdtest -t -F -T -N 1).  Run it with fbrun-mpi after
# mdtest-hard-write.f with the same dir, files and ranks.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-mdtest-hard"  where the directory lives
#   files       100000  files each rank stats (the phase ends then)
#   width       1000000000  files per directory (as in the write phase)
#   runtime     300     the longest the phase may run
#
# rankshift=1: rank r stats the files rank r+1 wrote, as mdtest -N 1
# does, so no client's cache holds what it stats.  The files are trusted
# to be there (trusttree): run the write phase first.  The tree is kept
# for the next phases.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 scale/mdtest-hard-stat

set $dir="$tmpdir/fbrun-mdtest-hard"
set $files=100000
set $width=1000000000
set $runtime=300

define fileset name=mdhard,path=$dir,entries=$files,size=3901,dirwidth=$width,dirgamma=0,prealloc=100,reuse,trusttree,shared,rankshift=1

define process name=mdtest,instances=1
{
  thread name=statter,memsize=4k,instances=1
  {
    flowop statfile name=stat,filesetname=mdhard
    flowop finishoncount name=statted,value=$files,target=stat
  }
}

echo "mdtest-hard stat: $files files per rank, another rank's"
run $runtime
