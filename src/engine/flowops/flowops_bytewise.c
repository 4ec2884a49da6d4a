/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The data flowops bonnie++'s I/O tests need, usable in any script: I/O
 * one byte per system call, rewriting a file in place, random reads with
 * occasional rewrites drawn from a pool of tickets the run's threads
 * share, and sync().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"
#include "lang/rand.h"
#include "util/util.h"

/* Read n bytes unless the file ends first; short reads are retried. */
static ssize_t read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = sys_read(fd, buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static enum fo_result io_fail(struct worker *wk, const struct ir_flowop *f,
			      const struct slot *s, const char *verb)
{
	int err = errno ? errno : ENOSPC; /* write() of 0 bytes: no room */

	return op_fail_slot(wk, f, err, verb, s);
}

static inline int64_t iosize_of(struct worker *wk, const struct ir_flowop *f)
{
	int64_t n = op_int(wk, &f->iosize);

	return n > 0 ? n : 1;
}

/*
 * The per-byte flowops go one byte per system call from the file
 * position, but as pwrite()/pread() at a position kept here, the file's
 * own moved once per op.  Where threads share a descriptor table (a
 * kernel without close_range: run_thread.c) the kernel locks the file
 * position around every write()/read(); bonnie++ runs these tests with
 * one thread, without that lock, and a byte per call makes the lock a
 * tenth of the cost.
 */
static enum fo_result bytes_io(struct worker *wk, const struct ir_flowop *f,
			       bool is_write)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	int64_t n = iosize_of(wk, f), i;
	uint64_t t0;
	off_t pos;
	ssize_t got = 1;
	char c;

	if (r != FO_OK)
		return r;
	t0 = op_start(wk);
	pos = lseek(s->fd, 0, SEEK_CUR);
	if (pos < 0)
		return io_fail(wk, f, s, "seek in");
	for (i = 0; i < n && got == 1; i++) {
		c = (char)(i & 0x7f);
		got = is_write ? sys_pwrite(s->fd, &c, 1, pos + i) :
				 sys_pread(s->fd, &c, 1, pos + i);
		if (got < 0 || (is_write && got != 1)) {
			if (got >= 0)
				errno = 0; /* wrote nothing: io_fail says no room */
			return io_fail(wk, f, s, is_write ? "write" : "read");
		}
		/* a system call a byte: the end of the run cuts the op short */
		if (timeline_flag_set(wk->stop))
			return FO_OK; /* not recorded */
	}
	if (got == 0) /* a read at end of file: the next op starts over */
		i--;
	if (lseek(s->fd, got == 0 ? 0 : pos + i, SEEK_SET) < 0)
		return io_fail(wk, f, s, "seek in");
	op_done(wk, f, t0, (uint64_t)i);
	return FO_OK;
}

/*
 * iosize one-byte writes at the file position; the bytes count 0..127
 * over and over.  The latency is the whole run of calls, so iosize=8k
 * times what bonnie++ times per chunk of its per-character test.
 */
enum fo_result fo_writebytes(struct worker *wk, const struct ir_flowop *f)
{
	return bytes_io(wk, f, true);
}

/* iosize one-byte reads; at end of file the next op starts over. */
enum fo_result fo_readbytes(struct worker *wk, const struct ir_flowop *f)
{
	return bytes_io(wk, f, false);
}

/*
 * Read iosize bytes at the file position, change one byte, seek back and
 * write them: the file is rewritten in place (bonnie++'s Rewrite).  At
 * end of file it starts over from the beginning.  Its three system calls
 * are bonnie++'s: a pread and a pwrite at a kept position would make two,
 * and a cached file's figure would no longer be bonnie++'s.
 */
enum fo_result fo_rewrite(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	int64_t n = iosize_of(wk, f);
	uint64_t t0, done = wk->stats[f->id].count;
	char *buf;
	ssize_t got;

	if (r != FO_OK)
		return r;
	buf = buffer_for(wk, f, (uint64_t)n);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	got = read_full(s->fd, buf, (size_t)n);
	if (got == 0 && lseek(s->fd, 0, SEEK_SET) == 0)
		got = read_full(s->fd, buf, (size_t)n);
	if (got < 0)
		return io_fail(wk, f, s, "read");
	if (got == 0) {
		errno = ENODATA;
		return io_fail(wk, f, s, "rewrite empty file");
	}
	/* the byte changed moves on each op; no division for a 2^k chunk */
	buf[(got & (got - 1)) == 0 ? done & (uint64_t)(got - 1) :
				     done % (uint64_t)got]++;
	errno = 0;
	if (lseek(s->fd, -(off_t)got, SEEK_CUR) < 0 ||
	    sys_write(s->fd, buf, (size_t)got) != got)
		return io_fail(wk, f, s, "write");
	op_done(wk, f, t0, (uint64_t)got);
	return FO_OK;
}

