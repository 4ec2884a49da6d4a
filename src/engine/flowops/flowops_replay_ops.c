/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * One operation of a trace, replayed beneath the replay's own directory
 * (flowops_replay.c): the call it names, on the handle's fd or on the
 * path, whose parent directory is opened beneath the tree through no
 * symlink and the last component never followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"

/* open(2) flags for a trace's TRACE_O_* bits; never following a symlink. */
static int open_flags_of(unsigned tf)
{
	int fl = (tf & TRACE_O_WRITE) ? ((tf & TRACE_O_READ) ? O_RDWR :
								 O_WRONLY) :
					  O_RDONLY;

	if (tf & TRACE_O_CREAT)
		fl |= O_CREAT;
	if (tf & TRACE_O_EXCL)
		fl |= O_EXCL;
	if (tf & TRACE_O_TRUNC)
		fl |= O_TRUNC;
	if (tf & TRACE_O_APPEND)
		fl |= O_APPEND;
	if (tf & TRACE_O_DIRECTORY)
		fl |= O_DIRECTORY;
	if (tf & TRACE_O_SYNC)
		fl |= O_SYNC;
	if (tf & TRACE_O_DSYNC)
		fl |= O_DSYNC;
	/* O_PATH takes no other flag but these */
	if (tf & TRACE_O_PATH)
		return O_PATH | (fl & O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC;
	/* a FIFO planted at the name must not block the thread */
	return fl | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
}

int op_replay_open(struct replay *rp, const char *path, unsigned tflags,
		unsigned mode)
{
	struct stat st;
	int fl = open_flags_of(tflags);
	/* a mode only with O_CREAT: openat2 refuses one without */
	mode_t m = fl & O_CREAT ? (mode ? mode : 0644) | 0600 : 0;
	int fd = fileset_open_beneath(rp->dirfd, path, fl, m);

	/*
	 * through a symbolic link the trace made: followed beneath the
	 * tree alone (a link it made to outside leads nowhere here); a link
	 * on the way is ELOOP, or ENOTDIR without openat2
	 */
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR) &&
	    !(tflags & (TRACE_O_NOFOLLOW | TRACE_O_PATH))) {
		fd = fileset_open_following(rp->dirfd, path, fl, m);
		if (fd < 0 && errno == ENOSYS)
			fd = op_replay_open_walk(rp, path, fl, m);
	}
	if (fd < 0)
		return -1;
	/*
	 * only what the replay makes: files and directories, and a symlink
	 * opened with O_PATH (never followed: the link itself, which no
	 * read or write goes through, as tar looks at what it made)
	 */
	if (fstat(fd, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ||
	      (S_ISLNK(st.st_mode) && (tflags & TRACE_O_PATH)))) {
		close(fd);
		return errno = EPERM, -1;
	}
	return fd;
}

/* Read or write len bytes at off (-1: the fd's offset), in buffer pieces. */
static int data_io(struct replay *rp, int fd, bool wr, int64_t off,
		   int64_t len, uint64_t *bytes)
{
	int64_t done = 0;

	while (done < len) {
		size_t n = (size_t)(len - done) < rp->buflen ?
				   (size_t)(len - done) :
				   rp->buflen;
		ssize_t r;

		if (off < 0)
			r = wr ? write(fd, rp->buf, n) : read(fd, rp->buf, n);
		else if (wr)
			r = pwrite(fd, rp->buf, n, (off_t)(off + done));
		else
			r = pread(fd, rp->buf, n, (off_t)(off + done));
		if (r < 0)
			return errno;
		done += r;
		if ((size_t)r < n)
			break; /* end of file, or a short write: as recorded */
	}
	*bytes = (uint64_t)done;
	return 0;
}

/* getdents64 until the end: a directory listed by path (dbench). */
static int list_dir(struct replay *rp, const char *path, uint64_t *bytes)
{
	int fd = op_replay_open(rp, path, TRACE_O_READ | TRACE_O_DIRECTORY, 0);
	long n;

	if (fd < 0)
		return errno;
	while ((n = syscall(SYS_getdents64, fd, rp->buf, rp->buflen)) > 0)
		*bytes += (uint64_t)n;
	n = n < 0 ? errno : 0;
	close(fd);
	return (int)n;
}

