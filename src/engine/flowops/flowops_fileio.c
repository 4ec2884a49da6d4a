/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The flowops that move a file's data (read, write, appendfile,
 * appendfilerand, readwholefile, writewholefile): the run's per-op paths,
 * each timing exactly the syscalls filebench times; and mmapread,
 * mmapwrite, which time the copy to or from a shared mapping of the file.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"

/*
 * stride=, startrecord=: the offset of this sequential op, records of
 * iosize bytes apart; the next is stride records on.  A read past the
 * end starts again at startrecord, as a plain sequential read wraps.
 * False (*rec the record) when the record would end past the largest
 * offset a file has, 2^63 - 1, rather than wrap round to the start.
 */
static inline bool strided_offset(const struct ir_flowop *f, struct slot *s,
				  uint64_t iosize, uint64_t *off,
				  uint64_t *rec)
{
	uint64_t stride = f->stride > 0 ? (uint64_t)f->stride : 1;

	if (!s->rec_set) {
		s->rec = (uint64_t)f->startrecord;
		s->rec_set = true;
	}
	*rec = s->rec;
	/* past the last record: every later one fails as well */
	if (__builtin_add_overflow(s->rec, stride, &s->rec))
		s->rec = UINT64_MAX;
	/* iosize is at most INT64_MAX (op_int) */
	return !__builtin_mul_overflow(*rec, iosize, off) &&
	       *off <= (uint64_t)INT64_MAX - iosize;
}

/* A record past the largest offset: the op fails (EFBIG, EOVERFLOW). */
static __attribute__((noinline, cold)) enum fo_result
strided_past(struct worker *wk, const struct ir_flowop *f,
	     const struct slot *s, bool is_write, uint64_t rec, int64_t iosize)
{
	char why[160];

	snprintf(why, sizeof(why),
		 " at record %" PRIu64 " (stride=, startrecord=): its %" PRId64
		 " bytes would end past the largest file offset, 2^63 - 1",
		 rec, iosize);
	return op_fail_slot_why(wk, f, is_write ? EFBIG : EOVERFLOW,
				is_write ? "write" : "read", s, why);
}

/*
 * After a read or write of want bytes at off to a verified file that
 * moved n: a write made the file that long; a read is checked, and one
 * that ended short of len (op_verify_len before it) met a file cut short.
 */
static __attribute__((noinline)) enum fo_result
rw_verified(struct worker *wk, const struct ir_flowop *f, struct slot *s,
	    const char *rbuf, uint64_t off, uint64_t want, uint64_t n,
	    uint64_t len)
{
	if (!rbuf) {
		if (n > 0)
			op_verify_grew(wk, s, off + n);
		return FO_OK;
	}
	if (n > 0 && verify_read(wk, f, s, rbuf, off, n) != FO_OK)
		return FO_ERROR;
	if (n < want && off + n < len)
		return op_verify_cut(wk, f, s, off + n, len);
	return FO_OK;
}

