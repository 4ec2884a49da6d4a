/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A fileset's root: the directories of its path made, the root taken
 * (made, or adopted while empty, or a tree of ours kept or emptied), the
 * marker in it and the lock on it.
 *
 * The marker says the tree is fbrun's and whose: the fileset it is (a
 * tree is never used or removed as another fileset), whether fbrun made
 * the root or adopted an empty directory, the run that last took it (an
 * id, pid, host and start time), the outermost directory of the path
 * that a run made for it (removed with the last tree under it, even by
 * a later run after a crash), whether createnext's names may be in
 * it, and the replays whose trees may be (fileset_replay.c).  doc/running.md describes the format; a marker of fbrun 0.x before
 * the run line (two lines) is read as one naming no run.
 *
 * The lock is flock on the root directory, held from the moment the root
 * is taken until it is removed or the run ends: a second run on the same
 * tree is refused and named, and a run killed with SIGKILL leaves no lock
 * behind (the kernel drops it), so its tree is known to be stale.  A new
 * root appears whole, marked and locked (fileset_mkroot.c), so a run
 * killed at any moment leaves nothing the next run cannot recognise.
 * The marker's text is read and written in fileset_marker.c.
 */
#include "engine/fileset/fileset_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/paths.h"
#include "util/util.h"


/* ------------------------------------------------------------ the lock */

/*
 * Lock the root dfd for this run: 0, or -2 with err naming the run that
 * holds it.  A file system without flock is not locked (0).
 */
static int root_lock(struct fileset *fs, int dfd, char *err, size_t errlen)
{
	struct marker m;
	char why[80];

	if (flock(dfd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno != EWOULDBLOCK && errno != EINTR)
		return 0; /* a file system without flock: nothing to hold */
	/* who holds it, as its marker says (it may not be written yet) */
	if (fs_marker_read(fs, dfd, &m, NULL, 0) == 1 && m.pid > 0 && m.run) {
		char *host = strstr(m.run, " host ");

		snprintf(why, sizeof(why), "pid %ld%s%.60s", m.pid,
			 host ? " on" : "", host ? host + 5 : "");
	} else {
		snprintf(why, sizeof(why), "its marker does not name it yet");
	}
	fs_marker_free(&m);
	fs_set_err(err, errlen,
		   "'%s' is in use by another fbrun run (%s); refusing to use "
		   "or remove it",
		   fs->root, why);
	return -2;
}

/* ------------------------------------------------------------ made dirs */

/* Take the marker's made directory (and those below it) as ours. */
static void made_inherit(struct fileset *fs, const char *made)
{
	char *real = path_real(fs->path), *p;
	size_t n = strlen(made);

	/* only a directory on this tree's own path, never "/" itself */
	if (!real || fs->nmade > 0 || strcmp(made, "/") == 0 ||
	    !path_within(real, made)) {
		free(real);
		return;
	}
	/* made, then each directory below it down to the path */
	for (p = real + n;; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			fs->made = xrealloc(fs->made,
					    (fs->nmade + 1) * sizeof(char *));
			fs->made[fs->nmade++] = xstrdup(real);
			*p = c;
		}
		if (!*p)
			break;
	}
	free(real);
}

/* ------------------------------------------------------------ taking it */

/*
 * The root, open, or made whole (*made); -1 with err set, state
 * ROOT_REFUSED if it is a symlink or not a directory.
 */
static int open_root(struct fileset *fs, bool *made, char *err,
		     size_t errlen)
{
	int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	struct stat st;

	*made = false;
	/* a few tries: other processes may be making the same path */
	for (int tries = 0; tries < 16; tries++) {
		int fd = open(fs->root, flags);

		if (fd >= 0)
			return fd;
		/* missing, or a file on the way (create says which) */
		if (errno == ENOENT ||
		    (errno == ENOTDIR && lstat(fs->root, &st) < 0)) {
			fd = fs_create_root(fs, err, errlen);
			if (fd >= 0)
				*made = true;
			if (fd >= 0 || errno != EEXIST)
				return fd;
			continue; /* something appeared meanwhile */
		}
		if ((errno == ELOOP || errno == ENOTDIR) &&
		    lstat(fs->root, &st) == 0 && !S_ISDIR(st.st_mode)) {
			fs->state = ROOT_REFUSED;
			fs_set_err(err, errlen,
				   "'%s' is %s; refusing to use it", fs->root,
				   S_ISLNK(st.st_mode) ? "a symbolic link" :
							 "not a directory");
			return -1;
		}
		break;
	}
	return fs_fail_errno(err, errlen, "open", fs->root, NULL);
}

/*
 * An unmarked root: 1 empty but for markers a killed run was writing
 * into it when it adopted it (removed now), 0 not (nothing removed), -1
 * on error.
 */
static int empty_but_debris(int fd)
{
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;
	int empty = 1, debris = 0;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	while (empty && (errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fs_marker_debris(fd, de->d_name))
			debris++;
		else
			empty = 0;
	}
	if (empty && errno)
		empty = -1;
	if (empty == 1 && debris > 0) {
		rewinddir(d);
		while ((de = readdir(d)))
			if (fs_marker_debris(fd, de->d_name) &&
			    unlinkat(fd, de->d_name, 0) < 0 && errno != ENOENT)
				empty = -1;
	}
	closedir(d);
	return empty;
}

