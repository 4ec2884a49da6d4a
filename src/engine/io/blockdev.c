/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Block devices as filesets: see blockdev.h. */
#include "engine/io/blockdev.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/paths.h"
#include "util/util.h"

static bool is_blockdev(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISBLK(st.st_mode);
}

char *blockdev_of(const char *path, const char *name)
{
	char *root = xasprintf("%s/%s", path, name), *real = NULL;

	if (is_blockdev(root))
		real = realpath(root, NULL);
	else if (is_blockdev(path))
		real = realpath(path, NULL);
	free(root);
	return real;
}

/*
 * Where rdev (or a mount whose source is dev) is mounted: 1 and *found
 * (malloc'd), 0 nowhere, -1 with errno if mountinfo cannot be read (then
 * whether it is mounted is not known).  btrfs reports a device number of
 * its own, so the source too.
 */
static int mount_point(dev_t rdev, const char *dev, char **found)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;

	*found = NULL;
	if (!f)
		return -1;
	while (!*found && getline(&line, &cap, f) > 0) {
		char *save = NULL, *mnt = NULL, *src = NULL, *tok;
		unsigned maj = 0, min = 0;
		int field = 0;
		bool sep = false;

		for (tok = strtok_r(line, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save), field++) {
			if (field == 2 && sscanf(tok, "%u:%u", &maj, &min) != 2)
				break;
			if (field == 4)
				mnt = tok;
			if (sep) {
				src = strtok_r(NULL, " \n", &save);
				break;
			}
			sep = field > 4 && strcmp(tok, "-") == 0;
		}
		if (!mnt)
			continue;
		if (src)
			path_mountinfo_unescape(src);
		if ((maj == major(rdev) && min == minor(rdev)) ||
		    (src && strcmp(src, dev) == 0)) {
			path_mountinfo_unescape(mnt);
			*found = xstrdup(mnt);
		}
	}
	free(line);
	fclose(f);
	return *found ? 1 : 0;
}

/* What a node is, for a message that it is not a block device. */
static const char *kind_of(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	return "a socket";
}

int blockdev_reopen(int fd, int flags)
{
	char proc[40];

	/*
	 * The magic link is the open file itself: no name is looked up.
	 * thread-self: a worker's descriptors are in its own table.
	 */
	snprintf(proc, sizeof(proc), "/proc/thread-self/fd/%d", fd);
	flags &= ~(O_CREAT | O_TRUNC | O_NOFOLLOW);
	return open(proc, flags | O_NOCTTY | O_CLOEXEC);
}

/* Why the node dev, fstat in st, must not be opened, or NULL. */
static char *node_refusal(const char *dev, const struct stat *st)
{
	char *mnt;
	int m;

	if (!S_ISBLK(st->st_mode))
		return xasprintf("it is %s now, not a block device",
				 kind_of(st->st_mode));
	/* without /proc, neither this nor blockdev_reopen can be done */
	if ((m = mount_point(st->st_rdev, dev, &mnt)) < 0)
		return xasprintf("cannot tell whether it is mounted: cannot "
				 "read /proc/self/mountinfo: %s",
				 strerror(errno));
	if (m > 0) {
		char *why = xasprintf("it is mounted on '%s'", mnt);

		free(mnt);
		return why;
	}
	return NULL;
}

int blockdev_open(const char *dev, int flags, struct stat *st, char **why)
{
	struct stat now;
	int pfd, fd = -1;

	*why = NULL;
	/* O_PATH opens nothing: a FIFO does not block, a tape not rewind */
	pfd = open(dev, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, st) < 0) {
		*why = xasprintf("cannot open it: %s", strerror(errno));
		goto out;
	}
	if ((*why = node_refusal(dev, st)))
		goto out;
	/* O_EXCL: EBUSY while the kernel holds it (mounted, swap, md, dm) */
	fd = blockdev_reopen(pfd, flags);
	if (fd < 0 && errno == EBUSY)
		*why = xasprintf("it is in use (mounted, a swap area, or part "
				 "of a RAID, LVM or device-mapper device)");
	else if (fd < 0)
		*why = xasprintf("cannot open it: %s", strerror(errno));
	else if (fstat(fd, &now) < 0 || !S_ISBLK(now.st_mode) ||
		 now.st_rdev != st->st_rdev)
		*why = xasprintf("cannot open it: it changed while it was "
				 "opened");
	if (*why && fd >= 0) {
		close(fd);
		fd = -1;
	}
out:
	if (pfd >= 0)
		close(pfd);
	return fd;
}

int blockdev_size(int fd, uint64_t *size)
{
	return ioctl(fd, BLKGETSIZE64, size) < 0 ? -1 : 0;
}

char *blockdev_write_refusal(int fd)
{
	char *what, *why;
	int rc = blockdev_signatures(fd, &what);

	if (rc < 0)
		return xasprintf("libblkid cannot probe what it holds (%s), so "
				 "it is not written (--force-device writes it "
				 "all the same)",
				 strerror(errno));
	if (rc == 0)
		return NULL;
	why = xasprintf("it holds %s, which writing it would destroy "
			"(--force-device writes it all the same)",
			what);
	free(what);
	return why;
}

char *blockdev_refusal(const char *dev, bool writes, bool force,
		       bool exclusive)
{
	struct stat st;
	char *why = NULL;
	int fd = blockdev_open(dev, O_RDONLY | (exclusive ? O_EXCL : 0), &st,
			       &why);

	if (fd < 0)
		return why;
	if (writes && !force)
		why = blockdev_write_refusal(fd);
	close(fd);
	return why;
}
