/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Removing a fileset's tree.  Only a root whose marker names this
 * fileset is removed, and in it only the names fbrun makes
 * (fileset_names.c).  Anything else is left where it is, with the
 * directories holding it, and named in the error.  Nothing is followed:
 * a symlink is unlinked itself, a mount point is refused.
 */
#include "engine/fileset/fileset_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/util.h"

/*
 * rmdir failing with ENOTEMPTY after the contents went: something was
 * added meanwhile, or a readdir skipped entries around the unlinks.  Scan
 * and try again, a few times: someone adding without end gets an error,
 * not a hang.
 */
#define RM_TRIES 4

struct rm {
	struct fileset *fs; /* counts what it removes */
	dev_t dev; /* the root's file system */
	bool dry; /* only look for what is not ours; remove nothing */
	bool createnext; /* createnext's names are ours too */
	bool in_replay; /* walking one of those: everything in it is ours */
	char *err;
	size_t errlen;
	int rc;
	uint64_t nforeign; /* names found that fbrun does not make */
	char *foreign; /* the first one's path */
};

/* Whether fbrun makes name in the root (top) or below it. */
static bool ours(const struct rm *r, const char *name, bool top)
{
	return r->in_replay || fs_name_ours(r->fs, name, top, r->createnext);
}

/* ------------------------------------------------------------ walking */

static void rm_fail(struct rm *r, const char *verb, const char *dir,
		    const char *name)
{
	if (r->rc == 0)
		fs_set_err(r->err, r->errlen, "cannot %s '%s%s%s': %s", verb,
			   dir, name ? "/" : "", name ? name : "",
			   strerror(errno));
	r->rc = -1;
}

static void foreign(struct rm *r, const char *dpath, const char *name)
{
	if (r->nforeign++ == 0)
		r->foreign = xasprintf("%s/%s", dpath, name);
}

/* One more entry removed, for the progress line. */
static void count_done(struct fileset *fs)
{
	atomic_fetch_add_explicit(&fs->done, 1, memory_order_relaxed);
}

/*
 * fd, a directory just opened, is the root of some mount (bind mounts
 * included) or on another file system, or cannot be looked at.
 */
static bool is_mount(struct rm *r, int fd)
{
	struct stat st;
#ifdef STATX_ATTR_MOUNT_ROOT
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_TYPE, &sx) == 0)
		return makedev(sx.stx_dev_major, sx.stx_dev_minor) != r->dev ||
		       (sx.stx_attributes_mask & sx.stx_attributes &
			STATX_ATTR_MOUNT_ROOT);
#endif
	return fstat(fd, &st) < 0 || st.st_dev != r->dev;
}

static void rm_contents(struct rm *r, int fd, const char *dpath, bool top);

