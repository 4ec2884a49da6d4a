/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A service level objective, parsed and judged (objective.h). */
#include "results/objective.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A time's units, in ms. */
static const struct {
	const char *word;
	double ms;
} units[] = { { "ns", 1e-6 }, { "us", 1e-3 }, { "ms", 1 }, { "s", 1e3 } };

static int bad(char *err, size_t errlen, size_t *at, size_t *len, size_t where,
	       size_t n, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	*at = where;
	*len = n ? n : 1;
	return -1;
}

static size_t skip_space(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return i;
}

/* The statistic at s[*i]: pN, mean or max. */
static int parse_stat(const char *s, size_t *i, struct objective *o, char *err,
		      size_t errlen, size_t *at, size_t *len)
{
	size_t n = strspn(s + *i, "abcdefghijklmnopqrstuvwxyz0123456789.");
	char *end;
	double p;

	if (n == 2 && !strncmp(s + *i, "au", 2)) {
		o->stat = OBJ_AU;
	} else if (n == 4 && !strncmp(s + *i, "mean", 4)) {
		o->stat = OBJ_MEAN;
	} else if (n == 3 && !strncmp(s + *i, "max", 3)) {
		o->stat = OBJ_MAX;
	} else if (n > 1 && s[*i] == 'p' && isdigit((unsigned char)s[*i + 1])) {
		errno = 0;
		p = strtod(s + *i + 1, &end);
		if (end != s + *i + n || errno || !(p > 0 && p < 100))
			return bad(err, errlen, at, len, *i, n,
				   "a percentile is p followed by a number "
				   "over 0 and under 100 (p50, p99, p99.9)");
		o->stat = OBJ_QUANTILE;
		o->q = p / 100;
	} else {
		return bad(err, errlen, at, len, *i, n,
			   "expected a response time figure: pN (p99, "
			   "p99.9), mean or max; or au, the accelerators' "
			   "utilisation");
	}
	*i += n;
	return 0;
}

/* "(FLOWOP)" at s[*i], if there is one. */
static int parse_flowop(const char *s, size_t *i, struct objective *o,
			char *err, size_t errlen, size_t *at, size_t *len)
{
	size_t start, n;

	if (s[*i] != '(')
		return 0;
	start = *i + 1;
	n = strcspn(s + start, ")");
	if (!s[start + n])
		return bad(err, errlen, at, len, *i, 1,
			   "'(' without its ')': write p99(FLOWOP)<BOUND");
	if (!n)
		return bad(err, errlen, at, len, *i, 2,
			   "no flowop named between the parentheses");
	o->flowop = xstrndup(s + start, n);
	*i = start + n + 1;
	return 0;
}

/*
 * The comparison at s[*i], cmp ('<' or '>') and an optional '=', then
 * the number after it: *i left at the number, its value in *v, *end
 * past it.  0; -1 with no cmp at s[*i] (*i unmoved); 1 with no number.
 */
static int parse_cmp(const char *s, size_t *i, char cmp, struct objective *o,
		     double *v, char **end)
{
	if (s[*i] != cmp)
		return -1;
	(*i)++;
	if (s[*i] == '=') {
		o->or_equal = true;
		(*i)++;
	}
	*i = skip_space(s, *i);
	errno = 0;
	*v = strtod(s + *i, end);
	return *end == s + *i || !isdigit((unsigned char)s[*i]) || errno ? 1
									 : 0;
}

/* "< BOUND" or "<= BOUND" at s[i], a number and a unit of time. */
static int parse_bound(const char *s, size_t i, struct objective *o,
		       char *err, size_t errlen, size_t *at, size_t *len)
{
	char *end;
	double v;
	size_t n;
	int rc = parse_cmp(s, &i, '<', o, &v, &end);

	if (rc < 0)
		return bad(err, errlen, at, len, i, 1,
			   "expected '<' or '<=' and a time: the objective "
			   "is met below it");
	if (rc > 0 || !(v > 0))
		return bad(err, errlen, at, len, i, strlen(s + i),
			   "expected a time over 0 after the comparison "
			   "(5ms, 200us, 1.5s)");
	n = (size_t)(end - s);
	for (size_t u = 0; u < ARRAY_SIZE(units); u++)
		if (!strcmp(s + n, units[u].word)) {
			o->bound_ms = v * units[u].ms;
			return 0;
		}
	return bad(err, errlen, at, len, n, strlen(s + n),
		   "a time needs its unit right after it: ns, us, ms or s");
}

