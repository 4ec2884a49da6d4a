# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# swbuild.f -- a software build in the manner of SPECstorage's SWBUILD:
# mostly stats of source files, as make checks their times, with a few
# read whole, objects written and old ones removed; the load is counted
# in builds, each a fixed set of processes at a fixed operation rate.
#
# From SPEC's public descriptions (the SPECstorage Solution 2020 User's
# Guide, "Workloads and Business Metrics"; the SPEC SFS 2014 SP2 User's
# Guide, whose SWBUILD SPECstorage carries on): the business metric is
# the BUILD; the workload is metadata intensive, like make over tens of
# thousands of files, attributes checked and, where needed, a file read,
# compiled and its output written back; SFS 2014 gives a build 5 GB of
# data and 400 MiB of client memory.
# fbrun's choices (not SPEC's numbers): 5 processes a build, each doing
# 5 passes a second of 19 operations (95 a second; SPEC's load generator
# holds each process to a fixed rate too), stats 14 of the 19 (74%),
# one directory listing, one source read whole, one object removed and
# one written (opens and closes besides); 16 KiB files, 100 to a
# directory.  Left out: access() and chmod(), which no flowop does, and
# the data's compressibility.  The objective (a response time bound) is
# the user's: SPEC's run rules judge each load point by the rate it
# achieved.
#
# Knobs (override with fbrun -D name=value):
#   dir         $tmpdir   where the tree is made (spec-swbuild)
#   builds      1         business metrics: builds run at once
#   procs       5         processes (threads) per build
#   rate        5         passes a second per process (19 operations each)
#   files       20000     files in the tree, for every build together
#                         (SPEC: 5 GB a build; give files for the most
#                         builds the curve goes to)
#   filesize    16k       bytes of each source or object file
#   dirwidth    100       files per directory
#   runtime     300       seconds
#
# The builds that hold a response time, here a mean of 5 ms:
#   fbrun curve --levels builds=1,2,4,8 --slo 'mean<5ms' spec/swbuild

set $dir=$tmpdir
set $builds=1
set $procs=5
set $rate=5
set $files=20000
set $filesize=16k
set $dirwidth=100
set $runtime=300

define fileset name=spec-swbuild,path=$dir,entries=$files,size=$filesize,dirwidth=$dirwidth,prealloc=80

define process name=build,instances=$builds
{
  thread name=make,memsize=$filesize,instances=$procs,rate=$rate,arrivals=poisson
  {
    flowop statfile name=stat,filesetname=spec-swbuild,iters=14
    flowop listdir name=readdir,filesetname=spec-swbuild
    flowop openfile name=open-source,filesetname=spec-swbuild,fd=1
    flowop readwholefile name=read-source,fd=1,iosize=$filesize
    flowop closefile name=close-source,fd=1
    flowop deletefile name=remove-object,filesetname=spec-swbuild
    flowop createfile name=create-object,filesetname=spec-swbuild,fd=2
    flowop writewholefile name=write-object,fd=2,iosize=$filesize
    flowop closefile name=close-object,fd=2
  }
}

echo "swbuild: $builds build(s) of $procs processes, $rate passes/s each"
run $runtime
