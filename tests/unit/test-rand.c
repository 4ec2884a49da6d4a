/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Unit tests for src/lang/rand.c: generator determinism and streams, unbiased
 * rv_below, sample means against rv_spec_mean, filebench's min/max/round
 * rules, tabular shares, cvar parameter parsing and spec checks.
 */
#include "lang/rand.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>

#define NSAMPLE 200000

static struct rv_spec spec_of(enum rv_dist d)
{
	struct rv_spec s;

	memset(&s, 0, sizeof(s));
	s.dist = d;
	s.src = RV_SRC_RAND48;
	s.seed = 12345;
	s.has_seed = true;
	return s;
}

/* A cvar spec from a parameter string that must parse. */
static struct rv_spec cvar_of(enum rv_dist d, const char *params)
{
	struct rv_spec s = spec_of(d);
	char err[256] = "";
	size_t off = 0;

	if (rv_parse_params(&s, params, err, sizeof(err), &off))
		printf("# unexpected parse error for '%s': %s\n", params, err);
	return s;
}

static struct rv_spec table_of(const struct rv_bin *bins, size_t n,
			       double min)
{
	struct rv_spec s = spec_of(RV_TABULAR);

	s.table = malloc(n * sizeof(*bins));
	memcpy(s.table, bins, n * sizeof(*bins));
	s.ntable = n;
	s.min = min;
	return s;
}

struct stats {
	double mean, var, lo, hi;
};

static struct stats sample_stats(const struct rv_spec *s, uint64_t stream)
{
	struct stats st = { 0, 0, INFINITY, -INFINITY };
	struct rv_rng rng;
	double m2 = 0;
	int i;

	rv_rng_init(&rng, s, stream);
	for (i = 1; i <= NSAMPLE; i++) {
		double v = rv_sample(s, &rng), d = v - st.mean;

		st.mean += d / i;
		m2 += d * (v - st.mean);
		if (v < st.lo)
			st.lo = v;
		if (v > st.hi)
			st.hi = v;
	}
	st.var = m2 / (NSAMPLE - 1);
	return st;
}

static int close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void check_mean(const char *what, const struct rv_spec *s, double rel)
{
	struct stats st = sample_stats(s, 0);
	double want = rv_spec_mean(s);

	if (!ok(close_to(st.mean, want, rel) && st.lo >= 0,
		"%s: sample mean %.4g near rv_spec_mean %.4g, min %.4g >= 0",
		what, st.mean, want, st.lo))
		printf("#   relative error %.4f, allowed %.4f\n",
		       fabs(st.mean - want) / want, rel);
}

