# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_rwrite.f -- micro-benchmark: small random overwrites. A thread
# writes iosize blocks at random aligned offsets of a 1 GB file, through
# the page cache unless sync is set, until bytes have been written
# (128 MB by default) or runtime is up.
#
# Models filebench's filemicro_rwrite personality with its defaults, without
# the obsolete cached attribute; the byte count ends the whole run (mode
# firstdone).
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_rwrite"  where the file lives
#   bytes     128m    bytes to write before the run stops
#   filesize  1g      size of the file (kept between runs: reuse)
#   iosize    2k      write size
#   iters     1       writes per flowop pass
#   nthreads  1       writing threads (all share the byte count)
#   sync      false   true opens the file with O_SYNC
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D sync=true -D bytes=16m workloads/filemicro_rwrite.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_rwrite"
set $bytes=128m
set $filesize=1g
set $iosize=2k
set $iters=1
set $nthreads=1
set $sync=false

set mode quit firstdone

define file name=bigfile1,path=$dir,size=$filesize,prealloc,reuse

define process name=filewriter,instances=1
{
  thread name=writer,memsize=10m,instances=$nthreads
  {
    flowop write name=randwrite1,filename=bigfile1,iosize=$iosize,random,iters=$iters,dsync=$sync
    flowop finishonbytes name=finish,value=$bytes
  }
}

run $runtime
