/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What the trace readers share: located errors, fields, numbers, quoted
 * strings and the mapping of paths under the trace root (trace_int.h).
 */
#include "trace/trace_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/paths.h"

bool trace_rd_starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

static int source_offset(const struct trace_reader *r, const char *at)
{
	size_t i = at >= r->buf && at <= r->buf + r->len ? (size_t)(at - r->buf)
							 : 0;

	if (i < r->split || r->split >= r->len)
		return r->off_a + (int)i;
	return r->off_b + (int)(i - r->split);
}

int trace_rd_error(struct trace_reader *r, const char *at, size_t width,
		   const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	struct loc loc;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	loc.start = source_offset(r, at);
	loc.end = width ? source_offset(r, at + width) : loc.start;
	if (loc.end < loc.start)
		loc.end = loc.start;
	diag_error(r->diag, r->src, loc, "%s", msg);
	return -1;
}

void trace_rd_line(struct trace_reader *r, int line)
{
	r->line = line;
	r->buf = source_line(r->src, line, &r->len);
	r->split = r->len;
	r->off_a = (int)(r->buf - source_text(r->src));
	r->off_b = r->off_a;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

int trace_rd_fields(struct trace_reader *r, struct field *f, int max)
{
	const char *p = r->buf, *end = r->buf + r->len;
	int n = 0;

	for (;;) {
		const char *start;

		while (p < end && blank(*p))
			p++;
		if (p == end)
			return n;
		if (n == max)
			return trace_rd_error(r, p, (size_t)(end - p),
					      "too many fields (at most %d)",
					      max);
		start = p;
		/* a "quoted" part, anywhere in the field, may hold blanks */
		while (p < end && !blank(*p)) {
			if (*p++ != '"')
				continue;
			for (; p < end && *p != '"'; p++)
				if (*p == '\\' && p + 1 < end)
					p++;
			if (p == end)
				return trace_rd_error(r, start,
						      (size_t)(end - start),
						      "unterminated string");
			p++;
		}
		f[n].s = start;
		f[n].n = (size_t)(p - start);
		n++;
	}
}

int trace_rd_count(struct trace_reader *r, struct field f, const char *what,
		   int64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	unsigned base = 10;

	if (f.n > 2 && f.s[0] == '0' && (f.s[1] == 'x' || f.s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == f.n)
		return trace_rd_error(r, f.s, f.n,
				      "expected a number for the %s", what);
	for (; i < f.n; i++) {
		char c = f.s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return trace_rd_error(
				r, f.s, f.n,
				"expected a number for the %s, not '%.*s'",
				what, (int)f.n, f.s);
		if (v > ((uint64_t)TRACE_MAX_OFFSET * 16))
			v = (uint64_t)TRACE_MAX_OFFSET + 1; /* stays too large */
		else
			v = v * base + d;
	}
	if (v > (uint64_t)TRACE_MAX_OFFSET)
		return trace_rd_error(
			r, f.s, f.n,
			"%s %.*s is beyond the largest fbrun replays (1 PiB)",
			what, (int)f.n, f.s);
	*out = (int64_t)v;
	return 0;
}

int trace_rd_seconds(struct trace_reader *r, struct field f, int64_t *ns)
{
	int64_t sec = 0, frac = 0;
	size_t i = 0;
	int digits = 0;

	for (; i < f.n && f.s[i] >= '0' && f.s[i] <= '9'; i++) {
		if (sec > INT64_MAX / 10 / 1000000000 - 1)
			return trace_rd_error(r, f.s, f.n,
					      "time %.*s is too large",
					      (int)f.n, f.s);
		sec = sec * 10 + (f.s[i] - '0');
	}
	if (i == 0)
		return trace_rd_error(r, f.s, f.n,
				      "expected a time in seconds, not '%.*s'",
				      (int)f.n, f.s);
	if (i < f.n && f.s[i] == '.')
		for (i++; i < f.n && f.s[i] >= '0' && f.s[i] <= '9'; i++)
			if (digits++ < 9)
				frac = frac * 10 + (f.s[i] - '0');
	if (i < f.n)
		return trace_rd_error(r, f.s, f.n,
				      "expected a time in seconds, not '%.*s'",
				      (int)f.n, f.s);
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One escape after the backslash at *p; the byte in *c. */
static int unescape(struct trace_reader *r, const char **p, const char *limit,
		    int *c)
{
	const char *s = *p + 1;
	const char *simple = "n\nt\tr\rv\vf\fa\ab\be\033\\\\\"\"''";

	if (s >= limit)
		return trace_rd_error(r, *p, 1, "unterminated string");
	for (const char *q = simple; *q; q += 2) {
		if (*s == q[0]) {
			*c = (unsigned char)q[1];
			*p = s + 1;
			return 0;
		}
	}
	if (*s == 'x' && s + 2 < limit && hexval(s[1]) >= 0 &&
	    hexval(s[2]) >= 0) {
		*c = hexval(s[1]) * 16 + hexval(s[2]);
		*p = s + 3;
		return 0;
	}
	if (*s >= '0' && *s <= '7') {
		int v = 0, k = 0;

		for (; k < 3 && s < limit && *s >= '0' && *s <= '7'; k++, s++)
			v = v * 8 + (*s - '0');
		*c = v & 0xff;
		*p = s;
		return 0;
	}
	return trace_rd_error(r, *p, 2, "unknown escape '\\%c'", *s);
}

int trace_rd_unquote(struct trace_reader *r, const char *s, const char *limit,
		     char **out, const char **end)
{
	const char *p = s + 1;

	if (s >= limit || *s != '"')
		return trace_rd_error(r, s, 1, "expected a quoted string");
	/* the closing quote: no escape holds a quote past its backslash */
	while (p < limit && *p != '"')
		p += *p == '\\' && p + 1 < limit ? 2 : 1;
	if (p >= limit)
		return trace_rd_error(r, s, (size_t)(limit - s),
				      "unterminated string");
	if (trace_rd_unescape(r, s + 1, (size_t)(p - s - 1), out) < 0)
		return -1;
	*end = p + 1;
	return 0;
}

int trace_rd_unescape(struct trace_reader *r, const char *s, size_t n,
		      char **out)
{
	const char *p = s, *limit = s + n;
	char *buf = xmalloc(n + 1);
	size_t k = 0;

	while (p < limit) {
		int c = (unsigned char)*p;

		if (*p == '\\') {
			const char *at = p;

			if (unescape(r, &p, limit, &c) < 0) {
				free(buf);
				return -1;
			}
			if (c == 0) {
				free(buf);
				return trace_rd_error(
					r, at, (size_t)(p - at),
					"a path may not hold a NUL byte");
			}
		} else {
			p++;
		}
		buf[k++] = (char)c;
	}
	buf[k] = '\0';
	*out = buf;
	return 0;
}

int trace_rd_path_rel(struct trace_reader *r, const char *path, const char *at,
		      size_t width, int *idx)
{
	char *lex;

	if (!*path)
		return trace_rd_error(r, at, width, "empty path");
	if (path[0] == '/')
		return trace_rd_path_abs(r, path, idx);
	lex = path_lexical(path);
	if (strcmp(lex, "..") == 0 || strncmp(lex, "../", 3) == 0) {
		trace_rd_error(r, at, width,
			       "path '%s' climbs out of the trace root", path);
		free(lex);
		return -1;
	}
	*idx = trace_intern(r->t, lex);
	free(lex);
	return 0;
}

int trace_rd_path_abs(struct trace_reader *r, const char *path, int *idx)
{
	char *lex = path_lexical(path), *rel;
	size_t n = r->root ? strlen(r->root) : 0;

	if (r->root && strcmp(r->root, "/") == 0)
		rel = xstrdup(lex[1] ? lex + 1 : ".");
	else if (r->root && strncmp(lex, r->root, n) == 0 &&
		 (lex[n] == '/' || lex[n] == '\0'))
		rel = xstrdup(lex[n] ? lex + n + 1 : ".");
	else
		rel = xasprintf("_abs%s", strcmp(lex, "/") == 0 ? "" : lex);
	*idx = trace_intern(r->t, rel);
	free(rel);
	free(lex);
	return 0;
}
