# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# createdelete-swing.f -- file population swinging between empty and
# full: one thread creates nfiles files in a single flat directory (create,
# write whole, close), then wakes a second thread and sleeps; the second
# thread deletes all nfiles files, wakes the first, and sleeps; and so on
# until runtime is up. This shows how a file system copes with a
# directory that repeatedly grows and shrinks. An optional event rate
# caps the creates per second.
#
# Models filebench's createdelete-swing personality with 4000 files of 128
# KiB where filebench swings 1000 of 500 KiB, and with semaphores for the
# hand-over (see below).
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-createdelete-swing"  the directory
#   nfiles        4000    files per swing; also the directory width, so
#                         the directory stays flat
#   meanfilesize  128k    size of each file (500 MB when the set is full)
#   iosize        1m      write chunk size
#   eventrate     0       creates per second; 0 means no limit
#   runtime       60      seconds to measure
#
# Typical: fbrun -D runtime=30 -D nfiles=1000 workloads/createdelete-swing.f

set $runtime=60
set $dir="$tmpdir/fbrun-createdelete-swing"
set $nfiles=4000
set $meanfilesize=128k
set $iosize=1m
set $eventrate=0

eventgen rate=$eventrate

# dirgamma=0: every directory gets exactly dirwidth entries, so one flat
# directory holds the whole set. No prealloc: the set starts empty.
define fileset name=swingset,path=$dir,entries=$nfiles,size=$meanfilesize,dirwidth=$nfiles,dirgamma=0

# The threads hand over with a semaphore, not block/wakeup as in the stock
# script: a wakeup sent before the other thread has reached its block is
# lost, and both threads then wait until the end of the run. A sempost
# is counted, so it is never lost.

# Create one file, fill it, close it; paced by the event rate if set.
define flowop name=createandclose
{
  flowop createfile name=swing-create,filesetname=swingset,fd=1
  flowop writewholefile name=swing-write,filesetname=swingset,fd=1,iosize=$iosize
  flowop closefile name=swing-close,fd=1
  flowop eventlimit name=swing-rate
}

define process name=creator,instances=1
{
  thread name=creatorthread,memsize=10m,instances=1
  {
    flowop createandclose name=fillup,iters=$nfiles
    flowop sempost name=wakedeleter,target=deleterblock,value=1
    flowop semblock name=creatorblock,value=1
  }
}

define process name=deleter,instances=1
{
  thread name=deleterthread,memsize=1m,instances=1
  {
    flowop semblock name=deleterblock,value=1
    flowop deletefile name=drain,filesetname=swingset,iters=$nfiles
    flowop sempost name=wakecreator,target=creatorblock,value=1
  }
}

run $runtime
