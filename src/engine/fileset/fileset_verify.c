/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * verify across runs: a kept tree checked before the run uses it, and
 * what the run then knows of its files (engine/verify.h).
 *
 * A run that verifies writes "verify: whole" into the tree's marker once
 * its files are whole (every preallocated file there, at least its size,
 * verify's blocks below it), unless its flowops may delete them; a run
 * without verify drops the line when it takes the tree.  So a tree whose
 * marker says it is whole was left whole by fbrun, and whatever is not
 * (a file missing, shorter, a block that fails the check) was lost by
 * someone else: it is said, file by file, and the run fails rather than
 * remaking it.  Longer files are fbrun's appends, cut back by reuse.  A
 * kept tree the marker does not say whole (made without verify, or used
 * by a run that deletes files, which may have made them again with holes)
 * has the files whose blocks are not verify's remade.
 */
#include "engine/fileset/fileset_int.h"
#include "engine/sys/timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/io/verify.h"
#include "lang/rand.h"
#include "util/msg.h"

#define READ_CHUNK (1u << 20)
#define MAX_CHECKERS 32u

struct check {
	struct fileset *fs;
	_Atomic uint64_t next; /* the entry to look at next */
	_Atomic uint64_t lost; /* files not as fbrun left them */
	_Atomic bool failed; /* a system call failed: err says which */
	pthread_mutex_t lock;
	char *err;
	size_t errlen;
};

static void check_fail(struct check *c, const char *verb, const char *rel)
{
	int e = errno;

	pthread_mutex_lock(&c->lock);
	if (!atomic_load(&c->failed)) {
		errno = e;
		fs_fail_errno(c->err, c->errlen, verb, c->fs->root, rel);
		atomic_store(&c->failed, true);
	}
	pthread_mutex_unlock(&c->lock);
}

/*
 * The first offset of the open file (size bytes) below want whose byte
 * is not verify's, or -1; -2 after a failed read.
 */
static int64_t first_bad(struct check *c, int fd, int64_t e, uint64_t size,
			 uint64_t want, char *buf)
{
	uint64_t id = fileset_file_id(c->fs, e), off = 0;
	uint64_t end = size < want ? size : want;

	while (off < end && !timeline_signalled) {
		size_t n = end - off < READ_CHUNK ? (size_t)(end - off) :
						    READ_CHUNK;
		ssize_t got = pread(fd, buf, n, (off_t)off);
		int64_t bad;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -2;
		if (got == 0)
			return (int64_t)off; /* cut since the fstat */
		bad = vfy_check(buf, id, off, (size_t)got, 0, 0);
		if (bad >= 0)
			return bad;
		off += (uint64_t)got;
	}
	return -1;
}

/* A file of a tree not said whole whose blocks are not verify's: cut to 0. */
static void remake(struct check *c, const char *rel)
{
	int fd = fileset_openat(c->fs, rel, O_WRONLY | O_NONBLOCK, 0);
	struct stat st;

	if (fd < 0) {
		check_fail(c, "open", rel);
		return;
	}
	/* another name, or not a file: fill_file gives it a file of its own */
	if (fstat(fd, &st) < 0)
		check_fail(c, "stat", rel);
	else if (S_ISREG(st.st_mode) && st.st_nlink == 1 && ftruncate(fd, 0) < 0)
		check_fail(c, "truncate", rel);
	close(fd);
}

/* A loss in a whole tree: said, counted. */
static void say_lost(struct check *c, const char *rel, int64_t bad,
		     uint64_t size, uint64_t want, int open_err)
{
	const char *root = c->fs->root;

	if (open_err || bad == -3)
		fb_error("verify: '%s/%s': %s, where fbrun left a file of "
			 "%" PRIu64 " bytes",
			 root, rel,
			 open_err == ENOENT || open_err == ENOTDIR ? "missing" :
			 open_err == EMLINK ? "a hard link fbrun did not make" :
					      "not a regular file",
			 want);
	else if (bad >= 0)
		fb_error("verify: '%s/%s' at offset %" PRId64 ": the kept "
			 "tree holds data fbrun did not write there",
			 root, rel, bad);
	else
		fb_error("verify: '%s/%s' at offset %" PRIu64 ": the file "
			 "ends there; fbrun left it %" PRIu64 " bytes long",
			 root, rel, size, want);
	atomic_fetch_add(&c->lost, 1);
}

/*
 * Entry e, preallocated: as fbrun left it, or in a whole tree said and
 * counted lost, in another remade (cut to be written again) unless it is
 * missing or short, which fill_file writes anyway.
 */
static void check_file(struct check *c, int64_t e, char *buf)
{
	struct fileset *fs = c->fs;
	uint64_t want = fileset_entry_size(fs, e), size = 0;
	char rel[PATH_MAX];
	struct stat st;
	int64_t bad = -1;
	int fd, open_err = 0;

	if (fileset_relpath(fs, FS_FILE_EXISTING, e, rel, sizeof(rel)) < 0) {
		errno = ENAMETOOLONG;
		check_fail(c, "open", "...");
		return;
	}
	fd = fileset_openat(fs, rel, O_RDONLY | O_NONBLOCK, 0);
	/* EPERM, EMLINK: not a file of fbrun's (a device node, a link) */
	if (fd < 0 && (errno == EPERM || errno == EMLINK))
		fileset_refusal();
	if (fd < 0 && errno != ENOENT && errno != ELOOP && errno != ENOTDIR &&
	    errno != EPERM && errno != EMLINK) {
		check_fail(c, "open", rel);
		return;
	}
	if (fd < 0) {
		open_err = errno;
	} else if (fstat(fd, &st) < 0) {
		check_fail(c, "stat", rel);
		close(fd);
		return;
	} else if (!S_ISREG(st.st_mode)) {
		bad = -3;
	} else if ((size = (uint64_t)st.st_size) > 0) {
		bad = first_bad(c, fd, e, size, want, buf);
	}
	if (bad == -2)
		check_fail(c, "read", rel);
	if (fd >= 0)
		close(fd);
	if (bad == -2)
		return;
	if (bad == -1 && !open_err && size >= want)
		return;
	if (fs->whole)
		say_lost(c, rel, bad, size, want, open_err);
	else if (bad >= 0 && size >= want)
		remake(c, rel);
}

static void *check_main(void *arg)
{
	struct check *c = arg;
	struct fs_kind *k = &c->fs->files;
	char *buf = malloc(READ_CHUNK);
	uint64_t e;

	if (!buf) {
		errno = ENOMEM;
		check_fail(c, "check", NULL);
		return NULL;
	}
	while (!atomic_load(&c->failed) && !timeline_signalled &&
	       (e = atomic_fetch_add(&c->next, 1)) < k->n)
		if (fs_test(k, k->exists, e))
			check_file(c, (int64_t)e, buf);
	free(buf);
	return NULL;
}

/*
 * The tree as this run lays it out: its directories, each file's place,
 * whether it is preallocated and its size.  A whole tree laid out
 * otherwise (a script changed since) is not checked but remade, as its
 * files are not where, or not the size, this run looks for.
 */
static uint64_t layout_hash(const struct fileset *fs)
{
	uint64_t h = rv_mix64(fs->ndirs ^ (fs->files.n << 32));

	for (uint64_t d = 0; d < fs->ndirs; d++)
		h = rv_mix64(h ^ fs->dirs[d].parent ^
			     ((uint64_t)fs->dirs[d].serial << 32));
	for (uint64_t e = 0; e < fs->files.n; e++) {
		const struct fs_ent *f = &fs->files.ent[e];
		bool made = fs_test(&fs->files, fs->files.exists, e);

		h = rv_mix64(h ^ f->parent ^ ((uint64_t)f->serial << 32));
		h = rv_mix64(h ^ (made ? fileset_entry_size(fs, (int64_t)e) :
					 UINT64_MAX));
	}
	return h;
}

/* Whether the marker says the tree is whole: rewritten with the change. */
static int say_whole(struct fileset *fs, bool whole, char *err,
		     size_t errlen)
{
	uint64_t hash = whole ? layout_hash(fs) : 0;

	if (whole == fs->whole && (!whole || hash == fs->whole_hash))
		return 0;
	fs->whole = whole;
	fs->whole_hash = hash;
	/* a read-only file system: nothing can be written or deleted either */
	if (fs_marker_write(fs, fs->rootfd, fs->adopted, err, errlen) < 0 &&
	    errno != EROFS)
		return -1;
	return 0;
}

int fs_verify_kept(struct fileset *fs, unsigned workers, char *err,
		   size_t errlen)
{
	struct check c = { .fs = fs, .err = err, .errlen = errlen };
	unsigned n = workers > MAX_CHECKERS ? MAX_CHECKERS : workers,
		 started = 0;
	pthread_t tid[MAX_CHECKERS];
	uint64_t lost;

	/* before anything is remade: a crash then leaves it unsaid */
	if (fs->whole && fs->whole_hash != layout_hash(fs) &&
	    say_whole(fs, false, err, errlen) < 0)
		return -1;
	pthread_mutex_init(&c.lock, NULL);
	/* the caller is one of the checkers */
	while (started + 1 < n &&
	       pthread_create(&tid[started], NULL, check_main, &c) == 0)
		started++;
	check_main(&c);
	while (started > 0)
		pthread_join(tid[--started], NULL);
	pthread_mutex_destroy(&c.lock);
	if (atomic_load(&c.failed))
		return -1;
	lost = atomic_load(&c.lost);
	if (lost == 0 || timeline_signalled)
		return 0;
	fs_set_err(err, errlen,
		   "verify: %" PRIu64 " of the %" PRIu64 " files of the kept "
		   "tree are not as fbrun left them; not using it",
		   lost, fs_nexisting(&fs->files));
	return -1;
}

void fileset_set_keeps_whole(struct fileset *fs, bool on)
{
	fs->keeps_whole = on;
}

void fs_verify_track(struct fileset *fs)
{
	if (!fs->verify)
		return;
	vfy_files_free(fs->vfiles);
	fs->vfiles = vfy_files_new(fs->files.n);
	for (uint64_t e = 0; e < fs->files.n; e++)
		if (fs_test(&fs->files, fs->files.exists, e))
			vfy_files_made(fs->vfiles, e,
				       fileset_entry_size(fs, (int64_t)e));
}

int fs_verify_ready(struct fileset *fs, char *err, size_t errlen)
{
	/* trusttree's tree was not looked at: said only as it was */
	bool whole = fs->verify && fs->keeps_whole &&
		     (!(fs->reused && fs->trusttree) ||
		      (fs->whole && fs->whole_hash == layout_hash(fs)));

	fs_verify_track(fs);
	return say_whole(fs, whole, err, errlen);
}
