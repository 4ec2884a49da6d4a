# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# removedirs.f -- directory removal speed: a tree of empty leaf
# directories is built first, then threads rmdir them until none is left
# (mode firstdone) or runtime is up.
#
# Models filebench's removedirs personality with its defaults.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-removedirs"  tree to tear down
#   ndirs         10000   leaf directories created before the run
#   meandirwidth  100     mean number of entries per directory
#   nthreads      16      rmdir threads
#   runtime       60      seconds to measure at most
#
# Typical: fbrun -D ndirs=50000 workloads/removedirs.f

set $runtime=60
set $dir="$tmpdir/fbrun-removedirs"
set $ndirs=10000
set $meandirwidth=100
set $nthreads=16

set mode quit firstdone

define fileset name=dirtree,path=$dir,size=0,leafdirs=$ndirs,dirwidth=$meandirwidth,prealloc

define process name=removedirs,instances=1
{
  thread name=dirremover,memsize=1m,instances=$nthreads
  {
    flowop removedir name=rmdir1,filesetname=dirtree
  }
}

run $runtime
