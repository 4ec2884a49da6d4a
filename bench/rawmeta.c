/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The baseline for bench/run's metadata benchmarks: N threads doing, on
 * the paths of a tree fbrun made, the syscalls fbrun's flowops issue, each
 * between two CLOCK_MONOTONIC reads as a harness needs at the least.
 * Prints iterations per second of wall time, per second of CPU time, and
 * the user time per iteration in microseconds (one iteration: one stat; an
 * open, an fstat and a close; a create, a close and a delete).
 *
 *   rawmeta stat|open|open-nocheck ROOT LIST SECONDS THREADS [BLOCK]
 *   rawmeta create ROOT LIST SECONDS THREADS [LIVE]
 *
 * LIST holds paths relative to ROOT, one a line: files for stat and open,
 * directories for create (the thread makes its own names in them).  As
 * fbrun's deletefile, create removes a name in its directory through an
 * fd for the directory opened beneath the root before the clock starts
 * (fbrun keeps the one it is working in).
 *
 * open checks what it opened as a careful program must before using a
 * file at a name someone else could replace (and as fbrun's openfile
 * does): O_NONBLOCK and O_NOCTTY, so a FIFO or a tty planted there cannot
 * hold it, and an fstat of the descriptor, refusing what is not a regular
 * file of one name.  open-nocheck is the bare open and close.
 *
 * Each thread walks the list from its own place in it; with BLOCK, stat
 * and open threads instead take BLOCK consecutive paths at a time from a
 * shared counter, the order fbrun hands entries out in.  create keeps
 * LIVE files in all (default: half the list per thread), each deleted
 * LIVE creates after it was made: a fileset's existing files, as many.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rawclock.h"

enum { STAT, OPEN, CREATE, OPEN_NOCHECK };

static int root, mode, nthreads;
static int *dirfds; /* create: the listed directories, opened beneath */
static char **paths;
static size_t npaths;
static uint64_t deadline;
static size_t block;              /* 0: each thread its own place */
static _Atomic uint64_t rotor;     /* with block: the next block */
static uint64_t live;              /* create: files kept, per thread */

/* fbrun opens beneath the fileset root, refusing symlinks: the same call. */
static int open_beneath(const char *rel, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW | O_LARGEFILE),
		.mode = flags & O_CREAT ? 0644 : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
	};

	return (int)syscall(SYS_openat2, root, rel, &how, sizeof(how));
}

static void timed_close(int fd, uint64_t *lat)
{
	uint64_t t0 = now();

	if (close(fd) < 0)
		abort();
	*lat += now() - t0;
}

/*
 * create: names r<thread>-<n> in the listed directories, round-robin,
 * each thread from its own place in the list (as for stat and open), so
 * threads do not queue on one directory's lock; the file made half the
 * list ago is deleted, so the population holds.
 */
static size_t dir_of(long t, uint64_t n)
{
	return (size_t)((n + (uint64_t)t * (npaths / (uint64_t)nthreads)) % npaths);
}

static void created_name(char *buf, size_t len, long t, uint64_t n)
{
	snprintf(buf, len, "%s/r%ld-%llu", paths[dir_of(t, n)], t,
		 (unsigned long long)n);
}

/* The same name alone, in its directory dirfds[dir_of(t, n)]. */
static void created_base(char *buf, size_t len, long t, uint64_t n)
{
	snprintf(buf, len, "r%ld-%llu", t, (unsigned long long)n);
}

static uint64_t lag_of(void)
{
	return live ? live : npaths / 2 ? npaths / 2 : 1;
}

/* create starts at its steady state, untimed: half its names exist. */
static void precreate(long t)
{
	char name[4096];

	for (uint64_t n = 0; n < lag_of(); n++) {
		int fd;

		created_name(name, sizeof(name), t, n);
		if ((fd = open_beneath(name, O_RDWR | O_CREAT)) < 0 || close(fd))
			abort();
	}
}

/* The first path of the next block from the shared counter. */
static uint64_t next_block(void)
{
	uint64_t nblocks = (npaths + block - 1) / block;

	return rotor++ % nblocks * block;
}

