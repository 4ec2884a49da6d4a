/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Before preallocating: will it fit?  Once the filesets are laid out (no
 * I/O yet) what each will write is known, so a run that would fill the
 * disk is refused before anything is made rather than after gigabytes.
 * So are the replays' trees, which are made before the clock too: their
 * bytes, and their files and directories against the free inodes.
 */
#include "engine/fileset/fileset_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "util/util.h"

/* A file system the filesets write to, and what they will write there. */
struct fs_target {
	dev_t dev;
	char *where; /* the deepest existing directory of a root */
	uint64_t bsize, need, avail; /* bytes */
	size_t first; /* the first fileset that writes there */
	size_t nsets;
	/* the replays' trees: their files and directories, the free inodes */
	uint64_t nodes, nodes_avail;
	bool nodes_known; /* the file system counts inodes */
	const struct fs_extra *extra; /* the first replay there, or NULL */
	size_t nextra;
};

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* n rounded up to whole blocks of bs: what a file of n bytes occupies. */
static uint64_t in_blocks(uint64_t n, uint64_t bs)
{
	uint64_t r = n % bs;

	return r ? add_sat(n, bs - r) : n;
}

/*
 * The deepest directory of fs's root that exists (the root itself if it
 * does), as mkdir will meet it, and its device.  NULL if none is found.
 */
static char *existing_part(const struct fileset *fs, dev_t *dev)
{
	char *p = xmalloc(strlen(fs->root) + 2), *slash;
	struct stat st;

	strcpy(p, fs->root);
	while (stat(p, &st) < 0) {
		slash = strrchr(p, '/');
		if (errno != ENOENT || !strcmp(p, ".") || !strcmp(p, "/")) {
			free(p);
			return NULL;
		}
		if (!slash)
			strcpy(p, "."); /* a relative path: the working directory */
		else if (slash == p)
			p[1] = '\0'; /* "/" */
		else
			*slash = '\0';
	}
	*dev = st.st_dev;
	return p;
}

/* The root when it exists and carries our marker; else -1. */
static int open_our_root(const struct fileset *fs)
{
	int fd = open(fs->root, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 &&
	    faccessat(fd, FILESET_MARKER, F_OK, AT_SYMLINK_NOFOLLOW) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Blocks the file rel beneath rootfd already has, in bytes; 0 if none. */
static uint64_t has_bytes(int rootfd, const char *rel)
{
	int fd = fs_open_beneath(rootfd, rel, O_PATH, 0);
	struct stat st;
	uint64_t n = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = (uint64_t)st.st_blocks * 512;
	close(fd);
	return n;
}

/*
 * What preallocating fs will add to its file system, in blocks of bs: the
 * files fileset_create will write (the same ones: the choice is seeded),
 * less what they already hold in a tree of ours that is reused or replaced.
 * Preallocation writes every byte, so the files are never sparse.
 */
static uint64_t to_write(struct fileset *fs, uint64_t bs)
{
	char rel[PATH_MAX];
	uint64_t sum = 0;
	int rootfd;

	if (fs->prealloc == 0)
		return 0;
	rootfd = open_our_root(fs);
	if (rootfd >= 0 && fs->reuse && fs->trusttree) {
		close(rootfd); /* kept as it is, unchecked */
		return 0;
	}
	fs_choose(fs, &fs->files, 1);
	for (uint64_t e = 0; e < fs->files.n; e++) {
		uint64_t want, have;

		if (!fs_test(&fs->files, fs->files.exists, e))
			continue;
		want = in_blocks(fileset_entry_size(fs, (int64_t)e), bs);
		if (rootfd >= 0 && want > 0 &&
		    fileset_relpath(fs, FS_FILE_EXISTING, (int64_t)e, rel,
				    sizeof(rel)) >= 0) {
			have = has_bytes(rootfd, rel);
			want = want > have ? want - have : 0;
		}
		sum = add_sat(sum, want);
	}
	if (rootfd >= 0)
		close(rootfd);
	return sum;
}

void fileset_add_extra(struct fileset *fs, const char *who,
		       const int64_t *sizes, size_t n, uint64_t ndirs,
		       uint64_t copies)
{
	struct fs_extra *x;

	fs->extra = xrealloc(fs->extra, (fs->nextra + 1) * sizeof(*fs->extra));
	x = &fs->extra[fs->nextra++];
	x->who = xstrdup(who);
	x->sizes = xmalloc((n ? n : 1) * sizeof(*sizes));
	if (n)
		memcpy(x->sizes, sizes, n * sizeof(*sizes));
	x->n = n;
	x->ndirs = ndirs;
	x->copies = copies;
}

/*
 * What the replays' trees in fs will take, in blocks of bs (a directory
 * a block); their files and directories added to *nodes.
 */
static uint64_t extra_bytes(const struct fileset *fs, uint64_t bs,
			    uint64_t *nodes)
{
	uint64_t sum = 0;

	for (size_t k = 0; k < fs->nextra; k++) {
		const struct fs_extra *x = &fs->extra[k];
		uint64_t one = mul_sat(x->ndirs, bs);

		for (size_t i = 0; i < x->n; i++)
			one = add_sat(one, in_blocks((uint64_t)x->sizes[i], bs));
		sum = add_sat(sum, mul_sat(one, x->copies));
		*nodes = add_sat(*nodes, mul_sat(x->n + x->ndirs, x->copies));
	}
	return sum;
}

/* 9.2 EiB, 512.0 KiB: a size for people. */
static void human(char *buf, size_t len, uint64_t n)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB",
					     "PiB", "EiB" };
	double v = (double)n;
	size_t u = 0;

	if (n == UINT64_MAX) {
		snprintf(buf, len, "16 EiB or more");
		return;
	}
	if (n < 1024) {
		snprintf(buf, len, "%" PRIu64 " bytes", n);
		return;
	}
	for (v /= 1024; v >= 1024 && u + 1 < ARRAY_SIZE(units); v /= 1024)
		u++;
	snprintf(buf, len, "%.1f %s", v, units[u]);
}

