# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# genomics.f -- a genome analysis pipeline in the manner of SPECstorage's
# GENOMICS: each job reads its sequencer output in large sequential
# reads, looks up a shared reference at random and writes its aligned
# output sequentially; the load is counted in jobs.
#
# From SPEC's public descriptions (SPECstorage Solution 2020 User's
# Guide, "Workloads and Business Metrics", and SPEC's talk "Introducing
# the AI/ML and Genomics Workloads from the SPEC Storage Subcommittee",
# Storage Developer Conference 2019): the business metric is the JOB,
# a genomics analysis pipeline's I/O over large sequence files and a
# reference.
# fbrun's choices (not SPEC's numbers): 2 threads a job, each pass
# reading 1 MiB of input in sequence, 4 random 64 KiB lookups in the
# reference and one 256 KiB append of output, 4 passes a second; input
# files of 128 MiB, a reference of 512 MiB, output files that grow for
# the run.  The objective (a response time bound) is the user's.
#
# Knobs (override with fbrun -D name=value):
#   dir         $tmpdir   where the trees are made (spec-genomics-*)
#   jobs        1         business metrics: jobs at once
#   procs       2         threads per job
#   rate        4         passes a second per thread
#   inputs      4         input (sequence) files
#   inputsize   128m      bytes of each input file
#   refsize     512m      bytes of the reference
#   iosize      1m        bytes per input read
#   refiosize   64k       bytes per reference lookup
#   lookups     4         reference lookups per pass
#   outiosize   256k      bytes per output append
#   outputs     16        output files
#   runtime     300       seconds
#
# The jobs that hold a response time, here a mean of 10 ms:
#   fbrun curve --levels jobs=1,2,4,8 --slo 'mean<10ms' spec/genomics

set $dir=$tmpdir
set $jobs=1
set $procs=2
set $rate=4
set $inputs=4
set $inputsize=128m
set $refsize=512m
set $iosize=1m
set $refiosize=64k
set $lookups=4
set $outiosize=256k
set $outputs=16
set $runtime=300

define fileset name=spec-genomics-input,path=$dir,entries=$inputs,size=$inputsize,dirwidth=100,prealloc,readonly
define fileset name=spec-genomics-reference,path=$dir,entries=1,size=$refsize,dirwidth=1,prealloc,readonly
define fileset name=spec-genomics-output,path=$dir,entries=$outputs,size=$outiosize,dirwidth=100,prealloc

define process name=job,instances=$jobs
{
  thread name=aligner,memsize=$iosize,instances=$procs,rate=$rate
  {
    flowop read name=read-input,filesetname=spec-genomics-input,fd=1,iosize=$iosize
    flowop read name=lookup,filesetname=spec-genomics-reference,fd=2,iosize=$refiosize,random,iters=$lookups
    flowop appendfile name=write-output,filesetname=spec-genomics-output,fd=3,iosize=$outiosize
  }
}

echo "genomics: $jobs job(s) of $procs threads, $rate passes/s each"
run $runtime