static void *loop(void *arg)
{
	long t = (long)(intptr_t)arg;
	uint64_t i = block ? next_block()
			   : (uint64_t)t * (npaths / (uint64_t)nthreads);
	uint64_t iters = 0;
	uint64_t lag = lag_of(), made = mode == CREATE ? lag : 0, lat = 0;
	char name[4096], old[4096];
	struct stat sb;

	for (;;) {
		uint64_t t0, t1;
		int fd;

		if (mode == STAT) {
			t0 = now();
			if (fstatat(root, paths[i], &sb, AT_SYMLINK_NOFOLLOW) < 0)
				abort();
			t1 = now();
			lat += t1 - t0;
		} else if (mode == OPEN) {
			t0 = now();
			if ((fd = open_beneath(paths[i], O_RDWR | O_NONBLOCK |
								 O_NOCTTY)) < 0 ||
			    fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
			    sb.st_nlink != 1)
				abort();
			lat += now() - t0;
			timed_close(fd, &lat);
			t1 = now();
		} else if (mode == OPEN_NOCHECK) {
			t0 = now();
			if ((fd = open_beneath(paths[i], O_RDWR)) < 0)
				abort();
			lat += now() - t0;
			timed_close(fd, &lat);
			t1 = now();
		} else {
			uint64_t gone = made - lag;

			created_name(name, sizeof(name), t, made);
			created_base(old, sizeof(old), t, gone);
			made++;
			t0 = now();
			if ((fd = open_beneath(name, O_RDWR | O_CREAT)) < 0)
				abort();
			lat += now() - t0;
			timed_close(fd, &lat);
			t0 = now();
			if (unlinkat(dirfds[dir_of(t, gone)], old, 0) < 0)
				abort();
			t1 = now();
			lat += t1 - t0;
		}
		if (block && (++i % block == 0 || i == npaths))
			i = next_block();
		else if (!block && ++i == npaths)
			i = 0;
		iters++;
		if (t1 >= deadline)
			break;
	}
	if (mode == CREATE) /* leave the tree as it was */
		for (uint64_t n = made - lag; n < made; n++) {
			created_name(name, sizeof(name), t, n);
			unlinkat(root, name, 0);
		}
	return (void *)(uintptr_t)(iters + (lat & 0)); /* lat kept live */
}

static int read_list(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[4096];
	size_t cap = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (npaths == cap) {
			cap = cap ? cap * 2 : 1024;
			paths = realloc(paths, cap * sizeof(*paths));
			if (!paths)
				return -1;
		}
		paths[npaths++] = strdup(line);
	}
	fclose(f);
	return npaths ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "stat", "open", "create",
					     "open-nocheck" };
	pthread_t th[256];
	uint64_t total = 0, start;
	double all0, all, user0, user;

	if (argc < 6 || argc > 7 || (nthreads = atoi(argv[5])) < 1 ||
	    nthreads > 256 || (argc == 7 && atoi(argv[6]) < 1)) {
		fprintf(stderr, "usage: rawmeta stat|open|open-nocheck|create "
				"ROOT LIST SECONDS THREADS [BLOCK|LIVE]\n");
		return 2;
	}
	for (mode = 0; mode < 4 && strcmp(argv[1], modes[mode]); mode++)
		;
	if (mode == 4) {
		fprintf(stderr, "rawmeta: unknown mode %s\n", argv[1]);
		return 2;
	}
	/* create keeps to its names' directories (dir_of) */
	block = argc == 7 && mode != CREATE ? (size_t)atoi(argv[6]) : 0;
	live = argc == 7 && mode == CREATE ?
		       ((uint64_t)atoi(argv[6]) + (uint64_t)nthreads - 1) /
			       (uint64_t)nthreads :
		       0;
	root = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (root < 0 || read_list(argv[3]) < 0) {
		perror(root < 0 ? argv[2] : argv[3]);
		return 1;
	}
	if (mode == CREATE) {
		dirfds = calloc(npaths, sizeof(*dirfds));
		for (size_t i = 0; dirfds && i < npaths; i++)
			if ((dirfds[i] = open_beneath(paths[i], O_PATH | O_DIRECTORY)) < 0)
				abort();
		for (long i = 0; i < nthreads; i++)
			precreate(i);
	}
	user0 = cpu_seconds(&all0); /* the setup's is not counted */
	start = now();
	deadline = start + (uint64_t)atoi(argv[4]) * 1000000000u;
	for (long i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, loop, (void *)(intptr_t)i);
	for (int i = 0; i < nthreads; i++) {
		void *r;

		pthread_join(th[i], &r);
		total += (uintptr_t)r;
	}
	user = cpu_seconds(&all) - user0;
	printf("%.0f %.0f %.4f\n", (double)total / ((double)(now() - start) / 1e9),
	       (double)total / (all - all0), user / (double)total * 1e6);
	return 0;
}
