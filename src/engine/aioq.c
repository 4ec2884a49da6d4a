/*
 * aiowrite/aiowait's queue: io_uring when configure found liburing, else
 * POSIX aio (aioq.h).
 */
#include "engine/aioq.h"

#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#ifdef HAVE_LIBURING
#include <liburing.h>

#define RING_DEPTH 64

struct aioq {
	struct io_uring ring;
	bool ready;
	size_t pending;
	int err; /* first failure not yet reported by aioq_wait */
};

struct aioq *aioq_new(void)
{
	struct aioq *q = xcalloc(1, sizeof(*q));

	/* a kernel without io_uring leaves ready false: writes then fail */
	q->ready = io_uring_queue_init(RING_DEPTH, &q->ring, 0) == 0;
	return q;
}

/* Reap one completion; returns its errno (0 if it wrote everything). */
static int reap_one(struct aioq *q)
{
	struct io_uring_cqe *cqe;
	int rc = io_uring_wait_cqe(&q->ring, &cqe);

	if (rc < 0)
		return -rc;
	rc = cqe->res < 0 ? -cqe->res : 0;
	free(io_uring_cqe_get_data(cqe));
	io_uring_cqe_seen(&q->ring, cqe);
	q->pending--;
	return rc;
}

int aioq_write(struct aioq *q, int fd, const void *buf, size_t len, off_t off)
{
	struct io_uring_sqe *sqe;
	void *copy;
	int rc;

	if (!q->ready)
		return ENOSYS;
	/*
	 * A full ring: make room by reaping the oldest completion.  Only then
	 * take an entry: one taken and left unfilled would be submitted with
	 * a stale request's data.
	 */
	while (q->pending >= RING_DEPTH)
		if ((rc = reap_one(q)) != 0 && !q->err)
			q->err = rc;
	sqe = io_uring_get_sqe(&q->ring);
	if (!sqe)
		return EAGAIN;
	copy = memcpy(xmalloc(len ? len : 1), buf, len);
	io_uring_prep_write(sqe, fd, copy, (unsigned)len, (uint64_t)off);
	io_uring_sqe_set_data(sqe, copy);
	rc = io_uring_submit(&q->ring);
	if (rc < 0) {
		free(copy);
		return -rc;
	}
	q->pending++;
	return 0;
}

void aioq_drain(struct aioq *q)
{
	int rc;

	while (q->pending > 0)
		if ((rc = reap_one(q)) != 0 && !q->err)
			q->err = rc;
}

void aioq_free(struct aioq *q)
{
	if (!q)
		return;
	if (q->ready) {
		aioq_drain(q);
		io_uring_queue_exit(&q->ring);
	}
	free(q);
}

const char *aioq_backend(void)
{
	return "io_uring";
}

#else /* POSIX aio */
#include <aio.h>

struct aioq {
	struct aiocb **cb;
	size_t n, cap;
	int err; /* first failure not yet reported by aioq_wait */
};

struct aioq *aioq_new(void)
{
	return xcalloc(1, sizeof(struct aioq));
}

int aioq_write(struct aioq *q, int fd, const void *buf, size_t len, off_t off)
{
	struct aiocb *cb = xcalloc(1, sizeof(*cb));

	cb->aio_fildes = fd;
	cb->aio_buf = memcpy(xmalloc(len ? len : 1), buf, len);
	cb->aio_nbytes = len;
	cb->aio_offset = off;
	if (aio_write(cb) < 0) {
		int err = errno;

		free((void *)cb->aio_buf);
		free(cb);
		return err;
	}
	q->cb = grow_array(q->cb, &q->cap, q->n + 1, sizeof(*q->cb));
	q->cb[q->n++] = cb;
	return 0;
}

void aioq_drain(struct aioq *q)
{
	for (size_t i = 0; i < q->n; i++) {
		const struct aiocb *one[1] = { q->cb[i] };
		int err;

		while ((err = aio_error(q->cb[i])) == EINPROGRESS)
			aio_suspend(one, 1, NULL);
		if (aio_return(q->cb[i]) < 0 && !q->err)
			q->err = err;
		free((void *)q->cb[i]->aio_buf);
		free(q->cb[i]);
	}
	q->n = 0;
}

void aioq_free(struct aioq *q)
{
	if (!q)
		return;
	aioq_drain(q);
	free(q->cb);
	free(q);
}

const char *aioq_backend(void)
{
	return "posix aio";
}
#endif

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

size_t aioq_pending(const struct aioq *q)
{
#ifdef HAVE_LIBURING
	return q->pending;
#else
	return q->n;
#endif
}
