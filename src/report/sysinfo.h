/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What a results file records about where it was measured: kernel, CPUs,
 * memory, and for a directory its file system type, device and mount
 * options (from statfs and /proc/self/mountinfo).
 */
#ifndef FBRUN_SYSINFO_H
#define FBRUN_SYSINFO_H

#include <stdint.h>

struct fsinfo {
	char mountpoint[256];
	char type[32]; /* "ext4", "tmpfs", ... ("unknown" if not found) */
	char source[256]; /* the device or "tmpfs" */
	char options[512]; /* mount options, then super options */
};

struct sysinfo_snap {
	char kernel[160]; /* uname -sr */
	char machine[80];
	long cpus;
	uint64_t memory; /* bytes */
};

void sysinfo_get(struct sysinfo_snap *s);

/*
 * The file system holding path, or its nearest existing parent.  Returns
 * 0, or -1 if nothing could be found (fields say "unknown").
 */
int fsinfo_get(const char *path, struct fsinfo *fi);

#endif