/* Inlined into fo_read and fo_write: the per-op path has no call to spare. */
static inline __attribute__((always_inline)) enum fo_result
do_rw(struct worker *wk, const struct ir_flowop *f, bool is_write)
{
	/* raw: a sequential op goes on from the position the slot keeps */
	struct slot *s = slot_raw(wk, f);
	enum fo_result r = s->fd >= 0 ? FO_OK : op_io_file(wk, f, &s);
	int64_t iosize = op_int(wk, &f->iosize);
	char *rbuf = NULL;
	const char *wbuf = NULL;
	uint64_t t0, off = 0, rec, len = 0;
	ssize_t n;
	bool vfy, placed, held = false;

	if (r != FO_OK)
		return r;
	if (iosize <= 0)
		iosize = 1;
	vfy = __builtin_expect(slot_verify(wk, s), 0);
	placed = f->random || f->stride || f->startrecord;
	if (f->random) {
		off = random_offset(wk, f, s, (uint64_t)iosize);
	} else if (placed) {
		if (!strided_offset(f, s, (uint64_t)iosize, &off, &rec))
			return strided_past(wk, f, s, is_write, rec, iosize);
	} else if (s->pos_held) {
		held = true;
		off = (uint64_t)s->pos;
	} else if (vfy) {
		int64_t here = op_verify_offset(wk, f, s, SEEK_CUR);

		if (here < 0)
			return FO_ERROR;
		off = (uint64_t)here;
	}
	if (is_write)
		wbuf = vfy ? op_verify_data(wk, f, s, off, (uint64_t)iosize) :
			     op_write_data(wk, f, s, (uint64_t)iosize);
	else
		rbuf = buffer_for(wk, f, (uint64_t)iosize);
	if (!wbuf && !rbuf)
		return FO_ERROR;
	if (vfy) {
		len = op_verify_len(wk, s);
		if (is_write)
			op_verify_hole(wk, s, len, off);
	}
	if (placed || held) {
		t0 = op_start(wk);
		n = is_write ? sys_pwrite(s->fd, wbuf, (size_t)iosize,
					  (off_t)off) :
			       sys_pread(s->fd, rbuf, (size_t)iosize,
					 (off_t)off);
	} else {
		t0 = op_start(wk);
		n = is_write ? sys_write(s->fd, wbuf, (size_t)iosize) :
			       sys_read(s->fd, rbuf, (size_t)iosize);
	}
	if (n < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, is_write ? "write" : "read",
				    s);
	}
	op_done(wk, f, t0, (uint64_t)n);
	if (held) /* sequential reads wrap at EOF */
		slot_pos_moved(s, !is_write && n == 0 ? 0 : (int64_t)off + n);
	else if (!is_write && !placed && n == 0)
		lseek(s->fd, 0, SEEK_SET);
	else if (!is_write && !f->random && placed && n == 0)
		s->rec_set = false; /* so do strided ones, to startrecord */
	if (vfy)
		return rw_verified(wk, f, s, rbuf, off, (uint64_t)iosize,
				   (uint64_t)n, len);
	return FO_OK;
}

enum fo_result fo_read(struct worker *wk, const struct ir_flowop *f)
{
	return do_rw(wk, f, false);
}

enum fo_result fo_write(struct worker *wk, const struct ir_flowop *f)
{
	return do_rw(wk, f, true);
}

/*
 * An append to a verified file: its data depends on where it lands, so
 * the end is found before the clock starts and the write goes there with
 * pwrite (another thread's append in between would have moved the end a
 * timed lseek finds); the offset is then moved past it, as write does.
 */
static enum fo_result append_verified(struct worker *wk,
				      const struct ir_flowop *f,
				      struct slot *s, uint64_t n)
{
	int64_t end = op_verify_offset(wk, f, s, SEEK_END);
	const char *buf;
	uint64_t t0;
	ssize_t got = 0;

	if (end < 0)
		return FO_ERROR;
	buf = op_verify_data(wk, f, s, (uint64_t)end, n ? n : 1);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	if (n > 0 && (got = sys_pwrite(s->fd, buf, (size_t)n, (off_t)end)) < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "append to", s);
	}
	op_done(wk, f, t0, (uint64_t)got);
	lseek(s->fd, (off_t)end + got, SEEK_SET);
	op_verify_grew(wk, s, (uint64_t)end + (uint64_t)got);
	return FO_OK;
}

static enum fo_result append(struct worker *wk, const struct ir_flowop *f,
			     uint64_t n)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	const char *buf;
	uint64_t t0;
	ssize_t got = 0;

	if (r != FO_OK)
		return r;
	if (slot_verify(wk, s))
		return append_verified(wk, f, s, n);
	buf = op_write_data(wk, f, s, n ? n : 1);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	if (n > 0) {
		if (lseek(s->fd, 0, SEEK_END) < 0 ||
		    (got = sys_write(s->fd, buf, (size_t)n)) < 0) {
			int err = errno;

			return op_fail_slot(wk, f, err, "append to", s);
		}
	}
	op_done(wk, f, t0, (uint64_t)got);
	return FO_OK;
}

enum fo_result fo_appendfile(struct worker *wk,
				    const struct ir_flowop *f)
{
	int64_t n = op_value(wk, &f->iosize);

	return append(wk, f, n > 0 ? (uint64_t)n : 0);
}

