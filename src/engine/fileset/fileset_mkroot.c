/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A new fileset root, made whole: the root and the missing directories
 * of its path appear at once, with the marker in the root, or not at
 * all.  They are made under a temporary name beside the first missing
 * directory (held with flock), the root locked and marked inside, then
 * renamed into place without replacing anything.  A run killed meanwhile
 * leaves only the temporary directory, which the next run making the
 * same directory finds unlocked and removes, if it holds nothing but
 * directories and markers.
 */
#include "engine/fileset/fileset_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

#define NEW_PREFIX ".fbrun-new."

/*
 * Remove the directory name in dfd if it is the debris of a new root:
 * directories holding only directories and marker files.  False if
 * anything else was found (it stays) or something could not be removed.
 */
static bool rm_debris(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					   O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	bool clean = true;

	if (!d) {
		if (fd >= 0)
			close(fd);
		/* out of descriptors: fine if it is empty */
		return unlinkat(dfd, name, AT_REMOVEDIR) == 0;
	}
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (!strcmp(n, FILESET_MARKER) || fs_marker_debris(dirfd(d), n))
			clean &= unlinkat(dirfd(d), n, 0) == 0;
		else
			clean &= rm_debris(dirfd(d), n); /* a non-directory stays */
	}
	closedir(d);
	return clean && unlinkat(dfd, name, AT_REMOVEDIR) == 0;
}

/*
 * Debris of a run killed while making a new root for the same target:
 * a temporary directory with its prefix that no live run holds locked.
 */
static void rm_stale(int pfd, const char *prefix)
{
	int fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		int tfd;

		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		tfd = openat(pfd, de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (tfd >= 0 && flock(tfd, LOCK_EX | LOCK_NB) == 0)
			rm_debris(pfd, de->d_name);
		if (tfd >= 0)
			close(tfd);
	}
	closedir(d);
}

/* Rename without replacing: renameat2, or a look first where it is missing. */
static int rename_new(int dfd, const char *from, const char *to)
{
	struct stat st;

	if (renameat2(dfd, from, dfd, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (fstatat(dfd, to, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return errno = EEXIST, -1;
	return renameat(dfd, from, dfd, to);
}

/*
 * mkdir path components of rel (below dfd, consumed) inside the new
 * root's temporary directory; the last one's descriptor, or -1.
 */
static int make_chain(int dfd, char *rel)
{
	int fd = dfd;

	for (char *c = strtok(rel, "/"); c; c = strtok(NULL, "/")) {
		int nfd = mkdirat(fd, c, 0755) < 0 ?
				  -1 :
				  openat(fd, c, O_RDONLY | O_DIRECTORY |
							O_NOFOLLOW | O_CLOEXEC);

		if (fd != dfd)
			close(fd);
		if (nfd < 0)
			return -1;
		fd = nfd;
	}
	/* the root itself: its own descriptor, closed on exec as all are */
	return fd == dfd ? fcntl(dfd, F_DUPFD_CLOEXEC, 0) : fd;
}

/*
 * The first missing directory of the root's path, buf[0, *at) (0: none
 * is missing); -1 with err set when one cannot be looked at (ENOTDIR: a
 * file on the way, EACCES).
 */
static int first_missing(char *buf, size_t *at, char *err, size_t errlen)
{
	size_t len = strlen(buf);
	struct stat st;

	*at = 0;
	for (size_t i = 1; i <= len && !*at; i++) {
		char c = buf[i];
		int got;

		if ((c != '/' && c != '\0') || buf[i - 1] == '/')
			continue;
		buf[i] = '\0';
		got = stat(buf, &st);
		if (got < 0 && errno == ENOENT)
			*at = i;
		else if (got < 0)
			fs_fail_errno(err, errlen, "create", buf, NULL);
		buf[i] = c;
		if (got < 0 && !*at)
			return -1;
	}
	return 0;
}

/* See fileset_int.h; the steps are the file's comment. */
int fs_create_root(struct fileset *fs, char *err, size_t errlen)
{
	char *buf = xstrdup(fs->root), *top, *parent, *name, *prefix, *tmp;
	size_t at, plen = strlen(fs->path);
	int pfd, tfd = -1, rfd = -1, e = 0;
	bool said = false, made = false;

	if (first_missing(buf, &at, err, errlen) < 0) {
		free(buf);
		return errno = ENOTDIR, -1; /* err says which */
	}
	if (!at) {
		free(buf);
		return errno = EEXIST, -1; /* all there now: look again */
	}
	top = xstrndup(buf, at);
	name = strrchr(top, '/');
	parent = !name ? xstrdup(".") :
		 name == top ? xstrdup("/") :
			       xstrndup(top, (size_t)(name - top));
	name = name ? name + 1 : top;
	prefix = xasprintf(NEW_PREFIX "%016" PRIx64 ".", str_hash(name));
	tmp = xasprintf("%s%s", prefix, fs_marker_run_id());
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd >= 0) {
		rm_stale(pfd, prefix);
		if ((made = mkdirat(pfd, tmp, 0755) == 0))
			tfd = openat(pfd, tmp, O_RDONLY | O_DIRECTORY |
						       O_NOFOLLOW | O_CLOEXEC);
	}
	/* dup'ed when the top is the root itself: the same lock */
	if (tfd < 0 || flock(tfd, LOCK_EX | LOCK_NB) < 0 ||
	    (rfd = make_chain(tfd, buf + at)) < 0 ||
	    flock(rfd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		goto undo;
	}
	/* the directories of the path made, by their names once in place */
	for (size_t i = at; i <= plen; i++)
		if (i == plen || fs->path[i] == '/') {
			fs->made = xrealloc(fs->made,
					    (fs->nmade + 1) * sizeof(char *));
			fs->made[fs->nmade++] = xstrndup(fs->path, i);
		}
	if (fs_marker_write(fs, rfd, false, err, errlen) < 0) {
		e = errno;
		said = true;
		goto undo;
	}
	if (rename_new(pfd, tmp, name) < 0) {
		e = errno;
		goto undo;
	}
	fs->root_made = true;
	close(tfd);
	goto out;
undo:
	/* nothing of it stays (its descriptors first: EMFILE) */
	if (rfd >= 0)
		close(rfd);
	rfd = -1;
	if (tfd >= 0)
		close(tfd);
	if (made && !rm_debris(pfd, tmp))
		unlinkat(pfd, tmp, AT_REMOVEDIR);
	while (fs->nmade > 0)
		free(fs->made[--fs->nmade]);
	errno = e;
	/*
	 * Appeared meanwhile, or another fbrun making the same directory
	 * (fbrun-mpi's ranks) took our temporary one for debris between
	 * our mkdir and our lock: the caller looks again.
	 */
	if (e == EEXIST || e == ENOTEMPTY || e == ENOENT || e == EWOULDBLOCK)
		errno = EEXIST;
	else if (!said)
		fs_fail_errno(err, errlen, "create", top, NULL);
out:
	e = errno;
	if (pfd >= 0)
		close(pfd);
	free(buf);
	free(top);
	free(parent);
	free(prefix);
	free(tmp);
	errno = e;
	return rfd;
}
