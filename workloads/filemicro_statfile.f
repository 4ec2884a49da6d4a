# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_statfile.f -- micro-benchmark: stat() calls. A tree of files
# is built, then threads stat the files one after another for the whole
# run. This measures path lookup and inode attribute access; the data in
# the files is never read.
#
# Models filebench's filemicro_statfile personality with 16 KiB files and 1
# MiB thread buffers where filebench has 128 KiB and 10 MiB; only the inodes
# are touched either way.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-filemicro_statfile"  tree of files
#   nfiles        10000   files in the tree
#   meandirwidth  20      mean number of files per directory
#   filesize      16k     size of each file (160 MB in all)
#   nthreads      20      stat threads
#   runtime       60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/filemicro_statfile.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_statfile"
set $nfiles=10000
set $meandirwidth=20
set $filesize=16k
set $nthreads=20

define fileset name=statset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100

define process name=examinefiles,instances=1
{
  thread name=statter,memsize=1m,instances=$nthreads
  {
    flowop statfile name=stat1,filesetname=statset
  }
}

run $runtime
