/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Filesets in memory: paths, opening beneath the root, and the getters.
 * The layout of the tree is in fileset_layout.c, picking entries in
 * fileset_pick.c, creating and removing the tree on disk in
 * fileset_create.c.  See fileset.h.
 */
#include "engine/fileset/fileset_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/io/verify.h"
#include "util/util.h"

#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define HAVE_OPEN_HOW 1
#endif
#endif

void fs_set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

void fileset_free(struct fileset *fs)
{
	if (!fs)
		return;
	if (fs->rootfd >= 0)
		close(fs->rootfd);
	if (fs->devfd >= 0)
		close(fs->devfd);
	free(fs->dev);
	for (size_t i = 0; i < fs->nmade; i++)
		free(fs->made[i]);
	free(fs->made);
	free(fs->files.ent);
	free(fs->files.exists);
	free(fs->files.busy);
	free(fs->files.foreign);
	fs_sum_free(&fs->files);
	free(fs->leaves.ent);
	free(fs->leaves.exists);
	free(fs->leaves.busy);
	free(fs->leaves.foreign);
	fs_sum_free(&fs->leaves);
	free(fs->sizes);
	for (size_t i = 0; i < fs->nextra; i++) {
		free(fs->extra[i].who);
		free(fs->extra[i].sizes);
	}
	free(fs->extra);
	free(fs->replay);
	vfy_files_free(fs->vfiles);
	free(fs->dirs);
	free(fs->name);
	free(fs->path);
	free(fs->root);
	free(fs);
}

/* ------------------------------------------------------------ getters */

const char *fileset_name(const struct fileset *fs)
{
	return fs->name;
}

const char *fileset_root(const struct fileset *fs)
{
	return fs->root;
}

uint64_t fileset_nfiles(const struct fileset *fs)
{
	return fs->files.n;
}

uint64_t fileset_nleafdirs(const struct fileset *fs)
{
	return fs->leaves.n;
}

uint64_t fileset_ndirs(const struct fileset *fs)
{
	return fs->ndirs;
}

uint64_t fileset_nexisting(const struct fileset *fs)
{
	return fs_nexisting(&fs->files);
}

uint64_t fileset_prealloc_bytes(const struct fileset *fs)
{
	return atomic_load(&((struct fileset *)fs)->bytes);
}

double fileset_mean_width(const struct fileset *fs)
{
	return (double)(fs->ndirs - 1 + fs->files.n + fs->leaves.n) /
	       (double)fs->ndirs;
}

double fileset_mean_depth(const struct fileset *fs)
{
	uint64_t n = fs->files.n + fs->leaves.n;

	return n ? (double)fs->depth_sum / (double)n : 0;
}

double fileset_nominal_width(const struct fileset *fs)
{
	return fs->nominal_width;
}

double fileset_nominal_depth(const struct fileset *fs)
{
	return fs->nominal_depth;
}

int fileset_rootfd(const struct fileset *fs)
{
	return fs->rootfd;
}

uint64_t fileset_entry_size(const struct fileset *fs, int64_t e)
{
	if (e < 0 || (uint64_t)e >= fs->files.n)
		return 0;
	return fs->sizes ? fs->sizes[e] : fs->size;
}

uint64_t fileset_file_id(const struct fileset *fs, int64_t e)
{
	return vfy_file_id(fs->name, e);
}

struct vfy_files *fileset_vfy(const struct fileset *fs)
{
	return fs->vfiles;
}

/* ------------------------------------------------------------ paths */

/* Two digits a step: paths are built on every metadata op. */
static void put_serial(char *end, size_t width, uint32_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";

	for (; width >= 2; width -= 2, v /= 100) {
		end -= 2;
		memcpy(end, pairs + 2 * (v % 100), 2);
	}
	if (width)
		*--end = (char)('0' + v % 10);
}

/* dir's path, then `last` (0: none) below it; written from the end. */
static int build_path(const struct fileset *fs, uint32_t dir, uint32_t last,
		      char *buf, size_t len)
{
	size_t need = last ? fs_serial_width(last) : 0, pos;
	uint32_t d;

	for (d = dir; d != 0; d = fs->dirs[d].parent)
		need += fs_serial_width(fs->dirs[d].serial) + (need ? 1 : 0);
	if (need == 0) {
		if (len < 2)
			return -1;
		strcpy(buf, ".");
		return 1;
	}
	if (need >= len || need > INT32_MAX)
		return -1;
	pos = need;
	buf[pos] = '\0';
	if (last) {
		put_serial(buf + pos, fs_serial_width(last), last);
		pos -= fs_serial_width(last);
	}
	for (d = dir; d != 0; d = fs->dirs[d].parent) {
		size_t wd = fs_serial_width(fs->dirs[d].serial);

		if (pos != need)
			buf[--pos] = '/';
		put_serial(buf + pos, wd, fs->dirs[d].serial);
		pos -= wd;
	}
	return (int)need;
}

