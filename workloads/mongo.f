# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# mongo.f -- a document store that keeps each post in its own small file,
# in the style of the early MongoDB/GridFS benchmarks. A thread appends a
# random amount to a post, rereads a post whole, and deletes a post from a
# second set of expired posts. The run stops as soon as the expired set
# is empty (mode firstdone), or when runtime is up, whichever comes first.
#
# Models filebench's mongo personality with 5000 posts per set where
# filebench has 1000, preallocated by one thread.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-mongo"  where both post sets live
#   nfiles      5000    posts in each of the two sets (2 x 80 MB at start)
#   dirwidth    20      mean number of posts per directory
#   filesize    16k     size of each post
#   nthreads    1       concurrent threads
#   meaniosize  16k     appends are uniform in [0, meaniosize)
#   readiosize  1m      chunk size of the whole-post reads
#   runtime     60      seconds to measure at most
#
# Typical: fbrun -D runtime=30 workloads/mongo.f

set $runtime=60
set $dir="$tmpdir/fbrun-mongo"
set $nfiles=5000
set $dirwidth=20
set $filesize=16k
set $nthreads=1
set $meaniosize=16k
set $readiosize=1m

set mode quit firstdone

define fileset name=posts,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$dirwidth,prealloc
define fileset name=expired,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$dirwidth,prealloc

define process name=mongo,instances=1
{
  thread name=docstore,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open1,filesetname=posts,fd=1
    flowop appendfilerand name=append1,fd=1,iosize=$meaniosize
    flowop closefile name=close1,fd=1
    flowop openfile name=open2,filesetname=posts,fd=1
    flowop readwholefile name=readpost2,fd=1,iosize=$readiosize
    flowop closefile name=close2,fd=1
    flowop deletefile name=expire3,filesetname=expired
  }
}

run $runtime
