# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# resnet50.f -- MLPerf Storage's ResNet-50 training data loading: each
# emulated accelerator's reader threads read small samples one after the
# other out of large record files into a queue, and the accelerator takes
# a batch and computes on it; it must stay busy 90% of the time.
#
# Source: the DLIO benchmark's resnet50_h100 workload configuration:
# 1251 samples of 114660 bytes (mean) per tfrecord file, batch of 64, 8
# read threads, 0.103 s of computation per batch on an H100 (MLPerf
# Storage: 1024 files, utilisation threshold 0.90).  The loader reads up
# to 2 batches per read thread ahead, PyTorch's DataLoader prefetch.
#
# Knobs (override with fbrun -D name=value):
#   dir           $tmpdir   where the fileset is made
#   files         8         record files (DLIO: 1024; MLPerf Storage sizes
#                           the dataset at 5 times the hosts' memory)
#   samples       1251      samples per file
#   samplesize    114660    bytes of each sample
#   filesize      143439660 bytes of each file: samples x samplesize
#   accelerators  1         emulated accelerators (each with its loader)
#   readers       8         read threads per accelerator
#   batch         64        samples per batch
#   depth         1024      samples a loader reads ahead: 2 x readers x batch
#   compute       103000    microseconds of computation per batch
#   runtime       300       the longest the run may go on
#
# The files are kept for the next run (reuse), so that a curve's levels
# and repeated runs read the same tree: remove $dir/resnet50 afterwards.
#
# Left out: no framework, no decoding or resizing of the images, no
# shuffling of samples within a file (each file is read through in order,
# files picked at random), and the spread of sample sizes (stdev 136076
# bytes).  The reads are real; the computation is a sleep.
#
# Typical: fbrun -D dir=/mnt/data -D files=1024 -D accelerators=8 ai/resnet50

set $dir=$tmpdir
set $files=8
set $samples=1251
set $samplesize=114660
set $filesize=143439660
set $accelerators=1
set $readers=8
set $batch=64
set $depth=1024
set $compute=103000
set $runtime=300

# one sample read and handed to the accelerator's queue, samples times
define flowop name=sample,iters=$samples
{
  flowop read name=read,fd=1,iosize=$samplesize
  flowop queueput name=put,target=batch
}

define fileset name=resnet50,path=$dir,entries=$files,size=$filesize,dirwidth=1000,prealloc,reuse

define process name=accelerator,instances=$accelerators
{
  thread name=loader,memsize=$samplesize,instances=$readers
  {
    flowop openfile name=open,filesetname=resnet50,fd=1
    flowop sample name=file
    flowop closefile name=close,fd=1
  }
  thread name=gpu,accelerator=90
  {
    flowop queuetake name=batch,value=$batch,depth=$depth
    flowop compute name=step,value=$compute
  }
}

echo "resnet50: $accelerators accelerator(s), batches of $batch samples of $samplesize bytes"
run $runtime
