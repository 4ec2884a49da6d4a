/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Filesets on disk: making the directories and the leaf directories, and
 * preallocating files with a bounded pool of writers.  Taking the root
 * (path, lock, marker) is fileset_root.c's, removing the tree
 * fileset_remove.c's.
 */
#include "engine/fileset/fileset_int.h"
#include "engine/sys/timeline.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/io/datagen.h"
#include "engine/io/verify.h"
#include "util/util.h"

#define WRITE_CHUNK (1u << 20) /* preallocation writes at most 1 MiB */
#define MAX_WRITERS 32u /* paralloc threads, as filebench */


/* One more entry made or removed, for the progress line. */
static void count_done(struct fileset *fs)
{
	atomic_fetch_add_explicit(&fs->done, 1, memory_order_relaxed);
}

/* ------------------------------------------------------------ creating */

static int subdir_fail(struct fileset *fs, const char *verb, uint64_t d,
		       char *err, size_t errlen)
{
	char rel[PATH_MAX];
	int e = errno;

	if (fileset_dirpath(fs, (int64_t)d, rel, sizeof(rel)) < 0)
		strcpy(rel, "...");
	errno = e;
	return fs_fail_errno(err, errlen, verb, fs->root, rel);
}

/* Every directory, in preorder, each made and opened in its parent. */
static int make_dirs(struct fileset *fs, char *err, size_t errlen)
{
	size_t top = 0, cap = 16;
	uint32_t *sdir = xmalloc(cap * sizeof(*sdir));
	int *sfd = xmalloc(cap * sizeof(*sfd)), rc = 0;
	char name[16];

	sdir[0] = 0;
	sfd[0] = fs->rootfd;
	for (uint64_t d = 1; d < fs->ndirs && rc == 0 && !timeline_signalled;
	     d++) {
		while (sdir[top] != fs->dirs[d].parent)
			close(sfd[top--]);
		if (top + 1 == cap) {
			cap *= 2;
			sdir = xrealloc(sdir, cap * sizeof(*sdir));
			sfd = xrealloc(sfd, cap * sizeof(*sfd));
		}
		snprintf(name, sizeof(name), "%08u", fs->dirs[d].serial);
		if (mkdirat(sfd[top], name, 0755) < 0 && errno != EEXIST) {
			rc = subdir_fail(fs, "create", d, err, errlen);
			break;
		}
		sfd[top + 1] = openat(sfd[top], name,
				      O_PATH | O_DIRECTORY | O_NOFOLLOW |
					      O_CLOEXEC);
		if (sfd[top + 1] < 0)
			rc = subdir_fail(fs, "open", d, err, errlen);
		else
			sdir[++top] = (uint32_t)d;
		count_done(fs);
	}
	while (top > 0)
		close(sfd[top--]);
	free(sdir);
	free(sfd);
	return rc;
}

uint64_t fileset_create_total(const struct fileset *fs)
{
	return fs->ndirs - 1 + fs_nchosen(fs, fs->leaves.n) +
	       fs_nchosen(fs, fs->files.n);
}

uint64_t fileset_remove_total(const struct fileset *fs)
{
	return fs->ndirs - 1 + fs_nexisting(&fs->leaves) +
	       fs_nexisting(&fs->files);
}

bool fileset_on_disk(const struct fileset *fs)
{
	return fs->state == ROOT_OURS;
}

uint64_t fileset_done(const void *fs)
{
	return atomic_load_explicit(&((const struct fileset *)fs)->done,
				    memory_order_relaxed);
}

/* The directory holding rel, beneath the root; *last its last name. */
static int open_parent(struct fileset *fs, char *rel, const char **last)
{
	char *slash = strrchr(rel, '/');
	int fd;

	if (!slash) {
		*last = rel;
		return fs->rootfd;
	}
	*slash = '\0';
	fd = fs_open_beneath(fs->rootfd, rel, O_PATH | O_DIRECTORY, 0);
	*slash = '/';
	*last = slash + 1;
	return fd;
}

/* mkdir (make) or rmdir/unlink (!make) an entry beneath the root. */
static int entry_at(struct fileset *fs, char *rel, bool make, int rmflags)
{
	const char *last;
	int fd = open_parent(fs, rel, &last), rc, e;
	struct stat st;

	if (fd < 0)
		return -1;
	if (make)
		rc = mkdirat(fd, last, 0755) < 0 && errno != EEXIST ? -1 : 0;
	else if (fstatat(fd, last, &st, AT_SYMLINK_NOFOLLOW) < 0)
		/* nothing to remove: no write (a read-only reuse) */
		rc = errno == ENOENT ? 0 : -1;
	else if (!rmflags && !S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode))
		/* a device node or FIFO is not ours to unlink */
		rc = fs_refuse(fs, &st);
	else
		rc = unlinkat(fd, last, rmflags) < 0 && errno != ENOENT ? -1 : 0;
	e = errno;
	if (fd != fs->rootfd)
		close(fd);
	errno = e;
	return rc;
}

