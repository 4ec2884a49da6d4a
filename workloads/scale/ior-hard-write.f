# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# ior-hard-write.f -- IO500's ior-hard write phase: every client writes
# 47008-byte records into one file the clients share, the ranks'
# records interleaved (IOR -t 47008 -b 47008 -s N, no -F): rank r writes
# records r, r + N, r + 2N, ... of the file, N the number of ranks.
# Run it with fbrun-mpi, then ior-hard-read.f with the same dir, records
# and ranks.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-ior-hard"  where the file lives
#   records     100000  records each rank writes (the phase ends then)
#   runtime     300     the longest the phase may run (IO500: 300 s)
#
# The file is shared: rank 0 makes it, every rank opens it and writes
# at its own offsets (stride=$nranks, startrecord=$rank).  Where it
# differs from IO500: IOR writes for a fixed time (stonewalling); here
# each rank writes its records, or stops at runtime: give --stonewall to
# end every rank when the first is done.  The file is kept (reuse) for
# the read phase.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 scale/ior-hard-write

set $dir="$tmpdir/fbrun-ior-hard"
set $records=100000
set $runtime=300

define file name=iorhard,path=$dir,size=0,prealloc,reuse,shared

define process name=ior,instances=1
{
  thread name=writer,memsize=47008,instances=1
  {
    flowop write name=write,filesetname=iorhard,fd=1,iosize=47008,stride=$nranks,startrecord=$rank
    flowop finishoncount name=written,value=$records,target=write
  }
}

echo "ior-hard write: $records records of 47008 bytes per rank, one shared file"
run $runtime
