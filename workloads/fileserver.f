# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fileserver.f -- a general-purpose file server, such as a shared home
# directory exported over NFS or SMB. Each user thread loops through a mix
# of whole-file operations on a tree of files: it creates a new file and
# writes all of it, appends a random amount to an existing file, reads
# another file from beginning to end, deletes a file and stats one. File
# sizes follow a gamma distribution with a 128 KiB mean. 80% of the files
# exist at start, so creates and deletes both always find a file to use.
#
# Models filebench's fileserver personality: the same fileset and loop of
# eleven flowops, with 5000 files by default where filebench has 10000.
#
# Knobs (override with fbrun -D name=value):
#   dir            "$tmpdir/fbrun-fileserver"  where the tree is built
#   nfiles         5000    files in the set (about 500 MB written at start)
#   meandirwidth   20      mean number of files per directory
#   filesize       gamma, mean 128k, shape 1.5 -- size of each file;
#                  -D filesize=128k gives every file the same size
#   nthreads       50      concurrent user threads (10 MB buffer each)
#   iosize         1m      chunk size of the whole-file reads and writes
#   meanappendsize 16k     appends are uniform in [0, meanappendsize), so
#                          the mean append is half of this value
#   runtime        60      seconds to measure
#
# Typical: fbrun -D runtime=30 -D nthreads=16 workloads/fileserver.f

set $runtime=60
set $dir="$tmpdir/fbrun-fileserver"
set $nfiles=5000
set $meandirwidth=20
set $filesize=cvar(type=cvar-gamma,parameters="mean:131072;gamma:1.5")
set $nthreads=50
set $iosize=1m
set $meanappendsize=16k

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=80

define process name=fileserver,instances=1
{
  thread name=fileuser,memsize=10m,instances=$nthreads
  {
    flowop createfile name=create1,filesetname=bigfileset,fd=1
    flowop writewholefile name=writefile1,fd=1,srcfd=1,iosize=$iosize
    flowop closefile name=close1,fd=1
    flowop openfile name=open2,filesetname=bigfileset,fd=1
    flowop appendfilerand name=append2,fd=1,iosize=$meanappendsize
    flowop closefile name=close2,fd=1
    flowop openfile name=open3,filesetname=bigfileset,fd=1
    flowop readwholefile name=readfile3,fd=1,iosize=$iosize
    flowop closefile name=close3,fd=1
    flowop deletefile name=delete4,filesetname=bigfileset
    flowop statfile name=stat5,filesetname=bigfileset
  }
}

run $runtime
