# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_seqwrite.f -- micro-benchmark: write a file sequentially from
# empty. A thread appends count chunks of iosize bytes (1 GB by default)
# in one burst and the run stops after that burst (mode firstdone), or
# when runtime is up.
#
# Models filebench's filemicro_seqwrite personality with its defaults,
# without the obsolete cached attribute; the burst ends the whole run (mode
# firstdone).
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_seqwrite"  where the file lives
#   count     1024    appends in the burst
#   iosize    1m      append size (the file ends at count x iosize)
#   nthreads  1       appending threads
#   sync      false   true opens the file with O_SYNC
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D iosize=64k -D count=8192 workloads/filemicro_seqwrite.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_seqwrite"
set $count=1024
set $iosize=1m
set $nthreads=1
set $sync=false

set mode quit firstdone

define file name=bigfile,path=$dir,size=0,prealloc

define process name=filewriter,instances=1
{
  thread name=writer,memsize=10m,instances=$nthreads
  {
    flowop appendfile name=append1,filename=bigfile,iosize=$iosize,iters=$count,dsync=$sync
    flowop finishoncount name=finish,value=1
  }
}

run $runtime
