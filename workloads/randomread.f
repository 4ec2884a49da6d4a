# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# randomread.f -- random reads of one large file, like a database or a
# VM image served from the page cache or disk. Each thread reads iosize
# blocks at random block-aligned offsets within the working set.
#
# Models filebench's randomread personality with a 1 GiB file where
# filebench has 5 GiB.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-randomread"  where the file lives
#   filesize    1g      size of the file (kept between runs: reuse)
#   iosize      8k      read size
#   nthreads    1       reading threads
#   workingset  0       bytes at the start of the file to read from;
#                       0 = the whole file
#   directio    0       1 bypasses the page cache with O_DIRECT
#                       (on tmpfs only from Linux 6.6)
#   runtime     60      seconds to measure
#
# Typical: fbrun -D runtime=30 -D nthreads=4 workloads/randomread.f

set $runtime=60
set $dir="$tmpdir/fbrun-randomread"
set $filesize=1g
set $iosize=8k
set $nthreads=1
set $workingset=0
set $directio=0

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse

define process name=randread,instances=1
{
  thread name=randreader,memsize=5m,instances=$nthreads
  {
    flowop read name=randread1,filename=largefile1,iosize=$iosize,random,workingset=$workingset,directio=$directio
  }
}

run $runtime
