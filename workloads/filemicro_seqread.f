# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_seqread.f -- micro-benchmark: sequential reads of a 1 GB file
# in iosize chunks, wrapping to the start at the end of the file, for the
# whole run. With a warm page cache this measures memory copy speed; drop
# the cache or use a bigger file to measure the disk.
#
# Models filebench's filemicro_seqread personality with its defaults,
# without the obsolete cached attribute.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_seqread"  where the file lives
#   filesize  1g      size of the file (kept between runs: reuse)
#   iosize    1m      read size
#   nthreads  1       reading threads
#   runtime   60      seconds to measure
#
# Typical: fbrun -D runtime=30 -D iosize=64k workloads/filemicro_seqread.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_seqread"
set $filesize=1g
set $iosize=1m
set $nthreads=1

define file name=largefile,path=$dir,size=$filesize,prealloc,reuse

define process name=filereader,instances=1
{
  thread name=reader,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread1,filename=largefile,iosize=$iosize
  }
}

run $runtime
