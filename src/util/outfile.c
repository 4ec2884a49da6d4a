/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Outputs written beside their target, then renamed over it (outfile.h). */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/msg.h"
#include "util/paths.h"
#include "util/util.h"

#define TEMP_TRIES 100
/* bytes of the target's name kept in the temporary's (NAME_MAX is 255) */
#define TEMP_BASE_MAX 200

/* path's directory ("." for a bare name), malloc'd, and its last name. */
static char *split(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash ? slash + 1 : path;
	return !slash ? xstrdup(".") :
	       slash == path ? xstrdup("/") :
			       xstrndup(path, (size_t)(slash - path));
}

/* What a file that is not a regular one is. */
static const char *kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "of an unknown type";
}

char *outfile_unusable(const char *path)
{
	const char *base;
	char *dir = split(path, &base), *why = NULL;
	struct stat st;
	/* the name itself: a link there is not followed to what it names */
	bool exists = lstat(path, &st) == 0;
	int err = errno;

	if (exists && S_ISDIR(st.st_mode))
		why = xasprintf("is a directory");
	else if (exists && !S_ISREG(st.st_mode))
		why = xasprintf("is %s, not a regular file", kind(st.st_mode));
	else if (exists && access(path, W_OK) < 0)
		why = xasprintf("cannot be written: %s", strerror(errno));
	else if (!exists && err != ENOENT)
		why = xasprintf("cannot be used: %s", strerror(err));
	/* the new file is made in the directory, whether one is there or not */
	else if (stat(dir, &st) < 0 ||
		 (S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) < 0))
		why = xasprintf("cannot be %s: '%s': %s",
				exists ? "replaced" : "made", dir,
				strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		why = xasprintf("cannot be made: '%s' is not a directory", dir);
	free(dir);
	return why;
}

bool outfile_same(const char *out, const char *in)
{
	struct stat so, si;
	char *ro, *ri;
	bool same;

	if (stat(out, &so) == 0 && stat(in, &si) == 0)
		return so.st_dev == si.st_dev && so.st_ino == si.st_ino;
	ro = path_real(out);
	ri = path_real(in);
	same = ro && ri ? strcmp(ro, ri) == 0 : strcmp(out, in) == 0;
	free(ro);
	free(ri);
	return same;
}

/* An output on its way: the target's directory and the temporary in it. */
struct out {
	const char *path, *base;
	char *dir;
	int dfd, fd;
	char tmp[TEMP_BASE_MAX + 32];
};

/*
 * The temporary, ".NAME.fbrun-XXXXXX": a name fbrun chose, made new
 * (O_EXCL, so nothing already there is opened, a link least of all),
 * 0644 less the umask.  0, or -1 after saying why.
 */
static int make_temp(struct out *o)
{
	static uint64_t counter;
	struct timespec ts;
	uint64_t x;
	int err = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_sec ^
	    ((uint64_t)ts.tv_nsec << 16);
	for (int i = 0; i < TEMP_TRIES; i++) {
		/* a step of a 64-bit LCG: names far apart from try to try */
		x = x * 6364136223846793005ull + 1442695040888963407ull +
		    counter++;
		snprintf(o->tmp, sizeof(o->tmp), ".%.*s.fbrun-%06" PRIx64,
			 TEMP_BASE_MAX, o->base, (x >> 40) & 0xffffff);
		o->fd = openat(o->dfd, o->tmp,
			       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				       O_CLOEXEC,
			       0644);
		err = errno;
		if (o->fd >= 0 || err != EEXIST)
			break;
	}
	if (o->fd < 0)
		return fb_error("cannot write '%s': cannot make a file in "
				"'%s': %s",
				o->path, o->dir, strerror(err));
	return 0;
}

/*
 * Print into the temporary and make it durable.  A regular file being
 * replaced gives the new one its permissions.  0, or an errno.
 */
