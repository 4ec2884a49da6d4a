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
/* The sample standard deviation (n - 1 in the divisor); 0 if n < 2. */
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
 * false when either side has fewer than 2 values, or mean(a) is 0; p is
 * then 1.
 */
struct st_welch {
	bool valid;
	double t, df, p; /* p: two-sided */
	double ratio, ratio_lo, ratio_hi;
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
