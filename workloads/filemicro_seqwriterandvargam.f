# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_seqwriterandvargam.f -- micro-benchmark: sequential appends
# whose sizes follow a gamma distribution (at least 1 KiB, mean 5.5 KiB,
# shape 1.5), drawn anew for every append. Each thread opens its own
# empty file, appends count records (about 700 MB by default), closes it,
# and the run stops (mode firstdone) or runtime is up.
#
# Models filebench's filemicro_seqwriterandvargam personality with its
# defaults; the distribution is a randvar() value of iosize instead of a
# `define randvar`, and the burst ends the whole run.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_seqwriterandvargam"  the files
#   count     128k    appends in the burst
#   iosize    gamma random variable (min 1k, mean 5632, gamma 1500 = 1.5);
#             -D iosize=4k makes every append the same size
#   nthreads  1       appending threads, one file each
#   sync      false   true opens the files with O_SYNC
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D count=16k workloads/filemicro_seqwriterandvargam.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_seqwriterandvargam"
set $count=128k
set $nthreads=1
set $sync=false
set $iosize=randvar(type=gamma,min=1k,mean=5632,gamma=1500)

set mode quit firstdone

define fileset name=logfiles,path=$dir,size=0,entries=$nthreads,dirwidth=1024,prealloc=100

define process name=filewriter,instances=1
{
  thread name=writer,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open1,filesetname=logfiles,fd=1,dsync=$sync
    flowop appendfile name=append1,fd=1,iosize=$iosize,iters=$count
    flowop closefile name=close1,fd=1
    flowop finishoncount name=finish,value=1
  }
}

run $runtime
