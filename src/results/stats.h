/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Per-thread, per-flowop statistics.  Each worker thread owns its
 * struct fstats array and is the only writer, so recording takes no lock
 * and makes no syscall.  After the run the main thread merges them by
 * addition; every field is a sum, a min or a max, so partial results from
 * several processes (MPI ranks) merge the same way.  The results file
 * keeps every field (results/write.h), so a process's counters read back
 * from it are exactly its own.
 *
 * Latencies go into a log-linear histogram: values below 2^HIST_SUB_BITS ns
 * are exact; above, each power of two is split into 2^HIST_SUB_BITS
 * buckets, so a bucket's midpoint is within 1/2^(HIST_SUB_BITS+1) of any
 * value in it (0.78% with 6 bits).  Groups of buckets are allocated on
 * first use, keeping the memory of idle ranges at zero.
 */
#ifndef FBRUN_STATS_H
#define FBRUN_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
/* group 0 holds [0, 2^SUB_BITS); group g >= 1 holds [2^(g+SUB_BITS-1), 2^(g+SUB_BITS)) */
#define HIST_GROUPS (64 - HIST_SUB_BITS + 1)

struct hist {
	uint64_t *group[HIST_GROUPS]; /* HIST_SUB counters each, or NULL */
};

/*
 * An open loop's response times (doc/running.md, "Open loop"): each op's
 * time from when it was meant to start, the arrival's intended time, to
 * its end; the op's own latency, from when it did start, is its service
 * time and stays in fstats' lat_* and hist.
 */
struct resp {
	uint64_t count, sum, min, max; /* ns; min = UINT64_MAX if none */
	struct hist hist;
};

/* Distinct errno values kept per flowop; more are counted as "other". */
#define FSTATS_ERRNOS 4

struct fstats {
	uint64_t count; /* completed operations */
	uint64_t bytes; /* bytes moved by them */
	uint64_t lat_sum, lat_min, lat_max; /* ns; lat_min = UINT64_MAX if none */
	uint64_t cpu_ns; /* thread CPU time of the sampled operations */
	uint64_t cpu_samples; /* how many operations were sampled */
	uint64_t errors; /* failed operations (not in count) */
	int err_no[FSTATS_ERRNOS];
	uint64_t err_count[FSTATS_ERRNOS];
	uint64_t err_other;
	/* picks that found no entry to take and blocked, and their time */
	uint64_t waits, wait_ns;
	/* reads whose data was not what verify wrote (completed, in count) */
	uint64_t verify_errors;
	/*
	 * replay: ops that failed in the recording and succeeded here
	 * (completed, in count)
	 */
	uint64_t mismatches;
	struct hist hist;
	struct resp *resp; /* NULL but for the ops of an open loop */
};

void fstats_init(struct fstats *s);
void fstats_release(struct fstats *s);
/* Zero the counters, keeping allocated histogram groups (psrun resets). */
void fstats_reset(struct fstats *s);

/* Slow path of hist_add: allocate group g. */
void hist_alloc_group(struct hist *h, unsigned g);

static inline unsigned hist_index(uint64_t v, unsigned *sub)
{
	unsigned msb, g;

	if (v < HIST_SUB) {
		*sub = (unsigned)v;
		return 0;
	}
	msb = 63u - (unsigned)__builtin_clzll(v);
	g = msb - HIST_SUB_BITS + 1;
	*sub = (unsigned)(v >> (msb - HIST_SUB_BITS)) & (HIST_SUB - 1);
	return g;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	unsigned sub, g = hist_index(v, &sub);

	if (__builtin_expect(!h->group[g], 0))
		hist_alloc_group(h, g);
	/* a plain increment; relaxed, as count, for --interval's reads */
	__atomic_store_n(&h->group[g][sub], h->group[g][sub] + 1,
			 __ATOMIC_RELAXED);
}

/* Record one completed operation. */
static inline void fstats_add(struct fstats *s, uint64_t lat_ns,
			      uint64_t bytes)
{
	/*
	 * Only this thread writes; relaxed stores (plain moves on x86) let
	 * the finish and limit flowops of other threads read count and bytes.
	 */
	__atomic_store_n(&s->count, s->count + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->bytes, s->bytes + bytes, __ATOMIC_RELAXED);
	s->lat_sum += lat_ns;
	if (lat_ns < s->lat_min)
		s->lat_min = lat_ns;
	if (lat_ns > s->lat_max)
		s->lat_max = lat_ns;
	hist_add(&s->hist, lat_ns);
}

/* Slow path of fstats_resp: s's first response time. */
void fstats_resp_alloc(struct fstats *s);

/* Record the response time of an op of an open loop (fstats_add has its
   service time). */
static inline void fstats_resp(struct fstats *s, uint64_t ns)
{
	struct resp *r;

	if (__builtin_expect(!s->resp, 0))
		fstats_resp_alloc(s);
	r = s->resp;
	__atomic_store_n(&r->count, r->count + 1, __ATOMIC_RELAXED);
	r->sum += ns;
	if (ns < r->min)
		r->min = ns;
	if (ns > r->max)
		r->max = ns;
	hist_add(&r->hist, ns);
}

/* Record one failed operation with its errno. */
void fstats_error(struct fstats *s, int err);

/* dst += src, bucket by bucket. */
void hist_merge(struct hist *dst, const struct hist *src);
/* dst += src (counts and sums added, min/max combined, histograms added). */
void fstats_merge(struct fstats *dst, const struct fstats *src);

/* Total operations in the histogram. */
uint64_t hist_total(const struct hist *h);
/*
 * Latency at quantile q (0 < q <= 1) in ns: the midpoint of the bucket
 * holding the ceil(q * total)-th smallest value; 0 if empty.
 */
uint64_t hist_quantile(const struct hist *h, double q);
/* Lower bound, upper bound (exclusive) of bucket (g, sub). */
void hist_bucket_range(unsigned g, unsigned sub, uint64_t *lo, uint64_t *hi);
/*
 * The next bucket of h that holds a count, from *pos on (0 to start):
 * its range, its count, and *pos past it; false when none is left.
 */
bool hist_next(const struct hist *h, unsigned *pos, uint64_t *lo,
	       uint64_t *hi, uint64_t *count);

#endif
