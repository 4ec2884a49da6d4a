# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fivestreamread.f -- five concurrent sequential readers (several backups
# or video streams at once): each stream reads its own large file front
# to back in iosize chunks and starts over at the end.
#
# Models filebench's fivestreamread personality with 200 MiB files where
# filebench reads five 1 GiB files.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-fivestreamread"  where the files live
#   filesize  200m    size of each of the five files (1 GB in all; reuse
#                     keeps them between runs)
#   iosize    1m      read size
#   nthreads  1       readers per file
#   runtime   60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/fivestreamread.f

set $runtime=60
set $dir="$tmpdir/fbrun-fivestreamread"
set $filesize=200m
set $iosize=1m
set $nthreads=1

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse
define file name=largefile2,path=$dir,size=$filesize,prealloc,reuse
define file name=largefile3,path=$dir,size=$filesize,prealloc,reuse
define file name=largefile4,path=$dir,size=$filesize,prealloc,reuse
define file name=largefile5,path=$dir,size=$filesize,prealloc,reuse

define process name=seqread,instances=1
{
  thread name=seqreader1,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread1,filename=largefile1,iosize=$iosize
  }
  thread name=seqreader2,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread2,filename=largefile2,iosize=$iosize
  }
  thread name=seqreader3,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread3,filename=largefile3,iosize=$iosize
  }
  thread name=seqreader4,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread4,filename=largefile4,iosize=$iosize
  }
  thread name=seqreader5,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread5,filename=largefile5,iosize=$iosize
  }
}

run $runtime
