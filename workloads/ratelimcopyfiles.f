# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# ratelimcopyfiles.f -- the copyfiles tree copy held to a fixed rate: at
# most eventrate files are written per second. Its iopslimit names the
# writewholefile flowop as its target, so each event pays for one
# destination file and the reads of the source are not charged. The run
# ends when every file has been copied or when runtime is up.
#
# Models filebench's ratelimcopyfiles personality with its defaults.
#
# Knobs (override with fbrun -D name=value):
#   dir        "$tmpdir/fbrun-ratelimcopyfiles"  source and destination trees
#   eventrate  10      files copied per second; 0 means no limit
#   nfiles     1000    files to copy (16 MB source)
#   dirwidth   20      mean number of files per directory
#   filesize   16k     size of each file
#   iosize     1m      chunk size of the reads and writes
#   nthreads   1       copying threads
#   runtime    60      seconds to measure at most
#
# Typical: fbrun -D eventrate=100 workloads/ratelimcopyfiles.f

set $runtime=60
set $dir="$tmpdir/fbrun-ratelimcopyfiles"
set $eventrate=10
set $nfiles=1000
set $dirwidth=20
set $filesize=16k
set $iosize=1m
set $nthreads=1

eventgen rate=$eventrate
set mode quit firstdone

define fileset name=srcfiles,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$dirwidth,prealloc=100
define fileset name=dstfiles,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$dirwidth

define process name=ratelimcopy,instances=1
{
  thread name=copier,memsize=10m,instances=$nthreads
  {
    flowop openfile name=opensrc,filesetname=srcfiles,fd=1
    flowop readwholefile name=readsrc,fd=1,iosize=$iosize
    flowop createfile name=createdst,filesetname=dstfiles,fd=2
    flowop writewholefile name=writedst,filesetname=dstfiles,fd=2,srcfd=1,iosize=$iosize
    flowop closefile name=closesrc,fd=1
    flowop closefile name=closedst,fd=2
    flowop iopslimit name=copylimit,target=writedst
  }
}

run $runtime
