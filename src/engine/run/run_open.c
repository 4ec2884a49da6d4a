/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The open loop's arrivals of each worker (run_open.h): their rates and
 * phases from rate= (or fbrun curve's load), started with the clock,
 * closed after the run.
 */
#include "engine/run/run_open.h"

#include <stdlib.h>
#include <sys/prctl.h>

#include "engine/worker/arrivals.h"
#include "engine/worker/run_state.h"
#include "engine/worker/worker.h"
#include "util/util.h"

/* Mixed into each worker's seed for its arrivals' draws, apart from its ops'. */
#define ARRIVAL_SEED 0x6f70656e6c6f6f70ull

/*
 * The phase, 0 to 1 of a gap, of member m of s that share one rate, in
 * copy c of n of them: the members' arrivals interleave evenly, and the
 * copies' fall between, so no two fixed arrivals come at once.
 */
static double phase_of(int64_t m, int64_t s, int64_t c, int64_t n)
{
	return ((double)m + (double)c / (double)n) / (double)s;
}

static struct arrivals *arrivals_new(const struct run *run,
				     const struct worker *wk,
				     const struct ir_rate *r, double rate,
				     double phase, int salt)
{
	struct arrivals *a = xcalloc(1, sizeof(*a));
	int kind = run->opts->load.arrivals;
	bool poisson = (kind ? kind - 1 : r->arrivals) == IR_ARRIVALS_POISSON;

	arrivals_init(a, rate, poisson, phase, (uint64_t)r->backlog,
		      rv_mix64(wk->seed ^ ARRIVAL_SEED ^ (uint64_t)(salt + 1)));
	return a;
}

/* What a process's rate= is, for a share of it (all when alone). */
static double share_of_job(const struct run *run, const struct ir_rate *r,
			int64_t *members, int64_t *m)
{
	const struct engine_peers *pe = run->opts->peers;

	if (!r->per_job)
		return r->per_sec;
	*m += (int64_t)pe->rank * *members;
	*members *= (int64_t)pe->nranks;
	return r->per_sec;
}

int run_open_init(struct run *run, struct worker *wk,
		  const struct open_place *pl)
{
	const struct workload *w = run->w;
	const struct ir_thread *t = wk->thread;
	const struct ir_process *p = &w->processes[t->process];
	int64_t copies = pl->npinst * pl->ntinst;
	int64_t copy = pl->pinst * pl->ntinst + pl->tinst;

	if (t->rate.per_sec > 0) {
		int64_t s = 1, m = 0;
		double rate = share_of_job(run, &t->rate, &s, &m);

		wk->pass = arrivals_new(run, wk, &t->rate, rate / (double)s,
					phase_of(m, s, copy, copies), -1);
	} else if (p->rate.per_sec > 0) {
		/* the process instance's threads share its rate */
		int64_t s = pl->nmembers, m = pl->member;
		double rate = share_of_job(run, &p->rate, &s, &m);

		wk->pass = arrivals_new(run, wk, &p->rate, rate / (double)s,
					phase_of(m, s, pl->pinst, pl->npinst),
					-1);
	}
	for (size_t i = t->flowop_first; i < t->flowop_end; i++) {
		const struct ir_flowop *f = w->flowops[i];
		int64_t s = 1, m = 0;
		double rate;

		if (f->rate.per_sec <= 0)
			continue;
		if (!wk->fo_arr)
			wk->fo_arr = xcalloc(w->nflowops, sizeof(*wk->fo_arr));
		rate = share_of_job(run, &f->rate, &s, &m);
		wk->fo_arr[i] = arrivals_new(run, wk, &f->rate,
					     rate / (double)s,
					     phase_of(m, s, copy, copies),
					     (int)i);
	}
	wk->rated = wk->pass || wk->fo_arr;
	return 0;
}

/* Every arrivals of every worker, in turn. */
#define EACH_ARRIVALS(run, a, body)                                            \
	for (size_t k_ = 0; k_ < (run)->nworkers; k_++) {                       \
		struct worker *wk_ = &(run)->workers[k_];                      \
		struct arrivals *a;                                            \
		if ((a = wk_->pass) != NULL) {                                 \
			body;                                                  \
		}                                                              \
		for (size_t f_ = 0; wk_->fo_arr && f_ < (run)->w->nflowops;    \
		     f_++)                                                     \
			if ((a = wk_->fo_arr[f_]) != NULL) {                   \
				body;                                          \
			}                                                      \
	}

static void set_rate(struct arrivals *a, double rate)
{
	a->rate = rate;
	a->gap_ns = rate > 0 ? 1e9 / rate : 0;
}

/*
 * fbrun curve's load in place of the script's rates: a total shared in
 * their proportions, or by every worker's passes evenly when the script
 * has none; or closed loops that count their passes.
 */
void run_open_load(struct run *run)
{
	const struct open_load_opts *lo = &run->opts->load;
	double total = 0;

	if (lo->kind == OPEN_SCRIPT)
		return;
	EACH_ARRIVALS(run, a, total += a->rate);
	if (total <= 0) {
		static const struct ir_rate even = { .backlog = 1000000 };

		for (size_t k = 0; k < run->nworkers; k++) {
			struct worker *wk = &run->workers[k];

			wk->pass = arrivals_new(run, wk, &even, 0,
						(double)k / (double)run->nworkers,
						-1);
			wk->rated = true;
		}
		EACH_ARRIVALS(run, a, total += 1);
	}
	EACH_ARRIVALS(run, a,
		      set_rate(a, lo->kind == OPEN_CLOSED ?
					  0 :
					  lo->rate * (a->rate > 0 ? a->rate : 1) /
						  total));
}

void run_open_start(struct worker *wk, uint64_t t0)
{
	if (!wk->rated)
		return;
	/*
	 * Sleeps end up to the timer slack late (50 us by default), and each
	 * arrival's lateness is in its response time: ask for the least.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (wk->pass)
		arrivals_start(wk->pass, t0);
	for (size_t i = 0; wk->fo_arr && i < wk->w->nflowops; i++)
		if (wk->fo_arr[i])
			arrivals_start(wk->fo_arr[i], t0);
}

void run_open_close(struct run *run)
{
	EACH_ARRIVALS(run, a, arrivals_close(a, run->end_ns));
}

void run_open_free(struct worker *wk, size_t nflowops)
{
	if (wk->pass)
		arrivals_free(wk->pass);
	free(wk->pass);
	wk->pass = NULL;
	for (size_t i = 0; wk->fo_arr && i < nflowops; i++) {
		if (wk->fo_arr[i])
			arrivals_free(wk->fo_arr[i]);
		free(wk->fo_arr[i]);
	}
	free(wk->fo_arr);
	wk->fo_arr = NULL;
}
