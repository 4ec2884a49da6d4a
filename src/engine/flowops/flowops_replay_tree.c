/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A replay's tree walked: the parent directory of a trace's path, kept
 * between ops, and a subtree removed without leaving the tree.  The
 * bottom of the replay's files: the ops, links and dbench's calls use it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"

/* Forget the parent directory kept: a rename or removal may move it. */
void op_replay_forget(struct replay *rp)
{
	if (rp->pfd >= 0)
		close(rp->pfd);
	rp->pfd = -1;
	free(rp->pdir);
	rp->pdir = NULL;
}

int op_replay_parent(struct replay *rp, const char *path, const char **last,
		     bool other, int *own)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	*own = -1;
	if (!slash) {
		*last = path;
		return rp->dirfd;
	}
	*last = slash + 1;
	dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return errno = ENOMEM, -1;
	/* kept, unless another stream moved or removed something since */
	if (!other && rp->pdir && strcmp(rp->pdir, dir) == 0 &&
	    (!rp->moves || atomic_load_explicit(rp->moves,
						memory_order_relaxed) ==
				   rp->pgen)) {
		free(dir);
		return rp->pfd;
	}
	fd = fileset_open_beneath(rp->dirfd, dir, O_PATH | O_DIRECTORY, 0);
	if (fd < 0 || other) {
		int e = errno;

		free(dir);
		*own = fd;
		errno = e;
		return fd;
	}
	op_replay_forget(rp);
	rp->pdir = dir;
	rp->pfd = fd;
	if (rp->moves)
		rp->pgen = atomic_load_explicit(rp->moves, memory_order_relaxed);
	return fd;
}

/* op_replay_rmtree, the tries-th time at name */
static int rmtree(struct replay *rp, int dfd, const char *name, int tries)
{
	struct stat root, st;
	struct dirent *de;
	DIR *d;
	int fd, e = 0;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOTDIR && errno != ELOOP)
			return -1;
		return unlinkat(dfd, name, 0);
	}
	/* never into a mount planted in the tree */
	if (fstat(fd, &st) < 0 || fstat(rp->dirfd, &root) < 0 ||
	    st.st_dev != root.st_dev) {
		close(fd);
		return errno = EXDEV, -1;
	}
	if (!(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN) {
			if (rmtree(rp, dirfd(d), de->d_name, 0) < 0 &&
			    errno != ENOENT)
				e = errno;
		} else if (unlinkat(dirfd(d), de->d_name, 0) < 0 &&
			   errno != ENOENT) {
			e = errno;
		}
	}
	closedir(d);
	if (e)
		return errno = e, -1;
	if (!strcmp(name, "."))
		return 0;
	if (unlinkat(dfd, name, AT_REMOVEDIR) == 0)
		return 0;
	/* a name the listing skipped while it was changing: once more */
	if (errno == ENOTEMPTY && tries < 3)
		return rmtree(rp, dfd, name, tries + 1);
	return -1;
}

int op_replay_rmtree(struct replay *rp, int dfd, const char *name)
{
	return rmtree(rp, dfd, name, 0);
}
