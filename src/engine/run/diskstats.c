/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The block devices under the filesets, found through sysfs and read
 * from /proc/diskstats (diskstats.h).
 */
#include "engine/run/diskstats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/fileset/fileset.h"
#include "engine/sys/timeline.h"
#include "util/util.h"

/* dm on md on a partition is 3 deep; loops of holders are cut here */
#define MAX_DEPTH 6

struct disks {
	struct diskstat_set *set; /* names and filesets; counts at the end */
	struct diskstat_counts *c0, *c1; /* per device, the two readings */
	bool *seen0, *seen1; /* the device was in /proc/diskstats */
	uint64_t t0, t1;
	bool started, ended;
	int err; /* errno of the last failed read of /proc/diskstats */
};

/* "8:1\n" in a sysfs file. */
static int read_devnum(const char *path, unsigned *maj, unsigned *min)
{
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%u:%u", maj, min);
	fclose(f);
	return n == 2 ? 0 : -1;
}

static int find(const struct diskstat_set *s, unsigned maj, unsigned min)
{
	for (size_t i = 0; i < s->ndev; i++)
		if (s->dev[i].major == maj && s->dev[i].minor == min)
			return (int)i;
	return -1;
}

/*
 * Device maj:min, a fileset's (fileset set) or one below device
 * slave_of, with the devices it lies on.  Its index, or -1 if sysfs has
 * no block device of that number.
 */
static int add_block(struct diskstat_set *s, unsigned maj, unsigned min,
		     const char *fileset, int slave_of, int depth)
{
	char sys[64], real[PATH_MAX], sub[PATH_MAX + 64], *slash;
	struct diskstat *d;
	struct dirent *de;
	DIR *dir;
	int i = find(s, maj, min);

	if (i >= 0) {
		if (fileset) { /* a fileset's own device is top level */
			s->dev[i].slave_of = -1;
			diskstat_add_fileset(&s->dev[i], fileset);
		}
		return i;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", maj, min);
	if (!realpath(sys, real))
		return -1;
	slash = strrchr(real, '/');
	d = diskstat_add(s, slash ? slash + 1 : real);
	i = (int)s->ndev - 1;
	d->major = maj;
	d->minor = min;
	d->slave_of = fileset ? -1 : slave_of;
	if (fileset)
		diskstat_add_fileset(d, fileset);
	snprintf(sub, sizeof(sub), "%s/partition", real);
	if (slash && access(sub, F_OK) == 0) {
		/* .../block/sda/sda1: the disk is the directory above */
		*slash = '\0';
		snprintf(d->parent, sizeof(d->parent), "%.*s",
			 (int)sizeof(d->parent) - 1,
			 strrchr(real, '/') ? strrchr(real, '/') + 1 : real);
		return i;
	}
	snprintf(sub, sizeof(sub), "%s/slaves", sys);
	dir = depth < MAX_DEPTH ? opendir(sub) : NULL;
	while (dir && (de = readdir(dir))) {
		unsigned smaj, smin;

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/slaves/%s/dev", sys, de->d_name);
		if (read_devnum(sub, &smaj, &smin) == 0)
			add_block(s, smaj, smin, NULL, i, depth + 1);
	}
	if (dir)
		closedir(dir);
	return i;
}

/*
 * The type and source of the mount the root fd is on, from
 * /proc/self/mountinfo: "id parent maj:min root point opts ... - type
 * source super".  Found by the mount's id (statx), else by the device
 * number (btrfs's subvolumes have numbers of their own).  False if none
 * is found.
 */
static bool mount_of(int fd, dev_t dev, char *type, size_t tlen, char *src,
		     size_t slen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, want[32], *dash;
	size_t cap = 0;
	bool found = false;
	struct statx sx;
	unsigned long long id = 0;

	if (!f)
		return false;
#ifdef STATX_MNT_ID
	if (fd >= 0 && statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) == 0 &&
	    (sx.stx_mask & STATX_MNT_ID))
		id = sx.stx_mnt_id;
#else
	(void)sx;
#endif
	snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	while (!found && getline(&line, &cap, f) > 0) {
		char t[64], so[256];
		char *sp = strchr(line, ' ');

		sp = sp ? strchr(sp + 1, ' ') : NULL;
		if (!sp || (id ? strtoull(line, NULL, 10) != id :
				 strncmp(sp, want, strlen(want)) != 0) ||
		    !(dash = strstr(sp, " - ")) ||
		    sscanf(dash + 3, "%63s %255s", t, so) != 2)
			continue;
		snprintf(type, tlen, "%s", t);
		snprintf(src, slen, "%s", so);
		found = true;
	}
	free(line);
	fclose(f);
	return found;
}

