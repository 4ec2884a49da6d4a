# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# checkpoint.f -- a large model's checkpoint: each rank writes its shard
# of the model's state, fsyncs it, then reads it back, as a restart
# does; the save and the restore are timed apart.
#
# Source: the llama 3 models' parameter counts (8B, 70B, 405B) at 14
# bytes a parameter (bf16 weights, fp32 master weights and two fp32
# Adam moments), split evenly over the ranks, as the DLIO benchmark's
# llama configurations checkpoint them for MLPerf Storage: a shard is
# parameters x 14 / ranks.  llama 3 8B over 8 ranks: -D shard=13g; 70B
# over 64: -D shard=14g; 405B over 512: -D shard=10g.
#
# Knobs (override with fbrun -D name=value):
#   dir         $tmpdir   where each rank's shard is written
#   shard       256m      bytes of state this rank writes and reads
#   iosize      16m       bytes a write or read moves
#   runtime     300       the longest the run may go on
#
# Each pass saves one checkpoint and restores it, then deletes the shard.
# Left out: no framework and no serialisation (the bytes are written as
# they are), one file per rank (frameworks write a few per rank), and
# the restore reads what the page cache kept of the save unless the
# cache is bounded: run with --cache-limit below the shard, or drop the
# caches, for a restore from the storage.
#
# Typical: mpirun -np 8 fbrun-mpi -D dir=/mnt/pfs/ckpt -D shard=13g ai/checkpoint

set $dir=$tmpdir
set $shard=256m
set $iosize=16m
set $runtime=300

define fileset name=checkpoint,path=$dir,entries=1,size=$shard,dirwidth=1

define process name=rank,instances=1
{
  thread name=trainer,memsize=$iosize,instances=1
  {
    flowop createfile name=create,filesetname=checkpoint,fd=1
    flowop writewholefile name=save,fd=1,iosize=$iosize
    flowop fsync name=persist,fd=1
    flowop closefile name=close,fd=1
    flowop openfile name=open,filesetname=checkpoint,fd=1
    flowop readwholefile name=restore,fd=1,iosize=$iosize
    flowop closefile name=done,fd=1
    flowop deletefile name=delete,filesetname=checkpoint
  }
}

echo "checkpoint: a shard of $shard saved, fsynced and restored"
run $runtime
