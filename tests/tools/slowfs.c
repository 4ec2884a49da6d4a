/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * slowfs: a FUSE file system for the tests and benches (not installed).
 *
 *   slowfs [-d DELAY_US] [-w] BACKING_DIR MOUNTPOINT
 *
 * BACKING_DIR passed through at MOUNTPOINT, in the foreground, by one
 * thread that takes one request at a time: a single FIFO server.  Each
 * read is served in exactly DELAY_US microseconds (2000 by default) from
 * when the server takes it up (longer only if the backing file system's
 * own call is), each write too with -w; nothing else is delayed.  Files
 * are opened with direct_io, so every read and write of a program
 * reaches the server, none is answered by the page cache or readahead;
 * a read larger than the kernel's largest request (1 MiB with libfuse
 * 3.14 on Linux 6) is several requests, and a read at the end of the
 * file is one too.  SIGSTOP stalls the server and SIGCONT resumes it.
 * It ends, exit 0, when unmounted or on SIGTERM, SIGINT or SIGHUP (it
 * unmounts itself); a usage error: one line on stderr, exit 2.
 */
#include "config.h"

#define FUSE_USE_VERSION 31

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse3/fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* the callbacks' signatures are FUSE's: most leave some of it unused */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define USAGE "slowfs [-d DELAY_US] [-w] BACKING_DIR MOUNTPOINT"

/* the backing directory (O_PATH), every path resolved under it */
static int backing = -1;
static long long delay_ns = 2000 * 1000LL;
static int delay_writes;

/* a path of the mount as one under the backing directory */
static const char *rel(const char *path)
{
	return path[1] ? path + 1 : ".";
}

/* a call's result as FUSE wants it: 0, or minus errno */
static int sys(int r)
{
	return r < 0 ? -errno : 0;
}

static int fd_of(const struct fuse_file_info *fi)
{
	return (int)fi->fh;
}

static DIR *dir_of(const struct fuse_file_info *fi)
{
	return (DIR *)(uintptr_t)fi->fh;
}

/* sleep until START plus the delay: the time taken by the backing file
 * system's own call is part of the delay, not added to it */
static void serve_until(const struct timespec *start)
{
	struct timespec end = *start;
	long long ns = end.tv_nsec + delay_ns;

	end.tv_sec += (time_t)(ns / 1000000000);
	end.tv_nsec = (long)(ns % 1000000000);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) ==
	       EINTR)
		;
}

static void *sf_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/* st_ino of the backing files: hard links are one file */
	cfg->use_ino = 1;
	/* An unlinked open file is served through its descriptor, so no
	 * .fuse_hidden file is left in the backing directory for a removal
	 * of the tree to trip on; its calls then come without a path.  (An
	 * fchmod, fchown or futimens of one fails with ESTALE: the kernel
	 * sends those with no handle, and the name is gone.) */
	cfg->hard_remove = 1;
	cfg->nullpath_ok = 1;
	return NULL;
}

static int sf_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	if (fi)
		return sys(fstat(fd_of(fi), st));
	return sys(fstatat(backing, rel(path), st, AT_SYMLINK_NOFOLLOW));
}

static int sf_access(const char *path, int mask)
{
	return sys(faccessat(backing, rel(path), mask, 0));
}

static int sf_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n = readlinkat(backing, rel(path), buf, size - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int sf_mkdir(const char *path, mode_t mode)
{
	return sys(mkdirat(backing, rel(path), mode));
}

static int sf_unlink(const char *path)
{
	return sys(unlinkat(backing, rel(path), 0));
}

static int sf_rmdir(const char *path)
{
	return sys(unlinkat(backing, rel(path), AT_REMOVEDIR));
}

static int sf_symlink(const char *target, const char *path)
{
	return sys(symlinkat(target, backing, rel(path)));
}

static int sf_rename(const char *from, const char *to, unsigned int flags)
{
	if (flags & ~(unsigned int)(RENAME_NOREPLACE | RENAME_EXCHANGE))
		return -EINVAL;
	return sys(renameat2(backing, rel(from), backing, rel(to), flags));
}

static int sf_link(const char *from, const char *to)
{
	return sys(linkat(backing, rel(from), backing, rel(to), 0));
}

static int sf_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	if (fi)
		return sys(fchmod(fd_of(fi), mode));
	return sys(fchmodat(backing, rel(path), mode, 0));
}

