/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * --cache-limit's cgroup (cachelimit.h).  The cgroup is made at the top
 * of the hierarchy the memory controller is in, named after the process,
 * and the process moves in only once its filesets are made: memory is
 * charged to the cgroup that allocates it, so the trees' tables and what
 * making the files cached stay outside the bound, and the bound is the
 * run's page cache (and what the run allocates from then on).
 */
#include "engine/sys/cachelimit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/paths.h"
#include "util/util.h"

struct cachelimit {
	bool v2;
	bool entered;
	bool enabled; /* it gave the top's children the controller */
	char mnt[PATH_MAX]; /* the hierarchy's mount point */
	char dir[PATH_MAX + 32]; /* ours */
	char home[2 * PATH_MAX]; /* where the process was */
};

/* Whether word is one of the list's (its words separated by sep). */
static bool in_list(const char *list, const char *word, char sep)
{
	size_t n = strlen(word);

	for (const char *p = list; p; p = strchr(p, sep), p = p ? p + 1 : p)
		if (strncmp(p, word, n) == 0 && (p[n] == sep || p[n] == '\0'))
			return true;
	return false;
}

/* The first line of path, without its newline, in buf; -1 if unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Write text to the cgroup file dir/name: 0, or -1 with errno. */
static int put(const char *dir, const char *name, const char *text)
{
	char path[3 * PATH_MAX];
	size_t len = strlen(text);
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len)
		rc = -1;
	if (close(fd) != 0 && rc == 0)
		rc = -1;
	return rc;
}

/*
 * The memory controller's hierarchy from mountinfo: v2's where its root
 * offers the controller, else v1's; its mount point and root in c->mnt
 * and root.  -1 if neither is mounted.
 */
static int find_hierarchy(struct cachelimit *c, char *root, size_t rootlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], v1mnt[PATH_MAX] = "", v1root[PATH_MAX] = "";

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char r[PATH_MAX], m[PATH_MAX], type[64], opts[1024];
		char ctl[1024], path[PATH_MAX + 32];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, opts) != 2)
			continue;
		path_mountinfo_unescape(r);
		path_mountinfo_unescape(m);
		if (strcmp(type, "cgroup2") == 0 && !c->v2) {
			snprintf(path, sizeof(path), "%s/cgroup.controllers", m);
			if (read_line(path, ctl, sizeof(ctl)) == 0 &&
			    in_list(ctl, "memory", ' ')) {
				c->v2 = true;
				snprintf(c->mnt, sizeof(c->mnt), "%s", m);
				snprintf(root, rootlen, "%s", r);
			}
		} else if (strcmp(type, "cgroup") == 0 && !v1mnt[0] &&
			   in_list(opts, "memory", ',')) {
			snprintf(v1mnt, sizeof(v1mnt), "%s", m);
			snprintf(v1root, sizeof(v1root), "%s", r);
		}
	}
	fclose(f);
	if (c->v2)
		return 0;
	if (!v1mnt[0])
		return -1;
	snprintf(c->mnt, sizeof(c->mnt), "%s", v1mnt);
	snprintf(root, rootlen, "%s", v1root);
	return 0;
}

/* The process's cgroup in the hierarchy (mount point + path) in c->home. */
static void find_home(struct cachelimit *c, const char *root)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX + 256];
	size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);

	snprintf(c->home, sizeof(c->home), "%s", c->mnt);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *path;

		if (!ctl || !(path = strchr(ctl + 1, ':')))
			continue;
		*ctl = '\0';
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (c->v2 ? strcmp(line, "0") == 0 && ctl[1] == '\0' :
			    in_list(ctl + 1, "memory", ',')) {
			/* outside a cgroup namespace the mount's root leads */
			if (rl && strncmp(path, root, rl) == 0)
				path += rl;
			snprintf(c->home, sizeof(c->home), "%s%s", c->mnt,
				 strcmp(path, "/") == 0 ? "" : path);
			break;
		}
	}
	fclose(f);
}

struct cachelimit *cachelimit_new(uint64_t bytes, char *err, size_t errlen)
{
	struct cachelimit *c = xcalloc(1, sizeof(*c));
	char root[PATH_MAX], ctl[1024], num[32];
	const char *limit;

	if (find_hierarchy(c, root, sizeof(root)) < 0) {
		snprintf(err, errlen,
			 "no memory cgroup controller is mounted (neither "
			 "cgroup v2 with \"memory\" in cgroup.controllers nor a "
			 "cgroup v1 \"memory\" hierarchy)");
		free(c);
		return NULL;
	}
	find_home(c, root);
	if (c->v2) {
		char path[PATH_MAX + 32];

		/* the top's children get the controller: the top may have it on */
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", c->mnt);
		c->enabled = read_line(path, ctl, sizeof(ctl)) == 0 &&
			     !in_list(ctl, "memory", ' ');
		if (c->enabled &&
		    put(c->mnt, "cgroup.subtree_control", "+memory") < 0) {
			snprintf(err, errlen,
				 "cannot give the memory controller to cgroups "
				 "below %s: %s",
				 c->mnt, strerror(errno));
			free(c);
			return NULL;
		}
	}
	snprintf(c->dir, sizeof(c->dir), "%s/fbrun-%ld", c->mnt, (long)getpid());
	/* one left by an fbrun killed with this pid before is empty: reused */
	if (mkdir(c->dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot make the cgroup %s: %s", c->dir,
			 strerror(errno));
		cachelimit_free(c);
		return NULL;
	}
	snprintf(num, sizeof(num), "%" PRIu64, bytes);
	limit = c->v2 ? "memory.max" : "memory.limit_in_bytes";
	if (put(c->dir, limit, num) < 0) {
		snprintf(err, errlen, "cannot set %s/%s to %s: %s", c->dir,
			 limit, num, strerror(errno));
		cachelimit_free(c);
		return NULL;
	}
	return c;
}

int cachelimit_enter(struct cachelimit *c, char *err, size_t errlen)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	if (put(c->dir, "cgroup.procs", pid) < 0) {
		snprintf(err, errlen, "cannot move fbrun into the cgroup %s: %s",
			 c->dir, strerror(errno));
		return -1;
	}
	c->entered = true;
	return 0;
}

const char *cachelimit_kind(const struct cachelimit *c)
{
	return c->v2 ? "v2" : "v1";
}

const char *cachelimit_path(const struct cachelimit *c)
{
	return c->dir;
}

void cachelimit_leave(struct cachelimit *c)
{
	char pid[32];

	if (!c->entered)
		return;
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	/* home again, or the top if home went away meanwhile */
	if (put(c->home, "cgroup.procs", pid) < 0)
		put(c->mnt, "cgroup.procs", pid);
	c->entered = false;
}

void cachelimit_free(struct cachelimit *c)
{
	if (!c)
		return;
	cachelimit_leave(c);
	rmdir(c->dir);
	/* as it was, unless another cgroup took the controller meanwhile */
	if (c->enabled)
		put(c->mnt, "cgroup.subtree_control", "-memory");
	free(c);
}
