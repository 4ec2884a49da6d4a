# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# vda.f -- video data acquisition in the manner of SPECstorage's VDA:
# each stream records video in large sequential writes, a clip at a
# time, while a companion reads back what is stored, a tenth as many
# bytes; the load is counted in streams.
#
# From SPEC's public descriptions (the SPECstorage Solution 2020 User's
# Guide, "Workloads and Business Metrics"; the SPEC SFS 2014 SP2 User's
# Guide, whose VDA SPECstorage carries on): the business metric is the
# STREAM, video recorded with a smaller share of reads by a companion;
# SFS 2014 gives a stream 24 GB of data and 10 MiB of client memory.
# fbrun's choices (not SPEC's numbers): one ingest and one companion
# thread a stream; the ingest writes a clip of 10 writes of 256 KiB a
# second (2.5 MiB/s, about 21 Mbit/s), fsyncs it, and removes an old
# clip to make room; the companion reads 256 KiB at random from a
# stored library once a second.  The two touch different files, so
# no read meets a clip being removed.  The objective (a response time
# bound) is the user's: SPEC's run rules judge each load point by the
# rate it achieved.
#
# Knobs (override with fbrun -D name=value):
#   dir         $tmpdir   where the trees are made (spec-vda-*)
#   streams     1         business metrics: streams recorded at once
#   rate        1         clips a second per stream
#   chunks      10        writes per clip
#   iosize      256k      bytes per write or read
#   clips       1024      names for clips, half of them recorded before
#                         the run, for every stream together (at least
#                         4 x streams)
#   library     16        stored files the companions read
#   filesize    64m       bytes of each stored file
#   runtime     300       seconds
#
# The streams that hold a response time, here a mean of 20 ms:
#   fbrun curve --levels streams=1,2,4,8 --slo 'mean<20ms' spec/vda

set $dir=$tmpdir
set $streams=1
set $rate=1
set $chunks=10
set $iosize=256k
set $clips=1024
set $library=16
set $filesize=64m
set $runtime=300

define fileset name=spec-vda-clips,path=$dir,entries=$clips,size=$iosize,dirwidth=100,prealloc=50
define fileset name=spec-vda-library,path=$dir,entries=$library,size=$filesize,dirwidth=100,prealloc,readonly

define process name=stream,instances=$streams
{
  thread name=ingest,memsize=$iosize,rate=$rate
  {
    flowop deletefile name=remove-clip,filesetname=spec-vda-clips
    flowop createfile name=create-clip,filesetname=spec-vda-clips,fd=1
    flowop write name=record,fd=1,iosize=$iosize,iters=$chunks
    flowop fsync name=persist,fd=1
    flowop closefile name=close-clip,fd=1
  }
  thread name=companion,memsize=$iosize,rate=$rate
  {
    flowop openfile name=open-stored,filesetname=spec-vda-library,fd=1
    flowop read name=playback,fd=1,iosize=$iosize,random
    flowop closefile name=close-stored,fd=1
  }
}

echo "vda: $streams stream(s), $chunks x $iosize recorded $rate time(s) a second each"
run $runtime
