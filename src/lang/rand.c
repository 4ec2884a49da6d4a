/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Random variables: a per-thread xoshiro256** generator, the samplers
 * behind randvar() and cvar(), and filebench 1.5's rules for min, max
 * and round.  See rand.h for the contracts.
 */
#include "lang/rand.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define HAVE_GETRANDOM 1
#endif
#endif

static const struct {
	const char *name, *params;
	bool cvar;
} dists[RV_NDIST] = {
#define X(id, nm, cv, ps) [RV_##id] = { .name = nm, .params = ps, .cvar = cv },
	RV_DIST_LIST(X)
#undef X
};

/*
 * The cvar plug-ins' defaults, in the order of the RV_DIST_LIST keys, and
 * a rule per key: '+' greater than 0, '0' at least 0, 'i' a positive
 * integer, '.' anything.
 */
static const struct {
	double def[RV_MAXPARAM];
	const char *rule;
} cvars[RV_NDIST] = {
	[RV_CV_GAMMA] = { { 4096, 1.5 }, "0+" },
	[RV_CV_NORMAL] = { { 0, 1 }, ".+" },
	[RV_CV_UNIFORM] = { { 0, 1 }, ".." },
	[RV_CV_EXPONENTIAL] = { { 1 }, "0" },
	[RV_CV_ERLANG] = { { 1, 1 }, "i+" },
	/* scale is the log-mean; filebench still refuses negative ones */
	[RV_CV_LOGNORMAL] = { { 1, 1 }, "+0" },
	[RV_CV_TRIANGULAR] = { { 0, 1, 0.5 }, "..." },
	[RV_CV_WEIBULL] = { { 1, 1 }, "++" },
};

static __attribute__((format(printf, 3, 4))) int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

const char *rv_dist_name(enum rv_dist d)
{
	return (unsigned)d < RV_NDIST ? dists[d].name : "unknown";
}

bool rv_dist_is_cvar(enum rv_dist d)
{
	return (unsigned)d < RV_NDIST && dists[d].cvar;
}

int rv_dist_lookup(const char *name, bool cvar)
{
	int d;

	/* cvar types may drop the "cvar-" library prefix */
	for (d = 0; d < RV_NDIST; d++)
		if (dists[d].cvar == cvar && (!strcmp(name, dists[d].name) ||
		    (cvar && !strcmp(name, dists[d].name + 5))))
			return d;
	return -1;
}

/* The i-th key of distribution d and its length, or NULL past the end. */
static const char *key_at(enum rv_dist d, int i, int *len)
{
	const char *p = dists[d].params;
	size_t n = strcspn(p, ";");

	for (; *p && i--; n = strcspn(p, ";"))
		p += n + (p[n] == ';');
	*len = (int)n;
	return *p ? p : NULL;
}

/* Index of key [k, k + klen) for distribution d, or -1. */
static int key_index(enum rv_dist d, const char *k, size_t klen)
{
	const char *p;
	int i, n;

	for (i = 0; (p = key_at(d, i, &n)); i++)
		if ((size_t)n == klen && !memcmp(p, k, klen))
			return i;
	return -1;
}

/* "mean", "mean or sigma", "lower, upper or mode" */
static void key_list(enum rv_dist d, char *buf, size_t len)
{
	const char *p = dists[d].params, *last = strrchr(p, ';');
	size_t n = 0;

	for (; *p && n + 5 < len; p++) {
		if (*p != ';')
			buf[n++] = *p;
		else
			n += (size_t)sprintf(buf + n, p == last ? " or " : ", ");
	}
	buf[n] = '\0';
}

/* Narrow [*a, *b) of s to exclude blanks at either end. */
static void trim(const char *s, size_t *a, size_t *b)
{
	while (*a < *b && (s[*a] == ' ' || s[*a] == '\t'))
		(*a)++;
	while (*b > *a && (s[*b - 1] == ' ' || s[*b - 1] == '\t'))
		(*b)--;
}

/*
 * filebench reads values with atof(), which silently turns "128k" into 128;
 * we take plain decimals (exponents allowed) and reject anything else.
 */
static int parse_num(const char *s, size_t n, double *out)
{
	char buf[64], *end;

	if (!n || n >= sizeof(buf) || strspn(s, "0123456789.+-eE") < n)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	if (end != buf + n || errno == ERANGE || !isfinite(*out))
		return -1;
	return 0;
}

