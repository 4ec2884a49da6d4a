# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# openfiles.f -- open/close speed: a tree of empty files is built, then
# threads open and close them one after another for the whole run. This
# mostly measures path lookup and the file table.
#
# Models filebench's openfiles personality with 20000 files where filebench
# has 50000.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-openfiles"  tree of files
#   nfiles        20000   empty files in the tree
#   meandirwidth  100     mean number of files per directory
#   nthreads      16      opening threads
#   runtime       60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/openfiles.f

set $runtime=60
set $dir="$tmpdir/fbrun-openfiles"
set $nfiles=20000
set $meandirwidth=100
set $nthreads=16

define fileset name=emptyfiles,path=$dir,size=0,entries=$nfiles,dirwidth=$meandirwidth,prealloc

define process name=openfiles,instances=1
{
  thread name=opener,memsize=1m,instances=$nthreads
  {
    flowop openfile name=open1,filesetname=emptyfiles,fd=1
    flowop closefile name=close1,fd=1
  }
}

run $runtime
