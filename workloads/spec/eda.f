# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# eda.f -- electronic design automation in the manner of SPECstorage's
# EDA_BLENDED: frontend processes stat, read and append to many small
# files while backend processes stream large ones; the load is counted
# in job sets, each a fixed blend of the two.
#
# From SPEC's public descriptions (SPEC's page "What's new in SPEC SFS
# 2014 SP2", spec.org/sfs2014/whatsnewSP2.html, and the SPECstorage
# Solution 2020 User's Guide, "Workloads and Business Metrics"): the
# business metric is the JOB_SET, a blend of EDA_FRONTEND and
# EDA_BACKEND; a frontend process generates 100 operations a second,
# metadata intensive, over about 1,200 files of 16 KiB and 1,200 empty
# files (appends, existence and permission checks); SFS 2014 gives a job
# set 11 GiB of data and 12 MiB of client memory.
# fbrun's choices (not SPEC's numbers): 3 frontend and 2 backend
# threads a job set; a frontend pass is 12 stats (8 of the 16 KiB files,
# 4 existence checks of the empty ones), one small file read whole and
# one append of 4 KiB to an empty file (opens and closes besides: 18
# operations), 5 passes a second (90 operations, near SPEC's 100);
# the backend as large files streamed (EDA's physical design and
# extraction): a pass reads 16 MiB of a large file and writes 16 MiB
# of a new one in 1 MiB transfers, once a second.  The objective (a
# response time bound) is the user's.
#
# Knobs (override with fbrun -D name=value):
#   dir         $tmpdir   where the trees are made (spec-eda-*)
#   jobsets     1         business metrics: job sets at once
#   frontends   3         frontend threads per job set
#   backends    2         backend threads per job set
#   ferate      5         frontend passes a second per thread
#   berate      1         backend passes a second per thread
#   smallfiles  3600      16 KiB files, and as many empty ones
#                         (SPEC: 1,200 of each per frontend process)
#   smallsize   16k       bytes of each small file
#   appendsize  4k        bytes of each append
#   largefiles  4         large files the backends read
#   largesize   256m      bytes of each large file
#   iosize      1m        bytes per backend read or write
#   transfers   16        backend reads, and writes, per pass
#   outputs     1000      names for the backends' new files, each made
#                         and removed in a pass (at least backends x
#                         jobsets)
#   runtime     300       seconds
#
# The job sets that hold a response time, here a mean of 10 ms:
#   fbrun curve --levels jobsets=1,2,4,8 --slo 'mean<10ms' spec/eda

set $dir=$tmpdir
set $jobsets=1
set $frontends=3
set $backends=2
set $ferate=5
set $berate=1
set $smallfiles=3600
set $smallsize=16k
set $appendsize=4k
set $largefiles=4
set $largesize=256m
set $iosize=1m
set $transfers=16
set $outputs=1000
set $runtime=300

define fileset name=spec-eda-small,path=$dir,entries=$smallfiles,size=$smallsize,dirwidth=100,prealloc
define fileset name=spec-eda-empty,path=$dir,entries=$smallfiles,size=0,dirwidth=100,prealloc
define fileset name=spec-eda-large,path=$dir,entries=$largefiles,size=$largesize,dirwidth=100,prealloc,readonly
define fileset name=spec-eda-output,path=$dir,entries=$outputs,size=$largesize,dirwidth=100

define process name=jobset,instances=$jobsets
{
  thread name=frontend,memsize=$smallsize,instances=$frontends,rate=$ferate,arrivals=poisson
  {
    flowop statfile name=stat,filesetname=spec-eda-small,iters=8
    flowop statfile name=exists,filesetname=spec-eda-empty,iters=4
    flowop openfile name=open-small,filesetname=spec-eda-small,fd=1
    flowop readwholefile name=read-small,fd=1,iosize=$smallsize
    flowop closefile name=close-small,fd=1
    flowop openfile name=open-empty,filesetname=spec-eda-empty,fd=2
    flowop appendfile name=append,fd=2,iosize=$appendsize
    flowop closefile name=close-empty,fd=2
  }
  thread name=backend,memsize=$iosize,instances=$backends,rate=$berate
  {
    flowop openfile name=open-large,filesetname=spec-eda-large,fd=1
    flowop read name=read-large,fd=1,iosize=$iosize,iters=$transfers
    flowop closefile name=close-large,fd=1
    flowop createfile name=create-output,filesetname=spec-eda-output,fd=2
    flowop write name=write-output,fd=2,iosize=$iosize,iters=$transfers
    flowop closefile name=close-output,fd=2
    flowop deletefile name=remove-output,filesetname=spec-eda-output
  }
}

echo "eda: $jobsets job set(s) of $frontends frontend and $backends backend threads"
run $runtime
