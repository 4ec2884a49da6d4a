/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The baseline for bench/run: N threads of 4 KiB random pread on one file,
 * with two CLOCK_MONOTONIC reads per operation, as a harness needs at the
 * least.  Prints the operations per second of wall time, per second of
 * CPU time (user + system, all threads), and the user time per operation
 * in microseconds.
 *
 *   rawread FILE SECONDS THREADS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rawclock.h"

static int fd;
static uint64_t nblocks, deadline;

static void *loop(void *arg)
{
	uint64_t x = (uintptr_t)arg * 0x9e3779b97f4a7c15ull + 1, ops = 0;
	uint64_t lat = 0;
	char *buf = aligned_alloc(4096, 4096);

	for (;;) {
		uint64_t t0, t1;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		t0 = now();
		if (pread(fd, buf, 4096, (off_t)((x % nblocks) * 4096)) != 4096)
			abort();
		t1 = now();
		lat += t1 - t0;
		ops++;
		if (t1 >= deadline)
			break;
	}
	free(buf);
	return (void *)(uintptr_t)(ops + (lat & 0)); /* lat kept live */
}

int main(int argc, char **argv)
{
	struct stat sb;
	pthread_t th[64];
	uint64_t total = 0, start;
	double all, user;
	int n;

	if (argc != 4 || (n = atoi(argv[3])) < 1 || n > 64) {
		fprintf(stderr, "usage: rawread FILE SECONDS THREADS\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &sb) < 0 || sb.st_size < 4096) {
		perror(argv[1]);
		return 1;
	}
	nblocks = (uint64_t)sb.st_size / 4096;
	start = now();
	deadline = start + (uint64_t)atoi(argv[2]) * 1000000000u;
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, loop, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < n; i++) {
		void *r;

		pthread_join(th[i], &r);
		total += (uintptr_t)r;
	}
	user = cpu_seconds(&all);
	printf("%.0f %.0f %.4f\n", (double)total / ((double)(now() - start) / 1e9),
	       (double)total / all, user / (double)total * 1e6);
	return 0;
}
