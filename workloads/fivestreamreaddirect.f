# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fivestreamreaddirect.f -- fivestreamread with O_DIRECT: five readers
# each stream their own large file front to back in iosize chunks,
# bypassing the page cache, so the device is measured under five
# concurrent sequential streams. tmpfs has no device to measure (and no
# O_DIRECT before Linux 6.6); point dir at a disk file system.
#
# Models filebench's fivestreamreaddirect personality with 200 MiB files
# where filebench reads five 1 GiB files.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-fivestreamreaddirect"  where the files live
#   filesize  200m    size of each of the five files (1 GB in all; reuse
#                     keeps them between runs)
#   iosize    1m      read size (a multiple of the device block size)
#   nthreads  1       readers per file
#   runtime   60      seconds to measure
#
# Typical: fbrun -D dir=/var/tmp/fbrun -D runtime=30 workloads/fivestreamreaddirect.f

set $runtime=60
set $dir="$tmpdir/fbrun-fivestreamreaddirect"
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
    flowop read name=seqread1,filename=largefile1,iosize=$iosize,directio
  }
  thread name=seqreader2,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread2,filename=largefile2,iosize=$iosize,directio
  }
  thread name=seqreader3,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread3,filename=largefile3,iosize=$iosize,directio
  }
  thread name=seqreader4,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread4,filename=largefile4,iosize=$iosize,directio
  }
  thread name=seqreader5,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread5,filename=largefile5,iosize=$iosize,directio
  }
}

run $runtime
