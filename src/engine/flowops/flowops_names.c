/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The flowops that give a fileset's file another name: renamefile,
 * linkfile, symlinkfile.  Each holds two entries busy at once, an
 * existing one and a free one, so no other thread opens, deletes or
 * creates either while the name moves or is added; the exists-state
 * follows what the call did, so later picks stay exact.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"

/* The two entries an op works on, and what it needs of their names. */
struct pair {
	struct fileset *fs;
	int64_t src, dst; /* existing, free */
	char srel[PATH_MAX], drel[PATH_MAX]; /* paths below the root */
	const char *sname, *dname; /* the last components */
	int sdfd, ddfd; /* their directories, opened beneath the root */
	bool close_sdfd; /* sdfd is the op's own, not the thread's */
};

/*
 * Hold an existing and a free entry of f's fileset.  Only a pick that
 * holds nothing may wait for entries to come back (a waiting pick while
 * holding one would wait for itself): the existing one waits first, the
 * free one is taken without waiting; if none is free, the existing one
 * goes back and the order turns.  0, or -1 with nothing held (*what says
 * which kind ran out: nothing to do), or -1 after the run stopped.
 */
static int hold_pair(struct worker *wk, const struct ir_flowop *f,
		     struct fs_local *l, struct pair *p, const char **what)
{
	static const enum fs_pick kinds[2] = { FS_FILE_EXISTING,
					       FS_FILE_ABSENT };
	int64_t e[2];

	for (int first = 0; !timeline_flag_set(wk->stop); first = !first) {
		int other = !first;

		e[first] = pick(wk, f, p->fs, l, kinds[first]);
		if (e[first] < 0) {
			*what = first == 0 ? "existing file" : "free name";
			return -1;
		}
		e[other] = fileset_pick(p->fs, kinds[other], l, false);
		if (e[other] >= 0) {
			p->src = e[0];
			p->dst = e[1];
			return 0;
		}
		fileset_unbusy(p->fs, kinds[first], e[first], first == 0);
	}
	*what = "entry";
	return -1;
}

/* Give both entries back: src exists or not, dst exists or not. */
static void release_pair(struct pair *p, bool src_exists, bool dst_exists)
{
	if (p->close_sdfd)
		close(p->sdfd);
	fileset_unbusy(p->fs, FS_FILE_EXISTING, p->src, src_exists);
	fileset_unbusy(p->fs, FS_FILE_ABSENT, p->dst, dst_exists);
}

/* Split rel at its last '/': its directory's length (0: the root). */
static size_t dir_len(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? (size_t)(slash - rel) : 0;
}

/*
 * Both paths, and both directories opened beneath the root: dst's
 * through the thread's cached directory (fileset_parent), src's the same
 * descriptor when they share one, else its own.  Setup, outside the timed
 * window.  0, or -1 with errno.
 */
static int open_pair(struct fs_local *l, struct pair *p)
{
	size_t sl, dl;
	const char *dname;

	p->close_sdfd = false;
	if (fileset_relpath(p->fs, FS_FILE_EXISTING, p->src, p->srel,
			    sizeof(p->srel)) < 0 ||
	    fileset_relpath(p->fs, FS_FILE_ABSENT, p->dst, p->drel,
			    sizeof(p->drel)) < 0)
		return errno = ENAMETOOLONG, -1;
	sl = dir_len(p->srel);
	dl = dir_len(p->drel);
	p->sname = p->srel + (sl ? sl + 1 : 0);
	p->dname = p->drel + (dl ? dl + 1 : 0);
	if ((p->ddfd = fileset_parent(p->fs, FS_FILE_ABSENT, p->dst, l,
				      &dname)) < 0)
		return -1;
	if (sl == dl && memcmp(p->srel, p->drel, sl) == 0) {
		p->sdfd = p->ddfd;
		return 0;
	}
	if (sl == 0) {
		p->sdfd = fileset_rootfd(p->fs);
		return 0;
	}
	p->srel[sl] = '\0';
	p->sdfd = fileset_openat(p->fs, p->srel, O_PATH | O_DIRECTORY, 0);
	p->srel[sl] = '/';
	if (p->sdfd < 0)
		return -1;
	p->close_sdfd = true;
	return 0;
}