/* ">= PCT%" or "> PCT%" at s[i]: the accelerators' utilisation. */
static int parse_pct(const char *s, size_t i, struct objective *o, char *err,
		     size_t errlen, size_t *at, size_t *len)
{
	char *end;
	double v;
	int rc = parse_cmp(s, &i, '>', o, &v, &end);

	if (rc < 0)
		return bad(err, errlen, at, len, i, 1,
			   "expected '>=' or '>' and a percentage: au is met "
			   "at or over it (au>=90%)");
	if (rc > 0 || !(v > 0 && v <= 100) || strcmp(end, "%"))
		return bad(err, errlen, at, len, i, strlen(s + i),
			   "expected a percentage over 0 and up to 100 "
			   "after the comparison, with its '%' (90%)");
	o->bound_pct = v;
	return 0;
}

int objective_parse(const char *text, struct objective *o, char *err,
		    size_t errlen, size_t *at, size_t *len)
{
	size_t i = skip_space(text, 0);
	int rc;

	memset(o, 0, sizeof(*o));
	o->text = xstrdup(text);
	rc = parse_stat(text, &i, o, err, errlen, at, len);
	if (!rc && o->stat == OBJ_AU)
		rc = parse_pct(text, skip_space(text, i), o, err, errlen, at,
			       len);
	else if (!rc)
		rc = parse_flowop(text, &i, o, err, errlen, at, len);
	if (!rc && o->stat != OBJ_AU)
		rc = parse_bound(text, skip_space(text, i), o, err, errlen, at,
				 len);
	if (rc)
		objective_release(o);
	return rc;
}

void objective_release(struct objective *o)
{
	free(o->text);
	free(o->flowop);
	memset(o, 0, sizeof(*o));
}

/* The flowop the objective names in r, or NULL. */
static const struct flowop_result *flowop_of(const struct objective *o,
					     const struct results *r)
{
	for (size_t i = 0; i < r->nfo; i++)
		if (r->fo[i].label && !strcmp(r->fo[i].label, o->flowop))
			return &r->fo[i];
	return NULL;
}

double objective_value(const struct objective *o, const struct results *r)
{
	const struct fstats *s = &r->io;
	const struct results_figures *fig = &r->sum;
	const struct flowop_result *fr;
	struct au_summary au;

	if (o->stat == OBJ_AU) {
		results_au(r, &au);
		return au.n ? au.min : -1;
	}
	if (o->flowop) {
		if (!(fr = flowop_of(o, r)))
			return -1;
		s = &fr->s;
		fig = &fr->fig;
	}
	if (!s->resp || !s->resp->count)
		return -1;
	switch (o->stat) {
	case OBJ_MEAN:
		return fig->resp_ms;
	case OBJ_MAX:
		return (double)s->resp->max / 1e6;
	case OBJ_QUANTILE:
	case OBJ_AU: /* above */
		break;
	}
	return (double)results_resp_quantile(s, o->q) / 1e6;
}

bool objective_met(const struct objective *o, double v)
{
	if (o->stat == OBJ_AU)
		return v >= 0 &&
		       (o->or_equal ? v >= o->bound_pct : v > o->bound_pct);
	return v >= 0 && (o->or_equal ? v <= o->bound_ms : v < o->bound_ms);
}

void objective_name(const struct objective *o, char *buf, size_t len)
{
	char stat[32];

	if (o->stat == OBJ_AU) {
		snprintf(buf, len, "least busy accelerator's utilisation");
		return;
	}
	if (o->stat == OBJ_QUANTILE)
		snprintf(stat, sizeof(stat), "p%g", o->q * 100);
	else
		snprintf(stat, sizeof(stat), "%s",
			 o->stat == OBJ_MEAN ? "mean" : "max");
	snprintf(buf, len, "%s response time of %s", stat,
		 o->flowop ? o->flowop : "the I/O ops");
}
