# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# unet3d.f -- MLPerf Storage's UNet3D training data loading: each
# emulated accelerator's reader threads read whole sample files ahead
# into a queue, and the accelerator takes a batch and computes on it;
# it must stay busy 90% of the time.
#
# Source: the DLIO benchmark's unet3d_h100 workload configuration, which
# MLPerf Storage runs: one sample of 146600628 bytes (mean) per npz file,
# 168 files, batch of 7, 4 read threads, 0.323 s of computation per batch
# on an H100, utilisation threshold 0.90.  The loader reads up to 2
# batches per read thread ahead, PyTorch's DataLoader prefetch.
#
# Knobs (override with fbrun -D name=value):
#   dir           $tmpdir   where the fileset is made
#   files         16        sample files (DLIO: 168; MLPerf Storage sizes
#                           the dataset at 5 times the hosts' memory)
#   samplesize    146600628 bytes of each sample file
#   iosize        4m        bytes a read asks for
#   accelerators  1         emulated accelerators (each with its loader)
#   readers       4         read threads per accelerator
#   batch         7         samples per batch
#   depth         56        samples a loader reads ahead: 2 x readers x batch
#   compute       323000    microseconds of computation per batch
#   runtime       300       the longest the run may go on
#
# The files are kept for the next run (reuse), so that a curve's levels
# and repeated runs read the same tree: remove $dir/unet3d afterwards.
#
# Left out: no framework, no decompression or decoding of the samples,
# no shuffling across epochs (files are picked at random), and the
# spread of sample sizes (stdev 68341808 bytes): every file has the
# mean size.  The reads are real; the computation is a sleep.
#
# Typical: fbrun -D dir=/mnt/data -D files=1680 -D accelerators=8 ai/unet3d
# The most accelerators a system keeps busy:
#   fbrun curve -D dir=/mnt/data --levels accelerators=1,2,4,8 --slo 'au>=90%' ai/unet3d

set $dir=$tmpdir
set $files=16
set $samplesize=146600628
set $iosize=4m
set $accelerators=1
set $readers=4
set $batch=7
set $depth=56
set $compute=323000
set $runtime=300

define fileset name=unet3d,path=$dir,entries=$files,size=$samplesize,dirwidth=1000,prealloc,reuse

define process name=accelerator,instances=$accelerators
{
  thread name=loader,memsize=$iosize,instances=$readers
  {
    flowop openfile name=open,filesetname=unet3d,fd=1
    flowop readwholefile name=read,fd=1,iosize=$iosize
    flowop closefile name=close,fd=1
    flowop queueput name=put,target=batch
  }
  thread name=gpu,accelerator=90
  {
    flowop queuetake name=batch,value=$batch,depth=$depth
    flowop compute name=step,value=$compute
  }
}

echo "unet3d: $accelerators accelerator(s), batches of $batch samples of $samplesize bytes"
run $runtime