/* Uniform 0..iosize-1 bytes: the mean append is iosize/2. */
enum fo_result fo_appendfilerand(struct worker *wk,
					const struct ir_flowop *f)
{
	int64_t n = op_value(wk, &f->iosize);

	return append(wk, f, n > 0 ? rv_below(&wk->rng, (uint64_t)n) : 0);
}

enum fo_result fo_readwholefile(struct worker *wk,
				       const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = op_io_file(wk, f, &s);
	int64_t iosize, bad = -1;
	uint64_t t0, total = 0, len = 0;
	char *buf;
	ssize_t n;
	bool vfy;

	if (r != FO_OK)
		return r;
	vfy = slot_verify(wk, s);
	if (vfy)
		len = op_verify_len(wk, s); /* before the reads: see op_verify_len */
	iosize = op_value(wk, &f->iosize);
	if (iosize <= 0)
		iosize = (int64_t)op_wss_of(wk, f, s);
	if (iosize <= 0)
		iosize = 1;
	buf = buffer_for(wk, f, (uint64_t)iosize);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	if (lseek(s->fd, 0, SEEK_SET) < 0)
		goto err;
	/* a small iosize makes a long op: the end of the run cuts it short */
	while ((n = sys_read(s->fd, buf, (size_t)iosize)) > 0) {
		/* verify's checks are left out of the op's time */
		if (__builtin_expect(vfy, 0)) {
			uint64_t c0 = now_ns();

			if (bad < 0)
				bad = op_verify_check(wk, s, buf, total,
						      (uint64_t)n);
			t0 += now_ns() - c0;
		}
		total += (uint64_t)n;
		if (timeline_flag_set(wk->stop))
			return FO_OK; /* cut short: not recorded */
	}
	if (n < 0)
		goto err;
	op_done(wk, f, t0, total);
	if (bad >= 0)
		return op_verify_fail(wk, f, s, bad);
	return total < len ? op_verify_cut(wk, f, s, total, len) : FO_OK;
err:
	return op_fail_slot(wk, f, errno, "read", s);
}

enum fo_result fo_writewholefile(struct worker *wk,
					const struct ir_flowop *f)
{
	struct slot *s, *src = f->srcfd >= 0 ? &wk->slots[f->srcfd] : NULL;
	enum fo_result r = op_io_file(wk, f, &s);
	uint64_t size, t0, left;
	int64_t iosize, off = 0;
	const char *buf;
	ssize_t n;
	bool vfy;

	if (r != FO_OK)
		return r;
	vfy = slot_verify(wk, s);
	if (vfy && (off = op_verify_offset(wk, f, s, SEEK_CUR)) < 0)
		return FO_ERROR;
	if (src && src->fd < 0)
		return op_fail(wk, f, EBADF, "srcfd %" PRId64 " is not open",
			    f->srcfd);
	size = src ? op_wss_of(wk, f, src) : op_wss_of(wk, f, s);
	iosize = op_value(wk, &f->iosize);
	if (iosize <= 0 || (uint64_t)iosize > size)
		iosize = size > 0 ? (int64_t)size : 1;
	buf = vfy ? op_verify_data(wk, f, s, (uint64_t)off, (uint64_t)iosize) :
		    op_write_data(wk, f, s, (uint64_t)iosize);
	if (!buf)
		return FO_ERROR;
	if (vfy)
		op_verify_hole(wk, s, op_verify_len(wk, s), (uint64_t)off);
	t0 = op_start(wk);
	for (left = size; left > 0; left -= (uint64_t)n) {
		size_t chunk = left < (uint64_t)iosize ? left : (size_t)iosize;

		/* a pattern changes per write (bonnie's counter, stamps) */
		if (left < size && wk->gens[f->id] && !vfy &&
		    !(buf = op_write_data(wk, f, s, chunk)))
			return FO_ERROR;
		/* and verify's data with where it goes */
		if (left < size && vfy &&
		    !(buf = op_verify_data(wk, f, s,
					   (uint64_t)off + (size - left), chunk)))
			return FO_ERROR;
		n = sys_write(s->fd, buf, chunk);
		if (n < 0) {
			int err = errno;

			return op_fail_slot(wk, f, err, "write", s);
		}
		if (timeline_flag_set(wk->stop)) {
			if (vfy)
				op_verify_grew(wk, s, (uint64_t)off + (size - left) +
							   (uint64_t)n);
			return FO_OK; /* cut short: not recorded */
		}
	}
	op_done(wk, f, t0, size);
	if (vfy)
		op_verify_grew(wk, s, (uint64_t)off + size);
	return FO_OK;
}