static void rm_dir(struct rm *r, int dfd, const char *dpath, const char *name)
{
	char *path = xasprintf("%s/%s", dpath, name);

	for (int i = 1; i <= RM_TRIES; i++) {
		int fd = openat(dfd, name,
				O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		uint64_t before = r->nforeign;

		if (fd < 0) {
			int e = errno;

			/* out of descriptors: fine if it is empty */
			if ((e == EMFILE || e == ENFILE) && !r->dry &&
			    unlinkat(dfd, name, AT_REMOVEDIR) == 0)
				break;
			errno = e;
			/* ELOOP, ENOTDIR: replaced meanwhile, rescanned above */
			if (e != ENOENT && e != ELOOP && e != ENOTDIR)
				rm_fail(r, "open", path, NULL);
			break;
		}
		if (is_mount(r, fd)) {
			close(fd);
			if (r->rc == 0)
				fs_set_err(r->err, r->errlen,
					   "'%s' is a mount point; not removing "
					   "it or anything under it",
					   path);
			r->rc = -1;
			break;
		}
		rm_contents(r, fd, path, false);
		close(fd);
		/* what is not ours stays, and so does the directory holding it */
		if (r->dry || r->nforeign != before)
			break;
		if (unlinkat(dfd, name, AT_REMOVEDIR) == 0) {
			count_done(r->fs);
			break;
		}
		if (errno == ENOENT)
			break;
		if (errno != ENOTEMPTY || i == RM_TRIES || r->rc) {
			rm_fail(r, "remove", path, NULL);
			break;
		}
	}
	free(path);
}

/* Bytes of a directory read at a time, as readdir reads them. */
#define RM_BUF 32768

/*
 * The type of entry de, as the directory gives it (what rm -rf goes by:
 * no stat for each file), or as fstatat does where the file system gives
 * none.  0 and errno when it is gone or cannot be looked at.
 */
static mode_t type_of(int dfd, const struct dirent_raw *de)
{
	struct stat st;

	switch (de->type) {
	case DT_REG:
		return S_IFREG;
	case DT_DIR:
		return S_IFDIR;
	case DT_LNK:
		return S_IFLNK;
	case DT_UNKNOWN:
		break;
	default:
		return S_IFIFO; /* a device node, FIFO or socket: not ours */
	}
	if (fstatat(dfd, de->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	return st.st_mode & S_IFMT;
}

static void rm_entry(struct rm *r, int dfd, const char *dpath,
		     const struct dirent_raw *de, bool top)
{
	const char *name = de->name;
	mode_t type;

	if (!ours(r, name, top)) {
		foreign(r, dpath, name);
	} else if (!(type = type_of(dfd, de))) {
		if (errno != ENOENT)
			rm_fail(r, "stat", dpath, name);
	} else if (S_ISDIR(type)) {
		bool was = r->in_replay;

		/* a replay's tree holds the trace's names: all of them ours */
		if (top && fs_replay_tree(r->fs, name))
			r->in_replay = true;
		rm_dir(r, dfd, dpath, name);
		r->in_replay = was;
	} else if (!S_ISREG(type) && !S_ISLNK(type)) {
		/* a device node, FIFO or socket at one of our names */
		foreign(r, dpath, name);
	} else if (r->dry) {
		/* ours: would be unlinked */
	} else if (unlinkat(dfd, name, 0) == 0) {
		count_done(r->fs);
	} else if (errno != ENOENT && errno != EISDIR) {
		/* symlinks are unlinked themselves, never followed */
		rm_fail(r, "remove", dpath, name);
	}
}

/* One entry of the directory fd: what is ours goes; top keeps the marker. */
static void rm_one(struct rm *r, int fd, const char *dpath,
		   const struct dirent_raw *de, bool top)
{
	const char *n = de->name;

	if (!strcmp(n, ".") || !strcmp(n, "..") ||
	    (top && !strcmp(n, FILESET_MARKER)))
		return;
	/* a marker being replaced when a run ended */
	if (top && fs_marker_debris(fd, n)) {
		if (!r->dry && unlinkat(fd, n, 0) < 0 && errno != ENOENT)
			rm_fail(r, "remove", dpath, n);
		return;
	}
	rm_entry(r, fd, dpath, de, top);
}

/*
 * Remove what is ours in the directory fd, from where it stands (read
 * with getdents64 itself: a DIR costs an fstat and two fcntl a
 * directory).  One descriptor per level below: a low ulimit -n still
 * removes a shallow tree.
 */
static void rm_contents(struct rm *r, int fd, const char *dpath, bool top)
{
	char *buf = malloc(RM_BUF);
	long n = -1;

	errno = ENOMEM;
	while (buf && (n = syscall(SYS_getdents64, fd, buf, RM_BUF)) > 0)
		for (long off = 0; off < n;
		     off += ((const struct dirent_raw *)(buf + off))->reclen)
			rm_one(r, fd, dpath, (const struct dirent_raw *)(buf + off),
			       top);
	/* ENOENT: the directory was removed meanwhile, its end (as readdir) */
	if (n < 0 && errno != ENOENT)
		rm_fail(r, "read", dpath, NULL);
	free(buf);
}

static void rm_init(struct rm *r, struct fileset *fs, bool createnext,
		    char *err, size_t errlen)
{
	*r = (struct rm){ .fs = fs, .createnext = createnext, .err = err,
			  .errlen = errlen };
}

/*
 * What is not ours, said once the walk is over: -2 (a dry walk) or -1 if
 * anything was, else the walk's own result.
 */
static int rm_done(struct rm *r)
{
	if (r->nforeign && r->rc == 0) {
		char more[64] = "";

		if (r->nforeign > 1)
			snprintf(more, sizeof(more), " (and %" PRIu64 " more)",
				 r->nforeign - 1);
		if (r->dry)
			fs_set_err(r->err, r->errlen,
				   "'%s' holds '%s'%s, which fbrun did not "
				   "make; not using or removing it",
				   r->fs->root, r->foreign, more);
		else
			fs_set_err(r->err, r->errlen,
				   "not removing '%s'%s, which fbrun did not "
				   "make; leaving it in '%s' with the "
				   "directories holding it and the marker",
				   r->foreign, more, r->fs->root);
		r->rc = r->dry ? -2 : -1;
	}
	free(r->foreign);
	r->foreign = NULL;
	return r->rc;
}

/* The walk over the root dfd (which stays open): dry or removing. */
static int walk_root(struct rm *r, int fd)
{
	struct stat st;
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0 || fstat(dfd, &st) < 0) {
		rm_fail(r, "open", r->fs->root, NULL);
		if (dfd >= 0)
			close(dfd);
		return rm_done(r);
	}
	r->dev = st.st_dev;
	rm_contents(r, dfd, r->fs->root, true);
	close(dfd);
	return rm_done(r);
}

int fs_check_foreign(struct fileset *fs, int fd, char *err, size_t errlen)
{
	struct rm r;

	rm_init(&r, fs, fs->createnext, err, errlen);
	r.dry = true;
	return walk_root(&r, fd);
}

int fs_empty_root(struct fileset *fs, int fd, char *err, size_t errlen)
{
	struct rm r;

	rm_init(&r, fs, fs->createnext, err, errlen);
	return walk_root(&r, fd);
}

/* ------------------------------------------------------------ removing */

int fs_dir_is_empty(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int empty = 1;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (empty && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

/*
 * Remove what is ours in the root (dfd, open on it), then the marker and
 * the root unless adopted.  The root's descriptor serves for everything,
 * so removal needs one descriptor per level of the tree and no more.
 * Returns 0, -1 (err says what failed), or -3 when names fbrun does not
 * make were left (err says which; the marker stays with them).
 */
static int remove_marked(struct fileset *fs, int dfd, bool adopted,
			 bool createnext, char *err, size_t errlen)
{
	struct rm r;
	struct stat st;

	rm_init(&r, fs, createnext, err, errlen);
	if (fstat(dfd, &st) < 0) {
		rm_fail(&r, "open", fs->root, NULL);
		return -1;
	}
	r.dev = st.st_dev;
	fs_sweep(fs, dfd);
	rm_contents(&r, dfd, fs->root, true);
	for (int i = 1; r.rc == 0 && !r.nforeign && i <= RM_TRIES; i++) {
		/* ENOENT: something else removed it meanwhile, which is fine */
		if (unlinkat(dfd, FILESET_MARKER, 0) < 0 &&
		    errno != ENOENT) {
			rm_fail(&r, "remove", fs->root, FILESET_MARKER);
			break;
		}
		if (adopted) {
			/* not ours to remove: check it is empty */
			if (fs_dir_is_empty(dfd) == 1)
				break;
		} else if (rmdir(fs->root) == 0 || errno == ENOENT) {
			break;
		} else if (errno != ENOTEMPTY) {
			rm_fail(&r, "remove", fs->root, NULL);
			break;
		}
		if (i == RM_TRIES) {
			errno = ENOTEMPTY;
			rm_fail(&r, "remove", fs->root, NULL);
			break;
		}
		lseek(dfd, 0, SEEK_SET); /* added meanwhile: again */
		rm_contents(&r, dfd, fs->root, true);
	}
	if (r.nforeign && r.rc == 0) {
		rm_done(&r);
		return -3;
	}
	return rm_done(&r);
}

/* Takes fd (the root, open), closes it; as remove_marked. */
static int remove_root(struct fileset *fs, int fd, char *err, size_t errlen)
{
	struct marker m;
	int rc, got;

	if (fs->state != ROOT_OURS) {
		/* create failed before the marker; rmdir takes only an empty one */
		close(fd);
		if (fs->root_made && rmdir(fs->root) < 0 && errno != ENOENT &&
		    errno != ENOTEMPTY) {
			fs_set_err(err, errlen, "cannot remove '%s': %s",
				   fs->root, strerror(errno));
			return -1;
		}
		return 0;
	}
	got = fs_marker_read(fs, fd, &m, err, errlen);
	if (got == 0 && fs->root_made && rmdir(fs->root) == 0) {
		close(fd); /* the marker went, nothing else was there */
		return 0;
	}
	if (got == 0)
		fs_set_err(err, errlen, "'%s' has no %s marker; not removing it",
			   fs->root, FILESET_MARKER);
	if (got == 1 && strcmp(m.name, fs->name) != 0) {
		fs_set_err(err, errlen,
			   "'%s' now holds fileset '%s', as its marker says; "
			   "not removing it",
			   fs->root, m.name);
		got = -1;
	}
	if (got <= 0) {
		fs_marker_free(&m);
		close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET); /* the run's descriptor: from the start */
	fs_replay_inherit(fs, &m);
	rc = remove_marked(fs, fd, m.adopted, fs->createnext || m.createnext,
			   err, errlen);
	fs_marker_free(&m);
	close(fd);
	return rc;
}

/*
 * The root's path now against the directory fbrun took (rootfd): 0 the
 * same, 1 that went away (removed by someone: nothing of ours is left),
 * -1 it was replaced or moved while fbrun's tree lives on elsewhere (err
 * says where).
 */
static int root_identity(struct fileset *fs, char *err, size_t errlen)
{
	struct stat took, now;
	char link[64], where[PATH_MAX] = "";
	const char *what;
	ssize_t n;
	int got = lstat(fs->root, &now);

	if (fstat(fs->rootfd, &took) < 0)
		return 0; /* removal finds out */
	if (got == 0 && S_ISDIR(now.st_mode) && now.st_dev == took.st_dev &&
	    now.st_ino == took.st_ino)
		return 0;
	if (took.st_nlink == 0)
		return 1; /* removed: what stands there now is not ours */
	what = got < 0 && errno == ENOENT ? "gone" :
	       got < 0			  ? strerror(errno) :
	       S_ISLNK(now.st_mode)	  ? "a symbolic link" :
	       S_ISDIR(now.st_mode)	  ? "another directory" :
					    "not a directory";
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fs->rootfd);
	n = readlink(link, where, sizeof(where) - 1);
	where[n > 0 ? n : 0] = '\0';
	fs_set_err(err, errlen,
		   "'%s' was replaced during the run (it is %s now) and is "
		   "not followed; the tree fbrun made there%s%s%s is left in "
		   "place",
		   fs->root, what, where[0] ? " (now '" : "", where,
		   where[0] ? "')" : "");
	return -1;
}

int fileset_remove(struct fileset *fs, char *err, size_t errlen)
{
	int fd, rc = 0, same;

	atomic_store(&fs->done, 0);
	if (fs->dev) {
		/* a device is never removed: only its claim is let go */
		if (fs->devfd >= 0)
			close(fs->devfd);
		fs->devfd = -1;
		return 0;
	}
	/* another process's (shared) tree: it removes it */
	if (fs->state == ROOT_ATTACHED)
		return 0;
	/* never ours, or never reached: only what create made of the path */
	if (fs->state == ROOT_REFUSED ||
	    (fs->state == ROOT_UNTOUCHED && !fs->root_made)) {
		fileset_remove_made(fs);
		return 0;
	}
	if (fs->state == ROOT_OURS && fs->rootfd >= 0) {
		same = root_identity(fs, err, errlen);
		fd = same == 0 ? fs->rootfd : -1;
		rc = same < 0 ? -1 : 0;
		if (fd >= 0) {
			/* removal takes it over; the lock goes when it is done */
			fs->rootfd = -1;
			rc = remove_root(fs, fd, err, errlen);
		}
	} else if ((fd = open(fs->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						O_CLOEXEC)) >= 0) {
		rc = remove_root(fs, fd, err, errlen);
	} else if (errno != ENOENT && errno != ENOTDIR) {
		/* ENOTDIR: a file in the path, so no tree of ours there */
		fs_set_err(err, errlen, "cannot open '%s': %s", fs->root,
			   strerror(errno));
		rc = -1;
	}
	if (rc == -1 && fd >= 0) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n, "; leaving the rest of '%s' in place",
			 fs->root);
	}
	if (rc >= 0) {
		fs->state = ROOT_UNTOUCHED;
		fs->root_made = false;
		for (uint64_t w = 0; w < fs->files.nwords; w++)
			atomic_store(&fs->files.exists[w], 0);
		for (uint64_t w = 0; w < fs->leaves.nwords; w++)
			atomic_store(&fs->leaves.exists[w], 0);
		fs_sum_rebuild(&fs->files);
		fs_sum_rebuild(&fs->leaves);
	}
	if (fs->rootfd >= 0) {
		close(fs->rootfd); /* the lock goes with it */
		fs->rootfd = -1;
	}
	fileset_remove_made(fs);
	return rc < 0 ? -1 : 0;
}

void fileset_remove_made(struct fileset *fs)
{
	/* innermost first, while empty: one holding another tree stays */
	while (fs->nmade > 0) {
		char *dir = fs->made[fs->nmade - 1];

		if (rmdir(dir) < 0 && errno != ENOENT)
			break;
		free(dir);
		fs->nmade--;
	}
}
