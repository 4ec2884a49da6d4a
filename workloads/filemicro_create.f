# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_create.f -- micro-benchmark: build one file by appending.
# A thread starts from an empty file and appends count chunks of iosize
# bytes (1 GB by default), optionally with O_SYNC. The run ends after
# count I/O operations (mode firstdone) or when runtime is up.
#
# Models filebench's filemicro_create personality with its defaults; `set
# mode quit firstdone` makes the count end the whole run.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_create"  where the file lives
#   count     1024    appends before the run stops
#   iosize    1m      append size (the file ends at count x iosize)
#   nthreads  1       appending threads (all share the count)
#   sync      false   true opens the file with O_SYNC
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D sync=true -D count=256 workloads/filemicro_create.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_create"
set $count=1024
set $iosize=1m
set $nthreads=1
set $sync=false

set mode quit firstdone

define file name=largefile,path=$dir,size=0,prealloc

define process name=filecreate,instances=1
{
  thread name=appender,memsize=10m,instances=$nthreads
  {
    flowop appendfile name=append1,filename=largefile,iosize=$iosize,dsync=$sync
    flowop finishoncount name=finish,value=$count
  }
}

run $runtime
