/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The baseline for bench/run's fileset preparation: one thread makes the
 * directories of DIRLIST, then creates each file of FILELIST and writes
 * SIZE bytes to it, in order, opening each directory once; the paths are
 * those of a tree fbrun made, relative to ROOT (files grouped by
 * directory, as find lists them).  Prints the seconds it took.
 *
 *   rawprep ROOT DIRLIST FILELIST SIZE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static FILE *open_list(const char *name)
{
	FILE *f = fopen(name, "r");

	if (!f) {
		perror(name);
		exit(1);
	}
	return f;
}

int main(int argc, char **argv)
{
	char line[4096], cur[4096] = "", *buf;
	FILE *dirs, *files;
	double t0;
	size_t size;
	int root, dfd = -1;

	if (argc != 5) {
		fprintf(stderr, "usage: rawprep ROOT DIRLIST FILELIST SIZE\n");
		return 2;
	}
	size = (size_t)atol(argv[4]);
	buf = malloc(size ? size : 1);
	memset(buf, 0xa5, size);
	if (mkdir(argv[1], 0755) < 0 ||
	    (root = open(argv[1], O_RDONLY | O_DIRECTORY)) < 0) {
		perror(argv[1]);
		return 1;
	}
	dirs = open_list(argv[2]);
	files = open_list(argv[3]);
	t0 = now();
	while (fgets(line, sizeof(line), dirs)) {
		line[strcspn(line, "\n")] = '\0';
		if (mkdirat(root, line, 0755) < 0) {
			perror(line);
			return 1;
		}
	}
	/* files come grouped by directory: open each one once, as fbrun does */
	while (fgets(line, sizeof(line), files)) {
		char *slash;
		int fd;

		line[strcspn(line, "\n")] = '\0';
		slash = strrchr(line, '/');
		*slash = '\0';
		if (strcmp(line, cur) != 0) {
			if (dfd >= 0)
				close(dfd);
			dfd = openat(root, line, O_PATH | O_DIRECTORY);
			snprintf(cur, sizeof(cur), "%s", line);
		}
		fd = openat(dfd, slash + 1, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || write(fd, buf, size) != (ssize_t)size ||
		    close(fd) < 0) {
			perror(slash + 1);
			return 1;
		}
	}
	printf("%.3f\n", now() - t0);
	return 0;
}
