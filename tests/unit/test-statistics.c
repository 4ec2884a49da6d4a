/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The statistics of repeated runs against known answers: t quantiles from
 * the printed tables, t probabilities and a Welch test computed apart (a
 * numerical integral of the t density), a mean's interval by hand.
 */
#include <math.h>

#include "tap.h"
#include "util/statistics.h"

#define near(got, want, tol, ...)                                           \
	do {                                                                \
		double g_ = (got), w_ = (want);                             \
		if (!ok(fabs(g_ - w_) <= (tol), __VA_ARGS__))               \
			printf("#   got %.9g, want %.9g\n", g_, w_);        \
	} while (0)

/* st_welch of two samples, at 95% */
static void welch(const double *a, size_t na, const double *b, size_t nb,
		  struct st_welch *w)
{
	struct st_summary sa, sb;

	st_summarise(a, na, 0.95, &sa);
	st_summarise(b, nb, 0.95, &sb);
	st_welch(&sa, &sb, 0.95, w);
}

/*
 * Ratio intervals a normal approximation (the delta method) takes below
 * 0.  The answers were computed apart in Python with mpmath: the sample
 * means and variances of the means va, vb, Welch's df, t(0.975, df) by
 * findroot on 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2, and the roots of
 * (ma^2 - t^2 va) r^2 - 2 ma mb r + (mb^2 - t^2 vb) = 0.
 */
static void fieller_cases(void)
{
	double a1[] = { 10, 50, 100, 150, 190 }, b1[] = { 5, 25, 50, 75, 95 };
	double a2[] = { 100, 102, 98 }, b2[] = { 2, 30, 1 };
	double a3[] = { 1, 50, 2 }, b3[] = { 10, 11, 12 };
	double a4[] = { 100, 110, 90 }, b4[] = { 200, 220, 180 };
	struct st_welch w;

	/* ratio 0.5; delta method 0.5 +- 0.566: [-0.066, 1.066] */
	welch(a1, 5, b1, 5, &w);
	near(w.ratio_lo, 0.0928844479, 1e-6,
	     "noisy A and B: Fieller's lower end 0.0929, above 0");
	near(w.ratio_hi, 2.6915162416, 1e-6, "... upper end 2.6915");
	/* ratio 0.11, p 0.0104: the roots are -0.288153 and 0.508668 */
	welch(a2, 3, b2, 3, &w);
	ok(w.ratio_lo == 0, "B not told apart from 0: the lower end is 0 "
			    "(%g), not -0.288",
	   w.ratio_lo);
	near(w.ratio_hi, 0.5086682399, 1e-6, "... upper end 0.5087");
	near(w.p, 0.01035918077, 1e-7, "... p = 0.0104");
	ok(w.ratio_hi < 1 && w.p < 0.05,
	   "... 1 is outside and the test finds a difference");
	/* ma^2 - t^2 va = -4504.4 < 0 */
	welch(a3, 3, b3, 3, &w);
	ok(w.valid && w.ratio_lo == 0 && isinf(w.ratio_hi),
	   "A not told apart from 0: [0, inf] (%g, %g)", w.ratio_lo,
	   w.ratio_hi);
	/* doc/compare.md's example, tests/groups.sh's fixtures */
	welch(a4, 3, b4, 3, &w);
	near(w.ratio_lo, 1.5318382808, 1e-6, "2x: [1.5318, 2.6112]");
	near(w.ratio_hi, 2.6112417024, 1e-6, "... upper end");
}

/*
 * Runs without spread: a standard error of 0 estimates no noise, so no
 * difference is judged, however large (t would be d / 0).
 */
static void no_spread(void)
{
	double a[] = { 7, 7, 7 }, b[] = { 14, 14, 14 }, c[] = { 13, 14, 15 };
	double tenth[] = { 0.1, 0.1, 0.1 }, fifth[] = { 0.2, 0.2, 0.2 };
	struct st_summary s;
	struct st_welch w;

	welch(a, 3, a, 3, &w);
	ok(!w.valid && w.why == ST_NO_SPREAD && w.p == 1 && w.ratio == 1,
	   "no spread, same means: no test, p = 1, ratio 1");
	welch(a, 3, b, 3, &w);
	ok(!w.valid && w.why == ST_NO_SPREAD && w.p == 1,
	   "no spread, 7 7 7 against 14 14 14: no test, not significant");
	near(w.ratio, 2, 0, "... the ratio 2 is still there");
	/* 0.1 + 0.1 + 0.1 is 0.30000000000000004: no spread for all that */
	st_summarise(tenth, 3, 0.95, &s);
	ok(s.sd == 0 && s.half == 0 && s.mean == 0.1,
	   "0.1 three times: sd exactly 0, mean exactly 0.1 (%.17g)", s.mean);
	welch(tenth, 3, fifth, 3, &w);
	ok(!w.valid && w.why == ST_NO_SPREAD,
	   "0.1 x3 against 0.2 x3: no spread, whatever the rounding");
	/* one side varies: Welch's df is that side's, n - 1 = 2 */
	welch(a, 3, c, 3, &w);
	ok(w.valid && w.why == ST_TESTED, "one side without spread: tested");
	near(w.df, 2, 1e-12, "... with the other side's df, 2");
	near(w.t, 7 / sqrt(1.0 / 3), 1e-9, "... t = 7 / sqrt(1/3)");
}

