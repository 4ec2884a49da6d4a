/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The statistics of repeated runs (statistics.h). */
#include "util/statistics.h"

#include <float.h>
#include <math.h>

/* Whether x[0..n) are all one value (summed, 0.1 three times is not). */
static bool all_equal(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

double st_mean(const double *x, size_t n)
{
	double s = 0;

	if (n && all_equal(x, n))
		return x[0];
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : 0;
}

double st_stddev(const double *x, size_t n)
{
	double m = st_mean(x, n), s = 0;

	if (n < 2 || all_equal(x, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

/*
 * The continued fraction of the regularised incomplete beta function,
 * evaluated by the modified Lentz method; converges fast for
 * x < (a + 1) / (a + b + 2), which the caller ensures.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 500; m++) {
		double k = 2.0 * m, step;
		double num = m * (b - m) * x / ((a + k - 1) * (a + k));

		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + k) * (a + k + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b), the regularised incomplete beta function. */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(a * log(x) + b * log1p(-x) + lgamma(a + b) - lgamma(a) -
		    lgamma(b));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double st_t_cdf(double t, double df)
{
	double tail;

	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double st_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -st_t_quantile(1 - p, df);
	while (st_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	/* bisection to the last bit: a few hundred cheap evaluations */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (st_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void st_summarise(const double *x, size_t n, double level,
		  struct st_summary *out)
{
	out->n = n;
	out->mean = st_mean(x, n);
	out->sd = st_stddev(x, n);
	out->half = n < 2 ? 0 :
			    st_t_quantile(1 - (1 - level) / 2,
					  (double)(n - 1)) *
				    out->sd / sqrt((double)n);
}

/*
 * Fieller's interval for rho = mb / ma: the rho for which mb - rho ma,
 * whose variance is vb + rho^2 va, is within t standard errors of 0,
 * (mb - rho ma)^2 <= t^2 (vb + rho^2 va).  That is a quadratic
 * a rho^2 - 2 b rho + c <= 0 with a = ma^2 - t^2 va, b = ma mb and
 * c = mb^2 - t^2 vb: an interval when a > 0 (ma told apart from 0),
 * unbounded otherwise.  The figures are never negative, so neither is
 * their ratio: a lower end below 0 (mb not told apart from 0) is 0.
 */
static void fieller(double ma, double va, double mb, double vb, double t,
		    double *lo, double *hi)
{
	double a = ma * ma - t * t * va, root;

	if (a <= 0) {
		*lo = 0;
		*hi = INFINITY;
		return;
	}
	/* b^2 - a c, written so that nothing cancels */
	root = t * sqrt(va * mb * mb + vb * a);
	*lo = fmax(0, (ma * mb - root) / a);
	*hi = (ma * mb + root) / a;
}

void st_welch(const struct st_summary *a, const struct st_summary *b,
	      double level, struct st_welch *out)
{
	double va, vb, se;

	*out = (struct st_welch){ .p = 1, .why = ST_FEW };
	if (a->n < 2 || b->n < 2)
		return;
	out->why = ST_ZERO_MEAN;
	if (a->mean == 0)
		return;
	out->ratio = b->mean / a->mean;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se = sqrt(va + vb);
	/*
	 * No spread on either side: nothing estimates the noise, and a t of
	 * d / 0 would call any difference certain.  The runs cannot tell.
	 */
	out->why = ST_NO_SPREAD;
	if (se == 0)
		return;
	out->why = ST_TESTED;
	out->valid = true;
	out->t = (b->mean - a->mean) / se;
	out->df = (va + vb) * (va + vb) /
		  (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	out->p = 2 * (1 - st_t_cdf(fabs(out->t), out->df));
	/* at rho = 1 Fieller's bound is Welch's test: 1 is out iff p < 1 - level */
	fieller(a->mean, va, b->mean, vb,
		st_t_quantile(1 - (1 - level) / 2, out->df), &out->ratio_lo,
		&out->ratio_hi);
}

bool st_steady(const double *x, size_t n, double tol, double *mean,
	       double *dev)
{
	double m = st_mean(x, n), d = 0;

	for (size_t i = 0; i < n; i++)
		if (m != 0 && fabs(x[i] - m) / fabs(m) > d)
			d = fabs(x[i] - m) / fabs(m);
	*mean = m;
	*dev = d;
	return n >= 2 && m != 0 && d <= tol;
}
