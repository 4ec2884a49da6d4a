/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A progress line on a terminal for work that is not the measured run:
 * creating and removing filesets.  Its own thread draws it at once and
 * then once a second, from a counter the work advances; stopping it
 * clears the line.
 */
#ifndef FBRUN_PROGRESS_H
#define FBRUN_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

struct progress;

/*
 * Count done(arg) against total (0: unknown, no percentage or time
 * left) under label, on tty.  NULL if tty is NULL or no thread could be
 * started: the work goes on without a line.
 */
struct progress *progress_start(FILE *tty, const char *label, uint64_t total,
				uint64_t (*done)(const void *arg),
				const void *arg);

/* Stop the thread and clear the line; NULL is fine. */
void progress_stop(struct progress *p);

#endif
