# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# ior-easy-write.f -- IO500's ior-easy write phase: every client writes
# one large file of its own, sequentially, in large transfers (IOR -F -t 2m).
# Run it with fbrun-mpi: each rank writes <dir>/rank-N/ioreasy/... alone;
# run ior-easy-read.f after it to read the files back.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-ior-easy"  where the files live
#   filesize    1g      bytes each rank writes (the phase ends then)
#   iosize      2m      transfer size (IO500: 2 MiB)
#   runtime     300     the longest the phase may run (IO500: 300 s)
#
# Where it differs from IO500: IO500 writes for a fixed time
# (stonewalling) and reports the bytes written; here each rank writes
# filesize bytes, or stops at runtime: give --stonewall to end every
# rank when the first has written its file.  The file is kept (reuse)
# for the read phase.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 -D filesize=16g scale/ior-easy-write

set $dir="$tmpdir/fbrun-ior-easy"
set $filesize=1g
set $iosize=2m
set $runtime=300

define file name=ioreasy,path=$dir,size=0,prealloc,reuse

define process name=ior,instances=1
{
  thread name=writer,memsize=$iosize,instances=1
  {
    flowop appendfile name=write,filesetname=ioreasy,fd=1,iosize=$iosize
    flowop finishonbytes name=written,value=$filesize,target=write
  }
}

echo "ior-easy write: $filesize per rank in $iosize transfers"
run $runtime
