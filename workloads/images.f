# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# images.f -- an image-hosting site (the "images" workload from the Sun
# Thumper/ZFS benchmark notes). A few uploader threads each delete one
# image, then store two new ones (create, append a random amount up to
# filesize, fsync, close), then pause for two seconds. Many web server
# threads meanwhile open an image, read it whole in readiosize chunks and
# close it, as fast as they can. Half of the images exist at start. The
# script is the original one, with the directory moved under $tmpdir and
# the sizes cut down for a laptop, and without the web servers' opslimit,
# which throttles only at an event rate (eventgen) that the original
# never set, so it did nothing but draw a warning.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-images"  where the image tree lives
#   nfiles        1000    images in the set, half present at start (64 MB;
#                         reuse keeps the tree between runs)
#   meandirwidth  1000    mean number of images per directory
#   filesize      128k    image size; uploads append uniform [0, filesize)
#   nthreads      16      web server threads
#   readiosize    32k     chunk size of the whole-image reads
#   ncreators     2       uploader threads
#   runtime       60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/images.f
# The original Thumper run (500,000 images, about 30 GiB preallocated):
#   fbrun -D dir=/export/filebench -D nfiles=500000 -D meandirwidth=1000 \
#         -D filesize=128k -D nthreads=200 -D readiosize=32k \
#         -D ncreators=8 -D runtime=1200 workloads/images.f

set $runtime=60
set $dir="$tmpdir/fbrun-images"
set $nfiles=1000
set $meandirwidth=1000
set $filesize=128k
set $nthreads=16
set $readiosize=32k
set $ncreators=2

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=50,reuse

define process name=images,instances=1
{
  thread name=uploads,memsize=10m,instances=$ncreators
  {
    flowop deletefile name=deletefile1,filesetname=bigfileset

    flowop createfile name=createfile1,filesetname=bigfileset,fd=1
    flowop appendfilerand name=appendfilerand1,iosize=$filesize,fd=1
    flowop fsync name=fsync1,fd=1
    flowop closefile name=closefile1,fd=1

    flowop createfile name=createfile2,filesetname=bigfileset,fd=1
    flowop appendfilerand name=appendfilerand2,iosize=$filesize,fd=1
    flowop fsync name=fsync2,fd=1
    flowop closefile name=closefile2,fd=1

    flowop delay name=wait,value=2
  }
  thread name=webserver,memsize=10m,instances=$nthreads
  {
    flowop openfile name=openfile2,filesetname=bigfileset,opennext,fd=1
    flowop readwholefile name=readfile2,fd=1,iosize=$readiosize
    flowop closefile name=closefile2,fd=1
  }
}

run $runtime
