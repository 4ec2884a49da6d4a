/* Block devices as filesets: see blockdev.h. */
#include "engine/blockdev.h"

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

/* mountinfo's octal escapes (\040 for a space) undone in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/*
 * Where rdev (or a mount whose source is dev) is mounted, malloc'd, or
 * NULL.  btrfs reports a device number of its own, so the source too.
 */
static char *mount_point(dev_t rdev, const char *dev)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *found = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	while (!found && getline(&line, &cap, f) > 0) {
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
			unescape(src);
		if ((maj == major(rdev) && min == minor(rdev)) ||
		    (src && strcmp(src, dev) == 0)) {
			unescape(mnt);
			found = xstrdup(mnt);
		}
	}
	free(line);
	fclose(f);
	return found;
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
	char *mnt, *why;
	int fd;

	if (stat(dev, &st) < 0)
		return xasprintf("cannot stat it: %s", strerror(errno));
	if ((mnt = mount_point(st.st_rdev, dev))) {
		why = xasprintf("it is mounted on '%s'", mnt);
		free(mnt);
		return why;
	}
	/* O_EXCL: EBUSY while the kernel holds it (mounted, swap, md, dm) */
	fd = open(dev, O_RDONLY | (exclusive ? O_EXCL : 0) | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return xasprintf("it is in use (mounted, a swap area, or part of "
				 "a RAID, LVM or device-mapper device)");
	if (fd < 0)
		return xasprintf("cannot open it: %s", strerror(errno));
	why = writes && !force ? blockdev_write_refusal(fd) : NULL;
	close(fd);
	return why;
}
