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
 */
#include "engine/fileset/fileset_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/paths.h"
#include "util/util.h"

#define MARKER_MAX 16384 /* more is not a marker of ours */

/* After an error's text: why a read-only file system cannot be used. */
#define EROFS_HINT                                                             \
	" (only a reuse tree that is already whole, as a run left it, can be " \
	"used on a read-only file system)"

/* ------------------------------------------------------------ this run */

static pthread_once_t run_once = PTHREAD_ONCE_INIT;
static char run_line[512]; /* "ID pid N host H started T" */

static void run_init(void)
{
	char host[256] = "unknown", when[32];
	uint64_t id;
	time_t now = time(NULL);

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != (ssize_t)sizeof(id))
		id = (uint64_t)now * 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
	if (gethostname(host, sizeof(host)) < 0)
		strcpy(host, "unknown");
	host[sizeof(host) - 1] = '\0';
	for (char *c = host; *c; c++)
		if (*c == ' ' || *c == '\n')
			*c = '_';
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(run_line, sizeof(run_line),
		 "%016" PRIx64 " pid %ld host %s started %s", id,
		 (long)getpid(), host, when);
}

const char *fs_marker_run_id(void)
{
	static char id[17];

	pthread_once(&run_once, run_init);
	snprintf(id, sizeof(id), "%.16s", run_line);
	return id;
}

/* ------------------------------------------------------------ reading */

void fs_marker_free(struct marker *m)
{
	free(m->name);
	free(m->run);
	free(m->made);
	free(m->replay);
	memset(m, 0, sizeof(*m));
}

/* The text of a marker into m; false if it is not one of ours. */
static bool marker_parse(char *text, struct marker *m)
{
	char *save = NULL, *line, extra;

	line = strtok_r(text, "\n", &save);
	if (!line || strncmp(line, "fbrun fileset ", 14) != 0 || !line[14])
		return false;
	m->name = xstrdup(line + 14);
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (strcmp(line, "root: " MARKER_ADOPTED) == 0)
			m->adopted = true;
		else if (strncmp(line, "run: ", 5) == 0 && !m->run)
			m->run = xstrdup(line + 5);
		else if (strncmp(line, "made: /", 7) == 0 && !m->made)
			m->made = xstrdup(line + 6);
		else if (strcmp(line, "names: createnext") == 0)
			m->createnext = true;
		else if (strncmp(line, "replay:", 7) == 0)
			fs_replay_parse(line + 7, m);
		else if (sscanf(line, "verify: whole %16" SCNx64 "%c",
				&m->whole_hash, &extra) == 1)
			m->whole = true;
		/* other lines: a later fbrun's, ignored */
	}
	if (m->run)
		sscanf(m->run, "%*s pid %ld", &m->pid);
	return true;
}

int fs_marker_read(struct fileset *fs, int dfd, struct marker *m, char *err,
		   size_t errlen)
{
	char *buf;
	struct stat st;
	ssize_t n = 0, got;
	int fd = openat(dfd, FILESET_MARKER,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	memset(m, 0, sizeof(*m));
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 && errno != ELOOP) { /* ELOOP: a symlink */
		fs_set_err(err, errlen, "cannot open '%s/%s': %s", fs->root,
			   FILESET_MARKER, strerror(errno));
		return -1;
	}
	if (fd >= 0 && fstat(fd, &st) < 0) {
		fs_set_err(err, errlen, "cannot read '%s/%s': %s", fs->root,
			   FILESET_MARKER, strerror(errno));
		close(fd);
		return -1;
	}
	if (fd < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		fs_set_err(err, errlen,
			   "'%s/%s' is not a regular file; not using or "
			   "removing '%s'",
			   fs->root, FILESET_MARKER, fs->root);
		return -2;
	}
	buf = xmalloc(MARKER_MAX + 1);
	while (n < MARKER_MAX &&
	       (got = read(fd, buf + n, (size_t)(MARKER_MAX - n))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fs_set_err(err, errlen, "cannot read '%s/%s': %s",
				   fs->root, FILESET_MARKER, strerror(errno));
			close(fd);
			free(buf);
			return -1;
		}
		n += got;
	}
	close(fd);
	buf[n] = '\0';
	if (n == MARKER_MAX || strlen(buf) != (size_t)n ||
	    !marker_parse(buf, m)) {
		fs_marker_free(m);
		free(buf);
		fs_set_err(err, errlen,
			   "'%s/%s' is not an fbrun marker; not using or "
			   "removing '%s'",
			   fs->root, FILESET_MARKER, fs->root);
		return -2;
	}
	free(buf);
	return 1;
}

/* ------------------------------------------------------------ writing */

int fs_marker_write(struct fileset *fs, int dfd, bool adopted, char *err,
		    size_t errlen)
{
	char *made = NULL, *text, tmp[sizeof(MARKER_NEW) + 18], whole[40] = "";
	char *replay = fs_replay_line(fs);
	ssize_t len, got = -1;
	int fd, e;

	pthread_once(&run_once, run_init);
	if (fs->whole)
		snprintf(whole, sizeof(whole), "verify: whole %016" PRIx64 "\n",
			 fs->whole_hash);
	/* absolute, so a run from another directory finds it */
	if (fs->nmade > 0 && !strchr(fs->made[0], '\n'))
		made = path_real(fs->made[0]);
	text = xasprintf("fbrun fileset %s\nroot: %s\nrun: %s\n%s%s%s%s%s%s",
			 fs->name, adopted ? MARKER_ADOPTED : "made", run_line,
			 made ? "made: " : "", made ? made : "",
			 made ? "\n" : "",
			 fs->createnext ? "names: createnext\n" : "", replay,
			 whole);
	free(made);
	free(replay);
	len = (ssize_t)strlen(text);
	/*
	 * A new file renamed over the old: never a half-written marker.  Its
	 * name is this run's and O_EXCL, so nothing planted there is opened.
	 */
	snprintf(tmp, sizeof(tmp), "%s.%s", MARKER_NEW, fs_marker_run_id());
	fd = openat(dfd, tmp,
		    O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		got = write(fd, text, (size_t)len);
		if (got >= 0 && got < len)
			errno = ENOSPC;
		if (close(fd) < 0)
			got = -1;
	}
	free(text);
	if (got == len && renameat(dfd, tmp, dfd, FILESET_MARKER) == 0)
		return 0;
	e = errno;
	if (fd >= 0)
		unlinkat(dfd, tmp, 0);
	fs_set_err(err, errlen, "cannot create '%s/%s': %s%s", fs->root,
		   FILESET_MARKER, strerror(e), e == EROFS ? EROFS_HINT : "");
	errno = e;
	return -1;
}

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

int fs_fail_errno(char *err, size_t errlen, const char *verb, const char *a,
		  const char *b)
{
	fs_set_err(err, errlen, "cannot %s '%s%s%s': %s%s", verb, a,
		   b ? "/" : "", b ? b : "", strerror(errno),
		   errno == EROFS ? EROFS_HINT : "");
	return -1;
}

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

bool fs_marker_debris(int dfd, const char *name)
{
	size_t n = strlen(MARKER_NEW);
	const char *id = name + n + 1;
	struct stat st;

	/* this run's name, another run's, or an older fbrun's fixed one */
	if (strncmp(name, MARKER_NEW, n) != 0 ||
	    (name[n] != '\0' &&
	     (name[n] != '.' || strlen(id) != 16 ||
	      strspn(id, "0123456789abcdef") != 16)))
		return false;
	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISREG(st.st_mode) && st.st_nlink == 1;
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