/* The replays' part of t, for the messages: "the trees of replay R (...)". */
static void replays_said(const struct fs_target *t, char *buf, size_t len)
{
	snprintf(buf, len,
		 "the trees of replay %s%s (%" PRIu64 " cop%s of %s trace's "
		 "initial state)",
		 t->extra->who, t->nextra > 1 ? " and the others there" : "",
		 t->extra->copies, t->extra->copies == 1 ? "y" : "ies",
		 t->nextra > 1 ? "the first's" : "its");
}

static void refuse(const struct fs_target *t, struct fileset *const *fs,
		   char *err, size_t errlen)
{
	char need[32], avail[32], what[256];

	human(need, sizeof(need), t->need);
	human(avail, sizeof(avail), t->avail);
	if (t->extra) {
		replays_said(t, what, sizeof(what));
		fs_set_err(err, errlen,
			   "not enough free space: fileset '%s'%s, with %s, "
			   "would take %s of the file system of '%s', which "
			   "has %s free; nothing was created (--force tries "
			   "anyway)",
			   fs[t->first]->name,
			   t->nsets > 1 ? " and the others there" : "", what,
			   need, t->where, avail);
		return;
	}
	fs_set_err(err, errlen,
		   "not enough free space: preallocating fileset '%s'%s would "
		   "write %s to the file system of '%s', which has %s free; "
		   "nothing was created (--force tries anyway)",
		   fs[t->first]->name,
		   t->nsets > 1 ? " and the others there" : "", need, t->where,
		   avail);
}

/* Too few inodes for the replays' trees. */
static void refuse_nodes(const struct fs_target *t, char *err, size_t errlen)
{
	char what[256];

	replays_said(t, what, sizeof(what));
	fs_set_err(err, errlen,
		   "not enough free inodes: %s would make %" PRIu64 " files "
		   "and directories on the file system of '%s', which has %"
		   PRIu64 " free; nothing was created (--force tries anyway)",
		   what, t->nodes, t->where, t->nodes_avail);
}

int fileset_check_space(struct fileset *const *fs, size_t n, char *err,
			size_t errlen)
{
	struct fs_target *t = xcalloc(n ? n : 1, sizeof(*t));
	size_t nt = 0, k;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		struct statvfs sv;
		dev_t dev;
		char *where;

		if (!fs[i] || (fs[i]->prealloc == 0 && !fs[i]->nextra) ||
		    fs[i]->dev)
			continue; /* a device is never written before the run */
		where = existing_part(fs[i], &dev);
		if (!where)
			continue; /* creating it will say why */
		for (k = 0; k < nt && t[k].dev != dev; k++)
			;
		if (k < nt) {
			free(where);
		} else if (statvfs(where, &sv) < 0 || sv.f_frsize == 0) {
			free(where); /* one that cannot say is not refused */
			continue;
		} else {
			t[nt++] = (struct fs_target){
				.dev = dev, .where = where, .first = i,
				.bsize = sv.f_frsize,
				.avail = mul_sat(sv.f_bavail, sv.f_frsize),
				/* some (btrfs) have no count of inodes: 0 */
				.nodes_known = sv.f_files != 0,
				.nodes_avail = sv.f_favail,
			};
		}
		t[k].need = add_sat(t[k].need, to_write(fs[i], t[k].bsize));
		t[k].need = add_sat(t[k].need,
				    extra_bytes(fs[i], t[k].bsize, &t[k].nodes));
		if (fs[i]->nextra && !t[k].extra)
			t[k].extra = &fs[i]->extra[0];
		t[k].nextra += fs[i]->nextra;
		t[k].nsets++;
	}
	for (k = 0; k < nt && rc == 0; k++)
		if (t[k].need > t[k].avail) {
			refuse(&t[k], fs, err, errlen);
			rc = -1;
		} else if (t[k].extra && t[k].nodes_known &&
			   t[k].nodes > t[k].nodes_avail) {
			refuse_nodes(&t[k], err, errlen);
			rc = -1;
		}
	for (k = 0; k < nt; k++)
		free(t[k].where);
	free(t);
	return rc;
}