static int make_leaves(struct fileset *fs, char *err, size_t errlen)
{
	struct fs_kind *k = &fs->leaves;
	char rel[PATH_MAX];

	if (fs->reused && fs->trusttree)
		return 0;
	for (uint64_t e = 0; e < k->n; e++) {
		bool chosen = fs_test(k, k->exists, e);

		if (!chosen && !fs->reuse)
			continue;
		if (fileset_relpath(fs, FS_LEAF_ABSENT, (int64_t)e, rel,
				    sizeof(rel)) < 0) {
			errno = ENAMETOOLONG;
			return fs_fail_errno(err, errlen, "create", fs->root,
					  "...");
		}
		if (entry_at(fs, rel, chosen, AT_REMOVEDIR) < 0)
			return fs_fail_errno(err, errlen,
					  chosen ? "create" : "remove",
					  fs->root, rel);
		if (chosen)
			count_done(fs);
	}
	return 0;
}

/* ------------------------------------------------------------ writers */

struct pool {
	struct fileset *fs;
	char *buf; /* WRITE_CHUNK non-zero bytes, shared read-only: pool_chunk */
	_Atomic uint64_t next; /* bitmap word to do next */
	_Atomic bool failed;
	pthread_mutex_t lock;
	char *err;
	size_t errlen;
};

static void pool_fail(struct pool *p, const char *verb, const char *rel)
{
	int e = errno;

	const char *why = e == EPERM || e == EMLINK ? fileset_refusal() : NULL;

	pthread_mutex_lock(&p->lock);
	if (!atomic_load(&p->failed) && why) {
		fs_set_err(p->err, p->errlen, "cannot %s '%s/%s', %s: %s",
			   verb, p->fs->root, rel, why, strerror(e));
		atomic_store(&p->failed, true);
	} else if (!atomic_load(&p->failed)) {
		errno = e;
		fs_fail_errno(p->err, p->errlen, verb, p->fs->root, rel);
		atomic_store(&p->failed, true);
	}
	pthread_mutex_unlock(&p->lock);
}

/*
 * One writer's data: its pattern (NULL for the shared random chunk), or
 * with verify, its buffer for the stamped blocks (NULL if out of memory);
 * the shared chunk once it has asked for it.
 */
struct writer {
	struct datagen *gen;
	char *vbuf;
	const char *chunk;
};

static char *random_bytes(uint64_t seed)
{
	char *buf = malloc(WRITE_CHUNK);
	struct rv_rng rng;

	if (!buf)
		return NULL;
	rv_rng_seed(&rng, seed ^ 0xb5ad4eceda1ce2a9ULL);
	for (size_t i = 0; i < WRITE_CHUNK; i += 8) {
		uint64_t v = rv_next_u64(&rng);

		for (size_t j = 0; j < 8; j++, v >>= 8)
			buf[i + j] = (char)((v & 0xff) ? (v & 0xff) : 0xa5);
	}
	return buf;
}

/*
 * The random chunk the writers share, made when the first of them first
 * writes: a reused tree whose files are all there writes nothing, and
 * 1 MiB of random bytes was most of its start.  NULL: out of memory.
 */
static const char *pool_chunk(struct pool *p, struct writer *wr)
{
	if (!wr->chunk) {
		pthread_mutex_lock(&p->lock);
		if (!p->buf)
			p->buf = random_bytes(p->fs->seed);
		wr->chunk = p->buf;
		pthread_mutex_unlock(&p->lock);
	}
	return wr->chunk;
}

/* The data of file e from offset 0, size bytes. */
static int write_all(struct pool *p, struct writer *wr, int fd, uint64_t e,
		     uint64_t size)
{
	uint64_t off = 0;

	if (wr->gen)
		datagen_restart(wr->gen, e);
	/* a big file takes seconds: a signal stops it between writes */
	while (size > 0 && !timeline_signalled) {
		size_t n = size < WRITE_CHUNK ? (size_t)size : WRITE_CHUNK;
		const char *buf = p->fs->verify ? wr->vbuf :
				  wr->gen     ? datagen_next(wr->gen, n) :
						pool_chunk(p, wr);
		ssize_t got;

		if (!buf) {
			errno = ENOMEM;
			return -1;
		}
		/* generation 0: written when the fileset was made */
		if (p->fs->verify)
			vfy_fill(wr->vbuf, fileset_file_id(p->fs, (int64_t)e),
				 off, n, 0);
		got = write(fd, buf, n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = EIO;
			return -1;
		}
		atomic_fetch_add(&p->fs->bytes, (uint64_t)got);
		size -= (uint64_t)got;
		off += (uint64_t)got;
	}
	return 0;
}

