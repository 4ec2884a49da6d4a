/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* An open loop's arrivals, their backlog and counts (arrivals.h). */
#include "engine/worker/arrivals.h"

#include <stdlib.h>
#include <string.h>

#include "engine/sys/timeline.h"
#include "util/util.h"

/* Relaxed, as fstats' count: the monitor reads the counts mid-run. */
#define BUMP(a, field, by)                                                     \
	__atomic_store_n(&(a)->n.field, (a)->n.field + (by), __ATOMIC_RELAXED)

/* The backlog's ring starts this long and doubles up to the limit. */
#define RING_MIN 64

void arrivals_init(struct arrivals *a, double rate, bool poisson,
		   double phase, uint64_t limit, uint64_t seed)
{
	memset(a, 0, sizeof(*a));
	a->rate = rate;
	a->gap_ns = rate > 0 ? 1e9 / rate : 0;
	a->poisson = poisson;
	a->phase = phase;
	a->limit = limit;
	rv_rng_seed(&a->rng, seed);
}

/*
 * A time from now in ns, held to 30 years: a rate shared thinly enough
 * (fbrun curve's least level over many threads) has gaps no run sees the
 * end of, and a double past 2^64 has no integer.
 */
static uint64_t ns_of(double x)
{
	return x < 1e18 ? (uint64_t)x : (uint64_t)1e18;
}

/* Fixed: arrival k's time, from the origin, so no error accumulates. */
static uint64_t fixed_due(const struct arrivals *a, uint64_t k)
{
	return a->origin + ns_of(((double)k + a->phase) * a->gap_ns);
}

static void advance(struct arrivals *a)
{
	if (a->poisson)
		a->due += ns_of(rv_exp(&a->rng, a->gap_ns));
	else
		a->due = fixed_due(a, ++a->k);
}

void arrivals_start(struct arrivals *a, uint64_t t0)
{
	a->started = true;
	a->origin = t0;
	a->k = 0;
	a->due = a->poisson ? t0 + ns_of(rv_exp(&a->rng, a->gap_ns)) :
			      fixed_due(a, 0);
}

static void push(struct arrivals *a, uint64_t t)
{
	if (a->qlen == a->qcap) {
		/* only when the thread is behind, outside any timed window */
		size_t cap = a->qcap ? a->qcap * 2 : RING_MIN;
		uint64_t *q = xcalloc(cap, sizeof(*q));

		for (size_t i = 0; i < a->qlen; i++)
			q[i] = a->q[(a->qhead + i) % a->qcap];
		free(a->q);
		a->q = q;
		a->qcap = cap;
		a->qhead = 0;
	}
	a->q[(a->qhead + a->qlen++) % a->qcap] = t;
	if (a->qlen > a->n.most_waiting)
		__atomic_store_n(&a->n.most_waiting, a->qlen, __ATOMIC_RELAXED);
}

static uint64_t pop(struct arrivals *a)
{
	uint64_t t = a->q[a->qhead];

	a->qhead = (a->qhead + 1) % a->qcap;
	a->qlen--;
	return t;
}

/*
 * The arrivals due by now join the backlog while it has room; the others
 * are dropped.  With the backlog full, a fixed rate's drops are counted
 * at once, but for the last, whose time is rounded: a long stall at a
 * high rate costs no loop.
 */
static void admit(struct arrivals *a, uint64_t now)
{
	while (a->due <= now) {
		if (a->qlen >= a->limit && !a->poisson) {
			double last = (double)(now - a->origin) / a->gap_ns -
				      a->phase;

			if (last > (double)a->k + 1) {
				uint64_t n = (uint64_t)last - a->k;

				BUMP(a, offered, n);
				BUMP(a, dropped, n);
				a->k += n;
				a->due = fixed_due(a, a->k);
				continue;
			}
		}
		BUMP(a, offered, 1);
		if (a->qlen < a->limit)
			push(a, a->due);
		else
			BUMP(a, dropped, 1);
		advance(a);
	}
}

bool arrivals_take(struct arrivals *a, const atomic_bool *stop)
{
	uint64_t now, t;

	if (a->rate <= 0) { /* closed: each one at once, as a pass starts */
		if (timeline_flag_set(stop))
			return false;
		BUMP(a, offered, 1);
		a->lag_ns = 0;
		a->busy = true;
		return true;
	}
	now = now_ns();
	admit(a, now);
	if (a->qlen) {
		/* it came while the thread was busy (not starting): it waited */
		if (a->worked)
			BUMP(a, late, 1);
		t = pop(a);
	} else {
		/* the thread is idle: the next one starts when it is due */
		if (!timeline_sleep_until(stop, a->due))
			return false;
		now = now_ns();
		t = a->due;
		BUMP(a, offered, 1);
		a->n.woken++;
		a->n.wake_ns += now - t;
		if (now - t > a->n.wake_max_ns)
			a->n.wake_max_ns = now - t;
		advance(a);
		admit(a, now); /* those due while it overslept wait */
	}
	a->lag_ns = now > t ? now - t : 0;
	a->busy = a->worked = true;
	return true;
}

void arrivals_warm_end(struct arrivals *a)
{
	uint64_t held = a->qlen + (a->busy ? 1 : 0);

	memset(&a->n, 0, sizeof(a->n));
	a->n.offered = held;
	a->n.most_waiting = a->qlen;
}

void arrivals_close(struct arrivals *a, uint64_t end_ns)
{
	if (a->started && a->rate > 0)
		admit(a, end_ns);
	a->n.unserved = a->qlen + (a->busy ? 1 : 0);
}

void arrivals_free(struct arrivals *a)
{
	free(a->q);
	a->q = NULL;
	a->qlen = a->qcap = 0;
}