static void test_generator(void)
{
	struct rv_spec s = spec_of(RV_UNIFORM), t = s;
	struct rv_rng a, b;
	int i, same = 0, diff = 0;
	double sum = 0, lo = 1, hi = 0;

	rv_rng_init(&a, &s, 7);
	rv_rng_init(&b, &s, 7);
	for (i = 0; i < 1000; i++)
		same += rv_next_u64(&a) == rv_next_u64(&b);
	is_int(same, 1000, "same seed and stream give the same sequence");

	rv_rng_init(&a, &s, 0);
	rv_rng_init(&b, &s, 1);
	for (i = 0, same = 0; i < 1000; i++)
		same += rv_next_u64(&a) == rv_next_u64(&b);
	is_int(same, 0, "streams 0 and 1 of one seed differ");

	t.seed = 12346;
	rv_rng_init(&a, &s, 0);
	rv_rng_init(&b, &t, 0);
	for (i = 0, same = 0; i < 1000; i++)
		same += rv_next_u64(&a) == rv_next_u64(&b);
	is_int(same, 0, "seeds 12345 and 12346 differ");

	rv_rng_seed(&a, 99);
	rv_rng_seed(&b, 99);
	for (i = 0, same = 0; i < 100; i++)
		same += rv_next_u64(&a) == rv_next_u64(&b);
	is_int(same, 100, "rv_rng_seed is deterministic");

	t.src = RV_SRC_URANDOM;
	rv_rng_init(&a, &t, 0);
	rv_rng_init(&b, &t, 0);
	for (i = 0, diff = 0; i < 100; i++)
		diff += rv_next_u64(&a) != rv_next_u64(&b);
	ok(diff > 90, "urandom seeds differ between inits (%d/100 differ)",
	   diff);

	rv_rng_seed(&a, 1);
	for (i = 0; i < 1000000; i++) {
		double u = rv_next_double(&a);

		sum += u;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	ok(lo >= 0 && hi < 1 && fabs(sum / 1e6 - 0.5) < 0.002,
	   "rv_next_double in [0, 1), mean %.5f", sum / 1e6);
}

static void test_below(void)
{
	enum { N = 7, DRAWS = 700000 };
	long count[N] = { 0 };
	struct rv_rng rng;
	uint64_t big = 3ULL << 62, quarter = 1ULL << 62, x;
	int i, bad = 0, low = 0;
	double chi2 = 0;

	rv_rng_seed(&rng, 2024);
	for (i = 0; i < 1000; i++)
		bad += rv_below(&rng, 1) != 0;
	is_int(bad, 0, "rv_below(1) is always 0");

	for (i = 0; i < DRAWS; i++) {
		x = rv_below(&rng, N);
		if (x >= N)
			bad++;
		else
			count[x]++;
	}
	is_int(bad, 0, "rv_below(7) stays below 7");
	for (i = 0; i < N; i++) {
		double e = (double)DRAWS / N;

		chi2 += (count[i] - e) * (count[i] - e) / e;
	}
	/* 6 degrees of freedom: p = 0.001 at 22.46 */
	ok(chi2 < 22.46, "rv_below(7) uniform, chi-square %.2f", chi2);

	/*
	 * n = 3 * 2^62: x % n over raw 64-bit words lands below 2^62 half
	 * the time; an unbiased draw does so a third of the time.
	 */
	for (i = 0; i < 300000; i++) {
		x = rv_below(&rng, big);
		bad += x >= big;
		low += x < quarter;
	}
	is_int(bad, 0, "rv_below(3 * 2^62) stays in range");
	ok(fabs(low / 300000.0 - 1.0 / 3) < 0.005,
	   "rv_below(3 * 2^62) unbiased: %.4f of draws below 2^62, want 0.3333",
	   low / 300000.0);
}

static void test_raw_samplers(void)
{
	static const double shapes[] = { 0.3, 1.0, 4.5 };
	struct rv_rng rng;
	size_t k;
	int i;

	rv_rng_seed(&rng, 77);
	for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		double a = shapes[k], sum = 0, sq = 0, m, v;

		for (i = 0; i < NSAMPLE; i++) {
			double g = rv_gamma(&rng, a, 2);

			sum += g;
			sq += g * g;
		}
		m = sum / NSAMPLE;
		v = sq / NSAMPLE - m * m;
		/* Gamma(a, 2): mean 2a, variance 4a */
		ok(close_to(m, 2 * a, 0.02) && close_to(v, 4 * a, 0.05),
		   "rv_gamma(%.1f, 2): mean %.4f (want %.4f), variance %.4f (want %.4f)",
		   a, m, 2 * a, v, 4 * a);
	}
	{
		double sum = 0, sq = 0, m, v;

		for (i = 0; i < NSAMPLE; i++) {
			double x = rv_normal(&rng, 10, 3);

			sum += x;
			sq += x * x;
		}
		m = sum / NSAMPLE;
		v = sq / NSAMPLE - m * m;
		ok(close_to(m, 10, 0.005) && close_to(v, 9, 0.03),
		   "rv_normal(10, 3): mean %.4f, variance %.4f", m, v);
	}
}

