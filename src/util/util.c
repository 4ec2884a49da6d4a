/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Allocation that cannot fail, number and size parsing, hash maps, edit
 * distance (util.h).
 */
#include "util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/msg.h"

static void oom(size_t n)
{
	fb_error("out of memory allocating %zu bytes", n);
	exit(FB_EXIT_RUN);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *calloc_lines(size_t n, size_t size)
{
	size_t len;
	void *p;

	n = n ? n : 1;
	size = size ? size : 1;
	if (n > (SIZE_MAX - 63) / size)
		return NULL; /* as calloc: the size does not fit */
	len = (n * size + 63) & ~(size_t)63;
	if (posix_memalign(&p, 64, len) != 0)
		return NULL;
	return memset(p, 0, len);
}


void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *grow_array(void *arr, size_t *cap, size_t n, size_t sz)
{
	size_t c = *cap;

	if (n <= c)
		return arr;
	if (c < 8)
		c = 8;
	while (c < n)
		c *= 2;
	*cap = c;
	return xrealloc(arr, c * sz);
}

enum num_status parse_int(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	uint64_t v = 0, limit;
	unsigned shift = 0;

	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i >= len || s[i] < '0' || s[i] > '9')
		return NUM_SYNTAX;
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (v > (limit - d) / 10)
			return NUM_RANGE;
		v = v * 10 + d;
	}
	if (i < len) {
		switch (s[i]) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		case 't': case 'T': shift = 40; break;
		default: return NUM_SUFFIX;
		}
		if (++i != len)
			return NUM_SUFFIX;
		if (v > (limit >> shift))
			return NUM_RANGE;
		v <<= shift;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return NUM_OK;
}

void format_size(char *buf, size_t len, int64_t v)
{
	static const char sfx[] = "kmgt";
	int i;

	for (i = 3; i >= 0; i--) {
		int64_t unit = (int64_t)1 << (10 * (i + 1));

		if (v != 0 && v % unit == 0) {
			snprintf(buf, len, "%lld%c", (long long)(v / unit),
				 sfx[i]);
			return;
		}
	}
	snprintf(buf, len, "%lld", (long long)v);
}

int edit_distance(const char *a, const char *b, int max)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row, best, r;

	/* nobody misspells a name that long: do not spend O(n*m) on it */
	if ((la > lb ? la - lb : lb - la) > (size_t)max || la > 256 || lb > 256)
		return max + 1;
	row = xmalloc((lb + 1) * sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = (int)i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			int up = row[j];
			int cost = a[i - 1] == b[j - 1] ? 0 : 1;
			int v = diag + cost;

			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			diag = up;
			if (v < best)
				best = v;
		}
		if (best > max) {
			free(row);
			return max + 1;
		}
	}
	r = row[lb];
	free(row);
	return r;
}

const char *did_you_mean(const char *word, const void *cands, size_t n,
			 size_t stride)
{
	const char *best = NULL;
	int best_d, max;
	size_t i;

	/* Allow about one typo per four characters, at least one. */
	max = (int)strlen(word) / 4 + 1;
	if (max > 3)
		max = 3;
	best_d = max + 1;
	for (i = 0; i < n; i++) {
		const char *c =
			*(const char *const *)((const char *)cands + i * stride);
		int d;

		if (!c)
			continue;
		d = edit_distance(word, c, max);
		if (d < best_d) {
			best_d = d;
			best = c;
		}
	}
	return best;
}

/* Open addressing, at most half full. */
struct strmap {
	struct strmap_slot {
		const char *key; /* NULL: empty */
		void *value;
	} *slots;
	size_t nslots, n;
};

uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

struct strmap *strmap_new(void)
{
	struct strmap *m = xcalloc(1, sizeof(*m));

	m->nslots = 64;
	m->slots = xcalloc(m->nslots, sizeof(*m->slots));
	return m;
}

void strmap_free(struct strmap *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m);
}

static struct strmap_slot *strmap_slot(const struct strmap *m, const char *key)
{
	size_t mask = m->nslots - 1, i = str_hash(key) & mask;

	while (m->slots[i].key && strcmp(m->slots[i].key, key))
		i = (i + 1) & mask;
	return &m->slots[i];
}

void *strmap_get(const struct strmap *m, const char *key)
{
	return strmap_slot(m, key)->value;
}

void *strmap_add(struct strmap *m, const char *key, void *value)
{
	struct strmap_slot *sl = strmap_slot(m, key), *old;
	size_t nold;

	if (sl->key)
		return sl->value;
	*sl = (struct strmap_slot){ key, value };
	if (++m->n * 2 <= m->nslots)
		return NULL;
	old = m->slots;
	nold = m->nslots;
	m->nslots *= 2;
	m->slots = xcalloc(m->nslots, sizeof(*m->slots));
	for (size_t i = 0; i < nold; i++)
		if (old[i].key)
			*strmap_slot(m, old[i].key) = old[i];
	free(old);
	return NULL;
}

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len;

	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and past U+10FFFF are invalid */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void csv_put(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