/* ------------------------------------------------------------ mmap */

/*
 * A load or store in a mapped page wholly past the file's end (the file
 * was cut after it was mapped: truncatefile, another program) raises
 * SIGBUS.  Inside an mmap op the handler jumps back to the op, which
 * fails with EFAULT and a word on why; anywhere else the action it
 * replaced is put back and the signal raised again, so it does what it
 * did without fbrun's handler.  SA_NODEFER leaves SIGBUS unblocked in the
 * handler, so the jump needs no saved mask and sigsetjmp(.., 0) makes no
 * syscall on the op's path.
 */
static _Thread_local sigjmp_buf *volatile bus_guard;
static struct sigaction bus_old;
static pthread_once_t bus_once = PTHREAD_ONCE_INIT;

static void on_sigbus(int sig)
{
	if (bus_guard)
		siglongjmp(*bus_guard, 1);
	sigaction(sig, &bus_old, NULL);
	raise(sig);
}

static void bus_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &bus_old);
}

/*
 * Map the file open in s, all of it as it is now, shared (setup, before
 * the op's window): writable when the fd is, so mmapread and mmapwrite
 * can share it and fsync knows to msync.  An empty file has no mapping:
 * maplen 0.
 */
static enum fo_result map_slot(struct worker *wk, const struct ir_flowop *f,
			       struct slot *s)
{
	int prot = PROT_READ, fl;
	struct stat sb;
	void *p;

	pthread_once(&bus_once, bus_install);
	if (fstat(s->fd, &sb) < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "stat", s);
	}
	if ((uint64_t)sb.st_size > SIZE_MAX)
		return op_fail_slot_why(wk, f, EFBIG, "map", s,
					" (larger than the address space)");
	fl = fcntl(s->fd, F_GETFL);
	if (fl >= 0 && (fl & O_ACCMODE) == O_RDWR)
		prot |= PROT_WRITE;
	if (sb.st_size > 0) {
		p = mmap(NULL, (size_t)sb.st_size, prot, MAP_SHARED, s->fd, 0);
		if (p == MAP_FAILED) {
			int err = errno;

			return op_fail_slot_why(
				wk, f, err, "map", s,
				err == EACCES ? " (a write-only fileset's "
						"files cannot be mapped)" :
						"");
		}
		if (f->noreadahead)
			madvise(p, (size_t)sb.st_size, MADV_RANDOM);
		s->map = p;
		s->map_shared_rw = prot & PROT_WRITE;
	}
	s->maplen = (uint64_t)sb.st_size;
	s->mappos = 0;
	s->mapped = true;
	return FO_OK;
}

/*
 * map_slot for a verified file or not: a file mapped shorter than fbrun
 * wrote it was cut by someone else (fbrun never cuts one).
 */
static enum fo_result map_verified(struct worker *wk,
				   const struct ir_flowop *f, struct slot *s,
				   bool vfy)
{
	uint64_t len = vfy ? op_verify_len(wk, s) : 0;
	enum fo_result r = map_slot(wk, f, s);

	if (r == FO_OK && s->maplen < len)
		return op_verify_cut(wk, f, s, s->maplen, len);
	return r;
}

/* SIGBUS in a verified file's mapping: it ends before the mapping does. */
static __attribute__((noinline, cold)) enum fo_result
bus_verified(struct worker *wk, const struct ir_flowop *f,
	     const struct slot *s)
{
	struct stat sb;
	uint64_t at = fstat(s->fd, &sb) == 0 ? (uint64_t)sb.st_size : 0;
	uint64_t len = op_verify_len(wk, s);

	return op_verify_cut(wk, f, s, at, len > s->maplen ? len : s->maplen);
}

