# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# singlestreamread.f -- one sequential reader streaming a large file
# (backup, media playback, a table scan). The thread reads iosize chunks
# front to back and starts over at the end of the file.
#
# Models filebench's singlestreamread personality with a 1 GiB file where
# filebench has 5 GiB.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-singlestreamread"  where the file lives
#   filesize  1g      size of the file (kept between runs: reuse)
#   iosize    1m      read size
#   nthreads  1       readers of the same file
#   runtime   60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/singlestreamread.f

set $runtime=60
set $dir="$tmpdir/fbrun-singlestreamread"
set $filesize=1g
set $iosize=1m
set $nthreads=1

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse

define process name=seqread,instances=1
{
  thread name=seqreader,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread1,filename=largefile1,iosize=$iosize
  }
}

run $runtime