/* A ticket's value: repeatable from the rank's seed, 31 bits as rand(). */
static uint64_t ticket_value(uint64_t seed, uint64_t k)
{
	return rv_mix64(seed + (k + 1) * 0x9e3779b97f4a7c15ULL) & 0x7fffffff;
}

/*
 * A seeker with no ticket left finishes as each of bonnie++'s does: fsync
 * and close its descriptor (the rewritten chunks reach the disk inside
 * the timing).  bonnie++'s seekers then unlink the file, and the first to
 * do so is usually early enough that another seeker's close is the last
 * reference: that close frees the file's blocks and cached pages inside
 * its timing, a large part of its Random Seeks figure on a big file.
 * With delete the first thread here removes the file after its close; the
 * run ends when every thread is done, so the freeing is always timed.
 */
static enum fo_result seeker_done(struct worker *wk, const struct ir_flowop *f,
				  struct slot *s)
{
	int rc;

	if (fsync(s->fd) < 0)
		return io_fail(wk, f, s, "fsync");
	worker_slot_unmap(s);
	rc = close(s->fd);
	s->fd = -1;
	s->pos_held = false;
	if (rc < 0)
		return io_fail(wk, f, s, "close");
	if (f->del && op_remove_closed(wk, f, s) != FO_OK)
		return FO_ERROR;
	return op_finished(wk, "flowop %s: all %" PRId64 " tickets taken",
			f->name, op_value(wk, &f->value));
}

/*
 * Take the next of value tickets shared by every thread of the run (the
 * thread is done when none is left: seeker_done).  The ticket names an
 * iosize chunk of the file: seek there and read it; a ticket divisible by
 * 10 also changes a byte and writes the chunk back (fsync: then fsync).
 * bonnie++'s Random Seeks.
 */
enum fo_result fo_seekrw(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	uint64_t n = (uint64_t)iosize_of(wk, f), size = s ? s->size : 0;
	uint64_t k, v, chunk, t0;
	struct stat st;
	char *buf;
	off_t off;

	if (r != FO_OK)
		return r;
	k = atomic_fetch_add_explicit(&wk->run->shared[f->id], 1,
				      memory_order_relaxed);
	if (k >= (uint64_t)op_value(wk, &f->value))
		return seeker_done(wk, f, s);
	if (size == 0 && fstat(s->fd, &st) == 0)
		s->size = size = (uint64_t)st.st_size;
	if (size < n) {
		errno = ENODATA;
		return io_fail(wk, f, s, "seek in a file smaller than iosize:");
	}
	buf = buffer_for(wk, f, n);
	if (!buf)
		return FO_ERROR;
	v = ticket_value(wk->run->rank_seed, k);
	chunk = v % (size / n);
	off = (off_t)(chunk * n);
	t0 = op_start(wk);
	if (lseek(s->fd, off, SEEK_SET) < 0 ||
	    read_full(s->fd, buf, (size_t)n) != (ssize_t)n)
		return io_fail(wk, f, s, "read");
	if (v % 10 == 0) {
		buf[chunk % n]--;
		errno = 0;
		if (lseek(s->fd, off, SEEK_SET) < 0 ||
		    sys_write(s->fd, buf, (size_t)n) != (ssize_t)n ||
		    (f->fsync && fsync(s->fd) < 0))
			return io_fail(wk, f, s, "write");
	}
	op_done(wk, f, t0, n);
	return FO_OK;
}

/* sync(): flush every file system's dirty data, as bonnie++ does. */
enum fo_result fo_sync(struct worker *wk, const struct ir_flowop *f)
{
	uint64_t t0 = op_start(wk);

	sync();
	op_done(wk, f, t0, 0);
	return FO_OK;
}