static int sf_chown(const char *path, uid_t uid, gid_t gid,
		    struct fuse_file_info *fi)
{
	if (fi)
		return sys(fchown(fd_of(fi), uid, gid));
	return sys(fchownat(backing, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW));
}

static int sf_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int fd, r;

	if (fi)
		return sys(ftruncate(fd_of(fi), size));
	/* no truncateat(): the file opened for it */
	fd = openat(backing, rel(path), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = sys(ftruncate(fd, size));
	close(fd);
	return r;
}

static int sf_utimens(const char *path, const struct timespec ts[2],
		      struct fuse_file_info *fi)
{
	if (fi)
		return sys(futimens(fd_of(fi), ts));
	return sys(utimensat(backing, rel(path), ts, AT_SYMLINK_NOFOLLOW));
}

static int open_file(const char *path, int flags, mode_t mode,
		     struct fuse_file_info *fi)
{
	/* The delay is the service time, whatever the backing file's cache
	 * does, and libfuse's buffers are not aligned for O_DIRECT: the
	 * backing file is opened without it. */
	int fd = openat(backing, rel(path),
			(fi->flags & ~O_DIRECT) | flags | O_CLOEXEC, mode);

	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	/* every read and write is a request: no page cache, no readahead */
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

static int sf_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	return open_file(path, O_CREAT, mode, fi);
}

static int sf_open(const char *path, struct fuse_file_info *fi)
{
	return open_file(path, 0, 0, fi);
}

static int sf_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	struct timespec start;
	ssize_t n;

	clock_gettime(CLOCK_MONOTONIC, &start);
	n = pread(fd_of(fi), buf, size, off);
	n = n < 0 ? -errno : n;
	serve_until(&start);
	return (int)n;
}

static int sf_write(const char *path, const char *buf, size_t size,
		    off_t off, struct fuse_file_info *fi)
{
	struct timespec start;
	ssize_t n;

	clock_gettime(CLOCK_MONOTONIC, &start);
	n = pwrite(fd_of(fi), buf, size, off);
	n = n < 0 ? -errno : n;
	if (delay_writes)
		serve_until(&start);
	return (int)n;
}

static int sf_statfs(const char *path, struct statvfs *sv)
{
	return sys(fstatvfs(backing, sv));
}

/* close(2) of the program: a close of a duplicate reports what the
 * backing file system says at close, the file stays open to release */
static int sf_flush(const char *path, struct fuse_file_info *fi)
{
	int fd = dup(fd_of(fi));

	if (fd < 0)
		return -errno;
	return sys(close(fd));
}

static int sf_release(const char *path, struct fuse_file_info *fi)
{
	close(fd_of(fi));
	return 0;
}

static int sf_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	if (datasync)
		return sys(fdatasync(fd_of(fi)));
	return sys(fsync(fd_of(fi)));
}

static int sf_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	return sys(fallocate(fd_of(fi), mode, off, len));
}

static int sf_opendir(const char *path, struct fuse_file_info *fi)
{
	int fd = openat(backing, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dp;

	if (fd < 0)
		return -errno;
	dp = fdopendir(fd);
	if (!dp) {
		int e = errno;

		close(fd);
		return -e;
	}
	fi->fh = (uint64_t)(uintptr_t)dp;
	return 0;
}

/* Offset 0 to the filler: libfuse takes the whole listing in one call and
 * serves the kernel's reads of it from there; it calls again, at offset
 * 0, only when the program rewinds. */
static int sf_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	DIR *dp = dir_of(fi);
	struct dirent *e;

	rewinddir(dp);
	for (;;) {
		struct stat st = { 0 };

		errno = 0;
		e = readdir(dp);
		if (!e)
			return -errno;
		st.st_ino = e->d_ino;
		st.st_mode = (mode_t)DTTOIF(e->d_type);
		if (fill(buf, e->d_name, &st, 0, 0))
			return -ENOMEM;
	}
}

