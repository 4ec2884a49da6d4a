#include "runctl.h"

#include <pthread.h>
#include <stdlib.h>

#include "util.h"

volatile sig_atomic_t runctl_signalled;

struct runctl {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* ready count, start and stop changes */
	size_t nworkers, nready;
	bool started;
	uint64_t start_ns; /* written before the workers are released */
	atomic_bool stopping;
	enum stop_reason reason;
};

struct runctl *runctl_new(size_t nworkers)
{
	struct runctl *r = xcalloc(1, sizeof(*r));
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

void runctl_free(struct runctl *r)
{
	if (!r)
		return;
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

void runctl_ready_wait(struct runctl *r)
{
	pthread_mutex_lock(&r->lock);
	r->nready++;
	pthread_cond_broadcast(&r->cond);
	while (!r->started && !atomic_load(&r->stopping))
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
}

uint64_t runctl_start(struct runctl *r)
{
	uint64_t t;

	pthread_mutex_lock(&r->lock);
	while (r->nready < r->nworkers && !atomic_load(&r->stopping))
		pthread_cond_wait(&r->cond, &r->lock);
	t = now_ns();
	r->start_ns = t;
	r->started = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return t;
}

void runctl_stop(struct runctl *r, enum stop_reason why)
{
	pthread_mutex_lock(&r->lock);
	if (r->reason == STOP_NONE)
		r->reason = why;
	atomic_store(&r->stopping, true);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

enum stop_reason runctl_reason(const struct runctl *r)
{
	return r->reason;
}

uint64_t runctl_start_ns(const struct runctl *r)
{
	return r->start_ns;
}

const atomic_bool *runctl_flag(const struct runctl *r)
{
	return &r->stopping;
}

bool runctl_stopping(const struct runctl *r)
{
	return atomic_load_explicit(&r->stopping, memory_order_relaxed);
}

bool runctl_sleep(struct runctl *r, uint64_t ns)
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
