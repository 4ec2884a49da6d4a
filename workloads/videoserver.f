# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# videoserver.f -- a video-on-demand server. nthreads streams read the
# titles on offer in large sequential chunks, while a single writer keeps
# the library fresh: every repintval seconds it deletes a title of the
# stored (passive) set and writes a new one in its place. The streams
# share one read budget of eventrate MiB/s (each event lets 1 MiB
# through), so each of them gets about eventrate / nthreads MiB/s.
#
# Models filebench's videoserver personality at a laptop's scale: 4 active
# and 12 passive titles of 64 MiB and 8 streams, where filebench has 32 and
# 194 titles of 10 GiB and 48 streams.
#
# Knobs (override with fbrun -D name=value):
#   dir            "$tmpdir/fbrun-videoserver"  where the videos live
#   filesize       64m     size of each video
#   numactivevids  4       titles being served (256 MB)
#   numpassivevids 12      stored titles, half present at start (384 MB)
#   nthreads       8       concurrent video streams
#   readiosize     256k    read size of the streams
#   writeiosize    1m      write size of new videos
#   repintval      10      seconds between video replacements
#   eventrate      96      read bandwidth cap in MiB/s; 0 means no limit
#   runtime        60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/videoserver.f

set $runtime=60
set $dir="$tmpdir/fbrun-videoserver"
set $filesize=64m
set $numactivevids=4
set $numpassivevids=12
set $nthreads=8
set $readiosize=256k
set $writeiosize=1m
set $repintval=10
set $eventrate=96

eventgen rate=$eventrate

define fileset name=activevids,path=$dir,size=$filesize,entries=$numactivevids,dirwidth=4,prealloc
define fileset name=passivevids,path=$dir,size=$filesize,entries=$numpassivevids,dirwidth=20,prealloc=50

define process name=vidwriter,instances=1
{
  thread name=vidwriter,memsize=10m,instances=1
  {
    flowop deletefile name=vidremove,filesetname=passivevids
    flowop createfile name=vidcreate,filesetname=passivevids,fd=1
    flowop writewholefile name=vidwrite,fd=1,srcfd=1,iosize=$writeiosize
    flowop closefile name=vidclose,fd=1
    flowop delay name=replacepause,value=$repintval
  }
}

define process name=vidreaders,instances=1
{
  thread name=vidreader,memsize=10m,instances=$nthreads
  {
    flowop read name=vidread,filesetname=activevids,iosize=$readiosize
    flowop bwlimit name=vidbwcap,target=vidread
  }
}

run $runtime
