# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# listdirs.f -- directory listing speed (ls, find, backup scans): a deep
# tree of empty files is built, then threads read whole directories
# (opendir, readdir to the end, closedir) in turn for the whole run.
#
# Models filebench's listdirs personality with 20000 files where filebench
# has 50000.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-listdirs"  tree to list
#   nfiles        20000   empty files in the tree
#   meandirwidth  5       mean entries per directory; small means deep
#   nthreads      16      listing threads
#   runtime       60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/listdirs.f

set $runtime=60
set $dir="$tmpdir/fbrun-listdirs"
set $nfiles=20000
set $meandirwidth=5
set $nthreads=16

define fileset name=deeptree,path=$dir,size=0,entries=$nfiles,dirwidth=$meandirwidth,prealloc

define process name=listdirs,instances=1
{
  thread name=dirlister,memsize=1m,instances=$nthreads
  {
    flowop listdir name=list1,filesetname=deeptree
  }
}

run $runtime
