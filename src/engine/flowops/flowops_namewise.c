/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Files worked through one per op, as bonnie++'s file tests do, in the
 * root of a fileset (or in its subdirectories 00000, 00001, ... with
 * dirs=N): createnext makes file 0, 1, 2, ... with bonnie++'s names;
 * statnext and deletenext take the files in directory order, or with
 * `random` in a shuffled order drawn before the clock starts.  Every
 * access is relative to a directory opened beneath the root without
 * following symbolic links.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"
#include "util/util.h"

struct names {
	int rootfd; /* the fileset root (O_PATH) */
	uint64_t ndirs; /* subdirectories; 0: the root itself */
	int *dfd; /* per directory, opened on first use */
	uint64_t next; /* createnext: the next file number */
	/* directory order */
	DIR *dir;
	uint64_t cur; /* the directory being read */
	/* shuffled order: names in one pool */
	char *pool;
	size_t poollen, poolcap;
	struct pick {
		size_t off;
		uint32_t dir;
	} *list;
	size_t nlist, listcap, taken;
};

static uint64_t ndirs_of(const struct names *n)
{
	return n->ndirs > 1 ? n->ndirs : 1;
}

/* Directory d (a subdirectory, or the root), opened beneath the root. */
static int dir_fd(struct names *n, uint64_t d)
{
	char name[24];

	if (n->dfd[d] >= 0)
		return n->dfd[d];
	if (n->ndirs > 1)
		snprintf(name, sizeof(name), "%05" PRIu64, d);
	else
		strcpy(name, ".");
	n->dfd[d] = openat(n->rootfd, name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return n->dfd[d];
}

static enum fo_result dir_fail(struct worker *wk, const struct ir_flowop *f,
			       const char *verb, uint64_t d, const char *name)
{
	int err = errno;
	struct names *n = wk->fostate[f->id];
	char dir[24] = "";

	if (n->ndirs > 1)
		snprintf(dir, sizeof(dir), "%05" PRIu64 "/", d);
	return op_fail(wk, f, err, "cannot %s '%s/%s%s'", verb,
		       fileset_root(wk->run->filesets[f->fileset.index]), dir,
		       name);
}

/* Every non-dot name of every directory, shuffled with the thread's rng. */
static int gather(struct worker *wk, struct names *n)
{
	for (uint64_t d = 0; d < ndirs_of(n); d++) {
		int fd = dir_fd(n, d), dup_fd;
		struct dirent *de;
		DIR *dir;

		if (fd < 0 || (dup_fd = dup(fd)) < 0)
			return -1;
		dir = fdopendir(dup_fd);
		if (!dir) {
			close(dup_fd);
			return -1;
		}
		while ((de = readdir(dir))) {
			size_t len = strlen(de->d_name) + 1;

			if (de->d_name[0] == '.')
				continue;
			n->list = grow_array(n->list, &n->listcap, n->nlist + 1,
					     sizeof(*n->list));
			n->pool = grow_array(n->pool, &n->poolcap,
					     n->poollen + len, 1);
			n->list[n->nlist++] = (struct pick){ n->poollen,
							     (uint32_t)d };
			memcpy(n->pool + n->poollen, de->d_name, len);
			n->poollen += len;
		}
		closedir(dir);
	}
	for (size_t i = n->nlist; i > 1; i--) {
		size_t j = (size_t)rv_below(&wk->rng, i);
		struct pick t = n->list[i - 1];

		n->list[i - 1] = n->list[j];
		n->list[j] = t;
	}
	return 0;
}

int op_names_prepare(struct worker *wk, const struct ir_flowop *f)
{
	struct names *n = xcalloc(1, sizeof(*n));
	int64_t dirs = f->dirs;

	wk->fostate[f->id] = n;
	n->rootfd = fileset_rootfd(wk->run->filesets[f->fileset.index]);
	n->ndirs = dirs > 1 ? (uint64_t)dirs : 0;
	n->dfd = xmalloc(ndirs_of(n) * sizeof(*n->dfd));
	for (uint64_t d = 0; d < ndirs_of(n); d++)
		n->dfd[d] = -1;
	if (f->type == FO_CREATENEXT) {
		char name[24];

		for (uint64_t d = 0; n->ndirs > 1 && d < n->ndirs; d++) {
			snprintf(name, sizeof(name), "%05" PRIu64, d);
			if (mkdirat(n->rootfd, name, 0755) < 0 &&
			    errno != EEXIST) {
				dir_fail(wk, f, "create directory", d, "");
				return -1;
			}
		}
		return 0;
	}
	if (f->random && gather(wk, n) < 0) {
		dir_fail(wk, f, "list", 0, "");
		return -1;
	}
	return 0;
}

void op_names_free(void *state)
{
	struct names *n = state;

	if (!n)
		return;
	for (uint64_t d = 0; d < ndirs_of(n); d++)
		if (n->dfd[d] >= 0)
			close(n->dfd[d]);
	if (n->dir)
		closedir(n->dir);
	free(n->dfd);
	free(n->pool);
	free(n->list);
	free(n);
}

/* bonnie++'s names: 10 hex digits of the number and 0-12 random
 * letters or digits, the random part first for the random-order test.
 * Formatted by hand: sprintf took some 1,200 instructions a name, a few
 * per cent of a create on tmpfs, and bonnie++ makes its names untimed. */
static void make_name(struct worker *wk, uint64_t i, bool random, char *out)
{
	static const char alnum[] = "0123456789"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "abcdefghijklmnopqrstuvwxyz";
	static const char hex[] = "0123456789abcdef";
	unsigned len = (unsigned)rv_below(&wk->rng, 13);
	char *r = random ? out : out + 10, *num = random ? out + len : out;

	for (unsigned j = 0; j < len; j++)
		r[j] = alnum[rv_below(&wk->rng, 62)];
	for (int k = 9; k >= 0; k--, i >>= 4)
		num[k] = hex[i & 15];
	out[10 + len] = '\0';
}

/*
 * Write size bytes of f's data pattern in iosize chunks.  -1: a write
 * failed (errno); -2: the data could not be had (f already failed); 1:
 * the run ended first.
 */
static int write_file(struct worker *wk, const struct ir_flowop *f, int fd,
		      uint64_t size)
{
	struct slot s = { .fd = fd, .entry = -1, .size = size };
	uint64_t chunk = (uint64_t)op_value(wk, &f->iosize);

	slot_set_fileset(wk, &s, f->fileset.index);

	if (chunk == 0 || chunk > size)
		chunk = size;
	while (size > 0) {
		size_t c = size < chunk ? (size_t)size : (size_t)chunk;
		const char *buf = op_write_data(wk, f, &s, c);
		ssize_t w;

		if (!buf)
			return -2;
		w = sys_write(fd, buf, c);
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		size -= (uint64_t)w;
		if (timeline_flag_set(wk->stop))
			return 1; /* the run ended: cut short */
	}
	return 0;
}

enum fo_result fo_createnext(struct worker *wk, const struct ir_flowop *f)
{
	struct names *n = wk->fostate[f->id];
	int64_t entries = op_value(wk, &f->entries);
	int64_t size = op_value(wk, &f->filesize);
	uint64_t i = n->next, d, per_dir, t0;
	char name[32];
	int dfd, fd, rc;

	if (f->entries.kind != IRV_NONE && i >= (uint64_t)entries)
		return op_finished(wk, "flowop %s: all %" PRId64 " files created",
				f->name, entries);
	/* bonnie++ puts n/dirs + 1 files in each directory, in order */
	per_dir = n->ndirs > 1 ? (uint64_t)entries / n->ndirs + 1 : 0;
	d = per_dir ? i / per_dir : 0;
	if (d >= ndirs_of(n))
		d = ndirs_of(n) - 1;
	make_name(wk, i, f->random, name);
	t0 = op_start(wk);
	dfd = dir_fd(n, d);
	if (dfd < 0)
		return dir_fail(wk, f, "open directory", d, "");
	fd = sys_openat(dfd, name,
			O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
			0600);
	if (fd < 0)
		return dir_fail(wk, f, "create", d, name);
	rc = size > 0 ? write_file(wk, f, fd, (uint64_t)size) : 0;
	if (rc == 0 && f->fsync && (fsync(fd) < 0 || fsync(dfd) < 0))
		rc = -1;
	if (rc < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return rc == -2 ? FO_ERROR : dir_fail(wk, f, "write", d, name);
	}
	if (sys_close(fd) < 0)
		return dir_fail(wk, f, "close", d, name);
	n->next++;
	if (rc > 0)
		return FO_OK; /* cut short by the end of the run: not recorded */
	op_done(wk, f, t0, size > 0 ? (uint64_t)size : 0);
	return FO_OK;
}

/* fd is still the regular file st was (not one renamed over it since). */
static bool same_file(int fd, const struct stat *st)
{
	struct stat now;

	return fstat(fd, &now) == 0 && S_ISREG(now.st_mode) &&
	       now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}

/* stat (and read, if it has data) or delete one file of directory dfd. */
static enum fo_result act(struct worker *wk, const struct ir_flowop *f,
			  uint64_t t0, uint64_t d, int dfd, const char *name)
{
	uint64_t total = 0;
	struct stat st;

	if (f->type == FO_DELETENEXT) {
		if (unlinkat(dfd, name, 0) < 0 || (f->fsync && fsync(dfd) < 0))
			return dir_fail(wk, f, "delete", d, name);
	} else {
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return dir_fail(wk, f, "stat", d, name);
		if (S_ISREG(st.st_mode) && st.st_size > 0) {
			uint64_t chunk = (uint64_t)op_value(wk, &f->iosize);
			/* O_NONBLOCK: a FIFO swapped in since the stat */
			int fd = sys_openat(dfd, name,
					    O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
						    O_NOCTTY | O_CLOEXEC, 0);
			char *buf;
			ssize_t r = 0;

			if (chunk == 0)
				chunk = 8192;
			buf = op_buffer(wk, chunk);
			if (fd >= 0 && !same_file(fd, &st)) {
				close(fd);
				fd = -1;
				errno = EAGAIN;
			}
			if (fd < 0 || !buf) {
				if (fd >= 0)
					close(fd);
				errno = fd < 0 ? errno : ENOMEM;
				return dir_fail(wk, f, "open", d, name);
			}
			while ((r = sys_read(fd, buf, (size_t)chunk)) > 0 &&
			       !timeline_flag_set(wk->stop))
				total += (uint64_t)r;
			sys_close(fd);
			if (r < 0)
				return dir_fail(wk, f, "read", d, name);
			if (r > 0)
				return FO_OK; /* cut short: not recorded */
		}
	}
	op_done(wk, f, t0, total);
	return FO_OK;
}

static enum fo_result next_shuffled(struct worker *wk,
				    const struct ir_flowop *f, struct names *n)
{
	struct pick p;
	uint64_t t0;
	int dfd;

	if (n->taken == n->nlist)
		return op_finished(wk, "flowop %s: all %zu files done", f->name,
				n->nlist);
	p = n->list[n->taken++];
	t0 = op_start(wk);
	dfd = dir_fd(n, p.dir);
	if (dfd < 0)
		return dir_fail(wk, f, "open directory", p.dir, "");
	return act(wk, f, t0, p.dir, dfd, n->pool + p.off);
}

/*
 * Directory order: readdir the directories in turn; the op's time
 * includes the readdir, as bonnie++'s does.  deletenext removes a
 * subdirectory once it has read it to the end.
 */
static enum fo_result next_listed(struct worker *wk,
				  const struct ir_flowop *f, struct names *n)
{
	uint64_t t0 = op_start(wk);
	struct dirent *de;

	for (;;) {
		if (!n->dir) {
			int fd;

			if (n->cur >= ndirs_of(n))
				return op_norsc(wk, "flowop %s: no files left",
						f->name);
			fd = dir_fd(n, n->cur);
			if (fd < 0 || (fd = dup(fd)) < 0)
				return dir_fail(wk, f, "open directory", n->cur,
						"");
			n->dir = fdopendir(fd);
			if (!n->dir) {
				close(fd);
				return dir_fail(wk, f, "read directory", n->cur,
						"");
			}
			rewinddir(n->dir);
		}
		errno = 0;
		de = readdir(n->dir);
		if (de && de->d_name[0] == '.')
			continue;
		if (de)
			return act(wk, f, t0, n->cur, dirfd(n->dir), de->d_name);
		if (errno)
			return dir_fail(wk, f, "read directory", n->cur, "");
		closedir(n->dir);
		n->dir = NULL;
		if (f->type == FO_DELETENEXT && n->ndirs > 1) {
			char name[24];

			snprintf(name, sizeof(name), "%05" PRIu64, n->cur);
			close(n->dfd[n->cur]);
			n->dfd[n->cur] = -1;
			if (unlinkat(n->rootfd, name, AT_REMOVEDIR) < 0)
				return dir_fail(wk, f, "remove directory",
						n->cur, "");
		}
		n->cur++;
	}
}

enum fo_result fo_statnext(struct worker *wk, const struct ir_flowop *f)
{
	struct names *n = wk->fostate[f->id];

	return f->random ? next_shuffled(wk, f, n) : next_listed(wk, f, n);
}

enum fo_result fo_deletenext(struct worker *wk, const struct ir_flowop *f)
{
	return fo_statnext(wk, f);
}