/*
 * The directory of the files do_word is making, opened beneath the root
 * once for all of them: a deep tree's path walk for every file cost more
 * than the file itself.
 */
struct parent {
	char rel[PATH_MAX]; /* its path; "" if none is open */
	int fd;
};

/* rel's directory (par's, or the root) and last component; -1, errno. */
static int parent_of(struct fileset *fs, struct parent *par, char *rel,
		     const char **last)
{
	char *slash = strrchr(rel, '/');

	if (!slash) {
		*last = rel;
		return fs->rootfd;
	}
	*last = slash + 1;
	*slash = '\0';
	if (strcmp(par->rel, rel) != 0) {
		if (par->fd >= 0)
			close(par->fd);
		par->fd = fs_open_beneath(fs->rootfd, rel,
					  O_PATH | O_DIRECTORY, 0);
		snprintf(par->rel, sizeof(par->rel), "%s",
			 par->fd >= 0 ? rel : "");
	}
	*slash = '/';
	return par->fd;
}

/*
 * reuse: what is at the name now, looked at, not opened.  1: a file of
 * ours with its size; 2: one of another size (st); 0: nothing there, or
 * symlinkfile's or linkfile's name, unlinked (never followed; the file
 * it named keeps its data); -1 with errno: an error, or what fbrun does
 * not make (a device node, a FIFO, a socket, a directory), left alone.
 */
