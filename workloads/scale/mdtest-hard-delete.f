# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# mdtest-hard-delete.f -- IO500's mdtest-hard delete phase: every client
# removes files another client created in the one shared directory
# (mdtest -t -F -r -N 1).  Run it with fbrun-mpi after the other
# mdtest-hard phases with the same dir, files and ranks.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-mdtest-hard"  where the directory lives
#   files       100000  files each rank removes (the phase ends then)
#   width       1000000000  files per directory (as in the write phase)
#   runtime     300     the longest the phase may run
#
# rankshift=1: rank r removes the files rank r+1 wrote (mdtest -N 1).
# The files are trusted to be there (trusttree).  The emptied directory
# is removed after the run (removeafter): this is the last phase.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 scale/mdtest-hard-delete

set $dir="$tmpdir/fbrun-mdtest-hard"
set $files=100000
set $width=1000000000
set $runtime=300

define fileset name=mdhard,path=$dir,entries=$files,size=3901,dirwidth=$width,dirgamma=0,prealloc=100,reuse,trusttree,removeafter,shared,rankshift=1

define process name=mdtest,instances=1
{
  thread name=remover,memsize=4k,instances=1
  {
    flowop deletefile name=delete,filesetname=mdhard
    flowop finishoncount name=deleted,value=$files,target=delete
  }
}

echo "mdtest-hard delete: $files files per rank, another rank's"
run $runtime