int fileset_relpath(const struct fileset *fs, enum fs_pick kind, int64_t e,
		    char *buf, size_t len)
{
	const struct fs_kind *k = fs_kind_of((struct fileset *)fs, kind);

	if (e < 0 || (uint64_t)e >= k->n)
		return -1;
	if (fs->dev && k == &fs->files)
		return snprintf(buf, len, "%s", fs->devname) < (int)len ?
			       (int)strlen(buf) :
			       -1;
	return build_path(fs, k->ent[e].parent, k->ent[e].serial, buf, len);
}

int fileset_dirpath(const struct fileset *fs, int64_t dir, char *buf,
		    size_t len)
{
	if (dir < 0 || (uint64_t)dir >= fs->ndirs)
		return -1;
	return build_path(fs, (uint32_t)dir, 0, buf, len);
}

/* Add one to the decimal name at s (n digits); false if it carries out. */
static bool name_next(char *s, size_t n)
{
	while (n--) {
		if (s[n] != '9') {
			s[n]++;
			return true;
		}
		s[n] = '0';
	}
	return false;
}

/*
 * fileset_path: l->path holds the path of directory l->pdir, l->plen
 * long, then the name of serial l->serial.  Only a new directory is built
 * from the tree; the next entry in the same one, the usual case in a
 * block, changes a digit or two.
 */
const char *fileset_path(const struct fileset *fs, enum fs_pick kind,
			 int64_t e, struct fs_local *l)
{
	const struct fs_ent *en =
		&fs_kind_of((struct fileset *)fs, kind)->ent[e];
	char *name;
	size_t w;

	if (__builtin_expect(fs->dev != NULL, 0)) {
		/* the device's node, in the directory rootfd is */
		snprintf(l->path, sizeof(l->path), "%s", fs->devname);
		l->pdir = NO_DIR;
		l->plen = 0;
		l->serial = 0;
		return l->path;
	}
	if (en->parent != l->pdir) {
		/* fileset_new saw to it that every path fits */
		int n = build_path(fs, en->parent, 0, l->path, sizeof(l->path));

		l->plen = en->parent == 0 || n < 0 ? 0 : (size_t)n;
		l->pdir = en->parent;
		l->serial = 0;
		if (l->plen)
			l->path[l->plen] = '/';
	}
	name = l->path + (l->plen ? l->plen + 1 : 0);
	if (en->serial != l->serial + 1 || !l->serial ||
	    !name_next(name, fs_serial_width(l->serial))) {
		w = fs_serial_width(en->serial);
		put_serial(name + w, w, en->serial);
		name[w] = '\0';
	}
	l->serial = en->serial;
	return l->path;
}

int fileset_parent(struct fileset *fs, enum fs_pick kind, int64_t e,
		   struct fs_local *l, const char **name)
{
	const char *p;
	int fd;

	if (fs->dev) /* a device has no names to make or remove */
		return errno = EPERM, -1;
	p = fileset_path(fs, kind, e, l);

	*name = p + (l->plen ? l->plen + 1 : 0);
	if (l->pdir == 0)
		return fs->rootfd;
	if (l->fdir == l->pdir)
		return l->dirfd;
	if (l->dirfd >= 0)
		close(l->dirfd);
	l->fdir = NO_DIR;
	l->path[l->plen] = '\0'; /* the directory's path alone, for a moment */
	fd = fs_open_beneath(fs->rootfd, p, O_PATH | O_DIRECTORY, 0);
	l->path[l->plen] = '/';
	if ((l->dirfd = fd) < 0)
		return -1;
	l->fdir = l->pdir;
	return fd;
}

/* ------------------------------------------------------------ opening */

static _Atomic int openat2_state; /* 0 untried, 1 works, -1 no syscall */

/*
 * The directory holding rel's last component, reached one component at a
 * time with O_NOFOLLOW and never through "..", so even without openat2
 * nothing outside dirfd is touched; mk makes missing directories on the
 * way.  *last is set to the last component.  The result may be dirfd.
 */
int fs_walk_parent(int dirfd, const char *rel, bool mk, const char **last)
{
	int fd = dirfd, nfd;
	char comp[NAME_MAX + 1];
	const char *slash;

	if (rel[0] == '/')
		return errno = EXDEV, -1;
	for (; (slash = strchr(rel, '/')); rel = slash + 1) {
		size_t n = (size_t)(slash - rel);

		if (n == 0 || (n == 1 && rel[0] == '.'))
			continue;
		if (n > NAME_MAX)
			return errno = ENAMETOOLONG, -1;
		memcpy(comp, rel, n);
		comp[n] = '\0';
		if (strcmp(comp, "..") == 0)
			errno = EXDEV, nfd = -1;
		else if (mk && mkdirat(fd, comp, 0755) < 0 && errno != EEXIST)
			nfd = -1;
		else
			nfd = openat(fd, comp, O_PATH | O_DIRECTORY |
						       O_NOFOLLOW | O_CLOEXEC);
		if (fd != dirfd) {
			int e = errno;

			close(fd);
			errno = e;
		}
		if (nfd < 0)
			return -1;
		fd = nfd;
	}
	*last = *rel ? rel : ".";
	if (strcmp(*last, "..") == 0) {
		if (fd != dirfd)
			close(fd);
		return errno = EXDEV, -1;
	}
	return fd;
}

