# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# netsfs.f -- a network file server (NFS/SMB) as its clients see it: a
# large tree of mostly small files whose popularity is skewed, touched by
# a mix of operations built as composite flowops. Models filebench's
# netsfs personality flowop for flowop, with fewer files by default. One
# pass of a client thread runs an application "launch"
# (read three files whole), six read-modify-write cycles (read a file,
# write a new one of its size, close both, then delete the file read:
# `deletefile fd=1` after `closefile fd=1` deletes the file that fd 1
# held last), three appends to existing files and one stat. File, read
# and write sizes come from tables; which file is used comes from a
# gamma distribution (shape 0.1 and, with no mean given, a mean of 0.1
# as well), so a few files near the start of the set are very hot. An
# event rate paces the passes.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-netsfs"  where the tree is built
#   nfiles        20000   files in the tree, 60% present at start (~320 MB);
#                         filebench's default is 100000
#   meandirwidth  20      mean number of files per directory
#   nthreads      1       client threads
#   eventrate     10      client passes per second in total; 0 = no limit
#   runtime       60      seconds to measure
#   filesize      table, 1k..1707k, mean about 26k   size of each file
#   rdiosize      table, mostly 8k, up to 135k       chunk size of the reads
#   wrtiosize     table, 9k..135k                    size of writes and appends
#   fileidx       gamma, shape 0.1                   which file an op picks
#   (each of the last four is drawn anew at every use; -D filesize=16k
#   and the like replace one with a fixed value)
#
# Typical: fbrun -D runtime=30 -D eventrate=50 workloads/netsfs.f

set $runtime=60
set $dir="$tmpdir/fbrun-netsfs"
set $eventrate=10
set $meandirwidth=20
set $nthreads=1
set $nfiles=20000

eventgen rate=$eventrate

set $wrtiosize = randvar(type=tabular, min=1k, round=1k, randtable =
{{ 0,   1k,    7k},
 {50,   9k,   15k},
 {14,  17k,   23k},
 {14,  33k,   39k},
 {12,  65k,   71k},
 {10, 129k,  135k}
})

set $rdiosize = randvar(type=tabular, min=8k, round=1k, randtable =
{{85,   8k,   8k},
 { 8,  17k,  23k},
 { 4,  33k,  39k},
 { 2,  65k,  71k},
 { 1, 129k, 135k}
})

set $filesize = randvar(type=tabular, min=1k, round=1k, randtable =
{{33,   1k,    1k},
 {21,   1k,    3k},
 {13,   3k,    5k},
 {10,   5k,   11k},
 {08,  11k,   21k},
 {05,  21k,   43k},
 {04,  43k,   85k},
 {03,  85k,  171k},
 {02, 171k,  341k},
 {01, 341k, 1707k}
})

set $fileidx = randvar(type=gamma, min=0, gamma=100)

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=60

define flowop name=rmw
{
  flowop openfile name=openfile1,filesetname=bigfileset,indexed=$fileidx,fd=1
  flowop readwholefile name=readfile1,iosize=$rdiosize,fd=1
  flowop createfile name=newfile2,filesetname=bigfileset,indexed=$fileidx,fd=2
  flowop writewholefile name=writefile2,fd=2,iosize=$wrtiosize,srcfd=1
  flowop closefile name=closefile1,fd=1
  flowop closefile name=closefile2,fd=2
  flowop deletefile name=deletefile1,fd=1
}

define flowop name=launch
{
  flowop openfile name=openfile3,filesetname=bigfileset,indexed=$fileidx,fd=3
  flowop readwholefile name=readfile3,iosize=$rdiosize,fd=3
  flowop openfile name=openfile4,filesetname=bigfileset,indexed=$fileidx,fd=4
  flowop readwholefile name=readfile4,iosize=$rdiosize,fd=4
  flowop closefile name=closefile3,fd=3
  flowop openfile name=openfile5,filesetname=bigfileset,indexed=$fileidx,fd=5
  flowop readwholefile name=readfile5,iosize=$rdiosize,fd=5
  flowop closefile name=closefile4,fd=4
  flowop closefile name=closefile5,fd=5
}

define flowop name=appnd
{
  flowop openfile name=openfile6,filesetname=bigfileset,indexed=$fileidx,fd=6
  flowop appendfilerand name=appendfilerand6,iosize=$wrtiosize,fd=6
  flowop closefile name=closefile6,fd=6
}

define process name=netclient,instances=1
{
  thread name=fileuser,memsize=10m,instances=$nthreads
  {
    flowop launch name=launch1, iters=1
    flowop rmw name=rmw1, iters=6
    flowop appnd name=appnd1, iters=3
    flowop statfile name=statfile1,filesetname=bigfileset,indexed=$fileidx
    flowop eventlimit name=ratecontrol
  }
}

run $runtime
