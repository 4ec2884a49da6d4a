/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * aioread/aiowrite/aiowait's queue: io_uring when configure found
 * liburing, else POSIX aio (aioq.h).  The requests and their buffers are
 * kept on a free list, so a queue that keeps the same depth allocates
 * nothing once it has filled.
 */
#include "engine/io/aioq.h"

#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sys/timeline.h"
#include "util/util.h"

/* AIOQ_POSIX: POSIX aio even where liburing was found (its unit test) */
#if defined(HAVE_LIBURING) && !defined(AIOQ_POSIX)
#define AIOQ_URING 1
#endif

#ifdef AIOQ_URING
#include <liburing.h>
#else
#include <aio.h>
#endif

struct req {
	struct req *next; /* on the free list */
	void *buf;
	size_t cap; /* of buf: 4096-aligned, for O_DIRECT */
	uint64_t t0;
	int tag;
	off_t off;
	size_t len;
	uint64_t arg;
	uint64_t lag;
#ifndef AIOQ_URING
	struct aiocb cb;
#endif
};

struct aioq {
#ifdef AIOQ_URING
	struct io_uring ring;
	int init_err; /* io_uring_queue_init's errno: every request fails */
	size_t pending;
#else
	struct req **fly; /* in flight, oldest first */
	const struct aiocb **susp; /* aio_suspend's list */
	size_t n, cap, scap;
#endif
	unsigned depth; /* in flight at most: more wait for room */
	uint64_t lag; /* aioq_lag's, for the next requests */
	struct req *free;
	aioq_done_fn *done;
	void *ctx;
	int err; /* first untagged failure not yet reported by aioq_wait */
};

/* A request with room for len bytes, or NULL. */
static struct req *req_get(struct aioq *q, size_t len)
{
	struct req *r = q->free;

	if (r)
		q->free = r->next;
	else
		r = xcalloc(1, sizeof(*r));
	if (r->cap < len || !r->buf) {
		void *p;

		free(r->buf);
		r->buf = NULL;
		r->cap = 0;
		if (posix_memalign(&p, 4096, len ? len : 1)) {
			r->next = q->free;
			q->free = r;
			return NULL;
		}
		r->buf = p;
		r->cap = len ? len : 1;
	}
	return r;
}

static void req_put(struct aioq *q, struct req *r)
{
	r->next = q->free;
	q->free = r;
}

/* A request completed with res (bytes, or -errno): report it, keep it. */
static void finish(struct aioq *q, struct req *r, int64_t res)
{
	struct aioq_done d = { r->tag, r->t0,  res,   r->buf,
			      r->off, r->len, r->arg, r->lag };

	if (r->tag >= 0 && q->done)
		q->done(q->ctx, &d);
	else if (res < 0 && !q->err)
		q->err = (int)-res;
	req_put(q, r);
}

#define DEPTH_MIN 64

#ifdef AIOQ_URING

/*
 * The ring's setup flags, tried in turn until the kernel takes one: the
 * thread that submits is the only one that enters the ring (a worker
 * makes its queue, uses it and frees it), so completions can wait for it
 * to ask (DEFER_TASKRUN, 6.1) instead of interrupting it while it
 * submits (COOP_TASKRUN, 5.19); without them every completion sent the
 * busy thread an interrupt.  Older kernels take none.
 */
static const unsigned ring_flags[] = {
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
		IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
	IORING_SETUP_COOP_TASKRUN,
	0,
};

/* The flags the last ring was made with, for aioq_features. */
static _Atomic unsigned ring_used = ~0u;

/* A ring of depth entries with the newest flags the kernel takes; -errno. */
static int ring_init(struct io_uring *ring, unsigned depth)
{
	int rc = -EINVAL;

	for (size_t i = 0; i < ARRAY_SIZE(ring_flags); i++) {
		struct io_uring_params p = { .flags = ring_flags[i] };

		rc = io_uring_queue_init_params(depth, ring, &p);
		if (rc == 0) {
			atomic_store(&ring_used, ring_flags[i]);
			return 0;
		}
		if (rc != -EINVAL)
			break; /* not the flags: no io_uring at all */
	}
	return rc;
}

