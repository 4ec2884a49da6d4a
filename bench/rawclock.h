/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The clocks bench/run's baseline loops read: the process's CPU time and
 * CLOCK_MONOTONIC.  Included by each loop's single source file.
 */
#ifndef FBRUN_BENCH_RAWCLOCK_H
#define FBRUN_BENCH_RAWCLOCK_H

#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

/* User time of the whole process; *all: user + system. */
static double cpu_seconds(double *all)
{
	struct rusage ru;
	double user;

	getrusage(RUSAGE_SELF, &ru);
	user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*all = user + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
	return user;
}

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
