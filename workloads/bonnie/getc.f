# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bonnie/getc.f -- bonnie++'s "Reading a byte at a time" (Sequential Input,
# Per Chr): $bytechunks chunks of $chunk bytes read from the start of the file
# with one read() per byte, then close, all timed.
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
set $bytechunks = 384

define file name=$ioname, path=$dir, size=$size, prealloc, reuse

define process name=getc {
  thread name=getc, memsize=$chunk {
    flowop openfile name=open, filesetname=$ioname, fd=1
    flowop readbytes name=getc, fd=1, iosize=$chunk, iters=$bytechunks
    flowop fsync name=fsync, fd=1
    flowop closefile name=close, fd=1
    flowop finishoncount name=done, target=close, value=1
  }
}

run $limit