struct aioq *aioq_new(unsigned depth, aioq_done_fn *done, void *ctx)
{
	struct aioq *q = xcalloc(1, sizeof(*q));

	q->depth = depth > DEPTH_MIN ? depth : DEPTH_MIN;
	q->done = done;
	q->ctx = ctx;
	/* a kernel without io_uring, or that forbids it: requests then fail */
	q->init_err = -ring_init(&q->ring, q->depth);
	return q;
}

void aioq_reap_one(struct aioq *q)
{
	struct io_uring_cqe *cqe;
	struct req *r;
	int64_t res;
	int rc;

	if (q->pending == 0)
		return;
	while ((rc = io_uring_wait_cqe(&q->ring, &cqe)) == -EINTR)
		;
	if (rc < 0) {
		/* the ring itself failed: nothing more will complete */
		if (!q->err)
			q->err = -rc;
		q->pending = 0;
		return;
	}
	/*
	 * One, not every one there: a full queue waits for one completion,
	 * which is one op (finishoncount stays exact).  It costs no system
	 * call per completion: the wait that ran the ring's deferred work
	 * posted all that were done, and the next waits find them posted.
	 */
	r = io_uring_cqe_get_data(cqe);
	res = cqe->res;
	io_uring_cqe_seen(&q->ring, cqe);
	q->pending--;
	finish(q, r, res);
}

const char *aioq_features(void)
{
	static const struct {
		unsigned flag;
		const char *word;
	} words[] = {
		{ IORING_SETUP_DEFER_TASKRUN, "defer taskrun" },
		{ IORING_SETUP_SINGLE_ISSUER, "single issuer" },
		{ IORING_SETUP_COOP_TASKRUN, "coop taskrun" },
	};
	static char buf[96];
	unsigned used = atomic_load(&ring_used);
	size_t n = 0;

	if (used == ~0u) { /* no ring yet: the one a run would make */
		struct io_uring ring;

		if (ring_init(&ring, 1) < 0)
			return "no io_uring here";
		io_uring_queue_exit(&ring);
		used = atomic_load(&ring_used);
	}
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (used & words[i].flag)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
					      n ? ", " : "", words[i].word);
	return n ? buf : "no setup flags";
}

static int submit(struct aioq *q, bool write, int fd, size_t len, off_t off,
		  struct req *r)
{
	struct io_uring_sqe *sqe;
	int rc;

	/*
	 * Take an entry only once the ring has room: one taken and left
	 * unfilled would be submitted with a stale request's data.
	 */
	while (q->pending >= q->depth)
		aioq_reap_one(q);
	sqe = io_uring_get_sqe(&q->ring);
	if (!sqe)
		return EAGAIN;
	if (write)
		io_uring_prep_write(sqe, fd, r->buf, (unsigned)len,
				    (uint64_t)off);
	else
		io_uring_prep_read(sqe, fd, r->buf, (unsigned)len,
				   (uint64_t)off);
	io_uring_sqe_set_data(sqe, r);
	r->t0 = now_ns();
	rc = io_uring_submit(&q->ring);
	if (rc < 0)
		return -rc;
	q->pending++;
	return 0;
}

void aioq_free(struct aioq *q)
{
	if (!q)
		return;
	q->done = NULL; /* the run is over: not reported */
	if (!q->init_err) {
		aioq_drain(q);
		io_uring_queue_exit(&q->ring);
	}
	while (q->free) {
		struct req *r = q->free;

		q->free = r->next;
		free(r->buf);
		free(r);
	}
	free(q);
}

size_t aioq_pending(const struct aioq *q)
{
	return q->pending;
}

const char *aioq_backend(void)
{
	return "io_uring";
}

#else /* POSIX aio */

struct aioq *aioq_new(unsigned depth, aioq_done_fn *done, void *ctx)
{
	struct aioq *q = xcalloc(1, sizeof(*q));

