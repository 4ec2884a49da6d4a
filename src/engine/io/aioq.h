/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Asynchronous reads and writes for aioread, aiowrite and aiowait:
 * io_uring (liburing) when configure found it, else POSIX aio.  One queue
 * per worker thread.  Each request has a buffer of its own, kept for the
 * next request once it completed: a write's data is copied there, a read
 * lands there.
 */
#ifndef FBRUN_AIOQ_H
#define FBRUN_AIOQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct aioq;

/*
 * A request started with a tag >= 0 completed: its tag, its start
 * (CLOCK_MONOTONIC ns, taken just before it was submitted), its result
 * (the bytes moved or -errno), its buffer (a read's data, valid until
 * the callback returns), where it went in the file and for how many
 * bytes, and the word given with a read (0 for a write).
 */
struct aioq_done {
	int tag;
	uint64_t t0;
	int64_t res;
	const void *buf;
	off_t off;
	size_t len;
	uint64_t arg;
	uint64_t lag; /* aioq_lag's when it was started */
};
typedef void aioq_done_fn(void *ctx, const struct aioq_done *d);

/*
 * depth: the requests in flight at once (at least 64); a request beyond
 * them waits for one to complete.  done is called for each completed
 * request with a tag, from whichever call reaped it.  Where io_uring
 * cannot be set up, every request fails with the errno it gave.
 */
struct aioq *aioq_new(unsigned depth, aioq_done_fn *done, void *ctx);
/* Waits for what is still in flight, not reporting it, then frees. */
void aioq_free(struct aioq *q);

/*
 * Start writing len bytes of buf (copied) at off, or reading len bytes at
 * off (arg comes back with its completion).  tag < 0: no report; a
 * failure is kept for aioq_wait.  Returns 0 or an errno.
 */
int aioq_write(struct aioq *q, int fd, const void *buf, size_t len, off_t off,
	       int tag);
int aioq_read(struct aioq *q, int fd, size_t len, off_t off, int tag,
	      uint64_t arg);

/*
 * The next requests' lag (ns): an open loop's arrival's delay, handed
 * back with their completions (0 until set).
 */
void aioq_lag(struct aioq *q, uint64_t lag_ns);

/* Wait for one request to complete, if any is in flight, and reap it. */
void aioq_reap_one(struct aioq *q);

/*
 * Wait for every request in flight.  Returns 0, or the errno of the first
 * untagged request that failed since the last aioq_wait (all are reaped
 * either way).
 */
int aioq_wait(struct aioq *q);

/*
 * Wait for every request in flight but keep untagged errors for the next
 * aioq_wait: for closing an fd under requests still queued on it.
 */
void aioq_drain(struct aioq *q);

/* Nothing in flight and no error waiting to be reported. */
bool aioq_idle(const struct aioq *q);

size_t aioq_pending(const struct aioq *q);

/* "io_uring" or "posix aio". */
const char *aioq_backend(void);
/*
 * io_uring's setup features the rings are made with ("defer taskrun,
 * single issuer, coop taskrun"): the last ring's, or before any, what a
 * ring made now gets from this kernel; "" for POSIX aio.
 */
const char *aioq_features(void);

#endif
