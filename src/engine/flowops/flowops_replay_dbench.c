/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * replay with calls=dbench: the calls dbench's file backend (dbench 4's
 * fileio.c) makes for a loadfile line besides the line's own operation,
 * inside the op's timed window as they are inside dbench's, so that a
 * replay's figures compare with dbench's (doc/language.md):
 *
 * - before each line that names a path (NTCreateX, Unlink, Mkdir, Rmdir,
 *   both names of a Rename, QUERY_PATH_INFORMATION, FIND_FIRST) a lookup
 *   of the name: a stat, and where the name is absent a listing of its
 *   directory, looking for the name in any case, as a server resolves a
 *   case-blind client's name on a case-sensitive file system;
 * - SET_FILE_INFORMATION: the handle's fstat, then its times set through
 *   its name, not its fd;
 * - dbench's fstat of what an NTCreateX opened is the one every replayed
 *   open makes (op_replay_open's check of what it opened).
 *
 * A lookup's outcome is ignored, as dbench ignores it.  Each goes through
 * the op's parent directory, opened beneath the tree (op_replay_parent),
 * and never follows the last component.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"
#include "util/util.h"

/* What a listing reads at a time: what readdir(3) of glibc asks for. */
#define DBENCH_LIST_CHUNK 32768

/*
 * FIND_FIRST's pattern as a name: the reader keeps only its directory,
 * and a pattern names no file (dbench's patterns hold a wildcard).
 */
#define DBENCH_PATTERN "*"

/* The directory pfd listed until an entry is name, in any case. */
static void find_any_case(struct replay *rp, int pfd, const char *name)
{
	size_t chunk = rp->buflen < DBENCH_LIST_CHUNK ? rp->buflen :
							DBENCH_LIST_CHUNK;
	int fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, rp->buf, chunk)) > 0) {
		for (long at = 0; at < n;) {
			const struct dirent_raw *de =
				(const struct dirent_raw *)(rp->buf + at);

			if (strcasecmp(de->name, name) == 0) {
				close(fd);
				return;
			}
			at += de->reclen;
		}
	}
	close(fd);
}

/* dbench's lookup of path. */
static void lookup(struct replay *rp, const char *path, bool other)
{
	const char *last;
	struct stat st;
	int own, pfd = op_replay_parent(rp, path, &last, other, &own);

	if (pfd < 0)
		return; /* its directory is absent: so is the name */
	if (fstatat(pfd, last, &st, AT_SYMLINK_NOFOLLOW) < 0)
		find_any_case(rp, pfd, last);
	if (own >= 0)
		close(own);
}

void op_replay_dbench_lookup(struct replay *rp, const struct trace_op *op)
{
	const char *p;

	if (op->path < 0)
		return;
	p = trace_path(rp->t, op->path);
	switch (op->type) {
	case TOP_OPEN:
	case TOP_UNLINK:
	case TOP_MKDIR:
	case TOP_RMDIR:
	case TOP_STAT:
		if (strcmp(p, ".") != 0)
			lookup(rp, p, false);
		break;
	case TOP_RENAME:
		lookup(rp, p, false);
		lookup(rp, trace_path(rp->t, op->path2), true);
		break;
	case TOP_READDIR: {
		/* the pattern's directory is op's path: the pattern is in it */
		char in[PATH_MAX];

		if (strcmp(p, ".") == 0)
			lookup(rp, DBENCH_PATTERN, false);
		else if (snprintf(in, sizeof(in), "%s/%s", p, DBENCH_PATTERN) <
			 (int)sizeof(in))
			lookup(rp, in, false);
		break;
	}
	default:
		break;
	}
}

int op_replay_dbench_setattr(struct replay *rp, size_t s,
			     const struct trace_op *op)
{
	const struct trace_handle *h =
		trace_stream_handle(rp->t, s, op->handle);
	int fd = rp->fds[s][op->handle];
	struct timespec ts[2] = { { 0 } };
	const char *last;
	struct stat st;
	int own, pfd, r;

	if (fd < 0)
		return EBADF;
	if (fstat(fd, &st) < 0)
		return errno;
	/* dbench sets them a little back, by the name it opened it by */
	ts[0].tv_sec = st.st_atime - 10;
	ts[1].tv_sec = st.st_mtime - 12;
	if (strcmp(trace_path(rp->t, h->path), ".") == 0)
		return futimens(fd, ts) < 0 ? errno : 0;
	pfd = op_replay_parent(rp, trace_path(rp->t, h->path), &last, false,
			       &own);
	if (pfd < 0)
		return errno;
	r = utimensat(pfd, last, ts, AT_SYMLINK_NOFOLLOW) < 0 ? errno : 0;
	if (own >= 0)
		close(own);
	return r;
}