int main(void)
{
	/* two-sided 95%: t(0.975, df), as every table prints them */
	static const struct {
		double df, t;
	} t975[] = { { 1, 12.706 }, { 2, 4.303 }, { 3, 3.182 },
		     { 4, 2.776 },  { 5, 2.571 }, { 9, 2.262 },
		     { 10, 2.228 }, { 29, 2.045 }, { 1e6, 1.960 } };
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 };
	double flat[] = { 100, 104, 97, 101 }, wavy[] = { 100, 130, 80, 95 };
	double zero[] = { 0, 0, 0 }, m, d;
	struct st_summary sa, sb, sc;
	struct st_welch w;

	for (size_t i = 0; i < sizeof(t975) / sizeof(t975[0]); i++)
		near(st_t_quantile(0.975, t975[i].df), t975[i].t, 0.0005,
		     "t(0.975, %g) = %.3f", t975[i].df, t975[i].t);
	near(st_t_quantile(0.995, 10), 3.169, 0.0005, "t(0.995, 10) = 3.169");
	near(st_t_quantile(0.025, 4), -2.776, 0.0005,
	     "t(0.025, 4) = -2.776 (the lower tail)");
	near(st_t_quantile(0.5, 3), 0, 1e-12, "t(0.5, df) = 0");
	near(st_t_cdf(2.0, 10), 0.963305983, 1e-7, "P(T10 <= 2) = 0.9633060");
	near(st_t_cdf(1.5, 3.5), 0.891090906, 1e-7,
	     "P(T3.5 <= 1.5): a real df (Welch's)");
	near(st_t_cdf(-2.0, 10), 1 - 0.963305983, 1e-7, "P(T10 <= -2)");

	near(st_mean(x, 5), 3, 1e-12, "mean of 1..5 = 3");
	near(st_stddev(x, 5), sqrt(2.5), 1e-12,
	     "sample sd of 1..5 = sqrt(2.5)");
	is_int(st_stddev(x, 1) == 0, 1, "sd of one value = 0");
	/* 3 +- 2.776 * 1.5811 / sqrt(5) = 3 +- 1.9632 */
	st_summarise(x, 5, 0.95, &sa);
	near(sa.half, 2.7764451 * sqrt(2.5) / sqrt(5), 1e-6,
	     "95%% interval of the mean of 1..5: 3 +- 1.963");
	st_summarise(x, 1, 0.95, &sc);
	near(sc.half, 0, 0, "one value: no interval");

	/* Welch: t = 3 / sqrt(0.5 + 2), df = 6.25 / (0.0625 + 1) */
	st_summarise(y, 5, 0.95, &sb);
	st_welch(&sa, &sb, 0.95, &w);
	ok(w.valid, "Welch: valid with 5 and 5 values");
	near(w.t, 1.897366596, 1e-8, "Welch t = 1.8974");
	near(w.df, 5.882352941, 1e-8, "Welch df = 5.8824");
	near(w.p, 0.107531195, 1e-6, "Welch two-sided p = 0.1075");
	near(w.ratio, 2, 1e-12, "ratio of means 6 / 3 = 2");
	/*
	 * Fieller's interval: the rho with (6 - 3 rho)^2 <= t^2 (2 + 0.5
	 * rho^2), t = t(0.975, 5.88); computed apart in Python with mpmath
	 * (t from its regularised incomplete beta, the quadratic's roots):
	 * [0.760027525, 5.262967283], not the delta method's symmetric
	 * 2 +- 1.639.
	 */
	near(w.ratio_lo, 0.760027525, 1e-6, "Fieller: lower end 0.7600");
	near(w.ratio_hi, 5.262967283, 1e-6, "Fieller: upper end 5.2630");
	ok(w.ratio_lo <= 1 && w.p >= 0.05,
	   "1 is inside the interval and the test finds no difference");
	fieller_cases();
	st_welch(&sa, &sa, 0.95, &w);
	near(w.p, 1, 1e-12, "a sample against itself: p = 1");
	no_spread();
	st_summarise(x, 1, 0.95, &sc);
	st_welch(&sc, &sb, 0.95, &w);
	ok(!w.valid && w.p == 1 && w.why == ST_FEW,
	   "one value on a side: no test");
	st_summarise(zero, 3, 0.95, &sc);
	st_welch(&sc, &sb, 0.95, &w);
	ok(!w.valid && w.why == ST_ZERO_MEAN, "a first mean of 0: no test");

	ok(st_steady(flat, 4, 0.10, &m, &d), "100 104 97 101: steady at 10%%");
	near(m, 100.5, 1e-12, "... its mean 100.5");
	near(d, 3.5 / 100.5, 1e-12, "... its largest deviation 3.48%%");
	ok(!st_steady(wavy, 4, 0.10, &m, &d), "100 130 80 95: not steady");
	ok(st_steady(wavy, 4, 0.30, &m, &d), "... but within 30%%");
	ok(!st_steady(flat, 1, 0.10, &m, &d), "one value: not judged steady");
	return tap_done();
}
