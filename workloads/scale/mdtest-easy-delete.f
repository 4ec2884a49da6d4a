# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# mdtest-easy-delete.f -- IO500's mdtest-easy delete phase: every client
# removes each of the empty files it created (mdtest -u -F -r).  Run it
# with fbrun-mpi after mdtest-easy-stat.f with the same dir and files.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-mdtest-easy"  where the trees live
#   files       100000  files each rank removes (the phase ends then)
#   dirwidth    10000   files per directory (as in the write phase)
#   runtime     300     the longest the phase may run
#
# Where it differs from IO500: as mdtest-easy-write.f.  The files are
# trusted to be there (trusttree): run the write phase first.  The
# emptied tree is removed after the run (removeafter): this is the last
# phase, and nothing is left under dir.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 scale/mdtest-easy-delete

set $dir="$tmpdir/fbrun-mdtest-easy"
set $files=100000
set $dirwidth=10000
set $runtime=300

define fileset name=mdeasy,path=$dir,entries=$files,size=0,dirwidth=$dirwidth,dirgamma=0,prealloc=100,reuse,trusttree,removeafter

define process name=mdtest,instances=1
{
  thread name=deleter,memsize=4k,instances=1
  {
    flowop deletefile name=delete,filesetname=mdeasy
    flowop finishoncount name=deleted,value=$files,target=delete
  }
}

echo "mdtest-easy delete: $files files per rank"
run $runtime
