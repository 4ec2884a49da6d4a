/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Random variables: a per-thread xoshiro256** generator, the samplers
 * behind randvar() and cvar(), and filebench 1.5's rules for min, max
 * and round.  See rand.h for the contracts; their parameters are read
 * and checked in rand_spec.c.
 */
#include "lang/rand.h"
#include "lang/rand_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define HAVE_GETRANDOM 1
#endif
#endif

/* filebench: a gamma randvar without mean= has a mean equal to its shape. */
static double gamma_mean(const struct rv_spec *s)
{
	return s->mean != 0 ? s->mean : s->gamma / 1000;
}

double rv_table_stats(const struct rv_spec *s, double *tmin, double *total)
{
	double sum = 0, w = 0;
	size_t i;

	*tmin = s->table[0].min;
	for (i = 0; i < s->ntable; i++) {
		const struct rv_bin *b = &s->table[i];

		/* even a 0% bin moves the lowest edge, as in filebench */
		if (b->min < *tmin)
			*tmin = b->min;
		sum += b->pct * (b->min + b->max) / 2;
		w += b->pct;
	}
	if (total)
		*total = w;
	return w > 0 ? sum / w : *tmin;
}

void rv_rng_seed(struct rv_rng *rng, uint64_t seed)
{
	int i;

	/* consecutive splitmix64 outputs are distinct, so never all zero */
	for (i = 0; i < 4; i++) {
		seed += 0x9e3779b97f4a7c15ULL;
		rng->s[i] = rv_mix64(seed);
	}
}

static uint64_t os_entropy(void)
{
	uint64_t v = 0;
	struct timespec ts;
	int fd;

#ifdef HAVE_GETRANDOM
	if (getrandom(&v, sizeof(v), 0) == (ssize_t)sizeof(v))
		return v;
#endif
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, &v, sizeof(v));

		close(fd);
		if (n == (ssize_t)sizeof(v))
			return v;
	}
	/* last resort: still seed, only less unpredictably */
	clock_gettime(CLOCK_REALTIME, &ts);
	return rv_mix64(((uint64_t)ts.tv_sec << 30 ^ (uint64_t)ts.tv_nsec) ^
		     rv_mix64((uint64_t)getpid() ^ (uint64_t)(uintptr_t)&v));
}

void rv_rng_init(struct rv_rng *rng, const struct rv_spec *spec,
		 uint64_t stream)
{
	/* filebench ignores seed= unless the source is rand48 */
	uint64_t seed = spec->src == RV_SRC_URANDOM ? os_entropy() : spec->seed;

	/* rv_mix64 is a bijection: for one seed, every stream starts apart */
	rv_rng_seed(rng, seed ^ rv_mix64(stream + 0x632be59bd9b4e019ULL));
}

double rv_next_double(struct rv_rng *rng)
{
	return (double)(rv_next_u64(rng) >> 11) * 0x1.0p-53;
}

/* Uniform in (0, 1): safe for log() and pow(u, 1/a). */
static double open01(struct rv_rng *rng)
{
	return ((double)(rv_next_u64(rng) >> 11) + 0.5) * 0x1.0p-53;
}

double rv_exp(struct rv_rng *rng, double mean)
{
	return -mean * log(open01(rng));
}

