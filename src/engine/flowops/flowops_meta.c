/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The flowops on files and directories, not their data: createfile,
 * openfile, closefile, deletefile, statfile, truncatefile, fallocatefile,
 * setxattr, getxattr, fsync, fsyncset, makedir, removedir, listdir (and
 * op_remove_closed for bonnie++'s seekers).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"
#include "engine/io/verify.h"

enum fo_result fo_createfile(struct worker *wk,
				    const struct ir_flowop *f)
{
	struct slot *s = slot_of(wk, f);
	struct fileset *fs = fs_of(wk, f->fileset.index);
	struct fs_local *l;
	const char *rel;
	int64_t e;
	uint64_t t0;
	int fd;

	if (s->fd >= 0)
		return op_fail(wk, f, EBUSY, "fd %" PRId64 " is already open",
			    f->fd >= 0 ? f->fd : 0);
	if (!(l = local_of(wk, f, f->fileset.index)))
		return FO_ERROR;
	e = pick(wk, f, fs, l, FS_FILE_ABSENT);
	if (e < 0)
		return op_norsc(wk,
			     "flowop %s found no file left to create in "
			     "fileset %s",
			     f->name, fileset_name(fs));
	rel = fileset_path(fs, FS_FILE_ABSENT, e, l);
	t0 = op_start(wk);
	fd = fileset_openat(fs, rel,
			    open_flags(wk, f, f->fileset.index) | O_CREAT,
			    0644);
	if (fd < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_ABSENT, e, false);
		return op_fail_entry(wk, f, err, "create", f->fileset.index,
				     FS_FILE_ABSENT, e, true);
	}
	op_done(wk, f, t0, 0);
	fileset_unbusy(fs, FS_FILE_ABSENT, e, true);
	s->fd = fd;
	slot_opened(s);
	slot_set_fileset(wk, s, f->fileset.index);
	s->entry = e;
	s->size = fileset_entry_size(fs, e);
	if (slot_verify(wk, s))
		op_verify_opened(wk, s); /* a new file: its length is its writes' */
	return FO_OK;
}

enum fo_result fo_openfile(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s = slot_of(wk, f);

	if (s->fd >= 0)
		return op_fail(wk, f, EBUSY,
			    "fd %" PRId64 " is already open: close it first",
			    f->fd >= 0 ? f->fd : 0);
	return op_open_into(wk, f, s, true);
}

