/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The other processes of a job that runs one workload on many clients at
 * once (fbrun-mpi's ranks): what the engine asks of them, as function
 * pointers, so the engine knows nothing of how the processes talk.
 */
#ifndef FBRUN_ENGINE_PEERS_H
#define FBRUN_ENGINE_PEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/sys/timeline.h"

/*
 * The other processes of a job that runs the workload on many clients
 * at once (fbrun-mpi's ranks, one per client).  The engine calls these at
 * the steps where every process must take the same path, so a failure or
 * a signal in one of them ends them all at the same step.  Every call is
 * collective: each process makes the same calls in the same order.  A
 * process alone has peers_solo: a job of one, whose calls answer with its
 * own values (engine_opts.peers NULL means it).
 */
struct engine_peers {
	unsigned rank, nranks;
	const char *host; /* this process's host name */
	bool stonewall; /* the first rank whose work is done ends the run */
	/*
	 * peers_solo's: no process to wait for, so the run is supervised
	 * without rounds, its results are handed on as they are (not
	 * merged), and the filesets and devices are this process's alone.
	 */
	bool alone;
	void *arg;
	/* The largest of the processes' values (statuses: 0 ok, worse higher). */
	int (*agree)(void *arg, int mine);
	/*
	 * One round of the run's stop: this process's reason to stop (or
	 * STOP_NONE) and whether its threads are done; returns the job's
	 * reason, STOP_NONE to go on, and in *by the rank that caused it
	 * (-1 when the run ends because every rank is done).
	 */
	enum stop_reason (*agree_stop)(void *arg, enum stop_reason mine,
				       bool done, int *by);
	/*
	 * Each process's text to rank 0: there, a malloc'd array of nranks
	 * malloc'd texts (NULL where one was lost); NULL elsewhere.
	 */
	char **(*gather)(void *arg, const char *text, size_t len);
	/*
	 * n numbers from each process, added (or the largest taken) element
	 * by element into sum on rank 0; sum is left alone elsewhere.
	 */
	void (*reduce_sum)(void *arg, const uint64_t *mine, uint64_t *sum,
			   size_t n);
	void (*reduce_max)(void *arg, const uint64_t *mine, uint64_t *max,
			   size_t n);
};

/* This process alone: rank 0 of 1, every call its own value. */
extern const struct engine_peers peers_solo;

#endif