	q->depth = depth > DEPTH_MIN ? depth : DEPTH_MIN;
	q->done = done;
	q->ctx = ctx;
	return q;
}

/* Reap the request at i of the ones in flight, done by now. */
static void reap_at(struct aioq *q, size_t i, int err)
{
	struct req *r = q->fly[i];
	ssize_t n = aio_return(&r->cb);

	memmove(&q->fly[i], &q->fly[i + 1], (q->n - i - 1) * sizeof(*q->fly));
	q->n--;
	finish(q, r, n < 0 ? -(int64_t)(err ? err : EIO) : (int64_t)n);
}

void aioq_reap_one(struct aioq *q)
{
	while (q->n > 0) {
		/* aio_error reads the control block: no syscall */
		for (size_t i = 0; i < q->n; i++) {
			int err = aio_error(&q->fly[i]->cb);

			if (err != EINPROGRESS) {
				reap_at(q, i, err);
				return;
			}
		}
		q->susp = grow_array(q->susp, &q->scap, q->n,
				     sizeof(*q->susp));
		for (size_t i = 0; i < q->n; i++)
			q->susp[i] = &q->fly[i]->cb;
		aio_suspend(q->susp, (int)q->n, NULL);
	}
}

static int submit(struct aioq *q, bool write, int fd, size_t len, off_t off,
		  struct req *r)
{
	while (q->n >= q->depth)
		aioq_reap_one(q);
	memset(&r->cb, 0, sizeof(r->cb));
	r->cb.aio_fildes = fd;
	r->cb.aio_buf = r->buf;
	r->cb.aio_nbytes = len;
	r->cb.aio_offset = off;
	q->fly = grow_array(q->fly, &q->cap, q->n + 1, sizeof(*q->fly));
	r->t0 = now_ns();
	if ((write ? aio_write(&r->cb) : aio_read(&r->cb)) < 0)
		return errno;
	q->fly[q->n++] = r;
	return 0;
}

void aioq_free(struct aioq *q)
{
	if (!q)
		return;
	q->done = NULL; /* the run is over: not reported */
	aioq_drain(q);
	while (q->free) {
		struct req *r = q->free;

		q->free = r->next;
		free(r->buf);
		free(r);
	}
	free(q->fly);
	free(q->susp);
	free(q);
}

size_t aioq_pending(const struct aioq *q)
{
	return q->n;
}

const char *aioq_backend(void)
{
	return "posix aio";
}

const char *aioq_features(void)
{
	return "";
}
#endif

void aioq_lag(struct aioq *q, uint64_t lag_ns)
{
	q->lag = lag_ns;
}

static int start(struct aioq *q, bool write, int fd, const void *buf,
		 size_t len, off_t off, int tag, uint64_t arg)
{
	struct req *r;
	int rc;

#ifdef AIOQ_URING
	if (q->init_err)
		return q->init_err;
#endif
	if (!(r = req_get(q, len)))
		return ENOMEM;
	if (write)
		memcpy(r->buf, buf, len);
	r->tag = tag;
	r->off = off;
	r->len = len;
	r->arg = arg;
	r->lag = q->lag;
	if ((rc = submit(q, write, fd, len, off, r)) != 0)
		req_put(q, r);
	return rc;
}

int aioq_write(struct aioq *q, int fd, const void *buf, size_t len, off_t off,
	       int tag)
{
	return start(q, true, fd, buf, len, off, tag, 0);
}

int aioq_read(struct aioq *q, int fd, size_t len, off_t off, int tag,
	      uint64_t arg)
{
	return start(q, false, fd, NULL, len, off, tag, arg);
}

void aioq_drain(struct aioq *q)
{
	while (aioq_pending(q) > 0)
		aioq_reap_one(q);
}

int aioq_wait(struct aioq *q)
{
	int err;

	aioq_drain(q);
	err = q->err;
	q->err = 0;
	return err;
}

bool aioq_idle(const struct aioq *q)
{
	return aioq_pending(q) == 0 && q->err == 0;
}
