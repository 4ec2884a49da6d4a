/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * An open loop's arrivals (rate= of a thread, a process or a flowop;
 * doc/running.md, "Open loop"): each arrival's intended time, set from
 * the start and never moved by when earlier ones completed; a FIFO
 * backlog of those that came while the thread was busy, up to backlog=,
 * later ones dropped; and their counts.  One per rated source in each
 * worker, used by that worker alone (its counts are stored relaxed, so
 * the monitor may read them).
 */
#ifndef FBRUN_ARRIVALS_H
#define FBRUN_ARRIVALS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lang/rand.h"

/*
 * What became of the arrivals of the measured run: offered (due in it,
 * with those waiting when it began) = done + dropped + unserved.
 */
struct arrival_counts {
	uint64_t offered;
	uint64_t done; /* their work completed */
	uint64_t late; /* of those started, the ones that waited in the backlog */
	uint64_t dropped; /* came with the backlog full */
	uint64_t unserved; /* waiting, or cut short, when the run ended */
	uint64_t most_waiting; /* the longest the backlog was */
	/*
	 * The arrivals started on time (the thread idle, asleep until
	 * then): how late it woke for them, the client's own delay.
	 */
	uint64_t woken, wake_ns, wake_max_ns;
};

/*
 * The load offered in place of the script's rate= (fbrun curve): the
 * script's own; a total rate of arrivals a second, shared by the rated
 * sources in the script's proportions (by every thread's passes, evenly,
 * when none is rated); or none, the same sources run as closed loops
 * whose arrivals are counted, to measure the most they complete.
 */
enum open_load { OPEN_SCRIPT, OPEN_RATE, OPEN_CLOSED };
struct open_load_opts {
	enum open_load kind;
	double rate; /* OPEN_RATE: arrivals a second, in all */
	/* 1 + IR_ARRIVALS_*, or 0: each source's own (fixed where none) */
	int arrivals;
};

struct arrivals {
	double rate; /* arrivals per second; 0: closed, each at once */
	double gap_ns; /* 1e9 / rate */
	bool poisson;
	double phase; /* fixed: arrival k is due at origin + (k + phase) gaps */
	uint64_t origin, k;
	uint64_t due; /* the next arrival's intended time, not yet admitted */
	struct rv_rng rng; /* poisson's gaps */
	uint64_t *q; /* the backlog: intended times, a ring */
	size_t qcap, qhead, qlen;
	uint64_t limit; /* backlog=: how many may wait, beside the one in hand */
	bool started; /* arrivals_start was called */
	bool busy; /* an arrival taken, its work not done */
	bool worked; /* one was taken: those waiting now came while busy */
	uint64_t lag_ns; /* the arrival taken: its start less its intended time */
	struct arrival_counts n;
};

/*
 * rate arrivals a second, evenly spaced (at phase, 0 to 1, of a gap
 * after the start) or poisson (drawn from seed), with limit of them
 * waiting at most.
 */
void arrivals_init(struct arrivals *a, double rate, bool poisson,
		   double phase, uint64_t limit, uint64_t seed);
/* The clock started at t0: the first arrival is due from there. */
void arrivals_start(struct arrivals *a, uint64_t t0);
/*
 * The next arrival: the oldest in the backlog, else the next one, slept
 * for until it is due (outside any op's timed window); lag_ns set.  False
 * if the stop flag came first.
 */
bool arrivals_take(struct arrivals *a, const atomic_bool *stop);

/* The work of the arrival taken is done. */
static inline void arrivals_done(struct arrivals *a)
{
	a->busy = false;
	__atomic_store_n(&a->n.done, a->n.done + 1, __ATOMIC_RELAXED);
}

/*
 * The warm-up is over: the counts start again, the arrivals waiting (and
 * the one in hand) offered to the measured run.
 */
void arrivals_warm_end(struct arrivals *a);
/*
 * After the run, which ended at end_ns: the arrivals due by then and the
 * ones waiting are counted (offered, dropped as they would have been,
 * unserved).
 */
void arrivals_close(struct arrivals *a, uint64_t end_ns);
void arrivals_free(struct arrivals *a);

#endif
