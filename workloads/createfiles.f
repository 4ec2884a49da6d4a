# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# createfiles.f -- file creation speed: many threads populate an empty
# tree, each creating a file, writing it whole and closing it. The run
# ends when the tree is full (mode firstdone) or when runtime is up.
#
# Models filebench's createfiles personality; it creates 20000 files where
# filebench creates 50000.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-createfiles"  tree to populate
#   nfiles        20000   files to create (about 320 MB when full)
#   meandirwidth  100     mean number of files per directory
#   meanfilesize  16k     size of each file
#   iosize        1m      chunk size of the writes
#   nthreads      16      creating threads
#   runtime       60      seconds to measure at most
#
# Typical: fbrun -D nfiles=5000 workloads/createfiles.f

set $runtime=60
set $dir="$tmpdir/fbrun-createfiles"
set $nfiles=20000
set $meandirwidth=100
set $meanfilesize=16k
set $iosize=1m
set $nthreads=16

set mode quit firstdone

define fileset name=newfiles,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth

define process name=createfiles,instances=1
{
  thread name=creator,memsize=10m,instances=$nthreads
  {
    flowop createfile name=create1,filesetname=newfiles,fd=1
    flowop writewholefile name=write1,fd=1,iosize=$iosize
    flowop closefile name=close1,fd=1
  }
}

run $runtime
