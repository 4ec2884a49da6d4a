# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bench/run's workload: 4 KiB random reads on a cached 64 MiB file,
# $nthreads threads; the same work bench/rawread.c does.
set $dir="$tmpdir/fbrun-bench"
set $nthreads=1
define file name=bigfile,path=$dir,size=64m,prealloc,reuse
define process name=reader
{
  thread name=reader,memsize=1m,instances=$nthreads
  {
    flowop read name=randread,filesetname=bigfile,iosize=4k,random
  }
}
run 5
