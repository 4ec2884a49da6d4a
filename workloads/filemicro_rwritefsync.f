# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_rwritefsync.f -- micro-benchmark: a burst of random writes
# made durable by one fsync. A thread dirties iters random iosize blocks
# of a 1 GB file in the page cache (128 MB by default), then fsyncs the
# file; the run stops after count fsyncs (mode firstdone) or when runtime
# is up. The fsync latency is the figure of interest.
#
# Models filebench's filemicro_rwritefsync personality with its defaults;
# finishoncount counts the fsyncs by name, and the file is kept between runs
# (reuse).
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_rwritefsync"  where the file lives
#   count     1       fsyncs before the run stops
#   filesize  1g      size of the file (kept between runs: reuse)
#   iosize    8k      write size
#   iters     16384   writes between two fsyncs
#   nthreads  1       writing threads
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D count=4 -D iters=4096 workloads/filemicro_rwritefsync.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_rwritefsync"
set $count=1
set $filesize=1g
set $iosize=8k
set $iters=16384
set $nthreads=1

set mode quit firstdone

define file name=bigfile,path=$dir,size=$filesize,prealloc,reuse

define process name=filewriter,instances=1
{
  thread name=writer,memsize=10m,instances=$nthreads
  {
    flowop write name=randwrite1,filename=bigfile,fd=1,iosize=$iosize,random,iters=$iters
    flowop fsync name=fsync1,fd=1
    flowop finishoncount name=finish,value=$count,target=fsync1
  }
}

run $runtime