enum fo_result fo_closefile(struct worker *wk,
				   const struct ir_flowop *f)
{
	/* a position the slot kept goes with the descriptor */
	struct slot *s = slot_raw(wk, f);
	uint64_t t0;
	int rc;

	if (s->fd < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open",
			    f->fd >= 0 ? f->fd : 0);
	/*
	 * Requests still queued on the fd first (untimed; aiowait reports
	 * the errors of filebench's aiowrite, the others count as they are
	 * reaped): closing under them lost them, or sent them to whatever
	 * file reused the number.
	 */
	if (wk->aioq)
		aioq_drain(wk->aioq);
	worker_slot_unmap(s); /* untimed too: the mapping was made outside the ops */
	if (wk->aio_failed) {
		/*
		 * A request reaped here failed (an aioread's verify error
		 * too), counted against its flowop.  The file is closed all
		 * the same: with --continue-on-error the next openfile of
		 * the fd would find it still open.
		 */
		wk->aio_failed = false;
		close(s->fd);
		s->fd = -1;
		s->pos_held = false;
		return FO_ERROR;
	}
	t0 = op_start(wk);
	rc = close(s->fd);
	s->fd = -1;
	s->pos_held = false;
	if (rc < 0)
		return op_fail(wk, f, errno, "close failed");
	op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_deletefile(struct worker *wk,
				    const struct ir_flowop *f)
{
	struct slot *s = f->fd >= 0 ? slot_of(wk, f) : NULL;
	/*
	 * As in filebench, a slot remembers the file it held last: closefile
	 * keeps it there, and deletefile fd=N after closefile fd=N deletes it.
	 */
	bool held = s && s->fileset >= 0 && s->entry >= 0;
	int fsi = held ? s->fileset : f->fileset.index;
	struct fileset *fs;
	struct fs_local *l;
	const char *name;
	int64_t e;
	uint64_t t0;
	int dfd;

	if (fsi < 0)
		return op_fail(wk, f, EBADF,
			    "fd %" PRId64 " holds no file to delete", f->fd);
	fs = fs_of(wk, fsi);
	if (!(l = local_of(wk, f, fsi)))
		return FO_ERROR;
	/* The file the slot holds or held last, if any, else one picked in turn. */
	if (held) {
		struct fs_waits w = { 0, 0 };

		/*
		 * Another thread may have it busy for a moment (a stat, an
		 * open): wait for it.  Only an entry given back deleted was
		 * deleted by someone else, and then there is nothing to do.
		 */
		e = fileset_claim_wait(fs, FS_FILE_EXISTING, s->entry, wk->stop,
				       &w);
		if (w.n)
			add_waits(wk, f, &w);
		/* a closed slot forgets its file now, deleted or not */
		if (s->fd < 0)
			s->entry = -1;
		if (e < 0)
			return FO_OK;
	} else {
		e = pick(wk, f, fs, l, FS_FILE_EXISTING);
	}
	if (e < 0)
		return op_norsc(wk, "flowop %s found no file to delete in "
				 "fileset %s",
			     f->name, fileset_name(fs));
	/*
	 * unlinkat would follow a symlink planted on the way: the name is
	 * removed from its directory, opened beneath the root beforehand.
	 */
	dfd = fileset_parent(fs, FS_FILE_EXISTING, e, l, &name);
	/* verify: the next file of this entry is another (a file may be
	   deleted in vain: knowing less is never wrong) */
	if (fileset_vfy(fs))
		vfy_files_gone(fileset_vfy(fs), (uint64_t)e);
	t0 = op_start(wk);
	if (dfd < 0 || unlinkat(dfd, name, 0) < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_EXISTING, e, err != ENOENT);
		return op_fail_entry(wk, f, err, "delete", fsi,
				     FS_FILE_EXISTING, e, true);
	}
	op_done(wk, f, t0, 0);
	fileset_unbusy(fs, FS_FILE_EXISTING, e, false);
	return FO_OK;
}

enum fo_result op_remove_closed(struct worker *wk, const struct ir_flowop *f,
				const struct slot *s)
{
	struct fileset *fs;
	struct fs_local *l;
	const char *name;
	int64_t e;
	int dfd;

	if (s->fileset < 0)
		return FO_OK; /* not a fileset's file: nothing of ours */
	fs = fs_of(wk, s->fileset);
	if (!(l = local_of(wk, f, s->fileset)))
		return FO_ERROR;
	/* busy or gone: another thread is removing it, or has */
	e = fileset_pick_at(fs, FS_FILE_EXISTING, s->entry);
	if (e != s->entry) {
		if (e >= 0)
			fileset_unbusy(fs, FS_FILE_EXISTING, e, true);
		return FO_OK;
	}
	dfd = fileset_parent(fs, FS_FILE_EXISTING, e, l, &name);
	if (fileset_vfy(fs))
		vfy_files_gone(fileset_vfy(fs), (uint64_t)e);
	if (dfd < 0 || unlinkat(dfd, name, 0) < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_EXISTING, e, err != ENOENT);
		/* gone already, as bonnie++'s seekers take it */
		return err == ENOENT ? FO_OK :
				       op_fail_entry(wk, f, err, "delete",
						     s->fileset,
						     FS_FILE_EXISTING, e, true);
	}
	fileset_unbusy(fs, FS_FILE_EXISTING, e, false);
	return FO_OK;
}

