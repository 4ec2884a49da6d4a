# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# oltp.f -- the I/O pattern of an online transaction processing database
# (the classic Oracle-style model). Shadow processes, one per client
# session, do small random reads of the data files, burn some CPU, and
# post to the log writer and to the database writers. The log writer
# waits for enough posts, then writes a large synchronous record to the
# log file. Database writers flush batches of small random asynchronous
# writes to the data files. Semaphores couple the three groups, so the
# writers move at the pace the readers set.
#
# Models filebench's oltp personality: the same log writer, database
# writers and shadows with their flowops, but 16 shadows and 4 database
# writers where filebench starts 200 and 10, and no useism (Solaris's
# shared memory for the buffers).
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-oltp"  data and log files
#   nfiles        10      data files
#   filesize      10m     size of each data file (100 MB in all)
#   nlogfiles     1       log files
#   logfilesize   10m     size of each log file
#   iosize        2k      database block size for reads and data writes
#   nshadows      16      shadow (client session) processes
#   ndbwriters    4       database writer processes
#   usermode      200000  CPU loop iterations per shadow transaction
#   memperthread  1m      buffer per thread
#   workingset    0       bytes of each data file touched; 0 = whole file
#   directio      0       1 opens the files with O_DIRECT (tmpfs: only
#                         from Linux 6.6)
#   eventrate     0       shadow transactions per second in total;
#                         0 means no limit
#   runtime       60      seconds to measure
#
# Typical: fbrun -D runtime=30 -D nshadows=8 workloads/oltp.f

set $runtime=60
set $dir="$tmpdir/fbrun-oltp"
set $nfiles=10
set $filesize=10m
set $nlogfiles=1
set $logfilesize=10m
set $iosize=2k
set $nshadows=16
set $ndbwriters=4
set $usermode=200000
set $memperthread=1m
set $workingset=0
set $directio=0
set $eventrate=0

eventgen rate=$eventrate

define fileset name=datafiles,path=$dir,size=$filesize,entries=$nfiles,dirwidth=1024,prealloc=100,reuse
define fileset name=logfiles,path=$dir,size=$logfilesize,entries=$nlogfiles,dirwidth=1024,prealloc=100,reuse

# Log writer: one large synchronous write per batch of commits.
define process name=lgwr,instances=1
{
  thread name=lgwr,memsize=$memperthread
  {
    flowop aiowrite name=lg-write,filesetname=logfiles,iosize=256k,random,directio=$directio,dsync
    flowop aiowait name=lg-aiowait
    flowop semblock name=lg-block,value=3200,highwater=1000
  }
}

# Database writers: flush batches of dirty blocks.
define process name=dbwr,instances=$ndbwriters
{
  thread name=dbwr,memsize=$memperthread
  {
    flowop aiowrite name=dbwr-write,filesetname=datafiles,iosize=$iosize,workingset=$workingset,random,iters=100,opennext,directio=$directio,dsync
    flowop hog name=dbwr-hog,value=10000
    flowop semblock name=dbwr-block,value=1000,highwater=2000
    flowop aiowait name=dbwr-aiowait
  }
}

# Shadows: read a block, compute, tell the writers there is work.
define process name=shadow,instances=$nshadows
{
  thread name=shadow,memsize=$memperthread
  {
    flowop read name=shadow-read,filesetname=datafiles,iosize=$iosize,workingset=$workingset,random,opennext,directio=$directio
    flowop hog name=shadow-hog,value=$usermode
    flowop sempost name=shadow-post-lg,value=1,target=lg-block,blocking
    flowop sempost name=shadow-post-dbwr,value=1,target=dbwr-block,blocking
    flowop eventlimit name=shadow-rate
  }
}

run $runtime
