# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bonnie/seeks.f -- bonnie++'s "start 'em" (Random Seeks): $seekers threads,
# each with its own descriptor, share $seeks tickets; each ticket reads a
# random $chunk of the file and one in ten writes it back changed.  A thread
# with no ticket left fsyncs and closes its file, and the first to finish
# removes it ($delete), as bonnie++'s seekers do: freeing the file is timed
# with the seeks.  After a 3 s pause outside the timing, as bonnie++ has.
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
set $seeks = 8192
set $seekers = 5
set $sync = false
set $delete = true

define file name=$ioname, path=$dir, size=$size, prealloc, reuse

define process name=seeks {
  thread name=seeker, memsize=$chunk, instances=$seekers {
    flowop seekrw name=seek, filesetname=$ioname, fd=1, iosize=$chunk, value=$seeks, fsync=$sync, delete=$delete
  }
}

create files
sleep 3
run $limit
