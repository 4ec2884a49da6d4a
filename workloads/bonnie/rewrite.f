# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bonnie/rewrite.f -- bonnie++'s "Rewriting" (Sequential Output, Rewrite):
# each $chunk of the file is read, changed in one byte, and written back in
# place; then fsync and close, all timed.
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

define process name=rewrite {
  thread name=rewriter, memsize=$chunk {
    flowop openfile name=open, filesetname=$ioname, fd=1
    flowop rewrite name=rewrite, fd=1, iosize=$chunk, iters=$chunks
    flowop fsync name=fsync, fd=1
    flowop closefile name=close, fd=1
    flowop finishoncount name=done, target=close, value=1
  }
}

run $limit