/*
 * The common start: the pair held and its directories open.  true to go
 * on; false with what the op returns in *r, nothing held (op_norsc's
 * FO_OK too: the run is stopping).
 */
static bool start_pair(struct worker *wk, const struct ir_flowop *f,
		       struct pair *p, const char *verb, enum fo_result *r)
{
	struct fs_local *l;
	const char *what;

	p->fs = fs_of(wk, f->fileset.index);
	if (!(l = local_of(wk, f, f->fileset.index))) {
		*r = FO_ERROR;
		return false;
	}
	if (hold_pair(wk, f, l, p, &what) < 0) {
		*r = op_norsc(wk, "flowop %s found no %s to %s in fileset %s",
			      f->name, what, verb, fileset_name(p->fs));
		return false;
	}
	if (open_pair(l, p) < 0) {
		int err = errno;

		release_pair(p, true, false);
		*r = op_fail_entry(wk, f, err, verb, f->fileset.index,
				   FS_FILE_ABSENT, p->dst, true);
		return false;
	}
	return true;
}

/*
 * A failed call: src still exists unless it was gone (ENOENT), dst stays
 * free (EEXIST: a name fbrun did not put there, which is left alone).
 */
static enum fo_result fail_pair(struct worker *wk, const struct ir_flowop *f,
				struct pair *p, int err, const char *verb)
{
	release_pair(p, err != ENOENT, false);
	return op_fail_entry(wk, f, err, verb, f->fileset.index,
			     FS_FILE_EXISTING, p->src, true);
}

/*
 * The target of a symlink at drel to srel, relative to drel's directory:
 * up out of what their directories do not share, then down to srel.  It
 * never names anything outside the root.  0, or -1 if it does not fit.
 */
static int link_target(const char *srel, const char *drel, char *buf,
		       size_t len)
{
	size_t common = 0, n = 0, dl = dir_len(drel), sl = dir_len(srel);

	/* the shared leading directories, whole components only */
	for (size_t i = 0; i <= dl && i <= sl; i++) {
		bool end_d = i == dl || drel[i] == '/';
		bool end_s = i == sl || srel[i] == '/';

		if (end_d && end_s) {
			common = i;
			continue;
		}
		if (end_d || end_s || drel[i] != srel[i])
			break;
	}
	/* one "../" per directory of dst's below the shared part */
	for (size_t i = common; i < dl; i++) {
		if (drel[i] != '/' && (i == common || drel[i - 1] == '/')) {
			if (n + 3 >= len)
				return -1;
			memcpy(buf + n, "../", 3);
			n += 3;
		}
	}
	srel += common && srel[common] == '/' ? common + 1 : common;
	if (n + strlen(srel) >= len)
		return -1;
	strcpy(buf + n, srel);
	return 0;
}

/*
 * The entry a relative symlink target names, as a path below the root:
 * target read from a link in directory dir (dl bytes of it).  -1 if it
 * is absolute or leads out of the root: not a link fbrun made.
 */
static int resolve(const char *dir, size_t dl, const char *target, char *out,
		   size_t len)
{
	size_t n = 0;

	if (target[0] == '/' || dl >= len)
		return -1;
	memcpy(out, dir, dl);
	n = dl;
	for (const char *c = target, *end; *c; c = *end ? end + 1 : end) {
		size_t k;

		end = strchrnul(c, '/');
		k = (size_t)(end - c);
		if (k == 0 || (k == 1 && c[0] == '.'))
			continue;
		if (k == 2 && c[0] == '.' && c[1] == '.') {
			if (n == 0)
				return -1;
			while (n > 0 && out[n - 1] != '/')
				n--;
			n = n > 0 ? n - 1 : 0;
			continue;
		}
		if (n + 1 + k >= len)
			return -1;
		if (n)
			out[n++] = '/';
		memcpy(out + n, c, k);
		n += k;
	}
	out[n] = '\0';
	return n ? 0 : -1;
}

/*
 * renamefile or linkfile of src into another directory: a symlink there
 * (symlinkfile's) would name something else from its new place, so it
 * gets a new target naming the same entry.  1 with target set; 0 to
 * move it as it is (not a symlink, the same directory, or not a link of
 * ours); -1 with errno.  Setup: outside the timed window.
 */
