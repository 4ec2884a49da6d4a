# netsfs.f -- a network file server (NFS/SMB) as its clients see it: a
# large tree of mostly small files whose popularity is skewed, touched by
# a mix of operations built as composite flowops. One pass of a client
# thread runs an application "launch" (read three files whole), six
# read-modify-write cycles (read a file, write a new copy of it, delete
# the old one), three appends to existing files and one stat. File, read
# and write sizes come from tables; which file is used comes from a gamma
# distribution, so a few files are hot. An event rate paces the passes.
#
# Knobs (override with fbrun -D name=value):
#   dir           "$tmpdir/fbrun-netsfs"  where the tree is built
#   nfiles        20000   files in the tree, 60% present at start (~250 MB)
#   meandirwidth  20      mean number of files per directory
#   idxmean       5000    mean of the file-index distribution; smaller
#                         values make the hot set smaller
#   nthreads      1       client threads
#   eventrate     10      client passes per second in total; 0 = no limit
#   runtime       60      seconds to measure
#   filesize      table, 1k..1m, mean about 22k   size of each file
#   rdiosize      table, mostly 8k, up to 128k    chunk size of the reads
#   wrtiosize     table, 1k..128k                 size of writes and appends
#   fileidx       gamma, mean idxmean, shape 1.5  which file an op picks
#   (each of the last four is drawn anew at every use; -D filesize=16k
#   and the like replace one with a fixed value)
#
# Typical: fbrun -D runtime=30 -D eventrate=50 workloads/netsfs.f

set $runtime=60
set $dir="$tmpdir/fbrun-netsfs"
set $nfiles=20000
set $meandirwidth=20
set $idxmean=5000
set $nthreads=1
set $eventrate=10

eventgen rate=$eventrate

# Write sizes: mostly small, a few large.
set $wrtiosize=randvar(type=tabular,min=1k,round=1k,randtable={
  {45,   1k,   8k},
  {25,   8k,  16k},
  {15,  16k,  32k},
  {10,  32k,  64k},
  { 5,  64k, 128k}
})

# Read sizes: usually one 8k block.
set $rdiosize=randvar(type=tabular,min=8k,round=1k,randtable={
  {80,   8k,   8k},
  {10,  16k,  32k},
  { 6,  32k,  64k},
  { 4,  64k, 128k}
})

# File sizes: a long tail of big files over many small ones.
set $filesize=randvar(type=tabular,min=1k,round=1k,randtable={
  {30,   1k,   2k},
  {25,   2k,   4k},
  {15,   4k,   8k},
  {10,   8k,  16k},
  { 8,  16k,  32k},
  { 5,  32k,  64k},
  { 4,  64k, 128k},
  { 2, 128k, 256k},
  { 1, 256k,   1m}
})

# Which file: gamma-distributed index, wrapped modulo nfiles.
set $fileidx=randvar(type=gamma,min=0,mean=$idxmean,gamma=1500)

define fileset name=nfsfiles,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=60

# Start an application: read three files whole, overlapping the opens.
define flowop name=launch
{
  flowop openfile name=launch-open1,filesetname=nfsfiles,indexed=$fileidx,fd=3
  flowop readwholefile name=launch-read1,fd=3,iosize=$rdiosize
  flowop openfile name=launch-open2,filesetname=nfsfiles,indexed=$fileidx,fd=4
  flowop readwholefile name=launch-read2,fd=4,iosize=$rdiosize
  flowop closefile name=launch-close1,fd=3
  flowop openfile name=launch-open3,filesetname=nfsfiles,indexed=$fileidx,fd=5
  flowop readwholefile name=launch-read3,fd=5,iosize=$rdiosize
  flowop closefile name=launch-close2,fd=4
  flowop closefile name=launch-close3,fd=5
}

# Save a document the way editors do: write a new copy, drop the old one.
define flowop name=rmw
{
  flowop openfile name=rmw-open,filesetname=nfsfiles,indexed=$fileidx,fd=1
  flowop readwholefile name=rmw-read,fd=1,iosize=$rdiosize
  flowop createfile name=rmw-create,filesetname=nfsfiles,indexed=$fileidx,fd=2
  flowop writewholefile name=rmw-write,fd=2,srcfd=1,iosize=$wrtiosize
  flowop closefile name=rmw-close1,fd=1
  flowop closefile name=rmw-close2,fd=2
  flowop deletefile name=rmw-delete,filesetname=nfsfiles
}

# Append to a file (logs, mailboxes).
define flowop name=appnd
{
  flowop openfile name=appnd-open,filesetname=nfsfiles,indexed=$fileidx,fd=6
  flowop appendfilerand name=appnd-append,fd=6,iosize=$wrtiosize
  flowop closefile name=appnd-close,fd=6
}

define process name=netclient,instances=1
{
  thread name=nfsclient,memsize=10m,instances=$nthreads
  {
    flowop launch name=launch1,iters=1
    flowop rmw name=rmw1,iters=6
    flowop appnd name=appnd1,iters=3
    flowop statfile name=stat1,filesetname=nfsfiles,indexed=$fileidx
    flowop eventlimit name=pace
  }
}

run $runtime
