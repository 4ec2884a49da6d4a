# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# randomwrite.f -- random overwrites inside one large file, like a
# database updating blocks in place. Each thread writes iosize blocks at
# random block-aligned offsets within the working set; the file never
# grows beyond filesize.
#
# Models filebench's randomwrite personality with a 1 GiB file where
# filebench has 5 GiB.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-randomwrite"  where the file lives
#   filesize    1g      size of the file (kept between runs: reuse)
#   iosize      8k      write size
#   nthreads    1       writing threads
#   workingset  0       bytes at the start of the file to write to;
#                       0 = the whole file
#   directio    0       1 bypasses the page cache with O_DIRECT
#                       (on tmpfs only from Linux 6.6)
#   runtime     60      seconds to measure
#
# Typical: fbrun -D runtime=30 -D directio=1 workloads/randomwrite.f

set $runtime=60
set $dir="$tmpdir/fbrun-randomwrite"
set $filesize=1g
set $iosize=8k
set $nthreads=1
set $workingset=0
set $directio=0

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse

define process name=randwrite,instances=1
{
  thread name=randwriter,memsize=5m,instances=$nthreads
  {
    flowop write name=randwrite1,filename=largefile1,iosize=$iosize,random,workingset=$workingset,directio=$directio
  }
}

run $runtime