static void test_means(void)
{
	struct rv_spec s;
	struct stats st;

	s = spec_of(RV_UNIFORM);
	s.min = 1000;
	s.mean = 5000;
	st = sample_stats(&s, 0);
	ok(st.lo >= 1000 && st.hi < 9000 && st.hi > 8990,
	   "randvar uniform spans [min, 2 * mean - min): [%.1f, %.1f]",
	   st.lo, st.hi);
	check_mean("randvar uniform min=1000 mean=5000", &s, 0.01);

	s = spec_of(RV_GAMMA);
	s.mean = 131072;
	s.gamma = 1500;
	st = sample_stats(&s, 0);
	/* Gamma(1.5, mean / 1.5) has variance mean^2 / 1.5 */
	ok(close_to(st.var, 131072.0 * 131072 / 1.5, 0.05),
	   "randvar gamma variance %.4g near mean^2 / shape", st.var);
	check_mean("randvar gamma mean=128k gamma=1500", &s, 0.015);

	s.min = 100;
	s.mean = 1000;
	s.gamma = 500;
	st = sample_stats(&s, 0);
	ok(st.lo >= 100, "randvar gamma min=100 is added: lowest %.2f",
	   st.lo);
	check_mean("randvar gamma mean=1000 gamma=500 min=100", &s, 0.015);

	s = spec_of(RV_GAMMA);
	s.gamma = 1500;
	ok(rv_spec_mean(&s) == 1.5, "randvar gamma without mean has mean 1.5");
	check_mean("randvar gamma gamma=1500 without mean", &s, 0.015);

	s = cvar_of(RV_CV_GAMMA, "mean:131072;gamma:1.5");
	check_mean("cvar-gamma mean:131072;gamma:1.5", &s, 0.015);
	s = cvar_of(RV_CV_GAMMA, NULL);
	ok(rv_spec_mean(&s) == 4096, "cvar-gamma default mean is 4096");
	check_mean("cvar-gamma defaults", &s, 0.015);
	s = cvar_of(RV_CV_NORMAL, "mean:1000;sigma:100");
	st = sample_stats(&s, 0);
	ok(close_to(st.var, 10000, 0.03), "cvar-normal variance %.1f",
	   st.var);
	check_mean("cvar-normal mean:1000;sigma:100", &s, 0.005);
	s = cvar_of(RV_CV_UNIFORM, "lower:10;upper:20");
	st = sample_stats(&s, 0);
	ok(st.lo >= 10 && st.hi < 20, "cvar-uniform within [10, 20)");
	check_mean("cvar-uniform lower:10;upper:20", &s, 0.005);
	s = cvar_of(RV_CV_EXPONENTIAL, "mean:50");
	check_mean("cvar-exponential mean:50", &s, 0.015);
	s = cvar_of(RV_CV_ERLANG, "shape:3;rate:300");
	ok(rv_spec_mean(&s) == 300, "cvar-erlang mean is rate, as in filebench");
	check_mean("cvar-erlang shape:3;rate:300", &s, 0.015);
	s = cvar_of(RV_CV_LOGNORMAL, "shape:0.5;scale:2");
	ok(close_to(rv_spec_mean(&s), exp(2.125), 1e-12),
	   "cvar-lognormal mean is exp(scale + shape^2 / 2)");
	check_mean("cvar-lognormal shape:0.5;scale:2", &s, 0.01);
	s = cvar_of(RV_CV_TRIANGULAR, "lower:0;upper:10;mode:2");
	st = sample_stats(&s, 0);
	ok(st.lo >= 0 && st.hi <= 10, "cvar-triangular within [0, 10]");
	check_mean("cvar-triangular lower:0;upper:10;mode:2", &s, 0.01);
	s = cvar_of(RV_CV_WEIBULL, "shape:2;scale:10");
	check_mean("cvar-weibull shape:2;scale:10", &s, 0.01);
}

