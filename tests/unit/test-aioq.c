/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Unit tests for src/engine/aioq.c, built twice: with the backend
 * configure chose (io_uring where liburing was found) and, as
 * test-aioq-posix, with POSIX aio.  Reads and writes land and report
 * their bytes, tagged requests are reported once each with their start
 * time, a read's data, offset and word, failures carry their errno, the
 * queue never holds more than its depth, and what the end of the run
 * finds in flight is not reported.
 */
#include "engine/io/aioq.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct seen {
	int n, tag, bad_tag;
	int64_t bytes;
	int err; /* the errno of the last failed request */
	uint64_t t0_min;
	off_t last_off; /* of the last request reported */
	uint64_t last_arg;
	int not_a; /* reported bytes of data other than 'a' */
};

static void done(void *ctx, const struct aioq_done *d)
{
	struct seen *s = ctx;

	s->n++;
	if (d->tag != s->tag)
		s->bad_tag++;
	if (d->res < 0)
		s->err = (int)-d->res;
	else
		s->bytes += d->res;
	for (int64_t i = 0; i < d->res; i++)
		s->not_a += ((const char *)d->buf)[i] != 'a';
	if (s->t0_min == 0 || d->t0 < s->t0_min)
		s->t0_min = d->t0;
	s->last_off = d->off;
	s->last_arg = d->arg;
}

int main(void)
{
	char path[] = "/tmp/fbrun-test-aioq-XXXXXX";
	char buf[20000], back[4096];
	struct seen s = { .tag = 7 };
	struct aioq *q;
	int fd, rd, wr, rc, max = 0;

	printf("# backend: %s\n", aioq_backend());
	fd = mkstemp(path);
	if (fd < 0) {
		printf("1..0 # SKIP no temporary file\n");
		return 0;
	}
	memset(buf, 'a', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return 1;
	rd = open(path, O_RDONLY);
	wr = open(path, O_WRONLY);

	q = aioq_new(4, done, &s);
	rc = aioq_read(q, fd, 8192, 0, 7, 0);
	if (rc != 0 && strcmp(aioq_backend(), "io_uring") == 0) {
		/* a kernel without io_uring, or one that forbids it */
		printf("1..0 # SKIP io_uring cannot be set up here: %s\n",
		       strerror(rc));
		aioq_free(q);
		unlink(path);
		return 0;
	}
	is_int(rc, 0, "a read starts");
	is_int(aioq_read(q, fd, 8192, 8192, 7, 0), 0, "a second read starts");
	is_int(aioq_read(q, fd, 8192, 16384, 7, 0), 0,
	       "a third, past the end");
	is_int(aioq_wait(q), 0, "aioq_wait: no untagged failure");
	is_int(s.n, 3, "each tagged read reported once");
	is_int(s.bytes, 20000, "their bytes: the file's, the last one short");
	is_int(s.not_a, 0, "with the data read");
	is_int(s.bad_tag, 0, "with their tag");
	ok(s.t0_min > 0, "with their start time");
	ok(aioq_idle(q), "nothing in flight after aioq_wait");
	is_int(aioq_read(q, fd, 100, 4096, 7, 42), 0, "a read with a word");
	aioq_drain(q);
	ok(s.last_off == 4096 && s.last_arg == 42,
	   "reported with its offset and word (%lld, %llu)",
	   (long long)s.last_off, (unsigned long long)s.last_arg);

	/* more than the depth (at least 64) never in flight at once */
	s.n = 0;
	for (int i = 0; i < 200; i++) {
		if (aioq_read(q, fd, 512, (off_t)(i % 32) * 512, 7, 0) != 0)
			break;
		if ((int)aioq_pending(q) > max)
			max = (int)aioq_pending(q);
	}
	ok(max <= 64, "200 reads: at most 64 in flight (%d)", max);
	aioq_drain(q);
	is_int(s.n, 200, "200 reads: each reported once");

	/* a write lands where it was asked to, from a copy of the data */
	memset(back, 'z', sizeof(back));
	is_int(aioq_write(q, fd, back, sizeof(back), 100, -1), 0,
	       "an untagged write starts");
	memset(back, 0, sizeof(back));
	is_int(aioq_wait(q), 0, "it completes");
	ok(pread(fd, back, sizeof(back), 100) == (ssize_t)sizeof(back) &&
		   back[0] == 'z' && back[sizeof(back) - 1] == 'z',
	   "its data is in the file at its offset");

	/* failures: tagged ones reported with their errno, untagged kept */
	s.n = 0;
	rc = aioq_read(q, wr, 4096, 0, 7, 0);
	aioq_drain(q);
	ok(rc == EBADF || (rc == 0 && s.n == 1 && s.err == EBADF),
	   "a read of a write-only fd: EBADF (rc %d, err %d)", rc, s.err);
	rc = aioq_write(q, rd, buf, 4096, 0, -1);
	if (rc == 0)
		rc = aioq_wait(q);
	is_int(rc, EBADF, "an untagged write to a read-only fd: EBADF");
	is_int(aioq_wait(q), 0, "the failure is reported once");

	/* the end of the run: waited for, not reported */
	s.n = 0;
	for (int i = 0; i < 8; i++)
		aioq_read(q, fd, 4096, 0, 7, 0);
	aioq_free(q);
	is_int(s.n, 0, "aioq_free: requests in flight are not reported");

	close(fd);
	close(rd);
	close(wr);
	unlink(path);
	return tap_done();
}