enum fo_result fo_statfile(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s = f->fd >= 0 ? slot_of(wk, f) : NULL;
	struct fileset *fs;
	struct fs_local *l;
	const char *rel;
	struct stat sb;
	int64_t e;
	uint64_t t0;

	if (s && s->fd >= 0) {
		t0 = op_start(wk);
		if (fstat(s->fd, &sb) < 0)
			return op_fail(wk, f, errno, "cannot fstat fd %" PRId64,
				    f->fd);
		op_done(wk, f, t0, 0);
		return FO_OK;
	}
	if (f->fileset.index < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open", f->fd);
	fs = fs_of(wk, f->fileset.index);
	if (!(l = local_of(wk, f, f->fileset.index)))
		return FO_ERROR;
	e = pick(wk, f, fs, l, FS_FILE_EXISTING);
	if (e < 0)
		return op_norsc(wk, "flowop %s found no file to stat in fileset %s",
			     f->name, fileset_name(fs));
	rel = fileset_path(fs, FS_FILE_EXISTING, e, l);
	t0 = op_start(wk);
	if (fstatat(fileset_rootfd(fs), rel, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_EXISTING, e, err != ENOENT);
		return op_fail_entry(wk, f, err, "stat", f->fileset.index,
				     FS_FILE_EXISTING, e, false);
	}
	op_done(wk, f, t0, 0);
	fileset_unbusy(fs, FS_FILE_EXISTING, e, true);
	return FO_OK;
}

/* ftruncate: the size changes and no data moves (a hole when it grows). */
enum fo_result fo_truncatefile(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	int64_t n;
	uint64_t t0;

	if (r != FO_OK)
		return r;
	n = op_value(wk, &f->iosize);
	if (n < 0)
		n = 0;
	t0 = op_start(wk);
	if (ftruncate(s->fd, (off_t)n) < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "truncate", s);
	}
	op_done(wk, f, t0, 0);
	/* later reads of this descriptor stay within the new size */
	s->size = (uint64_t)n;
	return FO_OK;
}

/*
 * fsync the file open in s.  mmapwrite's stores are in the pages of a
 * shared mapping: msync(MS_SYNC) writes them back first, as fsync alone
 * need not.
 */
static int sync_slot(const struct slot *s)
{
	if (s->map_shared_rw && msync(s->map, (size_t)s->maplen, MS_SYNC) < 0)
		return -1;
	return fsync(s->fd);
}

/*
 * fallocate(2) mode 0: iosize bytes allocated (a random variable gives
 * each op its own) at the file's end, or with random at an iosize-aligned
 * offset in the working set; the file grows when they reach past its end.
 * Not posix_fallocate: where the file system cannot allocate, glibc's
 * would write zeros instead, and EOPNOTSUPP is what the op should count.
 */
enum fo_result fo_fallocatefile(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	struct stat sb;
	int64_t n;
	uint64_t off, t0;
	bool vfy;

	if (r != FO_OK)
		return r;
	n = op_value(wk, &f->iosize);
	if (n <= 0)
		n = 1;
	if (f->random) {
		off = random_offset(wk, f, s, (uint64_t)n);
	} else {
		/* the end now, whoever wrote last: outside the timed window */
		if (fstat(s->fd, &sb) < 0)
			return op_fail_slot(wk, f, errno, "stat", s);
		off = (uint64_t)sb.st_size;
	}
	/* verify: what it adds past the file's end reads as zeros */
	vfy = slot_verify(wk, s);
	if (vfy)
		op_verify_hole(wk, s, op_verify_len(wk, s), off + (uint64_t)n);
	t0 = op_start(wk);
	if (fallocate(s->fd, 0, (off_t)off, (off_t)n) < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "fallocate", s);
	}
	op_done(wk, f, t0, 0);
	if (vfy)
		op_verify_grew(wk, s, off + (uint64_t)n);
	return FO_OK;
}

/* The one extended attribute setxattr and getxattr work on. */
#define XATTR_NAME "user.fbrun"

/* fsetxattr: the value is iosize bytes of the thread's buffer. */
enum fo_result fo_setxattr(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	const char *buf;
	int64_t n;
	uint64_t t0;

	if (r != FO_OK)
		return r;
	n = op_int(wk, &f->iosize);
	if (n <= 0)
		n = 1;
	if (!(buf = buffer_for(wk, f, (uint64_t)n)))
		return FO_ERROR;
	t0 = op_start(wk);
	if (fsetxattr(s->fd, XATTR_NAME, buf, (size_t)n, 0) < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "set " XATTR_NAME " of", s);
	}
	op_done(wk, f, t0, (uint64_t)n);
	return FO_OK;
}

/*
 * fgetxattr into iosize bytes of the thread's buffer: the bytes are the
 * value's length.  A file without the attribute fails with ENODATA, a
 * value longer than iosize with ERANGE.
 */
