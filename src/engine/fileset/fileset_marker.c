/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A root's marker read and written (its format in doc/running.md, what it
 * is for in fileset_root.c), the debris of one a killed run was writing,
 * and the error line of a failed call on the tree: below the root, the
 * tree's making and its removal, which all use them.
 */
#include "engine/fileset/fileset_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int fs_fail_errno(char *err, size_t errlen, const char *verb, const char *a,
		  const char *b)
{
	fs_set_err(err, errlen, "cannot %s '%s%s%s': %s%s", verb, a,
		   b ? "/" : "", b ? b : "", strerror(errno),
		   errno == EROFS ? EROFS_HINT : "");
	return -1;
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