static int look_at(struct fileset *fs, int dfd, const char *last,
		   uint64_t want, struct stat *st)
{
	if (fstatat(dfd, last, st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (S_ISLNK(st->st_mode) || (S_ISREG(st->st_mode) && st->st_nlink > 1))
		return unlinkat(dfd, last, 0) < 0 && errno != ENOENT ? -1 : 0;
	if (fs_refuse(fs, st) < 0)
		return -1;
	return (uint64_t)st->st_size == want ? 1 : 2;
}

/*
 * reuse: the file looked at (was), opened to be put right: still the
 * same regular file of one name, or refused unwritten.  A longer one is
 * cut down (*want 0: nothing to write); a shorter one is rewritten.
 */
static int fix_file(struct fileset *fs, int dfd, const char *last,
		    const struct stat *was, uint64_t *want, const char **verb)
{
	int fd = fs_open_beneath(dfd, last, O_WRONLY | O_NONBLOCK | O_NOCTTY,
				 0);
	struct stat st;

	*verb = "rewrite";
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || fs_refuse(fs, &st) < 0 ||
	    st.st_dev != was->st_dev || st.st_ino != was->st_ino) {
		if (errno != EPERM && errno != EMLINK)
			errno = EAGAIN; /* replaced while looked at */
		goto fail;
	}
	if ((uint64_t)st.st_size > *want) {
		*verb = "truncate";
		if (ftruncate(fd, (off_t)*want) < 0)
			goto fail;
		*want = 0;
	}
	/* the file is ours: writes may block again (a FUSE file system) */
	if (fcntl(fd, F_SETFL, 0) < 0)
		goto fail;
	return fd;
fail: {
	int e = errno;

	close(fd);
	errno = e;
	return -1;
}
}

/*
 * Create (or with reuse, check and fix) one file with its size.  A new
 * file is made with O_EXCL: whatever is at its name is never opened.
 */
static void fill_file(struct pool *p, struct parent *par,
		      struct writer *wr, uint64_t e, char *rel)
{
	struct fileset *fs = p->fs;
	uint64_t want = fileset_entry_size(fs, (int64_t)e);
	const char *verb = "create", *last;
	int dfd = parent_of(fs, par, rel, &last), fd = -1, rc = 0;
	struct stat st;

	if (dfd >= 0 && fs->reuse) {
		verb = "reuse";
		rc = look_at(fs, dfd, last, want, &st);
		if (rc == 1) {
			count_done(fs);
			return;
		}
		if (rc == 2)
			fd = fix_file(fs, dfd, last, &st, &want, &verb);
		else if (rc == 0)
			verb = "create";
	}
	if (dfd >= 0 && rc == 0)
		fd = fs_open_beneath(dfd, last, O_CREAT | O_EXCL | O_WRONLY,
				     0644);
	if (dfd < 0 || fd < 0) {
		pool_fail(p, verb, rel);
		return;
	}
	rc = 0;
	if (want > 0) {
		verb = "write";
		rc = write_all(p, wr, fd, e, want);
	}
	if (close(fd) < 0 && rc == 0) {
		verb = "write";
		rc = -1;
	}
	if (rc < 0)
		pool_fail(p, verb, rel);
	else
		count_done(fs);
}

/* The files w * 64 .. w * 64 + 63: one writer's unit of work. */
static void do_word(struct pool *p, struct writer *wr, uint64_t w)
{
	struct fileset *fs = p->fs;
	struct parent par = { "", -1 };
	char rel[PATH_MAX];

	for (uint64_t e = w * 64; e < fs->files.n && e < w * 64 + 64; e++) {
		bool want = fs_test(&fs->files, fs->files.exists, e);

		if (atomic_load(&p->failed))
			break;
		if (!want && !fs->reuse)
			continue;
		if (fileset_relpath(fs, FS_FILE_EXISTING, (int64_t)e, rel,
				    sizeof(rel)) < 0) {
			errno = ENAMETOOLONG;
			pool_fail(p, "create", "...");
		} else if (want) {
			fill_file(p, &par, wr, e, rel);
		} else if (entry_at(fs, rel, false, 0) < 0) {
			/* reuse: a file we do not preallocate is absent */
			pool_fail(p, "remove", rel);
		}
	}
	if (par.fd >= 0)
		close(par.fd);
}

static void *pool_main(void *arg)
{
	struct pool *p = arg;
	uint64_t words = p->fs->files.n / 64 + 1, w;
	/* one seed: each file's data is its own, whoever writes it */
	struct writer wr = {
		datagen_new(p->fs->data, p->fs->seed),
		p->fs->verify ? malloc(WRITE_CHUNK) : NULL, NULL
	};

	while (!atomic_load(&p->failed) && !timeline_signalled &&
	       (w = atomic_fetch_add(&p->next, 1)) < words)
		do_word(p, &wr, w);
	datagen_free(wr.gen);
	free(wr.vbuf);
	return NULL;
}

static int write_files(struct fileset *fs, unsigned workers, char *err,
		       size_t errlen)
{
	struct pool p = { .fs = fs, .err = err, .errlen = errlen };
	unsigned n = fs->paralloc ? workers : 1, started = 0;
	pthread_t tid[MAX_WRITERS];

	/* trusted: an existing tree of ours is assumed right; a new one is not */
	if (fs->reused && fs->trusttree)
		return 0;
	/* none to write (bonnie's file phases start empty): no writers */
	if (fs->files.n == 0)
		return 0;
	pthread_mutex_init(&p.lock, NULL);
	if (n > MAX_WRITERS)
		n = MAX_WRITERS;
	/* the caller is one of the writers */
	while (started + 1 < n &&
	       pthread_create(&tid[started], NULL, pool_main, &p) == 0)
		started++;
	pool_main(&p);
	while (started > 0)
		pthread_join(tid[--started], NULL);
	pthread_mutex_destroy(&p.lock);
	free(p.buf);
	return atomic_load(&p.failed) ? -1 : 0;
}

void fileset_set_data(struct fileset *fs, struct datapat p)
{
	fs->data = p;
}

void fileset_set_reuse(struct fileset *fs)
{
	fs->reuse = true;
}

void fileset_set_createnext(struct fileset *fs, bool on)
{
	fs->createnext = on;
}

void fileset_set_uses(struct fileset *fs, unsigned uses)
{
	fs->links = uses & FS_USES_LINKS;
	fs->symlinks = uses & FS_USES_SYMLINKS;
	fs->blocking = uses & FS_USES_AIO;
}

bool fileset_has_symlinks(const struct fileset *fs)
{
	/* a trusted tree was not looked at: a kept run's may be there */
	return fs->symlinks || fs->look_first;
}

/* SIGINT or SIGTERM while creating: stop, the caller removes the tree. */
static bool interrupted(char *err, size_t errlen)
{
	if (!timeline_signalled)
		return false;
	fs_set_err(err, errlen, "interrupted while creating files");
	return true;
}

int fileset_create(struct fileset *fs, unsigned workers, char *err,
		   size_t errlen)
{
	atomic_store(&fs->done, 0);
	if (fs->dev)
		return fs_device_take(fs, err, errlen);
	if (fs_take_root(fs, err, errlen) < 0)
		return fs->state == ROOT_REFUSED ? -2 : -1;
	if (make_dirs(fs, err, errlen) < 0 || interrupted(err, errlen))
		return -1;
	fs_choose(fs, &fs->files, 1);
	fs_choose(fs, &fs->leaves, 2);
	/* verify: a kept tree checked first (fileset_verify.c) */
	if (fs->reused && fs->verify && !fs->trusttree &&
	    (fs_verify_kept(fs, workers, err, errlen) < 0 ||
	     interrupted(err, errlen)))
		return -1;
	if (make_leaves(fs, err, errlen) < 0)
		return -1;
	if (write_files(fs, workers, err, errlen) < 0 ||
	    interrupted(err, errlen))
		return -1;
	return fs_verify_ready(fs, err, errlen);
}
