# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# makedirs.f -- directory creation speed: threads mkdir the empty leaf
# directories of a tree until all exist. The run ends when none is left
# to make (mode firstdone) or when runtime is up.
#
# Models filebench's makedirs personality with its defaults.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-makedirs"  tree to populate
#   ndirs         10000   leaf directories to create
#   meandirwidth  100     mean number of entries per directory
#   nthreads      16      mkdir threads
#   runtime       60      seconds to measure at most
#
# Typical: fbrun -D ndirs=50000 workloads/makedirs.f

set $runtime=60
set $dir="$tmpdir/fbrun-makedirs"
set $ndirs=10000
set $meandirwidth=100
set $nthreads=16

set mode quit firstdone

define fileset name=dirtree,path=$dir,size=0,leafdirs=$ndirs,dirwidth=$meandirwidth

define process name=makedirs,instances=1
{
  thread name=dirmaker,memsize=1m,instances=$nthreads
  {
    flowop makedir name=mkdir1,filesetname=dirtree
  }
}

run $runtime
