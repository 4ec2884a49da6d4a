# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_rwritedsync.f -- micro-benchmark: small synchronous random
# writes. A thread writes iosize blocks at random aligned offsets of a
# 1 GB file opened with O_SYNC, so every write waits for stable storage.
# The run stops after count writes or when runtime is up; on a slow disk
# the runtime usually comes first.
#
# Models filebench's filemicro_rwritedsync personality with its defaults;
# the count ends the whole run (mode firstdone).
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_rwritedsync"  where the file lives
#   count     65536   writes before the run stops
#   filesize  1g      size of the file (kept between runs: reuse)
#   iosize    2k      write size
#   iters     1       writes per flowop pass
#   nthreads  1       writing threads (all share the count)
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D count=4096 workloads/filemicro_rwritedsync.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_rwritedsync"
set $count=65536
set $filesize=1g
set $iosize=2k
set $iters=1
set $nthreads=1

set mode quit firstdone

define file name=bigfile,path=$dir,size=$filesize,prealloc,reuse

define process name=filewriter,instances=1
{
  thread name=writer,memsize=10m,instances=$nthreads
  {
    flowop write name=syncwrite1,filename=bigfile,iosize=$iosize,random,dsync,iters=$iters
    flowop finishoncount name=finish,value=$count
  }
}

run $runtime
