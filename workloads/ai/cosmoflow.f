# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# cosmoflow.f -- MLPerf Storage's CosmoFlow training data loading: each
# emulated accelerator's reader threads read one small sample file after
# another into a queue, and the accelerator takes each and computes on
# it briefly; it must stay busy 70% of the time.
#
# Source: the DLIO benchmark's cosmoflow_h100 workload configuration:
# one sample of 2828486 bytes (mean) per tfrecord file, 524288 files,
# batch of 1, 4 read threads, 0.00350 s of computation per batch on an
# H100 (MLPerf Storage: utilisation threshold 0.70).  The loader reads up
# to 2 batches per read thread ahead (TensorFlow's prefetch is tuned at
# run time; 2 is its usual depth).
#
# Knobs (override with fbrun -D name=value):
#   dir           $tmpdir   where the fileset is made
#   files         512       sample files (DLIO: 524288; MLPerf Storage
#                           sizes the dataset at 5 times the hosts' memory)
#   samplesize    2828486   bytes of each sample file
#   iosize        1m        bytes a read asks for
#   accelerators  1         emulated accelerators (each with its loader)
#   readers       4         read threads per accelerator
#   batch         1         samples per batch
#   depth         8         samples a loader reads ahead: 2 x readers x batch
#   compute       3500      microseconds of computation per batch
#   runtime       300       the longest the run may go on
#
# The files are kept for the next run (reuse), so that a curve's levels
# and repeated runs read the same tree: remove $dir/cosmoflow afterwards.
#
# Left out: no framework, no decoding of the records, no shuffling across
# epochs (files are picked at random), and the spread of sample sizes
# (stdev 71311 bytes).  The reads are real; the computation is a sleep.
#
# Typical: fbrun -D dir=/mnt/data -D files=524288 -D accelerators=8 ai/cosmoflow

set $dir=$tmpdir
set $files=512
set $samplesize=2828486
set $iosize=1m
set $accelerators=1
set $readers=4
set $batch=1
set $depth=8
set $compute=3500
set $runtime=300

define fileset name=cosmoflow,path=$dir,entries=$files,size=$samplesize,dirwidth=1000,prealloc,reuse

define process name=accelerator,instances=$accelerators
{
  thread name=loader,memsize=$iosize,instances=$readers
  {
    flowop openfile name=open,filesetname=cosmoflow,fd=1
    flowop readwholefile name=read,fd=1,iosize=$iosize
    flowop closefile name=close,fd=1
    flowop queueput name=put,target=batch
  }
  thread name=gpu,accelerator=70
  {
    flowop queuetake name=batch,value=$batch,depth=$depth
    flowop compute name=step,value=$compute
  }
}

echo "cosmoflow: $accelerators accelerator(s), batches of $batch samples of $samplesize bytes"
run $runtime
