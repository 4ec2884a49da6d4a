# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# mdtest-hard-write.f -- IO500's mdtest-hard create phase: every client
# creates files of 3901 bytes, all of them in one directory the clients
# share (mdtest -t -F -w 3901 -n N, one directory for all processes).
# Run it with fbrun-mpi, then mdtest-hard-stat.f, mdtest-hard-read.f and
# mdtest-hard-delete.f with the same dir, files and ranks.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-mdtest-hard"  where the directory lives
#   files       100000  files each rank creates (the phase ends then)
#   width       1000000000  files per directory: keep it at least
#                       files x ranks to have them all in one directory
#   runtime     300     the longest the phase may run
#
# The fileset is shared: rank 0 makes the directory, each rank creates
# and writes its own files in it (entry i is rank i mod N's, so no two
# clients make one file).  Where it differs from IO500: the file names
# are fbrun's serials, not mdtest's "file.mdtest.R.N"; IO500 ends the
# phase by stonewall time, this one by count (add --stonewall to end
# every rank when the first is done).  The tree is kept (reuse) for the
# next phases.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 scale/mdtest-hard-write

set $dir="$tmpdir/fbrun-mdtest-hard"
set $files=100000
set $width=1000000000
set $runtime=300

define fileset name=mdhard,path=$dir,entries=$files,size=3901,dirwidth=$width,dirgamma=0,prealloc=0,reuse,shared

define process name=mdtest,instances=1
{
  thread name=creator,memsize=4k,instances=1
  {
    flowop createfile name=create,filesetname=mdhard,fd=1
    flowop writewholefile name=write,fd=1,iosize=3901
    flowop closefile name=close,fd=1
    flowop finishoncount name=created,value=$files,target=create
  }
}

echo "mdtest-hard create: $files files of 3901 bytes per rank, one directory"
run $runtime
