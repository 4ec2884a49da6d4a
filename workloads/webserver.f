# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# webserver.f -- a static-content web server. Each server thread serves
# ten pages in a row (open, read the whole file, close), then appends a
# line of random length to a single shared access log. The page set is
# read-only and fully present from the start; the log file is written by
# every thread, so log appends show contention on one file.
#
# Models filebench's webserver personality with 50 threads where filebench
# has 100, and pages of exactly filesize bytes where filebench draws their
# sizes from a gamma distribution around 16 KiB.
#
# Knobs (override with fbrun -D name=value):
#   dir            "$tmpdir/fbrun-webserver"  document root and log
#   nfiles         1000    pages in the document tree (16 MB)
#   meandirwidth   20      mean number of pages per directory
#   filesize       16k     size of each page
#   nthreads       50      concurrent server threads (10 MB buffer each)
#   iosize         1m      chunk size of the whole-page reads
#   meanappendsize 16k     log appends are uniform in [0, meanappendsize)
#   runtime        60      seconds to measure
#
# Typical: fbrun -D runtime=30 -D nthreads=20 workloads/webserver.f

set $runtime=60
set $dir="$tmpdir/fbrun-webserver"
set $nfiles=1000
set $meandirwidth=20
set $filesize=16k
set $nthreads=50
set $iosize=1m
set $meanappendsize=16k

define fileset name=htdocs,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100,readonly
define fileset name=accesslog,path=$dir,size=$filesize,entries=1,dirwidth=$meandirwidth,prealloc=100

define process name=webserver,instances=1
{
  thread name=httpd,memsize=10m,instances=$nthreads
  {
    flowop openfile name=open1,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage1,fd=1,iosize=$iosize
    flowop closefile name=close1,fd=1
    flowop openfile name=open2,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage2,fd=1,iosize=$iosize
    flowop closefile name=close2,fd=1
    flowop openfile name=open3,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage3,fd=1,iosize=$iosize
    flowop closefile name=close3,fd=1
    flowop openfile name=open4,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage4,fd=1,iosize=$iosize
    flowop closefile name=close4,fd=1
    flowop openfile name=open5,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage5,fd=1,iosize=$iosize
    flowop closefile name=close5,fd=1
    flowop openfile name=open6,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage6,fd=1,iosize=$iosize
    flowop closefile name=close6,fd=1
    flowop openfile name=open7,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage7,fd=1,iosize=$iosize
    flowop closefile name=close7,fd=1
    flowop openfile name=open8,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage8,fd=1,iosize=$iosize
    flowop closefile name=close8,fd=1
    flowop openfile name=open9,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage9,fd=1,iosize=$iosize
    flowop closefile name=close9,fd=1
    flowop openfile name=open10,filesetname=htdocs,fd=1
    flowop readwholefile name=readpage10,fd=1,iosize=$iosize
    flowop closefile name=close10,fd=1
    flowop appendfilerand name=appendlog,filesetname=accesslog,fd=2,iosize=$meanappendsize
  }
}

run $runtime
