/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Unit tests for src/results/stats.c: histogram bucketing and its error
 * bound, quantiles, merge, reset, errno bookkeeping and lazy group
 * allocation (the counters' round trip through a results file is in
 * test-results).
 */
#include "results/stats.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>

/* Deterministic generator so failures reproduce. */
static uint64_t rng_state = 88172645463325252ull;

static uint64_t xorshift(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A latency spread over many groups: 4 .. 2^40 ns. */
static uint64_t rand_lat(void)
{
	uint64_t r = xorshift();

	return 4 + (r >> (24 + r % 40));
}

static unsigned groups_in_use(const struct fstats *s)
{
	unsigned n = 0;

	for (unsigned g = 0; g < HIST_GROUPS; g++)
		n += s->hist.group[g] != NULL;
	return n;
}

static uint64_t bucket(const struct fstats *s, unsigned g, unsigned sub)
{
	return s->hist.group[g] ? s->hist.group[g][sub] : 0;
}

/* Field-by-field equality; a NULL group equals an all-zero one. */
static int stats_equal(const struct fstats *a, const struct fstats *b)
{
	if (a->count != b->count || a->bytes != b->bytes ||
	    a->lat_sum != b->lat_sum || a->lat_min != b->lat_min ||
	    a->lat_max != b->lat_max || a->cpu_ns != b->cpu_ns ||
	    a->cpu_samples != b->cpu_samples || a->errors != b->errors ||
	    a->err_other != b->err_other || a->waits != b->waits ||
	    a->wait_ns != b->wait_ns || a->verify_errors != b->verify_errors)
		return 0;
	for (unsigned i = 0; i < FSTATS_ERRNOS; i++)
		if (a->err_count[i] != b->err_count[i] ||
		    (a->err_count[i] && a->err_no[i] != b->err_no[i]))
			return 0;
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		for (unsigned sub = 0; sub < HIST_SUB; sub++)
			if (bucket(a, g, sub) != bucket(b, g, sub))
				return 0;
	return 1;
}

static void test_index(void)
{
	static const struct {
		uint64_t v;
		unsigned g, sub;
	} t[] = {
		{ 0, 0, 0 },	     { 1, 0, 1 },	  { 63, 0, 63 },
		{ 64, 1, 0 },	     { 65, 1, 1 },	  { 127, 1, 63 },
		{ 128, 2, 0 },	     { 1000, 4, 61 },	  { 1000000, 14, 58 },
		{ 1000000000, 24, 55 }, { UINT64_MAX, 58, 63 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned sub = 99, g = hist_index(t[i].v, &sub);
		uint64_t lo, hi;

		ok(g == t[i].g && sub == t[i].sub,
		   "hist_index(%" PRIu64 ") = (%u, %u), want (%u, %u)", t[i].v,
		   g, sub, t[i].g, t[i].sub);
		hist_bucket_range(g, sub, &lo, &hi);
		ok(lo <= t[i].v && (t[i].v < hi || hi == UINT64_MAX),
		   "%" PRIu64 " in its bucket [%" PRIu64 ", %" PRIu64 ")",
		   t[i].v, lo, hi);
	}
}

static void test_ranges(void)
{
	uint64_t lo, hi, next = 0, bad = 0, v, mid, diff;
	double worst = 0;
	unsigned g, sub, n = 0;

	/* Buckets tile [0, 2^64) without gap or overlap. */
	for (g = 0; g < HIST_GROUPS; g++) {
		for (sub = 0; sub < HIST_SUB; sub++) {
			hist_bucket_range(g, sub, &lo, &hi);
			if (lo != next || hi <= lo)
				bad++;
			next = hi;
		}
	}
	ok(!bad && next == UINT64_MAX, "buckets tile 0..2^64 (%" PRIu64
	   " bad)", bad);

	bad = 0;
	for (v = 64; v <= (1ull << 40); v += v / 97 + 1, n++) {
		g = hist_index(v, &sub);
		hist_bucket_range(g, sub, &lo, &hi);
		mid = lo + (hi - lo) / 2;
		diff = mid > v ? mid - v : v - mid;
		if (!(lo <= v && v < hi) || diff * 128 > v) {
			if (!bad++)
				printf("# v %" PRIu64 " bucket [%" PRIu64
				       ", %" PRIu64 ")\n", v, lo, hi);
		}
		if ((double)diff / (double)v > worst)
			worst = (double)diff / (double)v;
	}
	ok(n > 1000 && !bad, "%u values 64..2^40: in bucket, midpoint within "
	   "1/128 (%" PRIu64 " bad, worst %.4f%%)", n, bad, worst * 100);
}

static void check_q(const struct hist *h, double q, uint64_t want)
{
	uint64_t got = hist_quantile(h, q);
	uint64_t diff = got > want ? got - want : want - got;

	ok(diff * 100 <= want, "q %g: %" PRIu64 " within 1%% of %" PRIu64, q,
	   got, want);
}

static void test_quantiles(void)
{
	struct fstats s;

	fstats_init(&s);
	is_int(hist_quantile(&s.hist, 0.5), 0, "empty histogram: quantile 0");
	for (uint64_t v = 1; v <= 100000; v++)
		fstats_add(&s, v, 0);
	is_int(hist_total(&s.hist), 100000, "hist_total");
	check_q(&s.hist, 0.5, 50000);
	check_q(&s.hist, 0.9, 90000);
	check_q(&s.hist, 0.99, 99000);
	check_q(&s.hist, 0.999, 99900);
	check_q(&s.hist, 1.0, 100000);
	check_q(&s.hist, 1e-9, 1);
	fstats_release(&s);

	/* Small values are exact, and the rank is ceil(q * total). */
	fstats_init(&s);
	fstats_add(&s, 5, 0);
	fstats_add(&s, 7, 0);
	fstats_add(&s, 9, 0);
	fstats_add(&s, 70, 0);
	is_int(hist_quantile(&s.hist, 0.25), 5, "p25 of {5,7,9,70} exact");
	is_int(hist_quantile(&s.hist, 0.26), 7, "p26 rounds rank up");
	is_int(hist_quantile(&s.hist, 0.75), 9, "p75 exact");
	is_int(hist_quantile(&s.hist, 1.0), 70, "max exact in group 1");
	fstats_release(&s);
}

/* hist_next gives every bucket with a count, in order, and nothing else. */
static void test_next(void)
{
	struct fstats s;
	uint64_t lo, hi, count, total = 0, prev_hi = 0;
	unsigned pos = 0, seen = 0, want = 0;
	int ordered = 1, ranged = 1;

	fstats_init(&s);
	ok(!hist_next(&s.hist, &pos, &lo, &hi, &count), "empty: no bucket");
	for (int i = 0; i < 5000; i++)
		fstats_add(&s, rand_lat(), 0);
	fstats_add(&s, UINT64_MAX, 0); /* the very last bucket */
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		for (unsigned sub = 0; sub < HIST_SUB; sub++)
			want += bucket(&s, g, sub) != 0;
	pos = 0;
	while (hist_next(&s.hist, &pos, &lo, &hi, &count)) {
		uint64_t l, h;
		unsigned p = pos - 1;

		hist_bucket_range(p / HIST_SUB, p % HIST_SUB, &l, &h);
		ranged &= l == lo && h == hi && count ==
			  bucket(&s, p / HIST_SUB, p % HIST_SUB) && count > 0;
		ordered &= seen == 0 || lo >= prev_hi;
		prev_hi = hi;
		total += count;
		seen++;
	}
	is_int(seen, want, "hist_next: every bucket with a count");
	is_int(total, 5001, "hist_next: the counts add up to the samples");
	ok(ranged, "hist_next: each bucket's range and count");
	ok(ordered, "hist_next: in order");
	is_int(hi, UINT64_MAX, "hist_next: the last bucket ends at 2^64 - 1");
	fstats_release(&s);
}

static void fill(struct fstats *s, struct fstats *all, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t lat = rand_lat(), bytes = xorshift() % 1048576;

		fstats_add(s, lat, bytes);
		fstats_add(all, lat, bytes);
	}
}

static void test_merge(void)
{
	static const double qs[] = { 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0 };
	struct fstats a, b, all, e;
	int qbad = 0;

	fstats_init(&a);
	fstats_init(&b);
	fstats_init(&all);
	fill(&a, &all, 5000);
	fill(&b, &all, 7000);
	fstats_add(&b, 3, 1); /* b alone holds the minimum ... */
	fstats_add(&all, 3, 1);
	fstats_add(&a, 1ull << 45, 1); /* ... and a the maximum */
	fstats_add(&all, 1ull << 45, 1);
	a.cpu_ns = 100, a.cpu_samples = 2;
	b.cpu_ns = 50, b.cpu_samples = 1;
	all.cpu_ns = 150, all.cpu_samples = 3;
	a.waits = 2, a.wait_ns = 20;
	b.waits = 3, b.wait_ns = 30;
	all.waits = 5, all.wait_ns = 50;
	a.verify_errors = 1, b.verify_errors = 4, all.verify_errors = 5;

	fstats_init(&e);
	fstats_merge(&e, &a);
	ok(stats_equal(&e, &a), "merge into empty fstats copies it");
	is_int(e.lat_min, a.lat_min, "merge into empty: min taken from src");

	fstats_merge(&a, &b);
	is_int(a.count, all.count, "merged count");
	is_int(a.bytes, all.bytes, "merged bytes");
	is_int(a.lat_sum, all.lat_sum, "merged lat_sum");
	is_int(a.lat_min, 3, "merged min");
	is_int(a.lat_max, 1ull << 45, "merged max");
	is_int(a.cpu_ns, 150, "merged cpu_ns");
	ok(a.waits == 5 && a.wait_ns == 50, "merged waits and their time");
	is_int(a.verify_errors, 5, "merged verify errors");
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		qbad += hist_quantile(&a.hist, qs[i]) !=
			hist_quantile(&all.hist, qs[i]);
	is_int(qbad, 0, "merged quantiles equal the single recording");
	ok(stats_equal(&a, &all), "merged stats equal the single recording");

	/* Merging an empty fstats changes nothing (min stays, no groups). */
	fstats_release(&e);
	fstats_init(&e);
	fstats_merge(&a, &e);
	ok(stats_equal(&a, &all), "merging an empty fstats is a no-op");

	fstats_release(&a);
	fstats_release(&b);
	fstats_release(&all);
	fstats_release(&e);
}

static void test_reset(void)
{
	uint64_t *g0, *g4, nonzero = 0;
	struct fstats s;

	fstats_init(&s);
	fstats_add(&s, 10, 1);
	fstats_add(&s, 1000, 1);
	fstats_error(&s, EIO);
	s.cpu_ns = 5, s.cpu_samples = 1;
	g0 = s.hist.group[0];
	g4 = s.hist.group[4];
	fstats_reset(&s);
	ok(s.hist.group[0] == g0 && s.hist.group[4] == g4 && g0 && g4,
	   "reset keeps allocated groups");
	is_int(groups_in_use(&s), 2, "reset allocates nothing new");
	for (unsigned sub = 0; sub < HIST_SUB; sub++)
		nonzero += g0[sub] + g4[sub];
	is_int(nonzero, 0, "reset zeroes bucket contents");
	ok(s.count == 0 && s.bytes == 0 && s.lat_sum == 0 &&
	   s.lat_max == 0 && s.cpu_ns == 0 && s.cpu_samples == 0 &&
	   s.errors == 0 && s.err_count[0] == 0 && s.err_other == 0,
	   "reset zeroes counters");
	ok(s.lat_min == UINT64_MAX, "reset sets lat_min to UINT64_MAX");
	fstats_add(&s, 20, 0);
	is_int(hist_quantile(&s.hist, 1.0), 20, "recording after reset");
	fstats_release(&s);
	ok(groups_in_use(&s) == 0 && s.lat_min == UINT64_MAX,
	   "release leaves an empty fstats");
}

static void test_errno(void)
{
	static const int errs[] = { EIO,    ENOENT, EIO,   EACCES, ENOSPC,
				    EEXIST, EIO,    EINVAL, EACCES, EINVAL };
	struct fstats s, t;

	fstats_init(&s);
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		fstats_error(&s, errs[i]);
	is_int(s.errors, 10, "errors counted");
	is_int(s.count, 0, "errors are not completed operations");
	ok(s.err_no[0] == EIO && s.err_count[0] == 3, "EIO x3 in slot 0");
	ok(s.err_no[1] == ENOENT && s.err_count[1] == 1, "ENOENT in slot 1");
	ok(s.err_no[2] == EACCES && s.err_count[2] == 2, "EACCES x2 in slot 2");
	ok(s.err_no[3] == ENOSPC && s.err_count[3] == 1, "ENOSPC in slot 3");
	is_int(s.err_other, 3, "EEXIST, EINVAL x2 counted as other");
	is_int(groups_in_use(&s), 0, "errors allocate no histogram");

	/* Merge adds by errno value, not by slot. */
	fstats_init(&t);
	fstats_error(&t, ENOSPC);
	fstats_error(&t, EXDEV);
	fstats_merge(&t, &s);
	ok(t.err_no[0] == ENOSPC && t.err_count[0] == 2 &&
	   t.err_no[1] == EXDEV && t.err_count[1] == 1 &&
	   t.err_no[2] == EIO && t.err_count[2] == 3 &&
	   t.err_no[3] == ENOENT && t.err_count[3] == 1,
	   "merge matches errnos by value");
	is_int(t.err_other, 3 + 2, "merge: src other + overflowing EACCES x2");
	is_int(t.errors, 12, "merge adds errors");
	fstats_release(&s);
	fstats_release(&t);
}

static void test_memory(void)
{
	struct fstats s, e;

	fstats_init(&s);
	is_int(groups_in_use(&s), 0, "fresh fstats holds no groups");
	for (uint64_t v = 1000; v < 1008; v++)
		fstats_add(&s, v, 0);
	ok(groups_in_use(&s) == 1 && s.hist.group[4],
	   "values in 1000..1007 allocate only group 4");
	fstats_init(&e);
	fstats_merge(&e, &s);
	ok(groups_in_use(&e) == 1 && e.hist.group[4],
	   "merge allocates only the groups in use");
	fstats_reset(&s);
	fstats_release(&e);
	fstats_init(&e);
	fstats_merge(&e, &s);
	is_int(groups_in_use(&e), 0, "merging a reset fstats allocates nothing");
	fstats_release(&s);
	fstats_release(&e);
}

int main(void)
{
	test_index();
	test_ranges();
	test_quantiles();
	test_next();
	test_merge();
	test_reset();
	test_errno();
	test_memory();
	return tap_done();
}
