/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Random variables as a script writes them: the distributions' names,
 * randvar()'s and cvar()'s parameters read and checked against filebench
 * 1.5's rules.  The generator and the samplers are in rand.c.
 */
#include "lang/rand.h"
#include "lang/rand_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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
	tmean = rv_table_stats(s, &tmin, NULL);
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
