# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fivestreamwrite.f -- five concurrent sequential writers (several
# recorders or backup streams at once): each stream writes iosize chunks
# into its own file. To keep disk use bounded, each file is reopened every
# nwrites writes and the pass rewrites the same iosize x nwrites bytes
# (200 MB per file by default) from the start: the first pass grows the
# file, later passes overwrite it.
#
# Models filebench's fivestreamwrite personality; filebench's writers grow
# their files for the whole run, these rewrite a bounded pass.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-fivestreamwrite"  where the files live
#   iosize    1m      write size
#   nwrites   200     writes per pass; each file peaks at iosize x nwrites
#   nthreads  1       writers per file
#   runtime   60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/fivestreamwrite.f

set $runtime=60
set $dir="$tmpdir/fbrun-fivestreamwrite"
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
    flowop openfile name=open1,filename=largefile1,fd=1
    flowop write name=seqwrite1,fd=1,iosize=$iosize,iters=$nwrites
    flowop closefile name=close1,fd=1
  }
  thread name=seqwriter2,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open2,filename=largefile2,fd=1
    flowop write name=seqwrite2,fd=1,iosize=$iosize,iters=$nwrites
    flowop closefile name=close2,fd=1
  }
  thread name=seqwriter3,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open3,filename=largefile3,fd=1
    flowop write name=seqwrite3,fd=1,iosize=$iosize,iters=$nwrites
    flowop closefile name=close3,fd=1
  }
  thread name=seqwriter4,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open4,filename=largefile4,fd=1
    flowop write name=seqwrite4,fd=1,iosize=$iosize,iters=$nwrites
    flowop closefile name=close4,fd=1
  }
  thread name=seqwriter5,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open5,filename=largefile5,fd=1
    flowop write name=seqwrite5,fd=1,iosize=$iosize,iters=$nwrites
    flowop closefile name=close5,fd=1
  }
}

run $runtime
