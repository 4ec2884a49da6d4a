# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# mdtest-hard-read.f -- IO500's mdtest-hard read phase: every client
# reads the 3901 bytes of files another client created in the one shared
# directory (mdtest -t -F -E -e 3901 -N 1).  Run it with fbrun-mpi after
# mdtest-hard-write.f (and -stat) with the same dir, files and ranks.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-mdtest-hard"  where the directory lives
#   files       100000  files each rank reads (the phase ends then)
#   width       1000000000  files per directory (as in the write phase)
#   runtime     300     the longest the phase may run
#
# rankshift=1: rank r reads the files rank r+1 wrote (mdtest -N 1).  The
# files are trusted to be there (trusttree): run the write phase first.
# The tree is kept for the delete phase.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 scale/mdtest-hard-read

set $dir="$tmpdir/fbrun-mdtest-hard"
set $files=100000
set $width=1000000000
set $runtime=300

define fileset name=mdhard,path=$dir,entries=$files,size=3901,dirwidth=$width,dirgamma=0,prealloc=100,reuse,trusttree,shared,rankshift=1

define process name=mdtest,instances=1
{
  thread name=reader,memsize=4k,instances=1
  {
    flowop openfile name=open,filesetname=mdhard,fd=1
    flowop readwholefile name=read,fd=1,iosize=3901
    flowop closefile name=close,fd=1
    flowop finishoncount name=read-all,value=$files,target=read
  }
}

echo "mdtest-hard read: $files files of 3901 bytes per rank, another rank's"
run $runtime