static int sf_releasedir(const char *path, struct fuse_file_info *fi)
{
	closedir(dir_of(fi));
	return 0;
}

static int sf_fsyncdir(const char *path, int datasync,
		       struct fuse_file_info *fi)
{
	return sys(fsync(dirfd(dir_of(fi))));
}

static const struct fuse_operations sf_ops = {
	.init = sf_init,
	.getattr = sf_getattr,
	.access = sf_access,
	.readlink = sf_readlink,
	.mkdir = sf_mkdir,
	.unlink = sf_unlink,
	.rmdir = sf_rmdir,
	.symlink = sf_symlink,
	.rename = sf_rename,
	.link = sf_link,
	.chmod = sf_chmod,
	.chown = sf_chown,
	.truncate = sf_truncate,
	.utimens = sf_utimens,
	.create = sf_create,
	.open = sf_open,
	.read = sf_read,
	.write = sf_write,
	.statfs = sf_statfs,
	.flush = sf_flush,
	.release = sf_release,
	.fsync = sf_fsync,
	.fallocate = sf_fallocate,
	.opendir = sf_opendir,
	.readdir = sf_readdir,
	.releasedir = sf_releasedir,
	.fsyncdir = sf_fsyncdir,
};

static _Noreturn void usage(const char *why)
{
	fprintf(stderr, "slowfs: %s (usage: " USAGE ")\n", why);
	exit(2);
}

/* -d's value: whole microseconds, at most an hour */
static void parse_delay(const char *s)
{
	char *end;
	long long us;

	errno = 0;
	us = strtoll(s, &end, 10);
	if (errno || end == s || *end || us < 0 || us > 3600LL * 1000000)
		usage("-d takes a delay in microseconds, 0 to 3600000000");
	delay_ns = us * 1000;
}

/* the file system mounted at MOUNTPOINT and served until unmounted: 0,
 * or 1 when it could not be mounted or the server failed */
static int serve(const char *argv0, const char *mountpoint)
{
	char *argv[] = { (char *)argv0, "-osubtype=slowfs,fsname=slowfs" };
	struct fuse_args args = FUSE_ARGS_INIT(2, argv);
	struct fuse_session *se;
	struct fuse *f;
	int r = -1;

	f = fuse_new(&args, &sf_ops, sizeof(sf_ops), NULL);
	if (f && fuse_mount(f, mountpoint) == 0) {
		se = fuse_get_session(f);
		/* SIGTERM, SIGINT and SIGHUP end the loop; the unmount is
		 * ours */
		if (fuse_set_signal_handlers(se) == 0) {
			/* one thread, one request at a time */
			r = fuse_loop(f);
			fuse_remove_signal_handlers(se);
		}
		fuse_unmount(f);
	}
	if (f)
		fuse_destroy(f);
	fuse_opt_free_args(&args);
	/* the number of the signal that ended it, or below 0 a failure */
	return r < 0;
}

int main(int argc, char **argv)
{
	char *mountpoint;
	struct stat st;
	int c, r;

	opterr = 0;
	while ((c = getopt(argc, argv, "d:w")) != -1) {
		char why[32];

		switch (c) {
		case 'd':
			parse_delay(optarg);
			break;
		case 'w':
			delay_writes = 1;
			break;
		default:
			if (optopt == 'd')
				usage("-d needs a value");
			snprintf(why, sizeof(why), "unknown option -%c", optopt);
			usage(why);
		}
	}
	if (argc - optind != 2)
		usage("needs a backing directory and a mount point");
	/* a read ends its delay on time, not up to 50 us late */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	backing = open(argv[optind], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (backing < 0) {
		fprintf(stderr, "slowfs: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	mountpoint = realpath(argv[optind + 1], NULL);
	if (!mountpoint || stat(mountpoint, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "slowfs: %s: %s\n", argv[optind + 1],
			mountpoint ? "not a directory" : strerror(errno));
		free(mountpoint);
		close(backing);
		return 2;
	}
	/* the modes asked for are the modes made: the kernel has applied
	 * the program's umask already */
	umask(0);
	r = serve(argv[0], mountpoint);
	free(mountpoint);
	close(backing);
	return r;
}
