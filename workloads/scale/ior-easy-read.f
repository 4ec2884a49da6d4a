# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# ior-easy-read.f -- IO500's ior-easy read phase: every client reads its
# own large file back, sequentially, in large transfers (IOR -F -r -t 2m).
# Run it with fbrun-mpi after ior-easy-write.f, with the same dir and
# filesize: the files it wrote are read (a missing or short one is
# written again before the clock starts).
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-ior-easy"  where the files live
#   filesize    1g      bytes each rank reads (the phase ends then)
#   iosize      2m      transfer size (IO500: 2 MiB)
#   runtime     300     the longest the phase may run
#
# Where it differs from IO500: IO500 drops the page cache between phases
# on each client (and reads another rank's file, -C); run
# "echo 3 > /proc/sys/vm/drop_caches" on every client before this phase
# for a cold read.  The tree is removed afterwards.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/io500 -D filesize=16g scale/ior-easy-read

set $dir="$tmpdir/fbrun-ior-easy"
set $filesize=1g
set $iosize=2m
set $runtime=300

define file name=ioreasy,path=$dir,size=$filesize,prealloc,reuse,trusttree

define process name=ior,instances=1
{
  thread name=reader,memsize=$iosize,instances=1
  {
    flowop read name=read,filesetname=ioreasy,fd=1,iosize=$iosize
    flowop finishonbytes name=readall,value=$filesize,target=read
  }
}

echo "ior-easy read: $filesize per rank in $iosize transfers"
run $runtime
