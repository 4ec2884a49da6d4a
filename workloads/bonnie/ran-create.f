# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# bonnie/ran-create.f -- bonnie++'s "Create files in random order" (Random
# Create, Create): as seq-create, but each name starts with its random
# characters, so the files are made in number order while their names sort
# randomly.
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
set $minsize = 0
set $maxsize = 0
set $sizeend = 1
set $sync = false
set $data = zeros
set $fsize = cvar(type=cvar-uniform, parameters="lower:$minsize;upper:$sizeend", min=$minsize, max=$maxsize)

define fileset name=$name, path=$dir, entries=0, dirwidth=1, reuse

define process name=create {
  thread name=create {
    flowop createnext name=create, filesetname=$name, entries=$files, dirs=$dirs, filesize=$fsize, iosize=$filechunk, fsync=$sync, data=$data, random, iters=$files
    flowop sync name=sync
    flowop finishoncount name=done, target=sync, value=1
  }
}

run $limit
