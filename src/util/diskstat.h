/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What reached the block devices under the filesets during a run, as
 * /proc/diskstats counts it, and the "Disk stats" block of the text
 * table: one set of records and one printer for the run
 * (engine/diskstats, report/) and fbrun report (compare/), as fio's
 * "Disk stats (read/write)" does.
 */
#ifndef FBRUN_DISKSTAT_H
#define FBRUN_DISKSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A device's counters, or what they grew by over the run. */
struct diskstat_counts {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks; /* ticks: ms */
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t io_ticks, in_queue; /* ms busy, ms weighted by queue depth */
	uint64_t dc_ios, fl_ios; /* discards, flushes (kernel 4.18, 5.5) */
};

/* One block device the filesets' data goes to, or one below it. */
struct diskstat {
	char name[64]; /* as /proc/diskstats names it: "sda1", "dm-0" */
	char parent[64]; /* the whole disk of a partition, else "" */
	unsigned major, minor;
	int slave_of; /* the index of the device it lies under (dm, md), -1 */
	char **filesets; /* the filesets on it (none for a slave) */
	size_t nfilesets;
	bool has_dc, has_fl; /* the kernel counts discards, flushes */
	double secs; /* between the two readings */
	struct diskstat_counts d; /* the growth between them */
};

/* A fileset whose data reaches no block device fbrun could name. */
struct diskstat_none {
	char *fileset;
	char *why; /* "no block device (tmpfs)", "loop0: not in /proc/..." */
};

/* A run's devices and the filesets without one. */
struct diskstat_set {
	struct diskstat *dev;
	size_t ndev;
	struct diskstat_none *none;
	size_t nnone;
	size_t cap_dev, cap_none; /* diskstat_add's */
};

/* The share of the time the device was busy, in percent (0 to 100). */
double diskstat_util(const struct diskstat *d);
/* Bytes the top-level devices read (their slaves' are the same reads). */
uint64_t diskstat_read_bytes(const struct diskstat_set *s);
/* The same for writes. */
uint64_t diskstat_write_bytes(const struct diskstat_set *s);
/*
 * The block: a line per device (its slaves indented below it), a line
 * per fileset saying which device it is on or why none, and notes: when
 * the flowops read at least ten times what the devices did, that the
 * page cache served the reads; when the devices wrote over twice what
 * the flowops did and 16 MiB more, that the rest was not the flowops'
 * (the file system's own, or other programs' on the same devices).
 * mine false (a job: the flowops' bytes are every rank's, the devices
 * rank 0's): no note.  Nothing for a set without entries.
 */
void diskstat_print(FILE *out, const struct diskstat_set *s, bool mine,
		    uint64_t flowop_read_bytes, uint64_t flowop_write_bytes);

/*
 * A device added, zeroed but for its name and slave_of (-1); the pointer
 * holds until the next add.  Strings are copied.
 */
struct diskstat *diskstat_add(struct diskstat_set *s, const char *name);
void diskstat_add_fileset(struct diskstat *d, const char *fileset);
void diskstat_add_none(struct diskstat_set *s, const char *fileset,
		       const char *why);
/* A deep copy of s; NULL for NULL. */
struct diskstat_set *diskstat_dup(const struct diskstat_set *s);
void diskstat_free(struct diskstat_set *s);

#endif
