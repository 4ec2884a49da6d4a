/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The run clock, the start barrier and the stop flag (timeline.h); the
 * signals that set it are in timeline_signals.c.
 */
#include "engine/sys/timeline.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

struct timeline {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* ready count, start and stop changes */
	size_t nworkers, nready;
	bool started;
	uint64_t start_ns; /* written before the workers are released */
	atomic_bool stopping;
	enum stop_reason reason;
};

struct timeline *timeline_new(size_t nworkers)
{
	struct timeline *r = xcalloc(1, sizeof(*r));
	pthread_condattr_t ca;

	pthread_mutex_init(&r->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cond, &ca);
	pthread_condattr_destroy(&ca);
	r->nworkers = nworkers;
	atomic_init(&r->stopping, false);
	return r;
}

void timeline_free(struct timeline *r)
{
	if (!r)
		return;
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

void timeline_ready_wait(struct timeline *r)
{
	pthread_mutex_lock(&r->lock);
	r->nready++;
	pthread_cond_broadcast(&r->cond);
	while (!r->started && !atomic_load(&r->stopping))
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
}

uint64_t timeline_start(struct timeline *r,
			enum stop_reason (*gate)(void *arg,
						 enum stop_reason mine),
			void *arg)
{
	uint64_t t;

	pthread_mutex_lock(&r->lock);
	/* in slices: a signal meanwhile stops the start, within 0.1 s */
	while (r->nready < r->nworkers && !atomic_load(&r->stopping)) {
		uint64_t end = now_ns() + 100000000u;
		struct timespec ts = { (time_t)(end / 1000000000u),
				       (long)(end % 1000000000u) };

		if (timeline_signalled) {
			if (r->reason == STOP_NONE)
				r->reason = STOP_SIGNAL;
			atomic_store(&r->stopping, true);
			pthread_cond_broadcast(&r->cond);
			break;
		}
		pthread_cond_timedwait(&r->cond, &r->lock, &ts);
	}
	if (gate) {
		/* unlocked: the workers wait on the lock's condition meanwhile */
		enum stop_reason mine = atomic_load(&r->stopping) ?
						r->reason : STOP_NONE;
		enum stop_reason job;

		pthread_mutex_unlock(&r->lock);
		job = gate(arg, mine);
		pthread_mutex_lock(&r->lock);
		if (job != STOP_NONE && !atomic_load(&r->stopping)) {
			r->reason = job;
			atomic_store(&r->stopping, true);
		}
	}
	t = now_ns();
	r->start_ns = t;
	r->started = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return t;
}

void timeline_stop(struct timeline *r, enum stop_reason why)
{
	pthread_mutex_lock(&r->lock);
	if (r->reason == STOP_NONE)
		r->reason = why;
	atomic_store(&r->stopping, true);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

enum stop_reason timeline_reason(const struct timeline *r)
{
	return r->reason;
}

uint64_t timeline_start_ns(const struct timeline *r)
{
	return r->start_ns;
}

const atomic_bool *timeline_flag(const struct timeline *r)
{
	return &r->stopping;
}

bool timeline_stopping(const struct timeline *r)
{
	return atomic_load_explicit(&r->stopping, memory_order_relaxed);
}

bool timeline_sleep(struct timeline *r, uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	struct timespec ts = { (time_t)(end / 1000000000u),
			       (long)(end % 1000000000u) };
	bool full = true;

	pthread_mutex_lock(&r->lock);
	while (!atomic_load(&r->stopping)) {
		if (pthread_cond_timedwait(&r->cond, &r->lock, &ts) != 0 &&
		    now_ns() >= end)
			break;
	}
	full = !atomic_load(&r->stopping);
	pthread_mutex_unlock(&r->lock);
	return full;
}

/* The longest nap before the stop flag is looked at again (ns). */
#define NAP_NS 100000000u

bool timeline_sleep_until(const atomic_bool *stop, uint64_t at)
{
	for (;;) {
		uint64_t now = now_ns(), until;
		struct timespec ts;

		/* the flag first: a wait the stop came in is cut short */
		if (timeline_flag_set(stop))
			return false;
		if (now >= at)
			return true;
		until = at - now > NAP_NS ? now + NAP_NS : at;
		ts.tv_sec = (time_t)(until / 1000000000u);
		ts.tv_nsec = (long)(until % 1000000000u);
		/* EINTR or not, the loop looks at the time and the flag */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}
