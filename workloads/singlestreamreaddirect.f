# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# singlestreamreaddirect.f -- singlestreamread with O_DIRECT: one reader
# streams a large file front to back in iosize chunks, bypassing the page
# cache, so the device itself is measured. tmpfs has no device (and no
# O_DIRECT before Linux 6.6); point dir at a disk file system.
#
# Models filebench's singlestreamreaddirect personality with a 1 GiB file
# where filebench has 5 GiB.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-singlestreamreaddirect"  where the file lives
#   filesize  1g      size of the file (kept between runs: reuse)
#   iosize    1m      read size (a multiple of the device block size)
#   nthreads  1       readers of the same file
#   runtime   60      seconds to measure
#
# Typical: fbrun -D dir=/var/tmp/fbrun -D runtime=30 workloads/singlestreamreaddirect.f

set $runtime=60
set $dir="$tmpdir/fbrun-singlestreamreaddirect"
set $filesize=1g
set $iosize=1m
set $nthreads=1

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse

define process name=seqread,instances=1
{
  thread name=seqreader,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread1,filename=largefile1,iosize=$iosize,directio
  }
}

run $runtime
