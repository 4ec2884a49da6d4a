/*
 * A `define file` that is a block device: its one file is the device
 * itself.  Nothing is made, marked, written before the run or removed
 * after it.  In plain fbrun the device is claimed (O_EXCL) for the run,
 * so nothing can mount it meanwhile; a job's ranks share it, and only
 * the checks before the run guard it.  Those checks are
 * engine_devices.c's.
 */
#include "engine/fileset_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/blockdev.h"
#include "util/util.h"

void fileset_set_device(struct fileset *fs, const char *dev, bool writable,
			bool size_set, bool exclusive)
{
	const char *slash = strrchr(dev, '/');

	free(fs->dev);
	fs->dev = xstrdup(dev);
	fs->devname = fs->dev + (slash ? slash - dev + 1 : 0);
	fs->dev_writable = writable;
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
	char *why = blockdev_refusal(fs->dev, fs->dev_writable, true,
				     fs->dev_exclusive);
	int fd;

	/* mounted since the checks (a system statement): refused all the same */
	if (why) {
		fs->state = ROOT_REFUSED;
		fs_set_err(err, errlen,
			   "block device '%s': %s; refusing to use it", fs->dev,
			   why);
		free(why);
		return -2;
	}
	fd = open(fs->dev,
		  O_RDONLY | (fs->dev_exclusive ? O_EXCL : 0) | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY) {
		fs->state = ROOT_REFUSED;
		fs_set_err(err, errlen,
			   "block device '%s' is in use; refusing to use it",
			   fs->dev);
		return -2;
	}
	if (fd < 0 || blockdev_size(fd, &size) < 0) {
		fs_fail_errno(err, errlen, "use block device", fs->dev, NULL);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fs->rootfd >= 0)
		close(fs->rootfd);
	if ((fs->rootfd = dev_dir(fs)) < 0) {
		fs_fail_errno(err, errlen, "open the directory of", fs->dev,
			      NULL);
		close(fd);
		return -1;
	}
	fs->devfd = fd;
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
	return 0;
}
