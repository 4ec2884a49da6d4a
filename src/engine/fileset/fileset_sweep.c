/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Removing a tree, the first pass: the files the run knows exist are
 * unlinked by a thread per CPU, a directory at a time, before the walk of
 * fileset_remove.c removes the rest (the directories, whatever the
 * bookkeeping did not know of) and names what is not fbrun's.  The walk
 * alone unlinks one name after the other, as rm -rf does; unlinks in
 * different directories run side by side in the kernel, so shared out
 * they take a fraction of the time.
 *
 * The pass removes only what the walk would remove too: a regular file
 * or symlink (the type readdir gives) named as the layout names files, in
 * a directory opened with openat2 beneath the root through no symlink and
 * no mount (RESOLVE_NO_XDEV).  Anything else it leaves for the walk, and
 * it reports nothing: what it could not remove the walk meets again and
 * reports.  Where openat2 is missing it stops, and the walk does it all.
 */
#include "engine/fileset/fileset_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define SWEEP_THREADS 8 /* at most */
#define SWEEP_MIN_FILES 4096 /* fewer: the walk alone is as quick */

struct sweep {
	struct fileset *fs;
	int rootfd;
	uint64_t *dirs; /* a bit per directory holding a file that exists */
	uint64_t nwords;
	_Atomic uint64_t next; /* the word of dirs to do next */
	_Atomic bool stop; /* no openat2 */
};

/* Directory d's files, as the top says. */
static void sweep_dir(struct sweep *s, uint64_t d)
{
	char rel[PATH_MAX];
	struct dirent *de;
	DIR *dir;
	int fd;

	if (fileset_dirpath(s->fs, (int64_t)d, rel, sizeof(rel)) < 0)
		return;
	fd = fs_open_strict(s->rootfd, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		if (errno == ENOSYS)
			atomic_store(&s->stop, true);
		return;
	}
	if (!(dir = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((de = readdir(dir)))
		if ((de->d_type == DT_REG || de->d_type == DT_LNK) &&
		    fs_layout_name(de->d_name) &&
		    unlinkat(fd, de->d_name, 0) == 0)
			atomic_fetch_add_explicit(&s->fs->done, 1,
						  memory_order_relaxed);
	closedir(dir);
}

static void *sweeper(void *arg)
{
	struct sweep *s = arg;
	uint64_t w;

	while (!atomic_load(&s->stop) &&
	       (w = atomic_fetch_add(&s->next, 1)) < s->nwords)
		for (uint64_t bits = s->dirs[w]; bits; bits &= bits - 1)
			sweep_dir(s, w * 64 + (uint64_t)__builtin_ctzll(bits));
	return NULL;
}

/* The directories holding a file that exists: one pass over exists. */
static void mark_dirs(struct sweep *s)
{
	const struct fs_kind *k = &s->fs->files;

	for (uint64_t w = 0; w < k->nwords; w++) {
		uint64_t bits = atomic_load_explicit(&k->exists[w],
						     memory_order_relaxed);

		for (; bits; bits &= bits - 1) {
			/* fs_word inverted: block, word in it, bit */
			uint64_t e = ((w / 8) << k->shift) + (w % 8) * 64 +
				     (uint64_t)__builtin_ctzll(bits);
			uint32_t p = k->ent[e].parent;

			s->dirs[p / 64] |= 1ULL << (p % 64);
		}
	}
}

void fs_sweep(struct fileset *fs, int rootfd)
{
	struct sweep s = { .fs = fs, .rootfd = rootfd };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = ncpu > SWEEP_THREADS ? SWEEP_THREADS :
		     ncpu > 0		  ? (unsigned)ncpu :
					    1;
	pthread_t tid[SWEEP_THREADS];
	unsigned started = 0;

	if (n < 2 || fs_nexisting(&fs->files) < SWEEP_MIN_FILES)
		return;
	s.nwords = (fs->ndirs + 63) / 64;
	if (!(s.dirs = calloc(s.nwords, sizeof(*s.dirs))))
		return; /* the walk does it all */
	mark_dirs(&s);
	while (started + 1 < n &&
	       pthread_create(&tid[started], NULL, sweeper, &s) == 0)
		started++;
	sweeper(&s); /* the caller is one of them */
	while (started > 0)
		pthread_join(tid[--started], NULL);
	free(s.dirs);
}
