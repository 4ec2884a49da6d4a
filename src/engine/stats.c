/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Per-thread, per-flowop counters and latency histograms, and their merge
 * (stats.h).
 */
#include "engine/stats.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void fstats_init(struct fstats *s)
{
	memset(s, 0, sizeof(*s));
	s->lat_min = UINT64_MAX;
}

/* Leaves s as a fresh, empty fstats so it may be reused or released again. */
void fstats_release(struct fstats *s)
{
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		free(s->hist.group[g]);
	fstats_init(s);
}

void fstats_reset(struct fstats *s)
{
	struct hist h = s->hist;

	fstats_init(s);
	s->hist = h;
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		if (h.group[g])
			memset(h.group[g], 0, HIST_SUB * sizeof(uint64_t));
}

void hist_alloc_group(struct hist *h, unsigned g)
{
	/* published whole: the monitor may read it while the run goes on */
	__atomic_store_n(&h->group[g], xcalloc(HIST_SUB, sizeof(uint64_t)),
			 __ATOMIC_RELEASE);
}

/*
 * Used slots always form a prefix of err_no[] (only this function fills
 * them), so the first empty slot means "not seen yet".
 */
static void err_add(struct fstats *s, int err, uint64_t n)
{
	for (unsigned i = 0; i < FSTATS_ERRNOS; i++) {
		if (!s->err_count[i] || s->err_no[i] == err) {
			s->err_no[i] = err;
			s->err_count[i] += n;
			return;
		}
	}
	s->err_other += n;
}

void fstats_error(struct fstats *s, int err)
{
	/* relaxed, as count in fstats_add: the monitor reads it mid-run */
	__atomic_store_n(&s->errors, s->errors + 1, __ATOMIC_RELAXED);
	err_add(s, err, 1);
}

void fstats_merge(struct fstats *dst, const struct fstats *src)
{
	dst->count += src->count;
	dst->bytes += src->bytes;
	dst->lat_sum += src->lat_sum;
	if (src->lat_min < dst->lat_min)
		dst->lat_min = src->lat_min;
	if (src->lat_max > dst->lat_max)
		dst->lat_max = src->lat_max;
	dst->cpu_ns += src->cpu_ns;
	dst->cpu_samples += src->cpu_samples;
	dst->errors += src->errors;
	for (unsigned i = 0; i < FSTATS_ERRNOS; i++)
		if (src->err_count[i])
			err_add(dst, src->err_no[i], src->err_count[i]);
	dst->err_other += src->err_other;
	dst->waits += src->waits;
	dst->wait_ns += src->wait_ns;
	dst->verify_errors += src->verify_errors;

	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		const uint64_t *sg = src->hist.group[g];

		if (!sg)
			continue;
		/* Allocate per non-zero bucket: a reset source costs nothing. */
		for (unsigned sub = 0; sub < HIST_SUB; sub++) {
			if (!sg[sub])
				continue;
			if (!dst->hist.group[g])
				hist_alloc_group(&dst->hist, g);
			dst->hist.group[g][sub] += sg[sub];
		}
	}
}

uint64_t hist_total(const struct hist *h)
{
	uint64_t n = 0;

	for (unsigned g = 0; g < HIST_GROUPS; g++)
		if (h->group[g])
			for (unsigned sub = 0; sub < HIST_SUB; sub++)
				n += h->group[g][sub];
	return n;
}

void hist_bucket_range(unsigned g, unsigned sub, uint64_t *lo, uint64_t *hi)
{
	unsigned shift;

	if (g == 0) {
		*lo = sub;
		*hi = (uint64_t)sub + 1;
		return;
	}
	shift = g - 1;
	*lo = (uint64_t)(HIST_SUB + sub) << shift;
	*hi = *lo + ((uint64_t)1 << shift);
	/* The very last bucket ends at 2^64: saturate rather than wrap to 0. */
	if (*hi < *lo)
		*hi = UINT64_MAX;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t total = hist_total(h), seen = 0, rank, lo, hi;
	double r;

	if (!total)
		return 0;
	/* ceil() by hand keeps libm out; !(r >= 1) also catches NaN. */
	r = q * (double)total;
	if (!(r >= 1))
		rank = 1;
	else if (r >= (double)total)
		rank = total;
	else {
		rank = (uint64_t)r;
		if ((double)rank < r)
			rank++;
	}
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		if (!h->group[g])
			continue;
		for (unsigned sub = 0; sub < HIST_SUB; sub++) {
			seen += h->group[g][sub];
			if (seen >= rank) {
				/* Width-1 buckets (g <= 1) give the value itself. */
				hist_bucket_range(g, sub, &lo, &hi);
				return lo + (hi - lo) / 2;
			}
		}
	}
	return 0; /* not reached: seen ends at total >= rank */
}

