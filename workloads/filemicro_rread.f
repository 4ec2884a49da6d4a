# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_rread.f -- micro-benchmark: small random reads. A thread reads
# iosize blocks at random aligned offsets of a 1 GB file until bytes have
# been read (128 MB by default), or until runtime is up.
#
# Models filebench's filemicro_rread personality with its defaults, without
# the obsolete cached attribute; the byte count ends the whole run (mode
# firstdone).
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_rread"  where the file lives
#   bytes     128m    bytes to read before the run stops
#   filesize  1g      size of the file (kept between runs: reuse)
#   iosize    2k      read size
#   iters     1       reads per flowop pass
#   nthreads  1       reading threads (all share the byte count)
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D iosize=4k -D bytes=512m workloads/filemicro_rread.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_rread"
set $bytes=128m
set $filesize=1g
set $iosize=2k
set $iters=1
set $nthreads=1

set mode quit firstdone

define file name=bigfile1,path=$dir,size=$filesize,prealloc,reuse

define process name=filereader,instances=1
{
  thread name=reader,memsize=10m,instances=$nthreads
  {
    flowop read name=randread1,filename=bigfile1,iosize=$iosize,random,iters=$iters
    flowop finishonbytes name=finish,value=$bytes
  }
}

run $runtime
