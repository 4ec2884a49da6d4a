# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bonnie/block-read.f -- bonnie++'s "Reading intelligently" (Sequential Input,
# Block): the file read from its start in $chunks reads of $chunk bytes, then
# close, all timed.
#
# One phase of `fbrun bonnie`, which runs the phases in bonnie++'s order
# and sets these variables with -D from its options; run on its own it
# uses the defaults below.  The scratch tree is $dir/$ioname; every phase
# keeps it (reuse) for the next, and `fbrun bonnie` removes it at the end.

set $dir = $tmpdir
set $ioname = bonnie.io
set $size = 64m
set $chunk = 8k
set $chunks = 8192
set $limit = 1000000
set mode quit alldone

define file name=$ioname, path=$dir, size=$size, prealloc, reuse

define process name=blockread {
  thread name=reader, memsize=$chunk {
    flowop openfile name=open, filesetname=$ioname, fd=1
    flowop read name=block, fd=1, iosize=$chunk, iters=$chunks
    flowop fsync name=fsync, fd=1
    flowop closefile name=close, fd=1
    flowop finishoncount name=done, target=close, value=1
  }
}

run $limit
