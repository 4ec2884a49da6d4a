# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_delete.f -- micro-benchmark: delete files. A populated tree of
# small files is built first; then threads unlink files one by one. Every
# delete counts towards count; the run stops when count deletes have been
# done (mode firstdone) or when runtime is up.
#
# Models filebench's filemicro_delete personality with its defaults, the
# tree preallocated by one thread; its opslimit, which does nothing without
# an event generator, is left out.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-filemicro_delete"  tree to delete from
#   nfiles        5000    files built before the run (80 MB)
#   count         1000    deletes before the run stops
#   filesize      16k     size of each file
#   meandirwidth  100     mean number of files per directory
#   nthreads      16      deleting threads (all share the count)
#   runtime       60      seconds to measure at most
#
# Typical: fbrun -D count=4000 workloads/filemicro_delete.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_delete"
set $nfiles=5000
set $count=1000
set $filesize=16k
set $meandirwidth=100
set $nthreads=16

set mode quit firstdone

define fileset name=victims,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100

define process name=filedelete,instances=1
{
  thread name=deleter,memsize=10m,instances=$nthreads
  {
    flowop deletefile name=delete1,filesetname=victims
    flowop finishoncount name=finish,value=$count
  }
}

run $runtime