static void test_round_min_max(void)
{
	struct rv_spec s = spec_of(RV_UNIFORM);
	struct rv_rng rng;
	long n0 = 0, n1000 = 0, n2000 = 0, n3000 = 0, lo = 0, hi = 0, other = 0;
	int i, bad = 0;

	s.min = 1000;
	s.mean = 5000;
	s.round = 512;
	rv_rng_init(&rng, &s, 0);
	for (i = 0; i < NSAMPLE; i++) {
		double v = rv_sample(&s, &rng);

		/* 1000 rounds up to 1024; 8999.x rounds to 9216 */
		bad += fmod(v, 512) != 0 || v < 1024 || v > 9216;
	}
	is_int(bad, 0, "randvar round=512: multiples of 512 in [1024, 9216]");

	/* cvar rounding truncates, then takes the nearer multiple, ties down */
	s = cvar_of(RV_CV_UNIFORM, "lower:1000;upper:3000");
	s.round = 1000;
	rv_rng_init(&rng, &s, 0);
	for (i = 0; i < NSAMPLE; i++) {
		double v = rv_sample(&s, &rng);

		n1000 += v == 1000;
		n2000 += v == 2000;
		n3000 += v == 3000;
	}
	ok(n1000 + n2000 + n3000 == NSAMPLE &&
	   fabs(n1000 / (double)NSAMPLE - 0.25) < 0.005 &&
	   fabs(n2000 / (double)NSAMPLE - 0.5) < 0.005,
	   "cvar round=1000 on [1000, 3000): %ld/%ld/%ld at 1000/2000/3000",
	   n1000, n2000, n3000);

	/* ties, on constant variables: randvar goes away from 0, cvar down */
	s = spec_of(RV_UNIFORM);
	s.min = s.mean = 1536;
	s.round = 1024;
	rv_rng_init(&rng, &s, 0);
	ok(rv_sample(&s, &rng) == 2048, "randvar 1536 round=1024 gives 2048");
	s = cvar_of(RV_CV_UNIFORM, "lower:1536;upper:1536");
	s.round = 1024;
	ok(rv_sample(&s, &rng) == 1024, "cvar 1536 round=1024 gives 1024");
	s = cvar_of(RV_CV_UNIFORM, "lower:2047.9;upper:2047.9");
	s.round = 1;
	ok(rv_sample(&s, &rng) == 2047, "cvar 2047.9 round=1 truncates to 2047");
	s.round = 0;
	ok(rv_sample(&s, &rng) == 2047.9, "cvar without round keeps 2047.9");

	/* cvar min/max clamp, they do not redraw */
	s = cvar_of(RV_CV_NORMAL, "mean:100;sigma:50");
	s.min = 80;
	s.max = 120;
	s.has_max = true;
	rv_rng_init(&rng, &s, 0);
	for (i = 0; i < NSAMPLE; i++) {
		double v = rv_sample(&s, &rng);

		lo += v == 80;
		hi += v == 120;
		other += v < 80 || v > 120;
	}
	/* P(z < -0.4) = 0.3446 */
	ok(other == 0 && fabs(lo / (double)NSAMPLE - 0.3446) < 0.005 &&
	   fabs(hi / (double)NSAMPLE - 0.3446) < 0.005,
	   "cvar min=80 max=120 clamp: %.4f at 80, %.4f at 120, %ld outside",
	   lo / (double)NSAMPLE, hi / (double)NSAMPLE, other);

	/* never negative: a standard normal cvar without min */
	s = cvar_of(RV_CV_NORMAL, NULL);
	rv_rng_init(&rng, &s, 0);
	for (i = 0, bad = 0; i < NSAMPLE; i++) {
		double v = rv_sample(&s, &rng);

		bad += v < 0;
		n0 += v == 0;
	}
	ok(bad == 0 && fabs(n0 / (double)NSAMPLE - 0.5) < 0.005,
	   "cvar-normal(0, 1) never negative: %.4f clamped to 0",
	   n0 / (double)NSAMPLE);
}

