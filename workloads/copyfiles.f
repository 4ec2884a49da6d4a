# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# copyfiles.f -- copying a directory tree, like cp -r of a source tree.
# A thread opens a source file, reads it whole, creates the destination
# file, writes it whole from what was read, and closes both. The run ends
# when every file has been copied (mode firstdone) or when runtime is up.
#
# Models filebench's copyfiles personality with its default sizes; the
# source tree is preallocated by one thread, where filebench's script asks
# for paralloc.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-copyfiles"  source and destination trees
#   nfiles        1000    files to copy (16 MB source)
#   meandirwidth  20      mean number of files per directory
#   meanfilesize  16k     size of each file
#   iosize        1m      chunk size of the reads and writes
#   nthreads      1       copying threads
#   runtime       60      seconds to measure at most
#
# Typical: fbrun -D nfiles=20000 workloads/copyfiles.f

set $runtime=60
set $dir="$tmpdir/fbrun-copyfiles"
set $nfiles=1000
set $meandirwidth=20
set $meanfilesize=16k
set $iosize=1m
set $nthreads=1

set mode quit firstdone

define fileset name=srcfiles,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100
define fileset name=dstfiles,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth

define process name=copyfiles,instances=1
{
  thread name=copier,memsize=10m,instances=$nthreads
  {
    flowop openfile name=opensrc,filesetname=srcfiles,fd=1
    flowop readwholefile name=readsrc,fd=1,iosize=$iosize
    flowop createfile name=createdst,filesetname=dstfiles,fd=2
    flowop writewholefile name=writedst,fd=2,srcfd=1,iosize=$iosize
    flowop closefile name=closesrc,fd=1
    flowop closefile name=closedst,fd=2
  }
}

run $runtime
