# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# mdtest-easy-write.f -- IO500's mdtest-easy create phase: every client
# creates empty files in a directory tree of its own (mdtest -u -F -n N).
# Run it with fbrun-mpi, then mdtest-easy-stat.f and mdtest-easy-delete.f
# with the same dir and files.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-mdtest-easy"  where the trees live
#   files       100000  files each rank creates (the phase ends then)
#   dirwidth    10000   files per directory
#   runtime     300     the longest the phase may run
#
# Where it differs from IO500: mdtest creates in one directory per rank;
# here each rank's files spread over directories of dirwidth files.
# The tree is kept (reuse) for the stat and delete phases: by default
# 100,000 empty files per rank stay under dir (400,000 with -np 4) until
# mdtest-easy-delete.f, run the same way, removes them and their
# directories (or rm -rf the dir).
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 scale/mdtest-easy-write

set $dir="$tmpdir/fbrun-mdtest-easy"
set $files=100000
set $dirwidth=10000
set $runtime=300

define fileset name=mdeasy,path=$dir,entries=$files,size=0,dirwidth=$dirwidth,dirgamma=0,prealloc=0,reuse

define process name=mdtest,instances=1
{
  thread name=creator,memsize=4k,instances=1
  {
    flowop createfile name=create,filesetname=mdeasy,fd=1
    flowop closefile name=close,fd=1
    flowop finishoncount name=created,value=$files,target=create
  }
}

echo "mdtest-easy create: $files empty files per rank"
run $runtime
