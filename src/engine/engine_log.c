/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The run's log lines, below engine.c and engine_filesets.c which both
 * write them.
 */
#include "engine/engine_int.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>

#include "engine/sys/timeline.h"
#include "util/util.h"

/* Log lines carry seconds since start, as filebench's do. */
void engine_log(struct engine *e, const char *fmt, ...)
{
	va_list ap;

	if (e->o->quiet)
		return;
	printf("%.3f: ", (double)(now_ns() - e->t0) / 1e9);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	/* nobody reads the lines any more: stop, as for SIGINT */
	if (fflush(stdout) == EOF && errno == EPIPE)
		timeline_interrupt(SIGPIPE);
}
