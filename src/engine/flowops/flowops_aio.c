/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The asynchronous flowops: aiowrite, aioread, aiowait, on the thread's
 * queue (aioq.h: io_uring, or POSIX aio where configure found no
 * liburing).
 *
 * They count in one of two ways.  aiowrite without iodepth counts as
 * filebench's does: the op is the submission, its bytes counted then,
 * and a write that fails is reported by the next aiowait.  aioread, and
 * aiowrite with iodepth, count as fio does: each request is an op of its
 * flowop, timed from just before its submission to its completion as
 * reaped, with the bytes it moved; one that fails is counted against its
 * flowop with its errno.  Requests are reaped when the queue is full (one
 * per op with iodepth), by aiowait (all) and by closefile (all, before
 * the close); the ones still in flight when the run ends are waited for
 * and not counted.
 */
#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/flowops/flowops_int.h"

/*
 * A verified file's read completed: its data checked as read's are, and
 * its end against the length the file had when it was started (d->arg).
 * The slot still holds that file: closefile waits for its requests.
 */
static void aio_verify(struct worker *wk, const struct ir_flowop *f,
		       const struct aioq_done *d)
{
	struct slot *s = slot_raw(wk, f);
	uint64_t off = (uint64_t)d->off, n = (uint64_t)d->res;

	if (n > 0 && verify_read(wk, f, s, d->buf, off, n) != FO_OK)
		wk->aio_failed = true;
	else if (n < d->len && off + n < d->arg &&
		 op_verify_cut(wk, f, s, off + n, d->arg) != FO_OK)
		wk->aio_failed = true;
}

/* A request with a tag completed: one op of its flowop. */
static void aio_done(void *ctx, const struct aioq_done *d)
{
	struct worker *wk = ctx;
	const struct ir_flowop *f = wk->w->flowops[d->tag];
	uint64_t lat = now_ns() - d->t0;

	if (d->res < 0) {
		op_fail(wk, f, (int)-d->res, "an asynchronous %s failed",
			f->type == FO_AIOREAD ? "read" : "write");
		wk->aio_failed = true;
		return;
	}
	fstats_add(&wk->stats[d->tag], lat, (uint64_t)d->res);
	if (wk->rated)
		fstats_resp(&wk->stats[d->tag], lat + d->lag);
	if (wk->need_totals)
		op_totals(wk, f, (uint64_t)d->res);
	if (f->type == FO_AIOREAD && slot_verify(wk, slot_raw(wk, f)))
		aio_verify(wk, f, d);
}

/*
 * The thread's queue, made before the clock starts (io_uring's setup is a
 * syscall), deep enough for the largest iodepth of its flowops.
 */
int op_aio_prepare(struct worker *wk, const struct ir_flowop *f)
{
	int64_t depth = f->iodepth;

	if (wk->aioq)
		return 0;
	for (size_t i = 0; i < wk->w->nflowops; i++) {
		const struct ir_flowop *o = wk->w->flowops[i];

		if (o->thread == wk->thread_index && o->iodepth > depth)
			depth = o->iodepth;
	}
	wk->aioq = aioq_new((unsigned)depth, aio_done, wk);
	return 0;
}

