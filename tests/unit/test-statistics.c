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
	double same[] = { 7, 7, 7 }, m, d;
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
	ok(w.ratio_lo < 2 && w.ratio_hi > 2 &&
		   fabs((w.ratio_hi - 2) - (2 - w.ratio_lo)) < 1e-9,
	   "the ratio's interval is around it, symmetric (%.3f .. %.3f)",
	   w.ratio_lo, w.ratio_hi);
	/* delta method: 2 * sqrt(0.5/9 + 2/36) * t(0.975, 5.88) */
	near(w.ratio_hi - 2,
	     2 * sqrt(0.5 / 9 + 2.0 / 36) * st_t_quantile(0.975, w.df), 1e-9,
	     "its half-width by the delta method");
	st_welch(&sa, &sa, 0.95, &w);
	near(w.p, 1, 1e-12, "a sample against itself: p = 1");
	st_summarise(same, 3, 0.95, &sc);
	st_welch(&sc, &sc, 0.95, &w);
	ok(w.valid && w.p == 1 && w.ratio == 1,
	   "no spread, same means: p = 1, ratio 1");
	st_summarise(x, 1, 0.95, &sc);
	st_welch(&sc, &sb, 0.95, &w);
	ok(!w.valid && w.p == 1, "one value on a side: no test");

	ok(st_steady(flat, 4, 0.10, &m, &d), "100 104 97 101: steady at 10%%");
	near(m, 100.5, 1e-12, "... its mean 100.5");
	near(d, 3.5 / 100.5, 1e-12, "... its largest deviation 3.48%%");
	ok(!st_steady(wavy, 4, 0.10, &m, &d), "100 130 80 95: not steady");
	ok(st_steady(wavy, 4, 0.30, &m, &d), "... but within 30%%");
	ok(!st_steady(flat, 1, 0.10, &m, &d), "one value: not judged steady");
	return tap_done();
}
