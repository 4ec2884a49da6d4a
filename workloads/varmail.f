# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# varmail.f -- a mail server that keeps one file per message in a single
# flat directory (the /var/mail or Maildir layout). Each thread plays a
# mail delivery agent and a reader in turn: it removes an old message,
# delivers a new one (create, append, fsync), then opens a message, reads
# it whole, appends a flag update and fsyncs it, and finally reads one
# more message whole. The fsyncs make this workload latency-bound on real
# disks. Message sizes follow a gamma distribution with a 16 KiB mean.
#
# Models filebench's varmail personality with its fileset, flowop loop and
# defaults.
#
# Knobs (override with fbrun -D name=value):
#   dir            "$tmpdir/fbrun-varmail"  mail spool directory
#   nfiles         1000    messages in the spool (about 13 MB at start)
#   meandirwidth   1000000 files per directory; this large value keeps the
#                          spool one flat directory
#   filesize       gamma, mean 16k, shape 1.5 -- size of each message;
#                  -D filesize=16k gives every message the same size
#   nthreads       16      concurrent mail agents
#   iosize         1m      chunk size of the whole-file reads
#   meanappendsize 16k     appends are uniform in [0, meanappendsize)
#   runtime        60      seconds to measure
#
# Typical: fbrun -D runtime=30 workloads/varmail.f

set $runtime=60
set $dir="$tmpdir/fbrun-varmail"
set $nfiles=1000
set $meandirwidth=1000000
set $filesize=cvar(type=cvar-gamma,parameters="mean:16384;gamma:1.5")
set $nthreads=16
set $iosize=1m
set $meanappendsize=16k

define fileset name=mailspool,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=80

define process name=varmail,instances=1
{
  thread name=mailagent,memsize=10m,instances=$nthreads
  {
    flowop deletefile name=delete1,filesetname=mailspool
    flowop createfile name=create2,filesetname=mailspool,fd=1
    flowop appendfilerand name=append2,fd=1,iosize=$meanappendsize
    flowop fsync name=fsync2,fd=1
    flowop closefile name=close2,fd=1
    flowop openfile name=open3,filesetname=mailspool,fd=1
    flowop readwholefile name=readfile3,fd=1,iosize=$iosize
    flowop appendfilerand name=append3,fd=1,iosize=$meanappendsize
    flowop fsync name=fsync3,fd=1
    flowop closefile name=close3,fd=1
    flowop openfile name=open4,filesetname=mailspool,fd=1
    flowop readwholefile name=readfile4,fd=1,iosize=$iosize
    flowop closefile name=close4,fd=1
  }
}

run $runtime