/*
 * A marked root: this fileset's (else refused), its made directories and
 * names taken over, emptied unless reuse (refused, untouched, if it holds
 * what fbrun does not make).  *adopted: as the marker says.
 */
static int take_marked(struct fileset *fs, int fd, bool *adopted, char *err,
		       size_t errlen)
{
	struct marker m;
	int rc = fs_marker_read(fs, fd, &m, err, errlen);

	if (rc <= 0)
		return rc;
	if (strcmp(m.name, fs->name) != 0) {
		fs_set_err(err, errlen,
			   "'%s' holds fileset '%s', as its marker says (a "
			   "tree renamed?); not using or removing it",
			   fs->root, m.name);
		fs_marker_free(&m);
		return -2;
	}
	*adopted = m.adopted;
	fs->createnext |= m.createnext;
	fs_replay_inherit(fs, &m);
	/* still whole until this run has checked it (fileset_verify.c) */
	fs->whole = m.whole && fs->verify && fs->reuse;
	fs->whole_hash = m.whole_hash;
	if (m.made)
		made_inherit(fs, m.made);
	fs_marker_free(&m);
	if (!fs->reuse && (rc = fs_check_foreign(fs, fd, err, errlen)) < 0)
		return rc;
	return 1;
}

/*
 * Make the root ours: lock it, then keep, empty or adopt it; rootfd is
 * the locked descriptor.  -2: not ours to use (state ROOT_REFUSED).
 */
int fs_take_root(struct fileset *fs, char *err, size_t errlen)
{
	bool made, adopted = true;
	int fd = open_root(fs, &made, err, errlen), rc = 0, empty, marked;

	if (fd < 0)
		return fs->state == ROOT_REFUSED ? -2 : -1;
	if (made) {
		/* new, whole, marked and locked */
		fs->state = ROOT_OURS;
		if (fs->rootfd >= 0)
			close(fs->rootfd);
		fs->rootfd = fd;
		return 0;
	}
	if ((marked = root_lock(fs, fd, err, errlen)) < 0 ||
	    (marked = take_marked(fs, fd, &adopted, err, errlen)) < 0) {
		rc = marked;
	} else if (!marked && (empty = empty_but_debris(fd)) < 0) {
		rc = fs_fail_errno(err, errlen, "read", fs->root, NULL);
	} else if (!marked && !empty) {
		fs_set_err(err, errlen,
			   "'%s' exists, is not empty and was not made by "
			   "fbrun; refusing to use it",
			   fs->root);
		rc = -2;
	}
	fs->adopted = adopted;
	/* this run's marker first: a crash from here on leaves it stale */
	if (rc == 0 && (rc = fs_marker_write(fs, fd, adopted, err, errlen)) < 0 &&
	    errno == EROFS && marked && fs->reuse) {
		/*
		 * A tree of ours on a read-only file system, kept as it is:
		 * its marker stays the last writable run's (the lock still
		 * keeps a second run out), and nothing needs writing unless
		 * the tree is not whole (create then says which path).
		 */
		rc = 0;
	}
	if (rc == 0)
		fs->state = ROOT_OURS;
	if (rc == 0 && marked && !fs->reuse)
		rc = fs_empty_root(fs, fd, err, errlen) < 0 ? -1 : 0;
	fs->reused = rc == 0 && marked && fs->reuse;
	fs->look_first = fs->reused && fs->trusttree;
	if (rc == -2)
		fs->state = ROOT_REFUSED;
	if (fs->state == ROOT_OURS) {
		/* held, and the lock with it, until the tree is removed */
		if (fs->rootfd >= 0)
			close(fs->rootfd);
		fs->rootfd = fd;
	} else {
		close(fd);
	}
	return rc;
}

int fileset_attach(struct fileset *fs, char *err, size_t errlen)
{
	struct marker m;
	int fd = open(fs->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return fs_fail_errno(err, errlen, "open", fs->root, NULL);
	rc = fs_marker_read(fs, fd, &m, err, errlen);
	if (rc == 0)
		fs_set_err(err, errlen,
			   "'%s' has no fbrun marker: rank 0 did not make it",
			   fs->root);
	else if (rc > 0 && strcmp(m.name, fs->name) != 0)
		fs_set_err(err, errlen, "'%s' holds fileset '%s', not '%s'",
			   fs->root, m.name, fs->name);
	if (rc > 0 && strcmp(m.name, fs->name) == 0) {
		fs_marker_free(&m);
		/* the entries rank 0 made: the same seed, the same choice */
		fs_choose(fs, &fs->files, 1);
		fs_choose(fs, &fs->leaves, 2);
		fs_verify_track(fs);
		if (fs->rootfd >= 0)
			close(fs->rootfd);
		fs->rootfd = fd;
		fs->state = ROOT_ATTACHED;
		/* rank 0 may not have looked at a trusted tree either */
		fs->look_first = fs->reuse && fs->trusttree;
		return 0;
	}
	if (rc > 0)
		fs_marker_free(&m);
	close(fd);
	return -1;
}
