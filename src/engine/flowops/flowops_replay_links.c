/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The symbolic links of a replay (flowops_replay_ops.c): those the trace
 * made, made again pointing where the recording's did when that was
 * beneath its root, else dangling; the opens the recording made through
 * them followed by hand where the kernel has no openat2; and which links
 * lead out of the tree, for the ops counted as mismatches.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"
#include "util/paths.h"
#include "util/util.h"

/* the name at path is a link the replay made for one leading out */
static bool link_out(struct replay *rp, const char *path)
{
	char buf[sizeof(REPLAY_SYMLINK_TARGET)];
	const char *last;
	int own, pfd = op_replay_parent(rp, path, &last, true, &own);
	ssize_t n = pfd < 0 ? -1 : readlinkat(pfd, last, buf, sizeof(buf));

	if (own >= 0)
		close(own);
	return n == (ssize_t)sizeof(buf) - 1 &&
	       memcmp(buf, REPLAY_SYMLINK_TARGET, (size_t)n) == 0;
}

bool op_replay_leads_out(struct replay *rp, const char *path)
{
	char *p = strdup(path);
	bool out = false;

	if (!p)
		return false;
	/* path itself, then each directory on the way, longest first */
	for (char *slash; !(out = link_out(rp, p)) && (slash = strrchr(p, '/'));)
		*slash = '\0';
	free(p);
	return out;
}

/*
 * The link at prefix (a path of the tree), taken lexically from its
 * directory, with rest after it: a malloc'd path, or NULL when prefix is
 * not a link (errno EINVAL) or leads out (absolute, or above the tree:
 * errno EXDEV).
 */
static char *through_link(struct replay *rp, const char *prefix,
			  const char *rest)
{
	char buf[PATH_MAX], *joined, *lex;
	const char *last, *slash = strrchr(prefix, '/');
	int own, pfd = op_replay_parent(rp, prefix, &last, true, &own);
	ssize_t n = pfd < 0 ? -1 : readlinkat(pfd, last, buf, sizeof(buf) - 1);

	if (own >= 0)
		close(own);
	if (n < 0)
		return errno = EINVAL, NULL;
	buf[n] = '\0';
	if (buf[0] == '/')
		return errno = EXDEV, NULL;
	joined = xasprintf("%.*s%s%s%s%s", slash ? (int)(slash - prefix) : 0,
			   prefix, slash ? "/" : "", buf, *rest ? "/" : "",
			   rest);
	lex = path_lexical(joined);
	free(joined);
	if (strcmp(lex, "..") == 0 || strncmp(lex, "../", 3) == 0) {
		free(lex);
		return errno = EXDEV, NULL;
	}
	return lex;
}

/*
 * Without openat2: the path's links followed by hand, left to right (up
 * to 40), each target taken lexically from its link's directory, and
 * the path without links opened beneath the tree as any path is; one
 * leading out of the tree is EXDEV.  Each prefix is looked at with
 * readlinkat in its directory opened beneath the tree.
 */
int op_replay_open_walk(struct replay *rp, const char *path, int fl,
			mode_t m)
{
	char *p = xstrdup(path), *q;
	size_t at = 0;
	int fd, hops = 0;

	while (p[at]) {
		size_t end = at + strcspn(p + at, "/");
		char c = p[end];

		p[end] = '\0';
		q = through_link(rp, p, c ? p + end + 1 : "");
		p[end] = c;
		if (!q && errno != EINVAL) {
			free(p);
			return -1; /* EXDEV */
		}
		if (!q) { /* not a link: the next component */
			at = c ? end + 1 : end;
			continue;
		}
		free(p);
		p = q;
		at = 0;
		if (++hops > 40) {
			free(p);
			return errno = ELOOP, -1;
		}
	}
	fd = fileset_open_beneath(rp->dirfd, p, fl, m);
	free(p);
	return fd;
}

/*
 * A symbolic link where the recording made one: to its target as a
 * name relative to the link's directory, when the target was beneath
 * the trace's root (the replay's opens follow it beneath the tree
 * alone); else dangling, beside itself, leading nowhere out of it.
 */
int op_replay_symlink(struct replay *rp, const struct trace_op *op, int pfd,
		      const char *last)
{
	const char *link = trace_path(rp->t, op->path), *to, *dir_end;
	size_t common = 0, up = 0, n = 0;
	char *rel;
	int r;

	if (op->path2 < 0)
		return symlinkat(REPLAY_SYMLINK_TARGET, pfd, last);
	to = trace_path(rp->t, op->path2);
	if (strcmp(to, ".") == 0)
		to = "";
	dir_end = strrchr(link, '/');
	dir_end = dir_end ? dir_end : link;
	/* the directories the link's and the target's names share */
	for (size_t i = 0;; i++) {
		bool dend = link + i == dir_end, tend = to[i] == '\0';

		if ((dend || link[i] == '/') && (tend || to[i] == '/'))
			common = i;
		if (dend || tend || link[i] != to[i])
			break;
	}
	for (const char *c = link + common; c < dir_end; c++)
		up += *c == '/' || c == link;
	to += common + (to[common] == '/');
	if (!(rel = malloc(3 * up + strlen(to) + 2)))
		return errno = ENOMEM, -1;
	for (size_t i = 0; i < up; i++, n += 3)
		memcpy(rel + n, "../", 3);
	strcpy(rel + n, to);
	/* the link's own directory, or one above it */
	if (!*to)
		strcpy(n ? rel + n - 1 : rel, n ? "" : ".");
	r = symlinkat(rel, pfd, last);
	free(rel);
	return r;
}
