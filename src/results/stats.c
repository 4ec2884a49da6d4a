/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Per-thread, per-flowop counters and latency histograms, and their merge
 * (stats.h).
 */
#include "results/stats.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void fstats_init(struct fstats *s)
{
	memset(s, 0, sizeof(*s));
	s->lat_min = UINT64_MAX;
}

static void hist_free(struct hist *h)
{
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		free(h->group[g]);
}

static void hist_zero(struct hist *h)
{
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		if (h->group[g])
			memset(h->group[g], 0, HIST_SUB * sizeof(uint64_t));
}

/* Leaves s as a fresh, empty fstats so it may be reused or released again. */
void fstats_release(struct fstats *s)
{
	hist_free(&s->hist);
	if (s->resp)
		hist_free(&s->resp->hist);
	free(s->resp);
	fstats_init(s);
}

void fstats_reset(struct fstats *s)
{
	struct hist h = s->hist;
	struct resp *r = s->resp;

	fstats_init(s);
	s->hist = h;
	hist_zero(&s->hist);
	if (r) {
		hist_zero(&r->hist);
		r->count = r->sum = r->max = 0;
		r->min = UINT64_MAX;
		s->resp = r;
	}
}

void fstats_resp_alloc(struct fstats *s)
{
	struct resp *r = xcalloc(1, sizeof(*r));

	r->min = UINT64_MAX;
	/* published whole, as a histogram group: the monitor reads it */
	__atomic_store_n(&s->resp, r, __ATOMIC_RELEASE);
}

void hist_alloc_group(struct hist *h, unsigned g)
{
	/* published whole: the monitor may read it while the run goes on */
	__atomic_store_n(&h->group[g], xcalloc(HIST_SUB, sizeof(uint64_t)),
			 __ATOMIC_RELEASE);
}

/*
 * Used slots always form a prefix of err_no[] (only this function fills
 * them), so the first empty slot means "not seen yet".
 */
static void err_add(struct fstats *s, int err, uint64_t n)
{
	for (unsigned i = 0; i < FSTATS_ERRNOS; i++) {
		if (!s->err_count[i] || s->err_no[i] == err) {
			s->err_no[i] = err;
			s->err_count[i] += n;
			return;
		}
	}
	s->err_other += n;
}

void fstats_error(struct fstats *s, int err)
{
	/* relaxed, as count in fstats_add: the monitor reads it mid-run */
	__atomic_store_n(&s->errors, s->errors + 1, __ATOMIC_RELAXED);
	err_add(s, err, 1);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		const uint64_t *sg = src->group[g];

		if (!sg)
			continue;
		/* Allocate per non-zero bucket: a reset source costs nothing. */
		for (unsigned sub = 0; sub < HIST_SUB; sub++) {
			if (!sg[sub])
				continue;
			if (!dst->group[g])
				hist_alloc_group(dst, g);
			dst->group[g][sub] += sg[sub];
		}
	}
}

void fstats_merge(struct fstats *dst, const struct fstats *src)
{
	dst->count += src->count;
	dst->bytes += src->bytes;
	dst->lat_sum += src->lat_sum;
	if (src->lat_min < dst->lat_min)
		dst->lat_min = src->lat_min;
	if (src->lat_max > dst->lat_max)
		dst->lat_max = src->lat_max;
	dst->cpu_ns += src->cpu_ns;
	dst->cpu_samples += src->cpu_samples;
	dst->errors += src->errors;
	for (unsigned i = 0; i < FSTATS_ERRNOS; i++)
		if (src->err_count[i])
			err_add(dst, src->err_no[i], src->err_count[i]);
	dst->err_other += src->err_other;
	dst->waits += src->waits;
	dst->wait_ns += src->wait_ns;
	dst->verify_errors += src->verify_errors;
	dst->mismatches += src->mismatches;
	hist_merge(&dst->hist, &src->hist);
	if (src->resp) {
		const struct resp *sr = src->resp;
		struct resp *dr;

		if (!dst->resp)
			fstats_resp_alloc(dst);
		dr = dst->resp;
		dr->count += sr->count;
		dr->sum += sr->sum;
		if (sr->min < dr->min)
			dr->min = sr->min;
		if (sr->max > dr->max)
			dr->max = sr->max;
		hist_merge(&dr->hist, &sr->hist);
	}
}

uint64_t hist_total(const struct hist *h)
{
	uint64_t n = 0;

	for (unsigned g = 0; g < HIST_GROUPS; g++)
		if (h->group[g])
			for (unsigned sub = 0; sub < HIST_SUB; sub++)
				n += h->group[g][sub];
	return n;
}

void hist_bucket_range(unsigned g, unsigned sub, uint64_t *lo, uint64_t *hi)
{
	unsigned shift;

	if (g == 0) {
		*lo = sub;
		*hi = (uint64_t)sub + 1;
		return;
	}
	shift = g - 1;
	*lo = (uint64_t)(HIST_SUB + sub) << shift;
	*hi = *lo + ((uint64_t)1 << shift);
	/* The very last bucket ends at 2^64: saturate rather than wrap to 0. */
	if (*hi < *lo)
		*hi = UINT64_MAX;
}

bool hist_next(const struct hist *h, unsigned *pos, uint64_t *lo,
	       uint64_t *hi, uint64_t *count)
{
	for (; *pos < HIST_GROUPS * HIST_SUB; (*pos)++) {
		unsigned g = *pos / HIST_SUB, sub = *pos % HIST_SUB;

		if (!h->group[g]) {
			*pos = (g + 1) * HIST_SUB - 1; /* the group is empty */
			continue;
		}
		if (!h->group[g][sub])
			continue;
		hist_bucket_range(g, sub, lo, hi);
		*count = h->group[g][sub];
		(*pos)++;
		return true;
	}
	return false;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t total = hist_total(h), seen = 0, rank, lo, hi;
	double r;

	if (!total)
		return 0;
	/* ceil() by hand keeps libm out; !(r >= 1) also catches NaN. */
	r = q * (double)total;
	if (!(r >= 1))
		rank = 1;
	else if (r >= (double)total)
		rank = total;
	else {
		rank = (uint64_t)r;
		if ((double)rank < r)
			rank++;
	}
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		if (!h->group[g])
			continue;
		for (unsigned sub = 0; sub < HIST_SUB; sub++) {
			seen += h->group[g][sub];
			if (seen >= rank) {
				/* Width-1 buckets (g <= 1) give the value itself. */
				hist_bucket_range(g, sub, &lo, &hi);
				return lo + (hi - lo) / 2;
			}
		}
	}
	return 0; /* not reached: seen ends at total >= rank */
}