static void test_tabular(void)
{
	static const struct rv_bin bins[] = {
		{ 20, 1000, 1000 },
		{ 30, 2000, 3000 },
		{ 50, 10000, 20000 },
	};
	struct rv_spec s = table_of(bins, 3, 1000);
	struct rv_rng rng;
	long c[3] = { 0 }, other = 0, zero = 0;
	char err[256] = "";
	int i;

	is_int(rv_spec_check(&s, err, sizeof(err)), 0, "valid randtable passes");
	ok(rv_spec_mean(&s) == 8450, "randtable mean is the weighted midpoint");
	rv_rng_init(&rng, &s, 0);
	for (i = 0; i < NSAMPLE; i++) {
		double v = rv_sample(&s, &rng);

		if (v == 1000)
			c[0]++;
		else if (v >= 2000 && v < 3000)
			c[1]++;
		else if (v >= 10000 && v < 20000)
			c[2]++;
		else
			other++;
	}
	ok(other == 0 && fabs(c[0] / (double)NSAMPLE - 0.2) < 0.005 &&
	   fabs(c[1] / (double)NSAMPLE - 0.3) < 0.005 &&
	   fabs(c[2] / (double)NSAMPLE - 0.5) < 0.005,
	   "randtable shares %.4f/%.4f/%.4f, want 0.2/0.3/0.5, %ld outside",
	   c[0] / (double)NSAMPLE, c[1] / (double)NSAMPLE,
	   c[2] / (double)NSAMPLE, other);
	check_mean("randtable min=1000", &s, 0.01);

	/* filebench re-bases the table: its lowest edge lands on min */
	s.min = 0;
	rv_rng_init(&rng, &s, 0);
	for (i = 0; i < NSAMPLE; i++)
		zero += rv_sample(&s, &rng) == 0;
	ok(fabs(zero / (double)NSAMPLE - 0.2) < 0.005,
	   "randtable min=0 maps the 1000 bin to 0: %.4f at 0",
	   zero / (double)NSAMPLE);
	check_mean("randtable min=0 keeps the mean", &s, 0.01);
	rv_spec_release(&s);
	ok(s.table == NULL && s.ntable == 0, "rv_spec_release clears the table");
}

static void parse_fails(enum rv_dist d, const char *params, size_t want_off,
			const char *want_err)
{
	struct rv_spec s = spec_of(d);
	char err[256] = "";
	size_t off = 999;
	int rc = rv_parse_params(&s, params, err, sizeof(err), &off);

	is_int(rc, -1, "'%s' for %s fails", params, rv_dist_name(d));
	is_int(off, want_off, "'%s': error offset", params);
	is_str(err, want_err, "'%s': error message", params);
}

