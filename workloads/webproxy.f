# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# webproxy.f -- a caching web proxy. Each thread evicts one cached object
# (delete), fetches a replacement (create, append a random amount, close)
# and then serves five cached objects (open, read whole, close). The cache
# is one flat directory of small files, 80% full at start.
#
# Models filebench's webproxy personality with 50 threads where filebench
# has 100; its opslimit, which does nothing without an event generator, is
# left out.
#
# Knobs (override with fbrun -D name=value):
#   dir            "$tmpdir/fbrun-webproxy"  cache directory
#   nfiles         10000   objects the cache can hold (about 125 MB at start)
#   meandirwidth   1000000 files per directory; keeps the cache flat
#   filesize       16k     size of each preallocated object
#   nthreads       50      concurrent proxy threads (10 MB buffer each)
#   meaniosize     16k     new objects are appended uniform in [0, meaniosize)
#   iosize         1m      chunk size of the whole-object reads
#   runtime        60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/webproxy.f

set $runtime=60
set $dir="$tmpdir/fbrun-webproxy"
set $nfiles=10000
set $meandirwidth=1000000
set $filesize=16k
set $nthreads=50
set $meaniosize=16k
set $iosize=1m

define fileset name=cache,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=80

define process name=webproxy,instances=1
{
  thread name=proxy,memsize=10m,instances=$nthreads
  {
    flowop deletefile name=evict1,filesetname=cache
    flowop createfile name=fetch1,filesetname=cache,fd=1
    flowop appendfilerand name=store1,fd=1,iosize=$meaniosize
    flowop closefile name=close1,fd=1
    flowop openfile name=open2,filesetname=cache,fd=1
    flowop readwholefile name=serve2,fd=1,iosize=$iosize
    flowop closefile name=close2,fd=1
    flowop openfile name=open3,filesetname=cache,fd=1
    flowop readwholefile name=serve3,fd=1,iosize=$iosize
    flowop closefile name=close3,fd=1
    flowop openfile name=open4,filesetname=cache,fd=1
    flowop readwholefile name=serve4,fd=1,iosize=$iosize
    flowop closefile name=close4,fd=1
    flowop openfile name=open5,filesetname=cache,fd=1
    flowop readwholefile name=serve5,fd=1,iosize=$iosize
    flowop closefile name=close5,fd=1
    flowop openfile name=open6,filesetname=cache,fd=1
    flowop readwholefile name=serve6,fd=1,iosize=$iosize
    flowop closefile name=close6,fd=1
  }
}

run $runtime
