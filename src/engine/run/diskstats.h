/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The block devices under a run's filesets: found once the filesets
 * exist (the device a root's file system is on, a btrfs file system's
 * devices, the devices a device-mapper or md device lies on), and read
 * from /proc/diskstats when the measured run starts and ends, by the
 * main thread only: nothing on the workers' path.
 */
#ifndef FBRUN_DISKSTATS_H
#define FBRUN_DISKSTATS_H

#include <stdbool.h>

#include "lang/ir.h"
#include "util/diskstat.h"

struct fileset;
struct disks;

/*
 * The devices of w's filesets (fs: per IR fileset, created; NULL ones
 * left out).  Never NULL: what cannot be found is said per fileset.
 */
struct disks *diskstats_new(const struct workload *w, struct fileset *const *fs);
void diskstats_free(struct disks *d);
/*
 * Read the counters now: the start of the measured run (again at the
 * end of a warm-up), or its end.  NULL d does nothing.
 */
void diskstats_sample(struct disks *d, bool end);
/*
 * What the devices did between the last start and the end (malloc'd,
 * diskstat_free); NULL if no end was read or there was no fileset.
 */
struct diskstat_set *diskstats_result(const struct disks *d);

#endif
