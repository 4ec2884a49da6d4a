/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * An entry of a fileset opened for a flowop (fileset_openat): beneath the
 * root, a regular file of fbrun's only, its missing parents made for a
 * createfile, a device fileset's descriptor checked.  Above fileset.c's
 * opens beneath a root and fileset_device.c, which it uses.
 */
#include "engine/fileset/fileset_int.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * open(2) of rel beneath the root; with O_CREAT, the missing parents are
 * made and the open tried again (createfile in a directory a removedir
 * took away).
 */
static int open_making(struct fileset *fs, const char *rel, int flags,
		       mode_t mode)
{
	int fd = fs_open_beneath(fs->rootfd, rel, flags, mode), pfd;
	const char *last;

	if (fd >= 0 || errno != ENOENT || !(flags & O_CREAT))
		return fd;
	pfd = fs_walk_parent(fs->rootfd, rel, true, &last);
	if (pfd < 0)
		return -1;
	if (pfd != fs->rootfd)
		close(pfd);
	return fs_open_beneath(fs->rootfd, rel, flags, mode);
}

static void close_keep_errno(int fd)
{
	int e = errno;

	close(fd);
	errno = e;
}

/* fd, just opened at an entry's name: kept if fbrun made it, else closed. */
static int keep_if_ours(struct fileset *fs, int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && fs_refuse(fs, &st) == 0)
		return fd;
	close_keep_errno(fd);
	return -1;
}

/*
 * A tree kept with trusttree was never looked at: what is at rel is
 * looked at before it is opened, so a device node planted there is not
 * even opened (opening some runs their driver's code: a watchdog arms).
 */
static int look_first(struct fileset *fs, const char *rel)
{
	struct stat st;

	if (fstatat(fs->rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	return S_ISLNK(st.st_mode) ? 0 : fs_refuse(fs, &st);
}

int fileset_openat(struct fileset *fs, const char *rel, int flags,
		   mode_t mode)
{
	int fd;

	if (fs->dev) /* the descriptor checked when taken, not the name */
		return fs_device_open(fs, flags);
	if (flags & (O_PATH | O_DIRECTORY))
		return open_making(fs, rel, flags, mode);
	/*
	 * Only a regular file of ours is used: O_NONBLOCK so a FIFO renamed
	 * over the entry cannot hold the open for good, O_NOCTTY so a tty
	 * is never taken, and the fd checked before anything is written.
	 */
	flags |= O_NONBLOCK | O_NOCTTY;
	if (fs->look_first && look_first(fs, rel) < 0)
		return -1;
	fd = -1;
	if (flags & O_CREAT) {
		/* a new file is ours with no fstat: the usual createfile */
		fd = open_making(fs, rel, flags | O_EXCL, mode);
		if (fd < 0 && errno != EEXIST)
			return -1;
		flags &= ~O_CREAT;
	}
	if (fd < 0) {
		fd = open_making(fs, rel, flags, mode);
		if (fd < 0 || (fd = keep_if_ours(fs, fd)) < 0)
			return -1;
	}
	/* io_uring fails a read that would block on an O_NONBLOCK file */
	if (fs->blocking && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		close_keep_errno(fd);
		return -1;
	}
	return fd;
}