static int fill_temp(struct out *o, const struct stat *old,
		     outfile_fill_fn *fill, const void *arg)
{
	struct stat st;
	FILE *f;
	int err = 0;

	if (fstat(o->fd, &st) < 0)
		return errno;
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1)
		return EEXIST; /* not the new file O_EXCL made */
	if (old && fchmod(o->fd, old->st_mode & 0777) < 0)
		return errno;
	if (!(f = fdopen(o->fd, "w")))
		return errno;
	o->fd = -1; /* f's now */
	errno = 0;
	fill(f, arg);
	if (fflush(f) != 0)
		err = errno;
	else if (ferror(f))
		err = errno ? errno : EIO;
	/* EINVAL: a file system that has nothing to sync */
	else if (fsync(fileno(f)) != 0 && errno != EINVAL)
		err = errno;
	if (fclose(f) != 0 && !err)
		err = errno;
	return err;
}

/* The temporary renamed over the target, if that is still fbrun's to do. */
static int replace(struct out *o)
{
	struct stat st;

	/* the check before the run was a while ago */
	if (fstatat(o->dfd, o->base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISREG(st.st_mode))
		return fb_error("cannot write '%s': it is %s now, not a "
				"regular file",
				o->path, kind(st.st_mode));
	if (renameat(o->dfd, o->tmp, o->dfd, o->base) < 0)
		return fb_error("cannot write '%s': cannot rename '%s/%s' "
				"over it: %s",
				o->path, o->dir, o->tmp, strerror(errno));
	return 0;
}

int outfile_write(const char *path, outfile_fill_fn *fill, const void *arg)
{
	struct out o = { .path = path, .fd = -1 };
	struct stat old;
	bool is_old;
	int rc = -1, err;

	o.dir = split(path, &o.base);
	o.dfd = open(o.dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (o.dfd < 0) {
		fb_error("cannot write '%s': cannot open '%s': %s", path,
			 o.dir, strerror(errno));
		free(o.dir);
		return -1;
	}
	is_old = fstatat(o.dfd, o.base, &old, AT_SYMLINK_NOFOLLOW) == 0 &&
		 S_ISREG(old.st_mode);
	if (make_temp(&o) == 0) {
		err = fill_temp(&o, is_old ? &old : NULL, fill, arg);
		if (err)
			fb_error("cannot write '%s': %s", path, strerror(err));
		else
			rc = replace(&o);
		if (o.fd >= 0)
			close(o.fd);
		if (rc < 0)
			unlinkat(o.dfd, o.tmp, 0);
	}
	close(o.dfd);
	free(o.dir);
	return rc;
}

FILE *outfile_live(const char *path)
{
	struct out o = { .path = path, .fd = -1 };
	struct stat st, old;
	bool is_old;
	FILE *f = NULL;

	o.dir = split(path, &o.base);
	o.dfd = open(o.dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (o.dfd < 0) {
		fb_error("cannot write '%s': cannot open '%s': %s", path,
			 o.dir, strerror(errno));
		free(o.dir);
		return NULL;
	}
	is_old = fstatat(o.dfd, o.base, &old, AT_SYMLINK_NOFOLLOW) == 0 &&
		 S_ISREG(old.st_mode);
	if (make_temp(&o) == 0) {
		bool named = false;

		/* what O_EXCL made, nothing else, takes the name at once */
		if (fstat(o.fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_nlink != 1)
			fb_error("cannot write '%s': '%s/%s' is not the file "
				 "fbrun made",
				 path, o.dir, o.tmp);
		else if (is_old && fchmod(o.fd, old.st_mode & 0777) < 0)
			fb_error("cannot write '%s': cannot give '%s/%s' its "
				 "permissions: %s",
				 path, o.dir, o.tmp, strerror(errno));
		else if ((named = replace(&o) == 0) &&
			 !(f = fdopen(o.fd, "w")))
			fb_error("cannot write '%s': %s", path,
				 strerror(errno));
		if (f)
			o.fd = -1; /* f's now */
		else
			close(o.fd);
		if (!named)
			unlinkat(o.dfd, o.tmp, 0);
	}
	close(o.dfd);
	free(o.dir);
	return f;
}
