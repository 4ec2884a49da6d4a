# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_createfiles.f -- micro-benchmark: create small files in a
# flat directory that is already half full. A thread creates a file,
# writes it whole and closes it. Every file operation counts towards
# count, so the run stops after count/3 files (5000 by default), or when
# runtime is up.
#
# Models filebench's filemicro_createfiles personality with its defaults;
# `set mode quit firstdone` makes the count end the whole run.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-filemicro_createfiles"  the directory
#   nfiles        20000   entries; half exist at start
#   count         15000   file operations (create+write+close) before stop
#   filesize      1k      size of each file
#   iosize        1m      write chunk size
#   meandirwidth  100000  files per directory; keeps the directory flat
#   nthreads      1       creating threads (all share the count)
#   runtime       60      seconds to measure at most
#
# Typical: fbrun -D nthreads=4 workloads/filemicro_createfiles.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_createfiles"
set $nfiles=20000
set $count=15000
set $filesize=1k
set $iosize=1m
set $meandirwidth=100000
set $nthreads=1

set mode quit firstdone

define fileset name=smallfiles,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=50

define process name=filecreate,instances=1
{
  thread name=creator,memsize=10m,instances=$nthreads
  {
    flowop createfile name=create1,filesetname=smallfiles,fd=1
    flowop writewholefile name=write1,filesetname=smallfiles,fd=1,iosize=$iosize
    flowop closefile name=close1,fd=1
    flowop finishoncount name=finish,value=$count
  }
}

run $runtime