static void test_params(void)
{
	struct rv_spec s = spec_of(RV_CV_GAMMA);
	char err[256] = "";
	size_t off = 999;

	is_int(rv_parse_params(&s, "mean:131072;gamma:1.5", err, sizeof(err),
			       &off), 0, "mean:131072;gamma:1.5 parses");
	ok(s.param[0] == 131072 && s.param[1] == 1.5,
	   "cvar-gamma params %g, %g", s.param[0], s.param[1]);
	s = cvar_of(RV_CV_GAMMA, "gamma:2");
	ok(s.param[0] == 4096 && s.param[1] == 2,
	   "missing mean takes the default 4096");
	s = cvar_of(RV_CV_GAMMA, "");
	ok(s.param[0] == 4096 && s.param[1] == 1.5, "empty string: defaults");
	s = cvar_of(RV_CV_TRIANGULAR, ";mode:2; upper : 1e1 ;;lower:-1;");
	ok(s.param[0] == -1 && s.param[1] == 10 && s.param[2] == 2,
	   "any order, blanks, exponents, empty segments: %g %g %g",
	   s.param[0], s.param[1], s.param[2]);
	s = cvar_of(RV_CV_NORMAL, NULL);
	ok(s.param[0] == 0 && s.param[1] == 1, "cvar-normal defaults 0, 1");
	s = cvar_of(RV_CV_LOGNORMAL, NULL);
	ok(s.param[0] == 1 && s.param[1] == 1, "cvar-lognormal defaults 1, 1");
	s = cvar_of(RV_CV_TRIANGULAR, NULL);
	ok(s.param[0] == 0 && s.param[1] == 1 && s.param[2] == 0.5,
	   "cvar-triangular defaults 0, 1, 0.5");

	parse_fails(RV_CV_NORMAL, "mean:1;mu:2", 7,
		    "unknown parameter 'mu' for cvar-normal; expected mean or sigma");
	parse_fails(RV_CV_LOGNORMAL, "mean:1", 0,
		    "unknown parameter 'mean' for cvar-lognormal; expected shape or scale");
	parse_fails(RV_CV_TRIANGULAR, "peak:1", 0,
		    "unknown parameter 'peak' for cvar-triangular; expected lower, upper or mode");
	parse_fails(RV_CV_EXPONENTIAL, "rate:1", 0,
		    "unknown parameter 'rate' for cvar-exponential; expected mean");
	parse_fails(RV_CV_GAMMA, "mean:12x;gamma:1", 5,
		    "bad value '12x' for parameter 'mean'; expected a decimal number");
	parse_fails(RV_CV_GAMMA, "mean:128k", 5,
		    "bad value '128k' for parameter 'mean'; expected a decimal number");
	parse_fails(RV_CV_GAMMA, "gamma:1;mean:0x10", 13,
		    "bad value '0x10' for parameter 'mean'; expected a decimal number");
	parse_fails(RV_CV_GAMMA, "gamma:nan", 6,
		    "bad value 'nan' for parameter 'gamma'; expected a decimal number");
	parse_fails(RV_CV_GAMMA, "gamma:1:2", 6,
		    "bad value '1:2' for parameter 'gamma'; expected a decimal number");
	parse_fails(RV_CV_GAMMA, "gamma:1;mean:", 13,
		    "missing value for parameter 'mean'");
	parse_fails(RV_CV_GAMMA, "mean", 4, "missing value for parameter 'mean'");
	parse_fails(RV_CV_GAMMA, "gamma:1;:5", 8, "missing parameter name");
	parse_fails(RV_CV_GAMMA, "mean:1;mean:2", 7,
		    "duplicate parameter 'mean'");
	parse_fails(RV_UNIFORM, "mean:1", 0, "uniform does not take parameters");
}

static void check_fails(const struct rv_spec *s, const char *want)
{
	char err[256] = "";

	is_int(rv_spec_check(s, err, sizeof(err)), -1, "check rejects: %s",
	       want);
	is_str(err, want, "check message");
}

