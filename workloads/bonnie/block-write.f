# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bonnie/block-write.f -- bonnie++'s "Writing intelligently" (Sequential
# Output, Block): the file is created anew and $chunks writes of $chunk bytes
# fill it, then fsync and close, all timed.
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
set $direct = false
set $data = bonnie

define file name=$ioname, path=$dir, size=0, prealloc=0, reuse

define process name=blockwrite {
  thread name=writer, memsize=$chunk {
    flowop createfile name=create, filesetname=$ioname, fd=1, directio=$direct
    flowop write name=block, fd=1, iosize=$chunk, data=$data, iters=$chunks
    flowop fsync name=fsync, fd=1
    flowop closefile name=close, fd=1
    flowop finishoncount name=done, target=close, value=1
  }
}

run $limit
