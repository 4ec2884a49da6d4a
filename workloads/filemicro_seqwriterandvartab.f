# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# filemicro_seqwriterandvartab.f -- micro-benchmark: sequential appends
# whose sizes come from a table: 80% between 1k and 4k, 15% between 4k
# and 16k, 5% between 16k and 64k (mean about 5.5 KiB), drawn anew for
# every append. Each thread opens its own empty file, appends count
# records (about 700 MB by default), closes it, and the run stops (mode
# firstdone) or runtime is up.
#
# Models filebench's filemicro_seqwriterandvartab personality with its
# defaults; the table is a randvar() value of iosize instead of a `define
# randvar`, and the burst ends the whole run.
#
# Knobs (override with fbrun -D name=value):
#   dir       "$tmpdir/fbrun-filemicro_seqwriterandvartab"  the files
#   count     128k    appends in the burst
#   iosize    table-driven random variable (see above);
#             -D iosize=4k makes every append the same size
#   nthreads  1       appending threads, one file each
#   sync      false   true opens the files with O_SYNC
#   runtime   60      seconds to measure at most
#
# Typical: fbrun -D count=16k workloads/filemicro_seqwriterandvartab.f

set $runtime=60
set $dir="$tmpdir/fbrun-filemicro_seqwriterandvartab"
set $count=128k
set $nthreads=1
set $sync=false
set $iosize=randvar(type=tabular,min=1k,randtable={
  {80,  1k,  4k},
  {15,  4k, 16k},
  { 5, 16k, 64k}
})

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
