/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A fileset's data written back and dropped from the page cache
 * (--cache-limit), so the run's first reads come from the device as the
 * limit says, not from what making the files left cached.  The walk
 * opens each directory beneath the last through no symlink, stays on the
 * root's file system, and only reads: a file it cannot open is left.
 */
#include "engine/fileset/fileset_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEPTH_MAX 256 /* deeper than any laid-out tree: an fd a level */

/* The type of entry de of dirfd, not following a symlink; 0 if gone. */
static mode_t type_of(int dirfd, const struct dirent *de)
{
	struct stat st;

	switch (de->d_type) {
	case DT_REG:
		return S_IFREG;
	case DT_DIR:
		return S_IFDIR;
	case DT_UNKNOWN:
		break;
	default:
		return S_IFLNK; /* a symlink, device node, FIFO: left alone */
	}
	if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	return st.st_mode & S_IFMT;
}

/* fd's cached pages dropped (written back first by syncfs). */
static void drop(int fd, uint64_t *files)
{
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0)
		(*files)++;
}

/* Every file below the directory fd (which it closes), depth levels down. */
static void drop_dir(int fd, dev_t dev, unsigned depth, uint64_t *files)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;

	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		mode_t type;
		struct stat st;
		int cfd;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		type = type_of(dirfd(d), de);
		if (type == S_IFREG) {
			cfd = openat(dirfd(d), de->d_name,
				     O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					     O_NOCTTY | O_CLOEXEC);
			if (cfd >= 0) {
				drop(cfd, files);
				close(cfd);
			}
		} else if (type == S_IFDIR && depth < DEPTH_MAX) {
			cfd = openat(dirfd(d), de->d_name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
			if (cfd < 0)
				continue;
			if (fstat(cfd, &st) < 0 || st.st_dev != dev)
				close(cfd); /* a mount point: not the tree's */
			else
				drop_dir(cfd, dev, depth + 1, files);
		}
	}
	closedir(d);
}

int fileset_drop_cache(struct fileset *fs, uint64_t *files)
{
	struct stat st;
	int fd;

	if (fs->devfd >= 0) {
		/* a device's dirty blocks first, then its cached ones */
		if (fsync(fs->devfd) < 0 && errno != EINVAL && errno != EBADF)
			return -1;
		drop(fs->devfd, files);
		return 0;
	}
	if (fs->rootfd < 0 || fstat(fs->rootfd, &st) < 0)
		return 0; /* nothing made */
	if ((fd = openat(fs->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	/* DONTNEED leaves dirty pages: the file system's written back first */
	if (syncfs(fd) < 0) {
		close(fd);
		return -1;
	}
	drop_dir(fd, st.st_dev, 0, files);
	return 0;
}