/* A btrfs file system's devices, from its fsid's sysfs directory. */
static int add_btrfs(struct diskstat_set *s, int rootfd, const char *fileset)
{
	struct btrfs_ioctl_fs_info_args fi;
	char dir[128], sub[PATH_MAX];
	const unsigned char *u = fi.fsid;
	struct dirent *de;
	DIR *dp;
	int n = 0;

	memset(&fi, 0, sizeof(fi));
	if (rootfd < 0 || ioctl(rootfd, BTRFS_IOC_FS_INFO, &fi) < 0)
		return 0;
	snprintf(dir, sizeof(dir),
		 "/sys/fs/btrfs/%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x/devices",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
	if (!(dp = opendir(dir)))
		return 0;
	while ((de = readdir(dp))) {
		unsigned maj, min;

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", dir, de->d_name);
		if (read_devnum(sub, &maj, &min) == 0 &&
		    add_block(s, maj, min, fileset, -1, 0) >= 0)
			n++;
	}
	closedir(dp);
	return n;
}

/*
 * A file system without a device number of its own (btrfs, tmpfs, NFS,
 * overlay): btrfs's devices, or its mount's source if that is a block
 * device; else why there is none.
 */
static void add_anonymous(struct diskstat_set *s, dev_t dev, int rootfd,
			  const char *fileset)
{
	char type[64] = "unknown file system", src[256] = "", why[512];
	struct statfs sf;
	struct stat st;

	if (rootfd >= 0 && fstatfs(rootfd, &sf) == 0 &&
	    sf.f_type == BTRFS_SUPER_MAGIC && add_btrfs(s, rootfd, fileset) > 0)
		return;
	mount_of(rootfd, dev, type, sizeof(type), src, sizeof(src));
	if (strcmp(type, "btrfs") == 0) {
		if (src[0] == '/' && stat(src, &st) == 0 &&
		    S_ISBLK(st.st_mode) &&
		    add_block(s, major(st.st_rdev), minor(st.st_rdev),
			      fileset, -1, 0) >= 0)
			return;
		diskstat_add_none(s, fileset,
				  "btrfs, its devices not found in sysfs");
		return;
	}
	snprintf(why, sizeof(why), "no block device (%s)", type);
	diskstat_add_none(s, fileset, why);
}

/* Fileset fs's devices, or why it has none. */
static void add_fileset(struct diskstat_set *s, const struct fileset *fs)
{
	const char *name = fileset_name(fs), *dev = fileset_device(fs);
	int rootfd = fileset_rootfd(fs);
	struct stat st;
	dev_t num;
	char why[PATH_MAX + 64];

	if (dev) { /* a device fileset: the node's own number */
		if (stat(dev, &st) < 0 || !S_ISBLK(st.st_mode)) {
			snprintf(why, sizeof(why), "cannot stat '%s': %s", dev,
				 strerror(errno));
			diskstat_add_none(s, name, why);
			return;
		}
		num = st.st_rdev;
	} else if (rootfd < 0 || fstat(rootfd, &st) < 0) {
		diskstat_add_none(s, name, "its root is not open");
		return;
	} else {
		num = st.st_dev;
	}
	if (major(num) == 0) {
		add_anonymous(s, num, rootfd, name);
	} else if (add_block(s, major(num), minor(num), name, -1, 0) < 0) {
		snprintf(why, sizeof(why),
			 "no block device (device %u:%u is not in "
			 "/sys/dev/block)",
			 major(num), minor(num));
		diskstat_add_none(s, name, why);
	}
}

struct disks *diskstats_new(const struct workload *w, struct fileset *const *fs)
{
	struct disks *d = xcalloc(1, sizeof(*d));
	size_t n;

	d->set = xcalloc(1, sizeof(*d->set));
	for (size_t i = 0; fs && i < w->nfilesets; i++)
		if (fs[i])
			add_fileset(d->set, fs[i]);
	n = d->set->ndev ? d->set->ndev : 1;
	d->c0 = xcalloc(n, sizeof(*d->c0));
	d->c1 = xcalloc(n, sizeof(*d->c1));
	d->seen0 = xcalloc(n, sizeof(*d->seen0));
	d->seen1 = xcalloc(n, sizeof(*d->seen1));
	return d;
}

void diskstats_free(struct disks *d)
{
	if (!d)
		return;
	diskstat_free(d->set);
	free(d->c0);
	free(d->c1);
	free(d->seen0);
	free(d->seen1);
	free(d);
}

/* A /proc/diskstats line's numbers after the name, into c; how many. */
static int parse_counts(const char *p, struct diskstat_counts *c)
{
	uint64_t v[17] = { 0 };
	int n = 0;

	while (n < 17) {
		char *end;

		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (end == p || errno)
			break;
		p = end;
		n++;
	}
	*c = (struct diskstat_counts){
		.rd_ios = v[0], .rd_merges = v[1], .rd_sectors = v[2],
		.rd_ticks = v[3], .wr_ios = v[4], .wr_merges = v[5],
		.wr_sectors = v[6], .wr_ticks = v[7], .io_ticks = v[9],
		.in_queue = v[10], .dc_ios = v[11], .fl_ios = v[15],
	};
	return n;
}

void diskstats_sample(struct disks *d, bool end)
{
	struct diskstat_counts *c;
	char *line = NULL;
	size_t cap = 0;
	bool *seen;
	FILE *f;

	if (!d)
		return;
	*(end ? &d->t1 : &d->t0) = now_ns();
	*(end ? &d->ended : &d->started) = true;
	if (!d->set->ndev)
		return;
	c = end ? d->c1 : d->c0;
	seen = end ? d->seen1 : d->seen0;
	memset(seen, 0, d->set->ndev * sizeof(*seen));
	if (!(f = fopen("/proc/diskstats", "re"))) {
		d->err = errno;
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		unsigned maj, min;
		int off = 0, i, n;

		if (sscanf(line, "%u %u %*s%n", &maj, &min, &off) != 2 ||
		    !off || (i = find(d->set, maj, min)) < 0)
			continue;
		n = parse_counts(line + off, &c[i]);
		seen[i] = n >= 11; /* the fields of every kernel since 2.6 */
		d->set->dev[i].has_dc = n >= 15;
		d->set->dev[i].has_fl = n >= 17;
	}
	free(line);
	fclose(f);
}

/* What a counter grew by; a 32-bit kernel's unsigned long wraps. */
static uint64_t grew(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : (uint32_t)(b - a);
}

static struct diskstat_counts delta(const struct diskstat_counts *a,
				    const struct diskstat_counts *b)
{
	return (struct diskstat_counts){
		.rd_ios = grew(a->rd_ios, b->rd_ios),
		.rd_merges = grew(a->rd_merges, b->rd_merges),
		.rd_sectors = grew(a->rd_sectors, b->rd_sectors),
		.rd_ticks = grew(a->rd_ticks, b->rd_ticks),
		.wr_ios = grew(a->wr_ios, b->wr_ios),
		.wr_merges = grew(a->wr_merges, b->wr_merges),
		.wr_sectors = grew(a->wr_sectors, b->wr_sectors),
		.wr_ticks = grew(a->wr_ticks, b->wr_ticks),
		.io_ticks = grew(a->io_ticks, b->io_ticks),
		.in_queue = grew(a->in_queue, b->in_queue),
		.dc_ios = grew(a->dc_ios, b->dc_ios),
		.fl_ios = grew(a->fl_ios, b->fl_ios),
	};
}

/*
 * A device read at neither end is left out, its filesets said with the
 * reason; a slave whose holder went is kept at the top.
 */
struct diskstat_set *diskstats_result(const struct disks *d)
{
	const struct diskstat_set *s;
	struct diskstat_set *r;
	int *to;

	if (!d || !d->started || !d->ended ||
	    (!d->set->ndev && !d->set->nnone))
		return NULL;
	s = d->set;
	r = xcalloc(1, sizeof(*r));
	to = xcalloc(s->ndev ? s->ndev : 1, sizeof(*to));
	for (size_t i = 0; i < s->ndev; i++) {
		const struct diskstat *x = &s->dev[i];
		struct diskstat *y;
		char why[512];

		to[i] = -1;
		if (!d->seen0[i] || !d->seen1[i]) {
			if (d->err)
				snprintf(why, sizeof(why), "%s: cannot read "
					 "/proc/diskstats: %s", x->name,
					 strerror(d->err));
			else
				snprintf(why, sizeof(why), "%s: not in "
					 "/proc/diskstats", x->name);
			for (size_t k = 0; k < x->nfilesets; k++)
				diskstat_add_none(r, x->filesets[k], why);
			continue;
		}
		y = diskstat_add(r, x->name);
		to[i] = (int)r->ndev - 1;
		snprintf(y->parent, sizeof(y->parent), "%s", x->parent);
		y->major = x->major;
		y->minor = x->minor;
		y->slave_of = x->slave_of >= 0 ? to[x->slave_of] : -1;
		for (size_t k = 0; k < x->nfilesets; k++)
			diskstat_add_fileset(y, x->filesets[k]);
		y->has_dc = x->has_dc;
		y->has_fl = x->has_fl;
		y->secs = (double)(d->t1 - d->t0) / 1e9;
		y->d = delta(&d->c0[i], &d->c1[i]);
	}
	for (size_t i = 0; i < s->nnone; i++)
		diskstat_add_none(r, s->none[i].fileset, s->none[i].why);
	free(to);
	return r;
}
