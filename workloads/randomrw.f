# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# randomrw.f -- concurrent random reads and random overwrites of the same
# large file: one group of threads reads, another group writes, each at
# random block-aligned offsets within the working set.
#
# Models filebench's randomrw personality with a 1 GiB file where filebench
# has 5 GiB.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-randomrw"  where the file lives
#   filesize    1g      size of the file (kept between runs: reuse)
#   iosize      8k      read and write size
#   nthreads    1       threads in each group (readers and writers)
#   workingset  0       bytes at the start of the file used; 0 = all
#   directio    0       1 bypasses the page cache with O_DIRECT
#                       (on tmpfs only from Linux 6.6)
#   runtime     60      seconds to measure
#
# Typical: fbrun -D runtime=30 -D nthreads=2 workloads/randomrw.f

set $runtime=60
set $dir="$tmpdir/fbrun-randomrw"
set $filesize=1g
set $iosize=8k
set $nthreads=1
set $workingset=0
set $directio=0

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse

define process name=randrw,instances=1
{
  thread name=randreader,memsize=5m,instances=$nthreads
  {
    flowop read name=randread1,filename=largefile1,iosize=$iosize,random,workingset=$workingset,directio=$directio
  }
  thread name=randwriter,memsize=5m,instances=$nthreads
  {
    flowop write name=randwrite1,filename=largefile1,iosize=$iosize,random,workingset=$workingset,directio=$directio
  }
}

run $runtime
