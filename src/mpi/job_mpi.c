/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun-mpi's ranks (job.h): every collective step of a job is one MPI
 * call on MPI_COMM_WORLD, made by the main thread of each rank (the
 * worker threads never call MPI).
 */
#include "mpi/job.h"

#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

struct job {
	int rank, size;
	unsigned hosts;
	char host[64];
	bool stonewall;
	struct engine_peers engine;
};

/* How many distinct names the ranks' hosts have: gathered, counted at 0. */
static unsigned count_hosts(struct job *p)
{
	char *all = NULL;
	unsigned n = 0;

	if (p->rank == 0)
		all = xcalloc((size_t)p->size, sizeof(p->host));
	MPI_Gather(p->host, (int)sizeof(p->host), MPI_CHAR, all,
		   (int)sizeof(p->host), MPI_CHAR, 0, MPI_COMM_WORLD);
	for (int i = 0; all && i < p->size; i++) {
		int seen = 0;

		for (int k = 0; k < i && !seen; k++)
			seen = !strcmp(all + (size_t)i * sizeof(p->host),
				       all + (size_t)k * sizeof(p->host));
		n += !seen;
	}
	free(all);
	MPI_Bcast(&n, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
	return n;
}

struct job *job_new(int *argc, char ***argv)
{
	struct job *p = xcalloc(1, sizeof(*p));
	int level;

	/* only the main thread calls MPI */
	MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &level);
	MPI_Comm_rank(MPI_COMM_WORLD, &p->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p->size);
	if (gethostname(p->host, sizeof(p->host) - 1) < 0)
		strcpy(p->host, "?");
	p->hosts = count_hosts(p);
	return p;
}

void job_free(struct job *p)
{
	if (!p)
		return;
	MPI_Finalize();
	free(p);
}

unsigned job_rank(const struct job *p)
{
	return (unsigned)p->rank;
}

unsigned job_size(const struct job *p)
{
	return (unsigned)p->size;
}

unsigned job_hosts(const struct job *p)
{
	return p->hosts;
}

char *job_share(struct job *p, const char *text, size_t len,
		size_t *out_len)
{
	/* -1: rank 0 has no text; a script is at most 64 MiB (source.h) */
	long long n = p->rank == 0 ? (text ? (long long)len : -1) : 0;
	char *copy;

	MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	if (n < 0 || n > INT_MAX)
		return NULL;
	copy = xmalloc((size_t)n + 1);
	if (p->rank == 0)
		memcpy(copy, text, (size_t)n);
	MPI_Bcast(copy, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
	copy[n] = '\0';
	*out_len = (size_t)n;
	return copy;
}

int job_agree(struct job *p, int mine)
{
	int job = mine;

	MPI_Allreduce(&mine, &job, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return job;
}

static int agree(void *arg, int mine)
{
	return job_agree(arg, mine);
}

/*
 * One round of the stop: the worst reason wins (a signal, then a
 * failure, then the run time, then, with --stonewall, a rank done), the
 * lowest rank among those that have it is named; without --stonewall the
 * run ends when every rank is done.  One reduction of two numbers.
 */
static enum stop_reason agree_stop(void *arg, enum stop_reason mine,
				   bool done, int *by)
{
	static const int rank_of[] = { [STOP_NONE] = 0, [STOP_DONE] = 1,
				       [STOP_TIMEOUT] = 2, [STOP_ERROR] = 3,
				       [STOP_SIGNAL] = 4 };
	static const enum stop_reason reason_of[] = {
		STOP_NONE, STOP_DONE, STOP_TIMEOUT, STOP_ERROR, STOP_SIGNAL
	};
	struct job *p = arg;
	int worst = rank_of[mine];
	int in[2], out[2];

	if (mine == STOP_DONE && !p->stonewall)
		worst = 0;
	/* the reason in the high bits, the lower rank wins a tie */
	in[0] = worst << 24 | (0xffffff - p->rank);
	in[1] = !done;
	MPI_Allreduce(in, out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	*by = -1;
	if (out[0] >> 24) {
		*by = 0xffffff - (out[0] & 0xffffff);
		return reason_of[out[0] >> 24];
	}
	return out[1] ? STOP_NONE : STOP_DONE;
}

static char **gather(void *arg, const char *text, size_t len)
{
	struct job *p = arg;
	int n = len > INT_MAX ? 0 : (int)len, *lens = NULL, *offs = NULL;
	char *all = NULL, **texts = NULL;
	size_t total = 0;

	if (p->rank == 0) {
		lens = xcalloc((size_t)p->size, sizeof(*lens));
		offs = xcalloc((size_t)p->size, sizeof(*offs));
	}
	MPI_Gather(&n, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (p->rank == 0) {
		for (int i = 0; i < p->size; i++) {
			offs[i] = (int)total;
			total += (size_t)lens[i];
		}
		/* a job's results above 2 GiB cannot be gathered at once */
		if (total > INT_MAX) {
			for (int i = 0; i < p->size; i++)
				lens[i] = offs[i] = 0;
			total = 0;
		}
		all = xmalloc(total + 1);
	}
	MPI_Gatherv(text, n, MPI_CHAR, all, lens, offs, MPI_CHAR, 0,
		    MPI_COMM_WORLD);
	if (p->rank == 0) {
		texts = xcalloc((size_t)p->size, sizeof(*texts));
		for (int i = 0; i < p->size; i++)
			if (lens[i] > 0)
				texts[i] = xstrndup(all + offs[i],
						    (size_t)lens[i]);
	}
	free(all);
	free(lens);
	free(offs);
	return texts;
}

/* At most INT_MAX numbers at once: a job's interval has a few thousand. */
static void reduce(const uint64_t *mine, uint64_t *out, size_t n, MPI_Op op)
{
	MPI_Reduce(mine, out, (int)n, MPI_UINT64_T, op, 0, MPI_COMM_WORLD);
}

static void reduce_sum(void *arg, const uint64_t *mine, uint64_t *sum,
		       size_t n)
{
	reduce(mine, sum, n, MPI_SUM);
}

static void reduce_max(void *arg, const uint64_t *mine, uint64_t *max,
		       size_t n)
{
	reduce(mine, max, n, MPI_MAX);
}

const struct engine_peers *job_engine(struct job *p, bool stonewall)
{
	p->stonewall = stonewall;
	p->engine = (struct engine_peers){
		.rank = (unsigned)p->rank,
		.nranks = (unsigned)p->size,
		.host = p->host,
		.stonewall = stonewall,
		.arg = p,
		.agree = agree,
		.agree_stop = agree_stop,
		.gather = gather,
		.reduce_sum = reduce_sum,
		.reduce_max = reduce_max,
	};
	return &p->engine;
}

const char *job_library(void)
{
	static char text[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;

	if (MPI_Get_library_version(text, &len) != MPI_SUCCESS)
		return NULL;
	text[len < (int)sizeof(text) ? len : (int)sizeof(text) - 1] = '\0';
	return text;
}
