# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_writefsync.f -- micro-benchmark: sequential appends with a
# periodic fsync, as a database log or a copy with periodic sync does.
# A thread appends writeiters chunks of iosize bytes (8 MB by default),
# then fsyncs; the run stops after fsynccount fsyncs (1 GB in all by
# default, mode firstdone) or when runtime is up.
#
# Models filebench's filemicro_writefsync personality; the number of fsyncs,
# fixed at 128 there, is the fsynccount knob here.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-filemicro_writefsync"  where the file lives
#   iosize      8k      append size
#   writeiters  1024    appends between two fsyncs
#   fsynccount  128     fsyncs before the run stops
#   runtime     60      seconds to measure at most
#
# Typical: fbrun -D fsynccount=16 workloads/filemicro_writefsync.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_writefsync"
set $iosize=8k
set $writeiters=1024
set $fsynccount=128

set mode quit firstdone

define file name=bigfile,path=$dir,size=0,prealloc

define process name=filewriter,instances=1
{
  thread name=writer,memsize=10m,instances=1
  {
    flowop appendfile name=append1,filename=bigfile,fd=1,iosize=$iosize,iters=$writeiters
    flowop fsync name=fsync1,fd=1
    flowop finishoncount name=finish,value=$fsynccount,target=fsync1
  }
}

run $runtime