static void test_check(void)
{
	static const struct rv_bin short90[] = { { 40, 1, 2 }, { 50, 3, 4 } };
	static const struct rv_bin inverted[] = { { 100, 9, 4 } };
	static const struct rv_bin negative[] = { { 110, 1, 2 }, { -10, 3, 4 } };
	struct rv_spec s;
	char err[256] = "";
	int d;

	s = table_of(short90, 2, 0);
	check_fails(&s, "randtable percentages sum to 90, not 100");
	rv_spec_release(&s);
	s = table_of(inverted, 1, 0);
	check_fails(&s, "randtable row 1: min 9 is greater than max 4");
	rv_spec_release(&s);
	s = table_of(negative, 2, 0);
	check_fails(&s, "randtable row 2: percentage -10 is negative");
	rv_spec_release(&s);
	s = table_of(short90, 2, 0);
	s.table[1].pct = 60;
	s.min = 3;
	check_fails(&s, "min (3) is greater than the randtable mean (2.7)");
	rv_spec_release(&s);
	s = spec_of(RV_TABULAR);
	check_fails(&s, "randtable is empty");

	s = spec_of(RV_GAMMA);
	s.mean = 100;
	check_fails(&s, "gamma must be greater than 0, got 0");
	s.gamma = 1500;
	s.min = 200;
	check_fails(&s, "gamma mean (100) is less than min (200)");
	s = spec_of(RV_UNIFORM);
	s.mean = 10;
	s.min = 20;
	check_fails(&s, "uniform mean (10) is less than min (20)");
	s.min = 0;
	s.round = -1;
	check_fails(&s, "round must not be negative, got -1");

	s = cvar_of(RV_CV_GAMMA, "gamma:0");
	check_fails(&s, "cvar-gamma parameter 'gamma' must be greater than 0, got 0");
	s = cvar_of(RV_CV_NORMAL, "sigma:-1");
	check_fails(&s, "cvar-normal parameter 'sigma' must be greater than 0, got -1");
	s = cvar_of(RV_CV_UNIFORM, "lower:5;upper:1");
	check_fails(&s, "cvar-uniform lower (5) is greater than upper (1)");
	s = cvar_of(RV_CV_TRIANGULAR, "lower:0;upper:10;mode:11");
	check_fails(&s, "cvar-triangular mode (11) is outside [0, 10]");
	s = cvar_of(RV_CV_ERLANG, "shape:1.5");
	check_fails(&s, "cvar-erlang parameter 'shape' must be a positive integer, got 1.5");
	s = cvar_of(RV_CV_WEIBULL, "scale:0");
	check_fails(&s, "cvar-weibull parameter 'scale' must be greater than 0, got 0");
	s = cvar_of(RV_CV_LOGNORMAL, "shape:0");
	check_fails(&s, "cvar-lognormal parameter 'shape' must be greater than 0, got 0");
	s = cvar_of(RV_CV_EXPONENTIAL, "mean:-3");
	check_fails(&s, "cvar-exponential parameter 'mean' must be at least 0, got -3");
	s = cvar_of(RV_CV_NORMAL, NULL);
	s.min = 10;
	s.max = 5;
	s.has_max = true;
	check_fails(&s, "min (10) is greater than max (5)");

	/* every distribution's defaults are valid */
	for (d = 0; d < RV_NDIST; d++) {
		if (d == RV_TABULAR)
			continue;
		s = rv_dist_is_cvar(d) ? cvar_of(d, NULL) : spec_of(d);
		s.gamma = 1500;
		is_int(rv_spec_check(&s, err, sizeof(err)), 0,
		       "%s defaults pass the check", rv_dist_name(d));
	}
}

static void test_names(void)
{
	is_int(rv_dist_lookup("gamma", false), RV_GAMMA, "randvar gamma");
	is_int(rv_dist_lookup("tabular", false), RV_TABULAR, "randvar tabular");
	is_int(rv_dist_lookup("normal", false), -1, "no randvar normal");
	is_int(rv_dist_lookup("cvar-gamma", false), -1, "no randvar cvar-gamma");
	is_int(rv_dist_lookup("cvar-gamma", true), RV_CV_GAMMA, "cvar-gamma");
	is_int(rv_dist_lookup("gamma", true), RV_CV_GAMMA, "cvar type gamma");
	is_int(rv_dist_lookup("weibull", true), RV_CV_WEIBULL, "cvar weibull");
	is_int(rv_dist_lookup("tabular", true), -1, "no cvar tabular");
	is_int(rv_dist_lookup("cvar-", true), -1, "no cvar with empty name");
	is_str(rv_dist_name(RV_CV_LOGNORMAL), "cvar-lognormal", "name");
	ok(rv_dist_is_cvar(RV_CV_ERLANG) && !rv_dist_is_cvar(RV_UNIFORM),
	   "rv_dist_is_cvar");
}

int main(void)
{
	test_generator();
	test_below();
	test_raw_samplers();
	test_means();
	test_round_min_max();
	test_tabular();
	test_params();
	test_check();
	test_names();
	return tap_done();
}
