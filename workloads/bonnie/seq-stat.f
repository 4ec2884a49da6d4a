# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bonnie/seq-stat.f -- bonnie++'s "Stat files in sequential order" (Sequential
# Create, Read): every file in directory order: stat, and read its data if it
# has any.
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

define fileset name=$name, path=$dir, entries=0, dirwidth=1, reuse

define process name=stat {
  thread name=stat {
    flowop statnext name=stat, filesetname=$name, dirs=$dirs, iosize=$filechunk, iters=$files
    flowop finishoncount name=done, target=stat, value=1
  }
}

run $limit
