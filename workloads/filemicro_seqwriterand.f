# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_seqwriterand.f -- micro-benchmark: sequential appends of random
# size, as a logger with variable-length records does. A thread opens an
# empty file, appends count records uniform in [0, iosize) bytes (about
# 512 MB by default), closes the file, and the run stops (mode firstdone)
# or runtime is up.
#
# Models filebench's filemicro_seqwriterand personality with its defaults;
# O_SYNC is asked for where the file is opened, and the burst ends the whole
# run (mode firstdone).
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_seqwriterand"  where the file lives
#   count     128k    appends in the burst
#   iosize    8k      upper bound of the append size (mean is half)
#   nthreads  1       appending threads
#   sync      false   true opens the file with O_SYNC
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D sync=true -D count=4k workloads/filemicro_seqwriterand.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_seqwriterand"
set $count=128k
set $iosize=8k
set $nthreads=1
set $sync=false

set mode quit firstdone

define file name=bigfile,path=$dir,size=0,prealloc

define process name=filewriter,instances=1
{
  thread name=writer,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open1,filename=bigfile,fd=1,dsync=$sync
    flowop appendfilerand name=append1,fd=1,iosize=$iosize,iters=$count
    flowop closefile name=close1,fd=1
    flowop finishoncount name=finish,value=1
  }
}

run $runtime
