/*
 * Asynchronous writes for aiowrite/aiowait: io_uring (liburing) when
 * configure found it, else POSIX aio.  One queue per worker thread; the
 * queue owns a copy of each request's data until it completes.
 */
#ifndef FBRUN_AIOQ_H
#define FBRUN_AIOQ_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct aioq;

struct aioq *aioq_new(void);
/* Waits for what is still in flight, then frees. */
void aioq_free(struct aioq *q);

/* Start writing len bytes of buf at off.  Returns 0 or an errno. */
int aioq_write(struct aioq *q, int fd, const void *buf, size_t len, off_t off);

/*
 * Wait for every write in flight.  Returns 0, or the errno of the first
 * write that failed since the last aioq_wait (all are reaped either way).
 */
int aioq_wait(struct aioq *q);

/*
 * Wait for every write in flight but keep their errors for the next
 * aioq_wait: for closing an fd under writes still queued on it.
 */
void aioq_drain(struct aioq *q);

/* Nothing in flight and no error waiting to be reported. */
bool aioq_idle(const struct aioq *q);

size_t aioq_pending(const struct aioq *q);

/* "io_uring" or "posix aio". */
const char *aioq_backend(void);

#endif
