# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# ior-hard-read.f -- IO500's ior-hard read phase: every client reads
# 47008-byte records of the one shared file, those the next rank wrote
# (IOR -t 47008 -b 47008 -s N -C, no -F): rank r reads records r + 1,
# r + 1 + N, ... (the last rank reads rank 0's), so no client reads what
# its own cache may hold.  Run it with fbrun-mpi after ior-hard-write.f
# with the same dir, records and ranks.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-ior-hard"  where the file lives
#   records     100000  records each rank reads (the phase ends then)
#   runtime     300     the longest the phase may run (IO500: 300 s)
#
# The file is trusted to be there as written (trusttree): run the write
# phase first.  It is kept (reuse); a script on this path without reuse
# removes it.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 scale/ior-hard-read

set $dir="$tmpdir/fbrun-ior-hard"
set $records=100000
set $runtime=300

define file name=iorhard,path=$dir,size=0,prealloc,reuse,trusttree,shared

define process name=ior,instances=1
{
  thread name=reader,memsize=47008,instances=1
  {
    flowop read name=read,filesetname=iorhard,fd=1,iosize=47008,stride=$nranks,startrecord=$nextrank
    flowop finishoncount name=read-all,value=$records,target=read
  }
}

echo "ior-hard read: $records records of 47008 bytes per rank, the next rank's"
run $runtime