enum fo_result fo_getxattr(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	char *buf;
	int64_t n;
	ssize_t got;
	uint64_t t0;

	if (r != FO_OK)
		return r;
	n = op_int(wk, &f->iosize);
	if (n <= 0)
		n = 1;
	if (!(buf = buffer_for(wk, f, (uint64_t)n)))
		return FO_ERROR;
	t0 = op_start(wk);
	got = fgetxattr(s->fd, XATTR_NAME, buf, (size_t)n);
	if (got < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "get " XATTR_NAME " of", s);
	}
	op_done(wk, f, t0, (uint64_t)got);
	return FO_OK;
}

enum fo_result fo_fsync(struct worker *wk, const struct ir_flowop *f)
{
	/* raw: a position the slot keeps means nothing to fsync */
	struct slot *s = slot_raw(wk, f);
	uint64_t t0;

	if (s->fd < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open",
			    f->fd >= 0 ? f->fd : 0);
	t0 = op_start(wk);
	if (sync_slot(s) < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "fsync", s);
	}
	op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_fsyncset(struct worker *wk, const struct ir_flowop *f)
{
	for (int64_t i = 0; i < wk->nslots; i++) {
		struct slot *s = &wk->slots[i];
		uint64_t t0;

		if (s->fd < 0 || s->fileset != f->fileset.index)
			continue;
		t0 = op_start(wk);
		if (sync_slot(s) < 0)
			return op_fail(wk, f, errno, "cannot fsync fd %" PRId64, i);
		op_done(wk, f, t0, 0);
	}
	return FO_OK;
}

static enum fo_result leafdir(struct worker *wk, const struct ir_flowop *f,
			      bool make)
{
	struct fileset *fs = fs_of(wk, f->fileset.index);
	struct fs_local *l = local_of(wk, f, f->fileset.index);
	enum fs_pick kind = make ? FS_LEAF_ABSENT : FS_LEAF_EXISTING;
	const char *name;
	int64_t e;
	uint64_t t0;
	int dfd, rc;

	if (!l)
		return FO_ERROR;
	e = pick(wk, f, fs, l, kind);
	if (e < 0)
		return op_norsc(wk, "flowop %s found no leaf directory to %s in "
				 "fileset %s",
			     f->name, make ? "make" : "remove",
			     fileset_name(fs));
	/* in its directory, opened beneath the root: as deletefile */
	dfd = fileset_parent(fs, kind, e, l, &name);
	t0 = op_start(wk);
	rc = dfd < 0 ? -1 :
	     make    ? mkdirat(dfd, name, 0755) :
		       unlinkat(dfd, name, AT_REMOVEDIR);
	if (rc < 0) {
		int err = errno;

		fileset_unbusy(fs, kind, e, !make);
		return op_fail_entry(wk, f, err,
				     make ? "make directory" :
					    "remove directory",
				     f->fileset.index, kind, e, true);
	}
	op_done(wk, f, t0, 0);
	fileset_unbusy(fs, kind, e, make);
	return FO_OK;
}

enum fo_result fo_makedir(struct worker *wk, const struct ir_flowop *f)
{
	return leafdir(wk, f, true);
}

enum fo_result fo_removedir(struct worker *wk,
				   const struct ir_flowop *f)
{
	return leafdir(wk, f, false);
}

enum fo_result fo_listdir(struct worker *wk, const struct ir_flowop *f)
{
	struct fileset *fs = fs_of(wk, f->fileset.index);
	struct fs_local *l = local_of(wk, f, f->fileset.index);
	char rel[PATH_MAX];
	struct dirent *de;
	uint64_t t0, bytes = 0;
	DIR *dir;
	int64_t d;
	int fd;

	if (!l)
		return FO_ERROR;
	d = fileset_pick_dir(fs, l, f->opennext);
	fileset_dirpath(fs, d, rel, sizeof(rel)); /* fits: fileset_new */
	t0 = op_start(wk);
	fd = fileset_openat(fs, rel, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		return op_fail(wk, f, err, "cannot list '%s/%s'%s",
			    fileset_root(fs), rel, op_lookup_hint(err));
	}
	while ((de = readdir(dir)) && !timeline_flag_set(wk->stop))
		bytes += strlen(de->d_name) + sizeof(*de);
	closedir(dir);
	if (de)
		return FO_OK; /* a huge directory, cut short: not recorded */
	op_done(wk, f, t0, bytes);
	return FO_OK;
}