static int moved_target(struct pair *p, char *target, size_t len)
{
	size_t sl = dir_len(p->srel), dl = dir_len(p->drel);
	char old[PATH_MAX], entry[PATH_MAX];
	ssize_t n;

	if (!fileset_has_symlinks(p->fs) ||
	    (sl == dl && memcmp(p->srel, p->drel, sl) == 0))
		return 0;
	n = readlinkat(p->sdfd, p->sname, old, sizeof(old) - 1);
	if (n < 0)
		return errno == EINVAL || errno == ENOENT ? 0 : -1;
	old[n] = '\0';
	if (resolve(p->srel, sl, old, entry, sizeof(entry)) < 0)
		return 0;
	if (link_target(entry, p->drel, target, len) < 0)
		return errno = ENAMETOOLONG, -1;
	return 1;
}

/*
 * The symlink at src made anew at dst with target; src unlinked too
 * (rename).  -1 with errno and nothing changed.
 */
static int relink(struct pair *p, const char *target, bool rename)
{
	if (symlinkat(target, p->ddfd, p->dname) < 0)
		return -1;
	if (rename && unlinkat(p->sdfd, p->sname, 0) < 0) {
		int e = errno;

		unlinkat(p->ddfd, p->dname, 0);
		errno = e;
		return -1;
	}
	return 0;
}

/*
 * renameat2 with RENAME_NOREPLACE: nothing already at dst is replaced.
 * A symlink of ours moving to another directory is made anew there with
 * its target rewritten, and the old name removed.
 */
enum fo_result fo_renamefile(struct worker *wk, const struct ir_flowop *f)
{
	struct pair p;
	enum fo_result r;
	char target[PATH_MAX];
	int moved;
	uint64_t t0;

	if (!start_pair(wk, f, &p, "rename", &r))
		return r;
	if ((moved = moved_target(&p, target, sizeof(target))) < 0)
		return fail_pair(wk, f, &p, errno, "rename");
	t0 = op_start(wk);
	if (moved ? relink(&p, target, true) < 0 :
		    renameat2(p.sdfd, p.sname, p.ddfd, p.dname,
			      RENAME_NOREPLACE) < 0)
		return fail_pair(wk, f, &p, errno, "rename");
	op_done(wk, f, t0, 0);
	release_pair(&p, false, true);
	return FO_OK;
}

/*
 * linkat without AT_SYMLINK_FOLLOW: a symlink entry is linked itself, in
 * its own directory; into another, a new symlink naming the same entry.
 */
enum fo_result fo_linkfile(struct worker *wk, const struct ir_flowop *f)
{
	struct pair p;
	enum fo_result r;
	char target[PATH_MAX];
	int moved;
	uint64_t t0;

	if (!start_pair(wk, f, &p, "link", &r))
		return r;
	if ((moved = moved_target(&p, target, sizeof(target))) < 0)
		return fail_pair(wk, f, &p, errno, "link");
	t0 = op_start(wk);
	if (moved ? relink(&p, target, false) < 0 :
		    linkat(p.sdfd, p.sname, p.ddfd, p.dname, 0) < 0)
		return fail_pair(wk, f, &p, errno, "link");
	op_done(wk, f, t0, 0);
	release_pair(&p, true, true);
	return FO_OK;
}

/*
 * symlinkat: a link at the free entry to the existing one, relative.
 * fbrun follows no symlink in a fileset, so what opens the link later
 * fails with ELOOP (doc/language.md).
 */
enum fo_result fo_symlinkfile(struct worker *wk, const struct ir_flowop *f)
{
	struct pair p;
	enum fo_result r;
	char target[PATH_MAX];
	uint64_t t0;

	if (!start_pair(wk, f, &p, "symlink", &r))
		return r;
	if (link_target(p.srel, p.drel, target, sizeof(target)) < 0)
		return fail_pair(wk, f, &p, ENAMETOOLONG, "symlink");
	t0 = op_start(wk);
	if (symlinkat(target, p.ddfd, p.dname) < 0) {
		int err = errno;

		release_pair(&p, true, false);
		return op_fail_entry(wk, f, err, "symlink", f->fileset.index,
				     FS_FILE_ABSENT, p.dst, true);
	}
	op_done(wk, f, t0, 0);
	release_pair(&p, true, true);
	return FO_OK;
}
