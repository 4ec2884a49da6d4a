# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# ai_image.f -- image classification training in the manner of
# SPECstorage's AI_IMAGE: each job's readers read small image files
# whole, a batch at a time, and a trainer saves a checkpoint now and
# then; the load is counted in jobs.
#
# From SPEC's public descriptions (SPECstorage Solution 2020 User's
# Guide, "Workloads and Business Metrics", and SPEC's talk "Introducing
# the AI/ML and Genomics Workloads from the SPEC Storage Subcommittee",
# Storage Developer Conference 2019): the business metric is the JOB,
# the storage side of training an image classifier (TensorFlow):
# reads of many image files, with checkpoints written.
# fbrun's choices (not SPEC's numbers): 4 reader threads a job, each
# reading a batch of 16 images 4 times a second (64 images a second,
# each opened, read whole and closed), images of 112 KiB on average
# (gamma distributed, about ImageNet's JPEGs), and a checkpoint of
# 64 MiB written, fsynced and removed every 10 seconds.  fbrun's
# workloads/ai/ model MLPerf Storage's training with accelerators;
# this one holds each job to a fixed rate instead, as SPEC's load
# generator holds its processes.  The objective (a response time
# bound) is the user's.
#
# Knobs (override with fbrun -D name=value):
#   dir         $tmpdir   where the trees are made (spec-ai-*)
#   jobs        1         business metrics: training jobs at once
#   readers     4         reader threads per job
#   rate        4         batches a second per reader
#   batch       16        images per batch
#   images      8000      image files (for every job together)
#   imagesize   gamma, mean 112k   bytes of each image
#   ckptsize    64m       bytes of each checkpoint
#   ckptrate    0.1       checkpoints a second per job
#   iosize      1m        bytes per read or write
#   runtime     300       seconds
#
# The jobs that hold a response time, here a mean of 10 ms:
#   fbrun curve --levels jobs=1,2,4,8 --slo 'mean<10ms' spec/ai_image

set $dir=$tmpdir
set $jobs=1
set $readers=4
set $rate=4
set $batch=16
set $images=8000
set $imagesize=cvar(type=cvar-gamma,parameters="mean:114688;gamma:1.5")
set $ckptsize=64m
set $ckptrate=0.1
set $iosize=1m
set $runtime=300

# one image opened, read whole and closed, batch times
define flowop name=image,iters=$batch
{
  flowop openfile name=open,filesetname=spec-ai-images,fd=1
  flowop readwholefile name=read,fd=1,iosize=$iosize
  flowop closefile name=close,fd=1
}

define fileset name=spec-ai-images,path=$dir,entries=$images,size=$imagesize,dirwidth=1000,prealloc,readonly
define fileset name=spec-ai-checkpoint,path=$dir,entries=$jobs,size=$ckptsize,dirwidth=100

define process name=job,instances=$jobs
{
  thread name=reader,memsize=$iosize,instances=$readers,rate=$rate,arrivals=poisson
  {
    flowop image name=batch
  }
  thread name=trainer,memsize=$iosize,rate=$ckptrate
  {
    flowop createfile name=create-checkpoint,filesetname=spec-ai-checkpoint,fd=1
    flowop writewholefile name=write-checkpoint,fd=1,iosize=$iosize
    flowop fsync name=persist,fd=1
    flowop closefile name=close-checkpoint,fd=1
    flowop deletefile name=remove-checkpoint,filesetname=spec-ai-checkpoint
  }
}

echo "ai_image: $jobs job(s) of $readers readers, $rate batches of $batch images/s each"
run $runtime