void fstats_write(FILE *out, const struct fstats *s)
{
	fprintf(out,
		"fstats v1 %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		"\n",
		s->count, s->bytes, s->lat_sum, s->lat_min, s->lat_max,
		s->cpu_ns, s->cpu_samples, s->errors, s->err_other);
	if (s->waits || s->wait_ns)
		fprintf(out, "waits %" PRIu64 " %" PRIu64 "\n", s->waits,
			s->wait_ns);
	if (s->verify_errors)
		fprintf(out, "verify %" PRIu64 "\n", s->verify_errors);
	for (unsigned i = 0; i < FSTATS_ERRNOS; i++)
		if (s->err_count[i])
			fprintf(out, "errno %d %" PRIu64 "\n", s->err_no[i],
				s->err_count[i]);
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		if (!s->hist.group[g])
			continue;
		for (unsigned sub = 0; sub < HIST_SUB; sub++)
			if (s->hist.group[g][sub])
				fprintf(out, "%u %u %" PRIu64 "\n", g, sub,
					s->hist.group[g][sub]);
	}
	fputs("end\n", out);
}

/* One whole line without its '\n'; a missing '\n' means truncated input. */
static int read_line(FILE *in, char *buf, size_t len)
{
	size_t n;

	if (!fgets(buf, (int)len, in))
		return -1;
	n = strlen(buf);
	if (!n || buf[n - 1] != '\n')
		return -1;
	buf[n - 1] = '\0';
	return 0;
}

/* Exactly n unsigned decimals separated by single spaces, then the end. */
static int parse_u64s(const char *p, uint64_t *v, unsigned n)
{
	char *end;

	for (unsigned i = 0; i < n; i++) {
		if (i && *p++ != ' ')
			return -1;
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno)
			return -1;
		p = end;
	}
	return *p ? -1 : 0;
}

static int parse_errno(const char *p, int *err, uint64_t *count)
{
	bool neg = *p == '-';
	uint64_t v[2];

	if (parse_u64s(p + neg, v, 2) ||
	    v[0] > (neg ? (uint64_t)INT_MAX + 1 : (uint64_t)INT_MAX) || !v[1])
		return -1;
	*err = neg ? (int)-(int64_t)v[0] : (int)v[0];
	*count = v[1];
	return 0;
}

/*
 * s is treated as output (as by fstats_init): anything it held is
 * overwritten, not freed.  On error it is left empty.  Besides syntax,
 * the invariants fstats_add/fstats_error keep are checked so a garbled
 * number is caught: buckets sum to count, errno counts sum to errors.
 */
int fstats_read(FILE *in, struct fstats *s)
{
	char line[512];
	uint64_t v[9], total = 0, errs;
	long prev = -1;
	unsigned nerr = 0;
	int err;

	fstats_init(s);
	if (read_line(in, line, sizeof(line)) ||
	    strncmp(line, "fstats v1 ", 10) || parse_u64s(line + 10, v, 9))
		goto bad;
	s->count = v[0];
	s->bytes = v[1];
	s->lat_sum = v[2];
	s->lat_min = v[3];
	s->lat_max = v[4];
	s->cpu_ns = v[5];
	s->cpu_samples = v[6];
	s->errors = v[7];
	s->err_other = errs = v[8];
	for (bool first = true;; first = false) {
		if (read_line(in, line, sizeof(line)))
			goto bad;
		if (!strcmp(line, "end"))
			break;
		if (!strncmp(line, "verify ", 7)) {
			/* after waits, before errnos and buckets, once, not 0 */
			if (s->verify_errors || nerr || prev >= 0 ||
			    parse_u64s(line + 7, v, 1) || !v[0])
				goto bad;
			s->verify_errors = v[0];
			continue;
		}
		if (!strncmp(line, "waits ", 6)) {
			/* right after the first line, once, and not all zero */
			if (!first || parse_u64s(line + 6, v, 2) || !(v[0] | v[1]))
				goto bad;
			s->waits = v[0];
			s->wait_ns = v[1];
			continue;
		}
		if (!strncmp(line, "errno ", 6)) {
			/* errno lines come first, distinct, at most FSTATS_ERRNOS */
			if (prev >= 0 || nerr == FSTATS_ERRNOS ||
			    parse_errno(line + 6, &err, &v[0]))
				goto bad;
			for (unsigned i = 0; i < nerr; i++)
				if (s->err_no[i] == err)
					goto bad;
			s->err_no[nerr] = err;
			s->err_count[nerr++] = v[0];
			errs += v[0];
			continue;
		}
		/* Buckets strictly ascending: no duplicates, one spelling. */
		if (parse_u64s(line, v, 3) || v[0] >= HIST_GROUPS ||
		    v[1] >= HIST_SUB || !v[2] ||
		    (long)(v[0] * HIST_SUB + v[1]) <= prev)
			goto bad;
		prev = (long)(v[0] * HIST_SUB + v[1]);
		if (!s->hist.group[v[0]])
			hist_alloc_group(&s->hist, (unsigned)v[0]);
		s->hist.group[v[0]][v[1]] = v[2];
		total += v[2];
	}
	if (total != s->count || errs != s->errors)
		goto bad;
	return 0;
bad:
	fstats_release(s);
	return -1;
}
