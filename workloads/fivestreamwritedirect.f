# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fivestreamwritedirect.f -- fivestreamwrite with O_DIRECT: five writers
# each stream iosize chunks into their own file, bypassing the page cache,
# so the device is measured under five concurrent sequential write
# streams. To keep disk use bounded, each file is reopened every nwrites
# writes and the pass rewrites the same iosize x nwrites bytes (200 MB per
# file by default) from the start. tmpfs has no device to measure (and no
# O_DIRECT before Linux 6.6); point dir at a disk file system.
#
# Models filebench's fivestreamwritedirect personality; filebench's writers
# grow their files for the whole run, these rewrite a bounded pass.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-fivestreamwritedirect"  where the files live
#   iosize    1m      write size (a multiple of the device block size)
#   nwrites   200     writes per pass; each file peaks at iosize x nwrites
#   nthreads  1       writers per file
#   runtime   60      seconds to measure
#
# Typical: fbrun -D dir=/var/tmp/fbrun -D runtime=30 workloads/fivestreamwritedirect.f

set $runtime=60
set $dir="$tmpdir/fbrun-fivestreamwritedirect"
set $iosize=1m
set $nwrites=200
set $nthreads=1

define file name=largefile1,path=$dir,size=0,prealloc
define file name=largefile2,path=$dir,size=0,prealloc
define file name=largefile3,path=$dir,size=0,prealloc
define file name=largefile4,path=$dir,size=0,prealloc
define file name=largefile5,path=$dir,size=0,prealloc

define process name=seqwrite,instances=1
{
  thread name=seqwriter1,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open1,filename=largefile1,fd=1,directio
    flowop write name=seqwrite1,fd=1,iosize=$iosize,iters=$nwrites,directio
    flowop closefile name=close1,fd=1
  }
  thread name=seqwriter2,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open2,filename=largefile2,fd=1,directio
    flowop write name=seqwrite2,fd=1,iosize=$iosize,iters=$nwrites,directio
    flowop closefile name=close2,fd=1
  }
  thread name=seqwriter3,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open3,filename=largefile3,fd=1,directio
    flowop write name=seqwrite3,fd=1,iosize=$iosize,iters=$nwrites,directio
    flowop closefile name=close3,fd=1
  }
  thread name=seqwriter4,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open4,filename=largefile4,fd=1,directio
    flowop write name=seqwrite4,fd=1,iosize=$iosize,iters=$nwrites,directio
    flowop closefile name=close4,fd=1
  }
  thread name=seqwriter5,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open5,filename=largefile5,fd=1,directio
    flowop write name=seqwrite5,fd=1,iosize=$iosize,iters=$nwrites,directio
    flowop closefile name=close5,fd=1
  }
}

run $runtime