static int open_walk(int dirfd, const char *rel, int flags, mode_t mode)
{
	const char *last;
	int pfd = fs_walk_parent(dirfd, rel, false, &last), fd, e;

	if (pfd < 0)
		return -1;
	fd = openat(pfd, last, flags, mode);
	e = errno;
	if (pfd != dirfd)
		close(pfd);
	errno = e;
	return fd;
}

/* Set FBRUN_NO_OPENAT2 at build time to test the fallback. */
#if defined(SYS_openat2) && defined(HAVE_OPEN_HOW) && !defined(FBRUN_NO_OPENAT2)
static int openat2_how(int dirfd, const char *rel, int flags, mode_t mode,
		       uint64_t resolve)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_LARGEFILE),
		/* O_TMPFILE holds O_DIRECTORY's bit: a mode for it alone */
		.mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ?
				mode :
				0,
		.resolve = resolve,
	};
	long fd;

	if (atomic_load_explicit(&openat2_state, memory_order_relaxed) < 0)
		return errno = ENOSYS, -1;
	fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		atomic_store_explicit(&openat2_state, -1, memory_order_relaxed);
	return (int)fd;
}

static int try_openat2(int dirfd, const char *rel, int flags, mode_t mode)
{
	/* NO_XDEV: never into a mount planted in the tree */
	return openat2_how(dirfd, rel, flags, mode,
			   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
				   RESOLVE_NO_XDEV);
}

int fileset_open_following(int dirfd, const char *rel, int flags, mode_t mode)
{
	/* the kernel keeps every link's target beneath dirfd (EXDEV) */
	return openat2_how(dirfd, rel, (flags & ~O_NOFOLLOW) | O_CLOEXEC, mode,
			   RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS |
				   RESOLVE_NO_XDEV);
}
#else
static int try_openat2(int dirfd, const char *rel, int flags, mode_t mode)
{
	(void)dirfd, (void)rel, (void)flags, (void)mode;
	atomic_store_explicit(&openat2_state, -1, memory_order_relaxed);
	return errno = ENOSYS, -1;
}

int fileset_open_following(int dirfd, const char *rel, int flags, mode_t mode)
{
	(void)dirfd, (void)rel, (void)flags, (void)mode;
	return errno = ENOSYS, -1;
}
#endif

int fs_open_strict(int dirfd, const char *rel, int flags)
{
	return try_openat2(dirfd, rel, flags | O_CLOEXEC | O_NOFOLLOW, 0);
}

int fileset_open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
	return fs_open_beneath(dirfd, rel, flags, mode);
}

int fs_open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
	int fd;

	flags |= O_CLOEXEC | O_NOFOLLOW;
	fd = try_openat2(dirfd, rel, flags, mode);
	if (fd >= 0 || errno != ENOSYS)
		return fd;
	return open_walk(dirfd, rel, flags, mode);
}

/* Why this thread's last open of an entry was refused (fileset_refusal). */
static _Thread_local char refusal[96];

const char *fileset_refusal(void)
{
	static _Thread_local char said[sizeof(refusal)];

	if (!refusal[0])
		return NULL;
	memcpy(said, refusal, sizeof(said));
	refusal[0] = '\0';
	return said;
}

const char *fs_mode_name(mode_t m)
{
	return S_ISBLK(m)  ? "a block device" :
	       S_ISCHR(m)  ? "a character device" :
	       S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" :
	       S_ISDIR(m)  ? "a directory" :
	       S_ISLNK(m)  ? "a symbolic link" :
	       S_ISREG(m)  ? "a regular file" :
			     "a special file";
}

int fs_refuse(const struct fileset *fs, const struct stat *st)
{
	if (!S_ISREG(st->st_mode)) {
		snprintf(refusal, sizeof(refusal), "%s fbrun did not make",
			 fs_mode_name(st->st_mode));
		return errno = EPERM, -1;
	}
	if (st->st_nlink > 1 && !fs->links) {
		snprintf(refusal, sizeof(refusal),
			 "a hard link fbrun did not make (%ju names)",
			 (uintmax_t)st->st_nlink);
		return errno = EMLINK, -1;
	}
	return 0;
}
