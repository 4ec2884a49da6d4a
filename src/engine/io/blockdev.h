/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Block devices as filesets: `define file` whose path names a device
 * (filebench's <path>/<name>, or the path itself).  What decides whether
 * one may be used: mounted or held by the kernel, what libblkid finds on
 * it, its size; and opening it so that what was checked is what is used.
 * Nothing here writes a device.
 */
#ifndef FBRUN_BLOCKDEV_H
#define FBRUN_BLOCKDEV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * The block device a fileset names: <path>/<name> when that is one (as
 * filebench has it), else path itself; symlinks resolved (a
 * /dev/disk/by-id name gives the node).  Malloc'd; NULL if neither is a
 * block device.
 */
char *blockdev_of(const char *path, const char *name);

/*
 * Open the device node dev (a path without symlinks, as blockdev_of
 * gives it) for flags (O_RDONLY or O_RDWR, O_EXCL to claim it).  The node
 * is looked at (O_PATH, no symlink followed) before anything opens it,
 * and only a block device that is not mounted is opened, through that
 * look: a FIFO, a regular file or a symlink put there is never opened.
 * The descriptor and its fstat in *st; or -1 and *why (malloc'd): not a
 * block device, mounted (where), in use (an O_EXCL open fails with
 * EBUSY), or cannot be opened (errno's text).
 */
int blockdev_open(const char *dev, int flags, struct stat *st, char **why);

/*
 * Open the device open in fd again, for flags (its own O_DIRECT, O_SYNC,
 * access), through /proc/thread-self/fd: the same device whatever is at its
 * path now.  The descriptor, or -1 with errno (ENOENT: no /proc).
 */
int blockdev_reopen(int fd, int flags);

/*
 * What libblkid finds on the device open in fd, probing every file
 * system, RAID or volume manager, encrypted volume and partition table
 * signature it knows at the device's sector size: 1 and *what (malloc'd,
 * every match named: "a file system (ext4) and a partition table
 * (dos)"), 0 if nothing, -1 with errno if the probe fails.
 */
int blockdev_signatures(int fd, char **what);

/*
 * Why device dev (as blockdev_of gives it) must not be used, malloc'd,
 * or NULL if it may: not a block device, mounted (the mount point
 * named), held by the kernel (a swap area, RAID, LVM, device-mapper: an
 * O_EXCL open fails with EBUSY; only when exclusive, as another rank of a
 * job on this host may hold it so), or, when the run writes it (writes)
 * and force is not given, anything libblkid finds on it (named), or a
 * probe that failed.
 */
char *blockdev_refusal(const char *dev, bool writes, bool force,
		       bool exclusive);

/*
 * Why the device open in fd must not be written, as blockdev_refusal
 * says it (what libblkid found, or that the probe failed), or NULL.
 */
char *blockdev_write_refusal(int fd);

/* The device's size in bytes (BLKGETSIZE64): 0, or -1 with errno. */
int blockdev_size(int fd, uint64_t *size);

#endif
