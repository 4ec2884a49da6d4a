/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A worker thread's upkeep outside its flowops (worker.h): the CPU clock
 * reads of sampled ops and their cost, its files closed (and unmapped)
 * at the end.
 */
#include "engine/worker/worker.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>

#include "engine/worker/arrivals.h"
#include "engine/worker/run_state.h"
#include "util/util.h"

/*
 * The first read is where the scheduler finds out that the time slice is
 * over, and the thread is switched out on its way back: the CPU time is
 * counted from the second, so it does not hold the switch.
 */
void worker_cpu_start(struct worker *wk)
{
	thread_cpu_ns();
	wk->cpu0 = thread_cpu_ns();
}

/* The part of the last compute after `at`: a warm-up's end, measured. */
static uint64_t compute_after(const struct worker *wk, uint64_t at)
{
	if (wk->compute_t1 <= at)
		return 0;
	return wk->compute_t1 - (wk->compute_t0 > at ? wk->compute_t0 : at);
}

void worker_warm_end(struct worker *wk)
{
	size_t n = wk->w->nflowops;

	wk->warm = xcalloc(n ? n : 1, sizeof(*wk->warm));
	for (size_t f = 0; f < n; f++) {
		struct fstats *s = &wk->stats[f];

		wk->warm[f] = *s; /* the histogram's groups go with it */
		memset(&s->hist, 0, sizeof(s->hist));
		s->resp = NULL; /* went with the rest */
		/* what other threads read while the run goes on */
		__atomic_store_n(&s->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->bytes, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->errors, 0, __ATOMIC_RELAXED);
		s->lat_sum = s->lat_max = s->cpu_ns = s->cpu_samples = 0;
		s->lat_min = UINT64_MAX;
		memset(s->err_no, 0, sizeof(s->err_no));
		memset(s->err_count, 0, sizeof(s->err_count));
		s->err_other = s->waits = s->wait_ns = 0;
	}
	atomic_store_explicit(&wk->io_ops, 0, memory_order_relaxed);
	atomic_store_explicit(&wk->io_bytes, 0, memory_order_relaxed);
	atomic_store_explicit(&wk->rw_ops, 0, memory_order_relaxed);
	wk->compute_ns = compute_after(wk, atomic_load_explicit(
					       &wk->run->window_ns,
					       memory_order_relaxed));
	if (wk->pass)
		arrivals_warm_end(wk->pass);
	for (size_t f = 0; wk->fo_arr && f < n; f++)
		if (wk->fo_arr[f])
			arrivals_warm_end(wk->fo_arr[f]);
	wk->warming = false;
	atomic_store_explicit(&wk->measuring, true, memory_order_release);
}

void worker_calibrate(struct worker *wk)
{
	uint64_t wall = UINT64_MAX, bare = UINT64_MAX, cpu = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t t0 = now_ns(), c0, c1, t1, t2;

		worker_cpu_start(wk); /* the reads of a sampled op, back to back */
		c0 = wk->cpu0;
		c1 = thread_cpu_ns();
		t1 = now_ns();
		t2 = now_ns();

		if (t1 - t0 < wall)
			wall = t1 - t0;
		if (t2 - t1 < bare)
			bare = t2 - t1;
		if (c1 - c0 < cpu)
			cpu = c1 - c0;
	}
	/* an unsampled window holds one clock read's worth too: not that */
	wk->probe_wall = wall > bare ? wall - bare : 0;
	wk->probe_cpu = cpu;
}

/* Each fileset's state of the thread, with the directory fd it holds. */
static void drop_locals(struct worker *wk)
{
	for (size_t i = 0; wk->locals && i < wk->w->nfilesets; i++) {
		fs_local_free(wk->locals[i]);
		wk->locals[i] = NULL;
	}
}

void worker_slot_unmap(struct slot *s)
{
	if (s->map)
		munmap(s->map, (size_t)s->maplen);
	s->map = NULL;
	s->maplen = s->mappos = 0;
	s->mapped = s->map_shared_rw = false;
	s->rec_set = false; /* a file opened again starts at startrecord */
}

void worker_close_slots(struct worker *wk)
{
	/* writes still in flight first: they need their fds */
	aioq_free(wk->aioq);
	wk->aioq = NULL;
	for (int64_t i = 0; i < wk->nslots; i++)
		if (wk->slots[i].fd >= 0) {
			worker_slot_unmap(&wk->slots[i]);
			close(wk->slots[i].fd);
			wk->slots[i].fd = -1;
			wk->slots[i].pos_held = false;
		}
	drop_locals(wk);
}

void worker_free_locals(struct worker *wk)
{
	drop_locals(wk);
	free(wk->locals);
	wk->locals = NULL;
}
