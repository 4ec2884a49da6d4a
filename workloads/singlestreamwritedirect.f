# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# singlestreamwritedirect.f -- singlestreamwrite with O_DIRECT: one writer
# streams iosize chunks into a file, bypassing the page cache, so the
# device itself is measured. To keep disk use bounded, the file is closed
# and reopened every nwrites writes and each pass rewrites the same
# iosize x nwrites bytes (1 GB by default) from the start. tmpfs has no
# device (and no O_DIRECT before Linux 6.6); point dir at a disk file
# system.
#
# Models filebench's singlestreamwritedirect personality; filebench's writer
# grows the file for the whole run, this one rewrites a bounded pass.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-singlestreamwritedirect"  where the file lives
#   iosize    1m      write size (a multiple of the device block size)
#   nwrites   1024    writes per pass; the file peaks at iosize x nwrites
#   nthreads  1       writers of the same file
#   runtime   60      seconds to measure
#
# Typical: fbrun -D dir=/var/tmp/fbrun -D runtime=30 workloads/singlestreamwritedirect.f

set $runtime=60
set $dir="$tmpdir/fbrun-singlestreamwritedirect"
set $iosize=1m
set $nwrites=1024
set $nthreads=1

define file name=largefile1,path=$dir,size=0,prealloc

define process name=seqwrite,instances=1
{
  thread name=seqwriter,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open1,filename=largefile1,fd=1,directio
    flowop write name=seqwrite1,fd=1,iosize=$iosize,iters=$nwrites,directio
    flowop closefile name=close1,fd=1
  }
}

run $runtime