/* A lock or unlock of the handle's byte range, of this fd alone (OFD). */
static int lock(int fd, unsigned hflags, const struct trace_op *op)
{
	struct flock fl = {
		.l_type = op->type == TOP_UNLOCK ? F_UNLCK :
			  (hflags & TRACE_O_WRITE) ? F_WRLCK : F_RDLCK,
		.l_whence = SEEK_SET,
		.l_start = op->offset > 0 ? op->offset : 0,
		.l_len = op->length,
	};

	return fcntl(fd, F_OFD_SETLK, &fl) < 0 ? errno : 0;
}

/* Calls on a path: 0 or the errno they failed with. */
static int on_path(struct replay *rp, const struct trace_op *op,
		   uint64_t *bytes)
{
	const char *p = trace_path(rp->t, op->path), *last, *last2;
	struct stat st;
	struct statfs sf;
	int own, own2 = -1, pfd, pfd2, r;

	if (op->type == TOP_READDIR)
		return list_dir(rp, p, bytes);
	if (op->type == TOP_STATFS) {
		int fd = op_replay_open(rp, p, TRACE_O_PATH, 0);

		if (fd < 0)
			return errno;
		r = fstatfs(fd, &sf) < 0 ? errno : 0;
		close(fd);
		return r;
	}
	if (op->type == TOP_TRUNCATE) {
		int fd = op_replay_open(rp, p, TRACE_O_WRITE, 0);

		if (fd < 0)
			return errno;
		r = ftruncate(fd, op->length) < 0 ? errno : 0;
		close(fd);
		return r;
	}
	if (strcmp(p, ".") == 0)
		return op->type == TOP_STAT || op->type == TOP_LSTAT ?
			       (fstat(rp->dirfd, &st) < 0 ? errno : 0) :
			       EBUSY; /* the tree's own root stays */
	if (op->type == TOP_RENAME || op->type == TOP_RMDIR ||
	    op->type == TOP_DELTREE)
		op_replay_forget(rp);
	/* dbench's deltree of what is not there succeeds */
	if ((pfd = op_replay_parent(rp, p, &last, false, &own)) < 0)
		return op->type == TOP_DELTREE && errno == ENOENT ? 0 : errno;
	switch (op->type) {
	case TOP_STAT:
	case TOP_LSTAT:
		r = fstatat(pfd, last, &st, AT_SYMLINK_NOFOLLOW);
		break;
	case TOP_UNLINK:
		r = unlinkat(pfd, last, 0);
		break;
	case TOP_RMDIR:
		r = unlinkat(pfd, last, AT_REMOVEDIR);
		break;
	case TOP_MKDIR:
		r = mkdirat(pfd, last, (op->mode ? op->mode : 0755) | 0700);
		break;
	case TOP_SETATTR:
		r = utimensat(pfd, last, NULL, AT_SYMLINK_NOFOLLOW);
		break;
	case TOP_SYMLINK:
		r = op_replay_symlink(rp, op, pfd, last);
		break;
	case TOP_DELTREE:
		r = op_replay_rmtree(rp, pfd, last);
		break;
	case TOP_RENAME:
	case TOP_LINK:
		pfd2 = op_replay_parent(rp, trace_path(rp->t, op->path2),
					&last2, true, &own2);
		if (pfd2 < 0)
			r = -1;
		else if (op->type == TOP_RENAME)
			r = renameat(pfd, last, pfd2, last2);
		else
			r = linkat(pfd, last, pfd2, last2, 0);
		break;
	default:
		r = -1;
		errno = ENOSYS;
		break;
	}
	r = r < 0 && !(op->type == TOP_DELTREE && errno == ENOENT) ? errno : 0;
	if (own >= 0)
		close(own);
	if (own2 >= 0)
		close(own2);
	return r;
}

/* Calls on a handle's fd. */
static int on_fd(struct replay *rp, int fd, unsigned hflags,
		 const struct trace_op *op, uint64_t *bytes)
{
	struct stat st;
	struct statfs sf;
	long n;

	switch (op->type) {
	case TOP_READ:
	case TOP_WRITE:
		/* the bytes the recording moved, whatever the file holds now */
		return data_io(rp, fd, op->type == TOP_WRITE, op->offset,
			       op->err ? op->length : op->result, bytes);
	case TOP_SEEK:
		return lseek(fd, op->offset, SEEK_SET) < 0 ? errno : 0;
	case TOP_FSYNC:
		return fsync(fd) < 0 ? errno : 0;
	case TOP_FDATASYNC:
		return fdatasync(fd) < 0 ? errno : 0;
	case TOP_FSTAT:
		return fstat(fd, &st) < 0 ? errno : 0;
	case TOP_STATFS:
		return fstatfs(fd, &sf) < 0 ? errno : 0;
	case TOP_FTRUNCATE:
		return ftruncate(fd, op->length) < 0 ? errno : 0;
	case TOP_SETATTR:
		return futimens(fd, NULL) < 0 ? errno : 0;
	case TOP_READDIR:
		n = syscall(SYS_getdents64, fd, rp->buf,
			    op->length > 0 && (uint64_t)op->length < rp->buflen ?
				    (size_t)op->length :
				    rp->buflen);
		if (n < 0)
			return errno;
		*bytes = (uint64_t)n;
		return 0;
	case TOP_LOCK:
	case TOP_UNLOCK:
		return lock(fd, hflags, op);
	case TOP_TRIM:
		return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				 op->offset, op->length) < 0 ?
			       errno :
			       0;
	default:
		return ENOSYS;
	}
}

