/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The statistics of repeated runs (doc/compare.md): mean, standard
 * deviation, Student's t distribution, the confidence interval of a mean,
 * Welch's t-test of two means and the interval of their ratio, and the
 * steady-state check of a time series.  Pure functions of their inputs.
 */
#ifndef FBRUN_UTIL_STATISTICS_H
#define FBRUN_UTIL_STATISTICS_H

#include <stdbool.h>
#include <stddef.h>

double st_mean(const double *x, size_t n);
/*
 * The sample standard deviation (n - 1 in the divisor); 0 if n < 2.  Of
 * values all equal, exactly 0 and their mean that value, whatever the
 * rounding of their sum.
 */
double st_stddev(const double *x, size_t n);

/* Student's t distribution with df degrees of freedom (df > 0, real). */
double st_t_cdf(double t, double df);
/* The t with st_t_cdf(t, df) = p, 0 < p < 1. */
double st_t_quantile(double p, double df);

/*
 * A sample's mean and the half-width of its two-sided confidence interval
 * at level (0.95: mean +- t(0.975, n-1) * s / sqrt(n)); half 0 if n < 2.
 */
struct st_summary {
	size_t n;
	double mean, sd, half;
};
void st_summarise(const double *x, size_t n, double level,
		  struct st_summary *out);

/*
 * Welch's t-test of mean(b) against mean(a), and the ratio
 * mean(b) / mean(a) with Fieller's confidence interval at level, with
 * Welch's degrees of freedom (doc/compare.md): when bounded, it holds 1
 * exactly when the test finds no difference at 1 - level.  For figures
 * that are never negative: the interval's lower end is 0 at least, and
 * it is [0, inf] when mean(a) itself is not told apart from 0.  `valid` is
 * false, and p 1, when there is no test, `why`: either side has fewer
 * than 2 values, mean(a) is 0, or neither side varies (a standard error
 * of 0 is no estimate of the noise, so no difference can be judged; the
 * ratio is there, without an interval).
 */
enum st_why {
	ST_TESTED,
	ST_FEW, /* fewer than 2 values on a side */
	ST_ZERO_MEAN, /* mean(a) is 0 */
	ST_NO_SPREAD, /* every value of a side equal, on both sides */
};
struct st_welch {
	bool valid;
	enum st_why why;
	double t, df, p; /* p: two-sided */
	double ratio, ratio_lo, ratio_hi; /* ratio: also with ST_NO_SPREAD */
};
void st_welch(const struct st_summary *a, const struct st_summary *b,
	      double level, struct st_welch *out);

/*
 * Whether x[0..n) is flat: every value within tol (0.10 for 10%) of
 * their mean.  The mean and the largest deviation (a fraction of the
 * mean) go to *mean and *dev.  False if n < 2 or the mean is 0.
 */
bool st_steady(const double *x, size_t n, double tol, double *mean,
	       double *dev);

#endif
