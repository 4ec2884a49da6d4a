# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bonnie/seq-delete.f -- bonnie++'s "Delete files in sequential order"
# (Sequential Create, Delete): every file unlinked in directory order, then
# sync(), all timed.
#
# One phase of `fbrun bonnie`, which runs the phases in bonnie++'s order
# and sets these variables with -D from its options; run on its own it
# uses the defaults below.  The scratch tree is $dir/$name; every phase
# keeps it (reuse) for the next, and `fbrun bonnie` removes it at the end.

set $dir = $tmpdir
set $name = bonnie
set $files = 16384
set $dirs = 0
set $filechunk = 8k
set $limit = 1000000
set mode quit alldone
set $sync = false

define fileset name=$name, path=$dir, entries=0, dirwidth=1, reuse

define process name=delete {
  thread name=delete {
    flowop deletenext name=delete, filesetname=$name, dirs=$dirs, fsync=$sync, iters=$files
    flowop sync name=sync
    flowop finishoncount name=done, target=sync, value=1
  }
}

run $limit