/*
 * A directory opened with create (dbench's NTCreateX of a directory):
 * made first, as open(2) makes no directory; 0 or the errno.
 */
static int make_dir_opened(struct replay *rp, const struct trace_op *op)
{
	const char *last;
	int own, pfd, r;

	if ((op->flags & (TRACE_O_DIRECTORY | TRACE_O_CREAT)) !=
	    (TRACE_O_DIRECTORY | TRACE_O_CREAT))
		return 0;
	if (strcmp(trace_path(rp->t, op->path), ".") == 0)
		return op->flags & TRACE_O_EXCL ? EEXIST : 0;
	pfd = op_replay_parent(rp, trace_path(rp->t, op->path), &last, false,
			       &own);
	if (pfd < 0)
		return errno;
	r = mkdirat(pfd, last, (op->mode ? op->mode : 0755) | 0700) < 0 ?
		    errno :
		    0;
	if (own >= 0)
		close(own);
	return r == EEXIST && !(op->flags & TRACE_O_EXCL) ? 0 : r;
}

int op_replay_call(struct replay *rp, size_t s, const struct trace_op *op,
	      uint64_t *bytes)
{
	int *fds = rp->fds[s];
	struct statfs sf;
	int fd, r;

	*bytes = 0;
	if (rp->f->calls == IR_CALLS_DBENCH) {
		if (op->type == TOP_SETATTR && op->handle >= 0)
			return op_replay_dbench_setattr(rp, s, op);
		op_replay_dbench_lookup(rp, op);
	}
	if (op->type == TOP_OPEN) {
		if ((r = make_dir_opened(rp, op)) != 0)
			return r;
		fd = op_replay_open(rp, trace_path(rp->t, op->path),
				    op->flags & TRACE_O_DIRECTORY ?
					    op->flags & ~(unsigned)(TRACE_O_CREAT |
								    TRACE_O_EXCL |
								    TRACE_O_TRUNC) :
					    op->flags,
				    op->mode);
		if (fd < 0 && errno == ENOENT && !op->err &&
		    op_replay_leads_out(rp, trace_path(rp->t, op->path))) {
			/* what the program reads through it leads out too */
			if (op->handle >= 0)
				fds[op->handle] = REPLAY_FD_OUT;
			return EXDEV;
		}
		if (fd < 0)
			return errno;
		/* a handle only when the recording's open made one */
		if (op->err || op->handle < 0 || fds[op->handle] >= 0)
			close(fd);
		else
			fds[op->handle] = fd;
		return 0;
	}
	/* a call the recording made on a bad descriptor: made on one */
	if (op->handle < 0 && op->path < 0 && op->err == EBADF)
		return op->type == TOP_CLOSE ? (close(-1) < 0 ? errno : 0) :
					       on_fd(rp, -1, 0, op, bytes);
	if (op->handle < 0 && op->path < 0) /* dbench's statfs: the tree's */
		return op->type == TOP_STATFS && fstatfs(rp->dirfd, &sf) < 0 ?
			       errno :
			       0;
	if (op->handle < 0)
		return on_path(rp, op, bytes);
	fd = fds[op->handle];
	if (fd == REPLAY_FD_OUT) {
		if (op->type == TOP_CLOSE)
			fds[op->handle] = -1;
		return EXDEV;
	}
	if (fd < 0)
		return EBADF;
	if (op->type == TOP_CLOSE) {
		fds[op->handle] = -1;
		return close(fd) < 0 ? errno : 0;
	}
	r = on_fd(rp, fd, trace_stream_handle(rp->t, s, op->handle)->flags, op,
		  bytes);
	return r;
}