double rv_normal(struct rv_rng *rng, double mean, double sigma)
{
	double u, v, s;

	/* Marsaglia's polar method; the second variate is dropped */
	do {
		u = 2 * rv_next_double(rng) - 1;
		v = 2 * rv_next_double(rng) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return mean + sigma * u * sqrt(-2 * log(s) / s);
}

double rv_gamma(struct rv_rng *rng, double shape, double scale)
{
	double d, c, x, v, u;

	if (!(shape > 0) || !(scale > 0))
		return 0;
	if (shape < 1) {
		/* Gamma(a) = Gamma(a + 1) * U^(1/a) */
		u = open01(rng);
		return rv_gamma(rng, shape + 1, scale) * pow(u, 1 / shape);
	}
	/* Marsaglia-Tsang */
	d = shape - 1.0 / 3;
	c = 1 / sqrt(9 * d);
	for (;;) {
		do {
			x = rv_normal(rng, 0, 1);
			v = 1 + c * x;
		} while (v <= 0);
		v = v * v * v;
		u = open01(rng);
		if (u < 1 - 0.0331 * x * x * x * x ||
		    log(u) < 0.5 * x * x + d * (1 - v + log(v)))
			return d * v * scale;
	}
}

static double sample_table(const struct rv_spec *s, struct rv_rng *rng)
{
	double tmin, total, tmean, u, cum = 0, x;
	const struct rv_bin *b = NULL;
	size_t i;

	if (!s->ntable)
		return 0;
	tmean = rv_table_stats(s, &tmin, &total);
	u = rv_next_double(rng) * total;
	for (i = 0; i < s->ntable; i++) {
		if (!(s->table[i].pct > 0))
			continue;
		b = &s->table[i];
		cum += b->pct;
		if (u < cum)
			break;
	}
	if (!b)
		return 0;
	x = b->min + rv_next_double(rng) * (b->max - b->min);
	/*
	 * filebench maps the table affinely so that its lowest edge lands on
	 * min and its mean stays put; with min equal to the lowest edge (as
	 * in the shipped workloads) that is the identity.  For a constant
	 * table filebench would return min; we return the constant.
	 */
	if (tmean > tmin)
		x = s->min + (x - tmin) * (tmean - s->min) / (tmean - tmin);
	return x;
}

static double triangular(struct rv_rng *rng, double lo, double hi,
			 double mode)
{
	double w = hi - lo, m, u = rv_next_double(rng);

	if (!(w > 0))
		return lo;
	m = (mode - lo) / w;
	u = u <= m ? sqrt(m * u) : 1 - sqrt((1 - m) * (1 - u));
	return lo + w * u;
}

/* randvar rounding: nearest multiple, halves away from zero. */
static double round_rv(double v, double r)
{
	return r > 0 ? round(v / r) * r : v;
}

/*
 * cvar rounding: truncate the value and the step to integers, then take
 * the nearer multiple, a tie going down.
 */
static double round_cv(double v, double r)
{
	double num, lo;

	r = trunc(r);
	if (!(r >= 1))
		return v;
	num = trunc(v);
	lo = num - fmod(num, r);
	return num - lo > lo + r - num ? lo + r : lo;
}

static double clamp0(double v)
{
	return v > 0 ? v : 0; /* also maps NaN to 0 */
}

/* One draw of a cvar distribution before round/min/max. */
static double cvar_raw(const struct rv_spec *s, struct rv_rng *rng)
{
	const double *p = s->param;
	double k;

	switch (s->dist) {
	case RV_CV_GAMMA:
		return rv_gamma(rng, p[1], p[0] / p[1]);
	case RV_CV_NORMAL:
		return rv_normal(rng, p[0], p[1]);
	case RV_CV_UNIFORM:
		return p[0] + rv_next_double(rng) * (p[1] - p[0]);
	case RV_CV_EXPONENTIAL:
		return -p[0] * log(open01(rng));
	case RV_CV_ERLANG:
		/* filebench hands `rate` to its Erlang sampler as the mean */
		k = p[0] < 1 ? 1 : trunc(p[0]);
		return rv_gamma(rng, k, p[1] / k);
	case RV_CV_LOGNORMAL:
		/* shape is sigma and scale is mu of the underlying normal */
		return exp(rv_normal(rng, p[1], p[0]));
	case RV_CV_TRIANGULAR:
		return triangular(rng, p[0], p[1], p[2]);
	case RV_CV_WEIBULL:
		return p[1] * pow(-log(open01(rng)), 1 / p[0]);
	default:
		return 0;
	}
}

double rv_sample(const struct rv_spec *s, struct rv_rng *rng)
{
	double v, a;

	switch (s->dist) {
	case RV_UNIFORM:
		v = s->min + rv_next_double(rng) * 2 * (s->mean - s->min);
		break;
	case RV_GAMMA:
		a = s->gamma / 1000;
		v = s->min + rv_gamma(rng, a, (gamma_mean(s) - s->min) / a);
		break;
	case RV_TABULAR:
		v = sample_table(s, rng);
		break;
	default:
		return rv_cvar_finish(s, cvar_raw(s, rng));
	}
	return clamp0(round_rv(v, s->round));
}

/* cvar: round, then clamp into [min, max]; nothing is redrawn */
double rv_cvar_finish(const struct rv_spec *s, double raw)
{
	double v = round_cv(clamp0(raw), s->round);

	if (v < s->min)
		v = s->min;
	if (s->has_max && v > s->max)
		v = s->max;
	return clamp0(v);
}

double rv_spec_mean(const struct rv_spec *s)
{
	const double *p = s->param;
	double tmin;

	switch (s->dist) {
	case RV_UNIFORM:
		return s->mean;
	case RV_GAMMA:
		return gamma_mean(s);
	case RV_TABULAR:
		/* the affine re-basing onto min keeps the table's mean */
		return s->ntable ? rv_table_stats(s, &tmin, NULL) : 0;
	case RV_CV_GAMMA:
	case RV_CV_NORMAL:
	case RV_CV_EXPONENTIAL:
		return p[0];
	case RV_CV_UNIFORM:
		return (p[0] + p[1]) / 2;
	case RV_CV_ERLANG:
		return p[1];
	case RV_CV_LOGNORMAL:
		return exp(p[1] + p[0] * p[0] / 2);
	case RV_CV_TRIANGULAR:
		return (p[0] + p[1] + p[2]) / 3;
	case RV_CV_WEIBULL:
		return p[1] * tgamma(1 + 1 / p[0]);
	default:
		return 0;
	}
}

void rv_spec_release(struct rv_spec *spec)
{
	free(spec->table);
	spec->table = NULL;
	spec->ntable = 0;
}