/* The size a sequential aioread wraps at: the file's when it was opened. */
static uint64_t size_of(const struct slot *s)
{
	struct stat sb;

	if (s->size > 0)
		return s->size;
	return fstat(s->fd, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

/*
 * Where the request starts: random within the working set, else at the
 * file's own position, moved on as read() or write() would move it (a
 * position kept per thread ran on across files: every file opened after
 * the first was written past its end).  The position is the slot's
 * (worker.h), read from the kernel once if another flowop took it back.
 * Sequential reads start again at the start once past the end.
 */
static enum fo_result aio_offset(struct worker *wk, const struct ir_flowop *f,
				 struct slot *s, int64_t iosize, bool is_write,
				 off_t *off)
{
	if (f->random) {
		*off = (off_t)random_offset(wk, f, s, (uint64_t)iosize);
		return FO_OK;
	}
	if (!s->pos_held) {
		off_t here = lseek(s->fd, 0, SEEK_CUR);

		if (here < 0)
			return op_fail_slot(wk, f, errno, "seek", s);
		s->pos = here;
		s->pos_held = true;
	}
	if (!is_write && (uint64_t)s->pos >= size_of(s) && s->pos > 0)
		s->pos = 0;
	*off = (off_t)s->pos;
	slot_pos_moved(s, s->pos + iosize);
	return FO_OK;
}

static enum fo_result aio_start(struct worker *wk, const struct ir_flowop *f,
				bool is_write)
{
	/* raw: the position stays held from one request to the next */
	struct slot *s = slot_raw(wk, f);
	enum fo_result r = s->fd >= 0 ? FO_OK : op_io_file(wk, f, &s);
	int64_t iosize = op_value(wk, &f->iosize);
	/* filebench's aiowrite: the submission is the op */
	bool timed = is_write && f->iodepth == 0;
	const char *buf = NULL;
	uint64_t t0 = 0, len = 0;
	off_t off = 0;
	int rc;
	bool vfy;

	if (r != FO_OK)
		return r;
	if (!wk->aioq)
		op_aio_prepare(wk, f); /* a thread whose prepare hooks did not run */
	if (iosize <= 0)
		iosize = 1;
	if ((r = aio_offset(wk, f, s, iosize, is_write, &off)) != FO_OK)
		return r;
	/* after the offset: verify's data depends on it */
	vfy = slot_verify(wk, s);
	if (is_write && !(buf = vfy ? op_verify_data(wk, f, s, (uint64_t)off,
						     (uint64_t)iosize) :
				      op_write_data(wk, f, s, (uint64_t)iosize)))
		return FO_ERROR;
	/* verify: the length a read's end is held to, or a write's hole */
	if (vfy)
		len = op_verify_len(wk, s);
	if (vfy && is_write)
		op_verify_hole(wk, s, len, (uint64_t)off);
	/* a full queue: wait for a request to complete, as fio's iodepth */
	while (f->iodepth > 0 &&
	       aioq_pending(wk->aioq) >= (uint64_t)f->iodepth)
		aioq_reap_one(wk->aioq);
	if (wk->aio_failed) {
		wk->aio_failed = false;
		return FO_ERROR; /* counted when it was reaped */
	}
	if (wk->rated)
		aioq_lag(wk->aioq, wk->lag_ns);
	if (timed)
		t0 = op_start(wk);
	rc = is_write ? aioq_write(wk->aioq, s->fd, buf, (size_t)iosize, off,
				   timed ? -1 : f->id) :
			aioq_read(wk->aioq, s->fd, (size_t)iosize, off, f->id,
				  len);
	if (rc != 0)
		return op_fail(wk, f, rc, "cannot start an asynchronous %s",
			       is_write ? "write" : "read");
	if (timed)
		op_done(wk, f, t0, (uint64_t)iosize);
	return FO_OK;
}

enum fo_result fo_aiowrite(struct worker *wk, const struct ir_flowop *f)
{
	return aio_start(wk, f, true);
}

enum fo_result fo_aioread(struct worker *wk, const struct ir_flowop *f)
{
	return aio_start(wk, f, false);
}

/* Reap every outstanding request: one operation. */
enum fo_result fo_aiowait(struct worker *wk, const struct ir_flowop *f)
{
	uint64_t t0;
	int err;

	if (!wk->aioq || aioq_idle(wk->aioq))
		return FO_OK;
	t0 = op_start(wk);
	err = aioq_wait(wk->aioq);
	if (err)
		return op_fail(wk, f, err, "an asynchronous write failed");
	if (wk->aio_failed) {
		wk->aio_failed = false;
		return FO_ERROR; /* counted against its flowop */
	}
	op_done(wk, f, t0, 0);
	return FO_OK;
}
