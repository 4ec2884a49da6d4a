# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# verify.f -- data integrity under a mixed load: writer threads overwrite
# files at random, append to them and rewrite them whole, while reader
# threads read them whole and at random, and every byte read is checked
# against what fbrun wrote there.  This uses fbrun's `verify` fileset
# attribute (doc/language.md): each 4 KiB block of a file carries a header
# (the file, its offset, which write stamped it, a checksum) and data that
# follow from the file and the offset, preallocation included.  A read
# that gets other bytes is a verify error: fbrun names the file and the
# offset once per file, and the run fails (exit 1) at the first one, or
# with --continue-on-error goes on counting them.  filebench has no
# verify, so filebench cannot run this script.
#
# The tree is kept (reuse): a second run checks every file before it
# starts, and its readers what the first run's writers left, across a
# reboot or a crash of the machine in between; what another program
# changed, cut or removed meanwhile is said and fails the run.  Keep the
# knobs the same, as they lay the tree out.
#
# Knobs (override with fbrun -D name=value):
#   dir         "$tmpdir/fbrun-verify"  where the tree is built
#   nfiles      200     files, all made before the run (~25 MB)
#   filesize    128k    size of each file at the start of a run (longer
#                       ones are cut back to it, by reuse)
#   iosize      8k      size of the random reads and writes
#   appendsize  16k     appends are uniform in [0, appendsize)
#   nwriters    2       writer threads
#   nreaders    2       reader threads
#   runtime     60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/verify.f
#          fbrun --continue-on-error -D runtime=30 workloads/verify.f

set $runtime=60
set $dir="$tmpdir/fbrun-verify"
set $nfiles=200
set $filesize=128k
set $iosize=8k
set $appendsize=16k
set $nwriters=2
set $nreaders=2

define fileset name=checked,path=$dir,size=$filesize,entries=$nfiles,dirwidth=20,prealloc,reuse,verify

define process name=verify,instances=1
{
  thread name=writer,memsize=10m,instances=$nwriters
  {
    flowop openfile name=wopen,filesetname=checked,fd=1
    flowop write name=overwrite,fd=1,iosize=$iosize,random
    flowop appendfilerand name=append,fd=1,iosize=$appendsize
    flowop closefile name=wclose,fd=1
    flowop openfile name=wopen2,filesetname=checked,fd=2
    flowop writewholefile name=rewrite,fd=2,iosize=$iosize
    flowop closefile name=wclose2,fd=2
  }
  thread name=reader,memsize=10m,instances=$nreaders
  {
    flowop openfile name=ropen,filesetname=checked,fd=1
    flowop readwholefile name=readall,fd=1,iosize=$iosize
    flowop read name=readrand,fd=1,iosize=$iosize,random
    flowop closefile name=rclose,fd=1
  }
}

run $runtime
