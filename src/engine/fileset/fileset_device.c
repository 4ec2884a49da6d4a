/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A `define file` that is a block device: its one file is the device
 * itself.  Nothing is made, marked, written before the run or removed
 * after it.  In plain fbrun the device is claimed (O_EXCL) for the run,
 * so nothing can mount it meanwhile; a job's ranks share it, and only
 * the checks guard it.  The checks before any statement are
 * engine_devices.c's; here the device is opened once when the run takes
 * it, checked again on that descriptor, and every flowop's open is a
 * reopen of that descriptor, never of the node's name: whatever is put
 * at the name meanwhile, the run uses only the device it checked.
 */
#include "engine/fileset/fileset_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/io/blockdev.h"
#include "util/util.h"

void fileset_set_device(struct fileset *fs, const char *dev, bool writable,
			bool force, bool size_set, bool exclusive)
{
	const char *slash = strrchr(dev, '/');

	free(fs->dev);
	fs->dev = xstrdup(dev);
	fs->devname = fs->dev + (slash ? slash - dev + 1 : 0);
	fs->dev_writable = writable;
	fs->dev_force = force;
	fs->dev_size_set = size_set;
	fs->dev_exclusive = exclusive;
	/* messages name the device, not <path>/<name> */
	free(fs->root);
	fs->root = xstrdup(dev);
}

const char *fileset_device(const struct fileset *fs)
{
	return fs->dev;
}

/* The directory of the device's node, for the one file's openat. */
static int dev_dir(const struct fileset *fs)
{
	char *dir = xstrndup(fs->dev, (size_t)(fs->devname - fs->dev));
	int fd = open(dir[0] ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	free(dir);
	return fd;
}

int fs_device_take(struct fileset *fs, char *err, size_t errlen)
{
	struct fs_kind *k = &fs->files;
	uint64_t size, want = fileset_entry_size(fs, 0);
	int flags = (fs->dev_writable ? O_RDWR : O_RDONLY) |
		    (fs->dev_exclusive ? O_EXCL : 0);
	struct stat st;
	char *why = NULL;
	int fd;

	/*
	 * All checks again, on the descriptor the run will use: what is at
	 * the name may have changed since the checks (a system statement)
	 */
	fd = blockdev_open(fs->dev, flags, &st, &why);
	if (fd >= 0 && fs->dev_writable && !fs->dev_force)
		why = blockdev_write_refusal(fd);
	if (why) {
		fs->state = ROOT_REFUSED;
		fs_set_err(err, errlen,
			   "block device '%s': %s; refusing to use it", fs->dev,
			   why);
		free(why);
		if (fd >= 0)
			close(fd);
		return -2;
	}
	if (blockdev_size(fd, &size) < 0) {
		fs_fail_errno(err, errlen, "use block device", fs->dev, NULL);
		close(fd);
		return -1;
	}
	if (fs->rootfd >= 0)
		close(fs->rootfd);
	/* statfile's: it stats the node, which opens nothing */
	if ((fs->rootfd = dev_dir(fs)) < 0) {
		fs_fail_errno(err, errlen, "open the directory of", fs->dev,
			      NULL);
		close(fd);
		return -1;
	}
	fs->devfd = fd;
	fs->dev_rdev = st.st_rdev;
	/* its own size, unless size= asks for less of it */
	if (!fs->dev_size_set || want > size)
		want = size;
	if (fs->sizes)
		fs->sizes[0] = want;
	else
		fs->size = want;
	for (uint64_t w = 0; w < k->nwords; w++) {
		atomic_store(&k->exists[w], 0);
		atomic_store(&k->busy[w], 0);
	}
	atomic_store(&k->exists[fs_word(k, 0)], fs_bit(k, 0));
	fs_sum_rebuild(k);
	return 0;
}

int fs_device_open(struct fileset *fs, int flags)
{
	struct stat st;
	int fd;

	/* never made nor cut; read-only unless its writes are allowed */
	flags &= ~(O_CREAT | O_TRUNC | O_EXCL);
	if (!fs->dev_writable)
		flags = (flags & ~O_ACCMODE) | O_RDONLY;
	if (fs->devfd < 0)
		return errno = EBADF, -1;
	fd = blockdev_reopen(fs->devfd, flags);
	if (fd < 0) {
		/* /proc is gone: the device is not opened another way */
		if (errno == ENOENT)
			errno = ESTALE;
		return -1;
	}
	/* what /proc gave is the device checked, or nothing is done */
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) ||
	    st.st_rdev != fs->dev_rdev) {
		close(fd);
		return errno = ESTALE, -1;
	}
	return fd;
}
