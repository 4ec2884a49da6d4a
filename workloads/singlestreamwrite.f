# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# singlestreamwrite.f -- one sequential writer streaming data into a file
# (a recorder, a log, a backup target). The thread writes iosize chunks
# front to back. To keep disk use bounded on a laptop, the file is closed
# and reopened every nwrites writes, so each pass rewrites the same
# iosize x nwrites bytes (1 GB by default) from the start: the first pass
# grows the file, later passes overwrite it.
#
# Models filebench's singlestreamwrite personality; filebench's writer grows
# the file for the whole run, this one rewrites a bounded pass.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-singlestreamwrite"  where the file lives
#   iosize    1m      write size
#   nwrites   1024    writes per pass; the file peaks at iosize x nwrites
#   nthreads  1       writers of the same file
#   runtime   60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/singlestreamwrite.f

set $runtime=60
set $dir="$tmpdir/fbrun-singlestreamwrite"
set $iosize=1m
set $nwrites=1024
set $nthreads=1

define file name=largefile1,path=$dir,size=0,prealloc

define process name=seqwrite,instances=1
{
  thread name=seqwriter,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open1,filename=largefile1,fd=1
    flowop write name=seqwrite1,fd=1,iosize=$iosize,iters=$nwrites
    flowop closefile name=close1,fd=1
  }
}

run $runtime
