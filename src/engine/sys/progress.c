/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The progress line of fileset creation and removal (progress.h). */
#include "engine/sys/progress.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/sys/timeline.h"
#include "util/util.h"

struct progress {
	FILE *tty;
	char *label;
	uint64_t total;
	uint64_t (*done)(const void *arg);
	const void *arg;
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* signalled by progress_stop */
	bool stop; /* under lock */
	int shown; /* width of the line on screen, 0 if none */
};

/*
 * The line: done (of total), and from the first second on the rate and
 * what is left; the first line, drawn at once, divides by next to no
 * time, so it says no rate.
 */
static void draw(struct progress *p, uint64_t t0)
{
	double secs = (double)(now_ns() - t0) / 1e9;
	uint64_t done = p->done(p->arg);
	double rate = secs >= 1 ? (double)done / secs : 0;
	char rs[96] = "";
	int n;

	if (rate > 0 && p->total && done <= p->total)
		snprintf(rs, sizeof(rs), ", %.0f/s, %.0f s left", rate,
			 (double)(p->total - done) / rate);
	else if (secs >= 1)
		snprintf(rs, sizeof(rs), ", %.0f/s", rate);
	if (p->total)
		n = fprintf(p->tty, "\r%s: %" PRIu64 " of %" PRIu64
				    " entries (%.0f%%)%s",
			    p->label, done, p->total,
			    100.0 * (double)done / (double)p->total, rs);
	else
		n = fprintf(p->tty, "\r%s: %" PRIu64 " entries%s", p->label,
			    done, rs);
	if (n > 0) {
		/* blank what is left of a longer previous line */
		if (n - 1 < p->shown)
			fprintf(p->tty, "%*s", p->shown - (n - 1), "");
		if (n - 1 > p->shown)
			p->shown = n - 1;
	}
	fflush(p->tty);
}

static void *progress_main(void *arg)
{
	struct progress *p = arg;
	uint64_t t0 = now_ns();
	struct timespec at;

	clock_gettime(CLOCK_MONOTONIC, &at);
	draw(p, t0);
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		at.tv_sec++;
		if (pthread_cond_timedwait(&p->cond, &p->lock, &at) == 0 ||
		    p->stop)
			continue;
		pthread_mutex_unlock(&p->lock);
		draw(p, t0);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct progress *progress_start(FILE *tty, const char *label, uint64_t total,
				uint64_t (*done)(const void *arg),
				const void *arg)
{
	struct progress *p;
	pthread_condattr_t ca;

	if (!tty)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->tty = tty;
	p->label = xstrdup(label);
	p->total = total;
	p->done = done;
	p->arg = arg;
	pthread_mutex_init(&p->lock, NULL);
	/* the waits are timed on the monotonic clock, like everything else */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&p->tid, NULL, progress_main, p) != 0) {
		pthread_cond_destroy(&p->cond);
		pthread_mutex_destroy(&p->lock);
		free(p->label);
		free(p);
		return NULL;
	}
	return p;
}

void progress_stop(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->tid, NULL);
	if (p->shown) {
		fprintf(p->tty, "\r%*s\r", p->shown, "");
		fflush(p->tty);
	}
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p->label);
	free(p);
}
