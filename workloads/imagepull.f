# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# imagepull.f -- a container image pull: a layer's compressed archive
# read, the layer unpacked (directories made, many small files written
# and each fsynced), then a few of its files read as the container
# starts, and the layer removed.
#
# How it was made: recorded with `fbrun record -- tar -xf data.tar.xz
# -C layer` (tar 1.34, xz 5.4, Debian 12), data.tar.xz being the data
# archive of Debian's man-db 2.11.2-2 package (1,364,512 bytes; 330
# files, 192 directories and 5 symbolic links, 2.6 MB unpacked); the
# trace fitted with `fbrun model`; then edited by hand as follows.
# Kept from the model: the groups of files made (their counts, writes
# and sizes: 210 files of one write of 2256 bytes, 77 of 2 of 2795, 31
# of 3 of 6865, 6 of 6 of 7616, 5 of 13 of 9323, 2 empty, 1 of 21 of
# 9774), the 191 mkdirs, tar's 226 opens of directories it works in
# (open, fstat, close), and xz's reading of the archive (168 reads of
# 8164 bytes).  Edited: the threads the model runs side by side are one
# thread doing them in turn, as the unpacker does; an fsync after each
# file's writes, deliberately (tar makes none; a runtime that makes a
# layer durable before it commits it syncs file by file or the whole
# file system once after the unpack: this is the file-by-file case, the
# costlier where flushes are slow); the reads of a few files at the end
# (the container's start: not in the recording); the removal of the
# layer after each pull, so that pulls can repeat.  Left out: tar's own
# start (libraries and locale files: the model's read9 to read15 but the
# archive, 13 stats and 2 unlinks), its 1,384 setattr calls (utimensat,
# fchown, fchmod: no flowop does them) and its 5 symbolic links; the
# files are made in their filesets' own directories, not in the ones
# the mkdirs make.
#
# Knobs (override with fbrun -D name=value):
#   dir         $tmpdir   where the layer is unpacked (imagepull-*)
#   pulls       1         pulls in a row, the run ends after them
#   reads       8         files read whole after each unpack
#   runtime     300       the longest the run may go on
#
# Typical: fbrun -D dir=/var/lib/containers/test -D pulls=20 imagepull

set $dir=$tmpdir
set $pulls=1
set $reads=8
set $runtime=300
set mode quit alldone

# one file of the layer made, written, fsynced and closed
define flowop name=unpack,$files=imagepull-f1,$writes=1,$iosize=2256
{
  flowop createfile name=create,filesetname=$files,fd=1
  flowop write name=write,fd=1,iosize=$iosize,iters=$writes
  flowop fsync name=fsync,fd=1
  flowop closefile name=close,fd=1
}
# one empty file of the layer made, looked at, fsynced and closed
define flowop name=empty,iters=2
{
  flowop createfile name=create,filesetname=imagepull-f6,fd=1
  flowop statfile name=fstat,fd=1
  flowop fsync name=fsync,fd=1
  flowop closefile name=close,fd=1
}
# one directory tar opened to work in (O_PATH) and looked at
define flowop name=lookup,iters=226
{
  flowop openfile name=open,filesetname=imagepull-dirs-open,fd=2
  flowop statfile name=fstat,fd=2
  flowop closefile name=close,fd=2
}
# one file of the unpacked layer read whole, as the container starts
define flowop name=start,iters=$reads
{
  flowop openfile name=open,filesetname=imagepull-f3,fd=3
  flowop readwholefile name=read,fd=3,iosize=64k
  flowop closefile name=close,fd=3
}

define fileset name=imagepull-blob,path=$dir,entries=1,dirwidth=1,size=1364512,prealloc,readonly
define fileset name=imagepull-dirs,path=$dir,entries=0,dirwidth=2,leafdirs=191
set $dirsize = randvar(type=tabular, randtable={{70, 0, 270}, {12, 1406, 3360}, {12, 27028, 53899}, {6, 353616, 353616}})
define fileset name=imagepull-dirs-open,path=$dir,entries=211,dirwidth=3,size=$dirsize,prealloc,readonly
define fileset name=imagepull-f1,path=$dir,entries=210,dirwidth=2,size=2256
define fileset name=imagepull-f2,path=$dir,entries=77,dirwidth=1,size=5591
define fileset name=imagepull-f3,path=$dir,entries=31,dirwidth=1,size=20594
define fileset name=imagepull-f4,path=$dir,entries=6,dirwidth=2,size=45698
define fileset name=imagepull-f5,path=$dir,entries=5,dirwidth=3,size=121197
define fileset name=imagepull-f6,path=$dir,entries=2,dirwidth=2,size=0
define fileset name=imagepull-f7,path=$dir,entries=1,dirwidth=1,size=205248

define process name=runtime
{
  thread name=puller,memsize=64k
  {
    flowop openfile name=open-blob,filesetname=imagepull-blob,fd=4
    flowop read name=read-blob,fd=4,iosize=8164,iters=168
    flowop closefile name=close-blob,fd=4
    flowop makedir name=mkdir,filesetname=imagepull-dirs,iters=191
    flowop lookup name=dir
    flowop unpack name=f1,iters=210,$files=imagepull-f1,$iosize=2256
    flowop unpack name=f2,iters=77,$files=imagepull-f2,$writes=2,$iosize=2795
    flowop unpack name=f3,iters=31,$files=imagepull-f3,$writes=3,$iosize=6865
    flowop unpack name=f4,iters=6,$files=imagepull-f4,$writes=6,$iosize=7616
    flowop unpack name=f5,iters=5,$files=imagepull-f5,$writes=13,$iosize=9323
    flowop empty name=f6
    flowop unpack name=f7,iters=1,$files=imagepull-f7,$writes=21,$iosize=9774
    flowop start name=start
    flowop deletefile name=remove-f1,filesetname=imagepull-f1,iters=210
    flowop deletefile name=remove-f2,filesetname=imagepull-f2,iters=77
    flowop deletefile name=remove-f3,filesetname=imagepull-f3,iters=31
    flowop deletefile name=remove-f4,filesetname=imagepull-f4,iters=6
    flowop deletefile name=remove-f5,filesetname=imagepull-f5,iters=5
    flowop deletefile name=remove-f6,filesetname=imagepull-f6,iters=2
    flowop deletefile name=remove-f7,filesetname=imagepull-f7,iters=1
    flowop removedir name=rmdir,filesetname=imagepull-dirs,iters=191
    flowop finishoncount name=done,target=open-blob,value=$pulls
  }
}

echo "imagepull: $pulls pull(s) of a layer of 332 files, each fsynced"
run $runtime
