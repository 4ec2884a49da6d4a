/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The baseline for bench/run's seq: bonnie++'s sequential phases as bare
 * loops, each call between two CLOCK_MONOTONIC reads as a harness needs
 * at the least.  The calls are the ones bonnie++ (and fbrun bonnie) make:
 *
 *   putc     create FILE anew, write() one byte at a time, fsync, close
 *   write    create FILE anew, write() CHUNK bytes at a time, fsync, close
 *   rewrite  open FILE, then read(), lseek() back, write() CHUNK bytes
 *   getc     open FILE, read() one byte at a time
 *   read     open FILE, read() CHUNK bytes at a time
 *
 * over BYTES bytes (a whole number of CHUNKs).  Prints the MiB/s of wall
 * time, the MiB per second of CPU time (user + system) and the user time
 * per call in microseconds.
 *
 *   rawseq MODE FILE BYTES CHUNK
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rawclock.h"

static void die(const char *what)
{
	perror(what);
	exit(1);
}

enum mode { PUTC, WRITE, REWRITE, GETC, READ, NMODES };
static const char *const modes[NMODES] = { "putc", "write", "rewrite",
					   "getc", "read" };

int main(int argc, char **argv)
{
	const char *path;
	uint64_t bytes, chunk, calls, start, lat = 0;
	double user0, all0, user1, all1, secs;
	int fd, writes, bytewise;
	enum mode m = 0;
	char *buf;

	if (argc != 5 || (bytes = strtoull(argv[3], NULL, 10)) == 0 ||
	    (chunk = strtoull(argv[4], NULL, 10)) == 0 || bytes % chunk) {
		fprintf(stderr, "usage: rawseq putc|write|rewrite|getc|read "
				"FILE BYTES CHUNK\n");
		return 2;
	}
	while (m < NMODES && strcmp(argv[1], modes[m]))
		m++;
	if (m == NMODES) {
		fprintf(stderr, "rawseq: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	path = argv[2];
	writes = m == PUTC || m == WRITE;
	bytewise = m == PUTC || m == GETC;
	if (posix_memalign((void **)&buf, 4096, chunk))
		die("posix_memalign");
	memset(buf, 0, chunk);
	calls = bytewise ? bytes : bytes / chunk;
	user0 = cpu_seconds(&all0);
	start = now();
	/* bonnie++ unlinks and creates the file anew for each write phase */
	if (writes && unlink(path) < 0 && errno != ENOENT)
		die("unlink");
	fd = writes ? open(path, O_CREAT | O_EXCL | O_WRONLY, 0600) :
		      open(path, m == REWRITE ? O_RDWR : O_RDONLY);
	if (fd < 0)
		die(path);
	for (uint64_t i = 0; i < calls; i++) {
		uint64_t t0 = now(), t1;
		ssize_t n;

		switch (m) {
		case PUTC:
			n = write(fd, buf, 1);
			break;
		case GETC:
			n = read(fd, buf, 1);
			break;
		case WRITE:
			buf[i % chunk]++; /* as bonnie++: a byte changed per chunk */
			n = write(fd, buf, chunk);
			break;
		case READ:
			n = read(fd, buf, chunk);
			break;
		default: /* REWRITE */
			n = read(fd, buf, chunk);
			if (n == (ssize_t)chunk &&
			    lseek(fd, -(off_t)chunk, SEEK_CUR) >= 0) {
				buf[i % chunk]++;
				n = write(fd, buf, chunk);
			}
		}
		t1 = now();
		if (n != (ssize_t)(bytewise ? 1 : chunk))
			die(modes[m]);
		lat += t1 - t0;
	}
	if ((writes && fsync(fd) < 0) || close(fd) < 0)
		die(path);
	secs = (double)(now() - start) / 1e9;
	user1 = cpu_seconds(&all1);
	printf("%.6g %.6g %.4f\n", (double)bytes / secs / 1048576.0,
	       (double)bytes / (all1 - all0) / 1048576.0,
	       (user1 - user0) / (double)calls * 1e6 + (double)(lat & 0));
	return 0;
}
