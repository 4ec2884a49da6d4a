# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_createrand.f -- micro-benchmark: grow a file with appends of
# random size. Each append is uniform in [0, iosize), so about half of
# iosize on average; an fsync follows every iters appends. The run stops
# once bytes have been written (1 GB by default), or when runtime is up.
#
# Models filebench's filemicro_createrand personality with its defaults; the
# fsync names the file it syncs (fd=1), and the byte count ends the whole
# run (mode firstdone).
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_createrand"  where the file lives
#   bytes     1g      bytes to append before the run stops
#   iosize    1m      upper bound of the append size
#   iters     10      appends between two fsyncs
#   nthreads  1       appending threads (all share the byte count)
#   sync      false   true opens the file with O_SYNC
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D bytes=256m workloads/filemicro_createrand.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_createrand"
set $bytes=1g
set $iosize=1m
set $iters=10
set $nthreads=1
set $sync=false

set mode quit firstdone

define file name=largefile,path=$dir,size=0,prealloc

define process name=filecreate,instances=1
{
  thread name=appender,memsize=10m,instances=$nthreads
  {
    flowop appendfilerand name=append1,filename=largefile,fd=1,iosize=$iosize,iters=$iters,dsync=$sync
    flowop fsync name=fsync1,fd=1
    flowop finishonbytes name=finish,value=$bytes
  }
}

run $runtime