/* Where an mmap op starts: random within the working set, or in turn. */
static uint64_t map_offset(struct worker *wk, const struct ir_flowop *f,
			   struct slot *s, uint64_t iosize)
{
	uint64_t ws = s->maplen;

	if (f->random) {
		if (f->workingset.kind != IRV_NONE) {
			int64_t v = op_value(wk, &f->workingset);

			if (v > 0 && (uint64_t)v < ws)
				ws = (uint64_t)v;
		}
		return ws >= iosize ? rv_below(&wk->rng, ws / iosize) * iosize :
				      0;
	}
	if (s->mappos >= s->maplen)
		s->mappos = 0; /* sequential ops wrap at the end of the file */
	return s->mappos;
}

/*
 * Copy iosize bytes out of the mapping (mmapread) or into it (mmapwrite):
 * the op is the copy, with the page faults it takes.  The last chunk of a
 * file that is not a multiple of iosize is short, as read's is; mmapwrite
 * does not grow a file, so one smaller than iosize is an error.
 */
static enum fo_result do_mmap(struct worker *wk, const struct ir_flowop *f,
			      bool is_write)
{
	struct slot *s = slot_of(wk, f);
	enum fo_result r = s->fd >= 0 ? FO_OK : op_io_file(wk, f, &s);
	int64_t iosize = op_int(wk, &f->iosize);
	uint64_t t0, off, n;
	const char *wbuf = NULL;
	char *rbuf = NULL;
	sigjmp_buf jb;
	bool vfy;

	if (r != FO_OK)
		return r;
	vfy = slot_verify(wk, s);
	if (!s->mapped && (r = map_verified(wk, f, s, vfy)) != FO_OK)
		return r;
	if (iosize <= 0)
		iosize = 1;
	if (is_write && s->maplen < (uint64_t)iosize) {
		char why[128];

		snprintf(why, sizeof(why),
			 ": its %" PRIu64 " bytes are fewer than iosize %" PRId64
			 " (mmapwrite does not extend a file)",
			 s->maplen, iosize);
		return op_fail_slot_why(wk, f, EINVAL, "mmapwrite", s, why);
	}
	off = map_offset(wk, f, s, (uint64_t)iosize);
	n = s->maplen - off < (uint64_t)iosize ? s->maplen - off :
						  (uint64_t)iosize;
	/* verify's blocks are stamped through the mapping as write does */
	if (is_write)
		wbuf = vfy ? op_verify_data(wk, f, s, off, n ? n : 1) :
			     op_write_data(wk, f, s, n ? n : 1);
	else
		rbuf = buffer_for(wk, f, n ? n : 1);
	if (!wbuf && !rbuf)
		return FO_ERROR;
	if (sigsetjmp(jb, 0)) {
		bus_guard = NULL;
		wk->sampling = false; /* the op's CPU sample ends here too */
		if (vfy) /* fbrun never cuts a verified file: someone else did */
			return bus_verified(wk, f, s);
		return op_fail_slot_why(wk, f, EFAULT,
					is_write ? "mmapwrite" : "mmapread",
					s,
					" (SIGBUS: the file was cut shorter "
					"than its mapping)");
	}
	bus_guard = &jb;
	t0 = op_start(wk);
	if (is_write)
		memcpy(s->map + off, wbuf, (size_t)n);
	else if (n > 0)
		memcpy(rbuf, s->map + off, (size_t)n);
	op_done(wk, f, t0, n);
	bus_guard = NULL;
	s->mappos = off + n;
	if (vfy && !is_write && n > 0)
		return verify_read(wk, f, s, rbuf, off, n);
	return FO_OK;
}

enum fo_result fo_mmapread(struct worker *wk, const struct ir_flowop *f)
{
	return do_mmap(wk, f, false);
}

enum fo_result fo_mmapwrite(struct worker *wk, const struct ir_flowop *f)
{
	return do_mmap(wk, f, true);
}