int rv_parse_params(struct rv_spec *spec, const char *params, char *err,
		    size_t errlen, size_t *err_off)
{
	const char *name = rv_dist_name(spec->dist), *s = params;
	char expect[128];
	unsigned seen = 0;
	size_t pos = 0, dummy;

	if (!err_off)
		err_off = &dummy;
	*err_off = 0;
	if (!rv_dist_is_cvar(spec->dist))
		return fail(err, errlen, "%s does not take parameters", name);
	memcpy(spec->param, cvars[spec->dist].def, sizeof(spec->param));

	while (s && s[pos]) {
		size_t end = pos + strcspn(s + pos, ";");
		size_t colon = pos + strcspn(s + pos, ":;");
		size_t k0 = pos, k1 = colon, v0 = colon + (colon < end), v1 = end;
		double v;
		int idx;

		trim(s, &k0, &k1);
		/* filebench skips empty segments, as in "mean:1;;gamma:2;" */
		if (k0 == end)
			goto next;
		*err_off = k0;
		if (k0 == k1)
			return fail(err, errlen, "missing parameter name");
		idx = key_index(spec->dist, s + k0, k1 - k0);
		if (idx < 0) {
			key_list(spec->dist, expect, sizeof(expect));
			return fail(err, errlen,
				    "unknown parameter '%.*s' for %s; expected %s",
				    (int)(k1 - k0), s + k0, name, expect);
		}
		if (seen & 1u << idx)
			return fail(err, errlen, "duplicate parameter '%.*s'",
				    (int)(k1 - k0), s + k0);
		trim(s, &v0, &v1);
		*err_off = v0;
		if (v0 == v1)
			return fail(err, errlen, "missing value for parameter '%.*s'",
				    (int)(k1 - k0), s + k0);
		if (parse_num(s + v0, v1 - v0, &v))
			return fail(err, errlen,
				    "bad value '%.*s' for parameter '%.*s'; expected a decimal number",
				    (int)(v1 - v0), s + v0, (int)(k1 - k0), s + k0);
		spec->param[idx] = v;
		seen |= 1u << idx;
next:
		pos = end + (s[end] == ';');
	}
	*err_off = 0;
	return 0;
}

/* filebench: a gamma randvar without mean= has a mean equal to its shape. */
static double gamma_mean(const struct rv_spec *s)
{
	return s->mean != 0 ? s->mean : s->gamma / 1000;
}

/* Weighted mean of the bin midpoints; also the lowest edge and total %. */
static double table_stats(const struct rv_spec *s, double *tmin,
			  double *total)
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

static int check_table(const struct rv_spec *s, char *err, size_t errlen)
{
	double sum = 0, tmin, tmean;
	size_t i;

	if (!s->table || !s->ntable)
		return fail(err, errlen, "randtable is empty");
	for (i = 0; i < s->ntable; i++) {
		const struct rv_bin *b = &s->table[i];

		if (!(b->pct >= 0))
			return fail(err, errlen,
				    "randtable row %zu: percentage %g is negative",
				    i + 1, b->pct);
		if (!(b->min <= b->max))
			return fail(err, errlen,
				    "randtable row %zu: min %g is greater than max %g",
				    i + 1, b->min, b->max);
		sum += b->pct;
	}
	if (fabs(sum - 100) > 1e-9)
		return fail(err, errlen,
			    "randtable percentages sum to %g, not 100", sum);
	tmean = table_stats(s, &tmin, NULL);
	if (s->min > tmean)
		return fail(err, errlen,
			    "min (%g) is greater than the randtable mean (%g)",
			    s->min, tmean);
	return 0;
}

static int check_params(const struct rv_spec *s, char *err, size_t errlen)
{
	const char *rule = cvars[s->dist].rule, *key, *need;
	const double *p = s->param;
	int i, n;

	for (i = 0; rule[i]; i++) {
		double v = p[i];

		if (rule[i] == '+' && !(v > 0))
			need = "greater than 0";
		else if (rule[i] == '0' && !(v >= 0))
			need = "at least 0";
		else if (rule[i] == 'i' && !(v >= 1 && v == floor(v)))
			need = "a positive integer";
		else
			continue;
		key = key_at(s->dist, i, &n);
		return fail(err, errlen, "%s parameter '%.*s' must be %s, got %g",
			    rv_dist_name(s->dist), n, key, need, v);
	}
	/* lower <= [mode <=] upper */
	if ((s->dist == RV_CV_UNIFORM || s->dist == RV_CV_TRIANGULAR) &&
	    p[0] > p[1])
		return fail(err, errlen, "%s lower (%g) is greater than upper (%g)",
			    rv_dist_name(s->dist), p[0], p[1]);
	if (s->dist == RV_CV_TRIANGULAR && (p[2] < p[0] || p[2] > p[1]))
		return fail(err, errlen, "%s mode (%g) is outside [%g, %g]",
			    rv_dist_name(s->dist), p[2], p[0], p[1]);
	return 0;
}

int rv_spec_check(const struct rv_spec *s, char *err, size_t errlen)
{
	if ((unsigned)s->dist >= RV_NDIST)
		return fail(err, errlen, "unknown distribution %d", (int)s->dist);
	if (!(s->round >= 0))
		return fail(err, errlen, "round must not be negative, got %g",
			    s->round);
	if (rv_dist_is_cvar(s->dist)) {
		if (s->has_max && s->min > s->max)
			return fail(err, errlen, "min (%g) is greater than max (%g)",
				    s->min, s->max);
		return check_params(s, err, errlen);
	}
	if (!(s->min >= 0))
		return fail(err, errlen, "min must not be negative, got %g",
			    s->min);
	if (s->dist == RV_TABULAR)
		return check_table(s, err, errlen);
	if (s->dist == RV_GAMMA && !(s->gamma > 0))
		return fail(err, errlen, "gamma must be greater than 0, got %g",
			    s->gamma);
	/* uniform spans [min, 2 * mean - min); gamma's scale is mean - min */
	if (rv_spec_mean(s) < s->min)
		return fail(err, errlen, "%s mean (%g) is less than min (%g)",
			    rv_dist_name(s->dist), rv_spec_mean(s), s->min);
	return 0;
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
	tmean = table_stats(s, &tmin, &total);
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
		return s->ntable ? table_stats(s, &tmin, NULL) : 0;
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
