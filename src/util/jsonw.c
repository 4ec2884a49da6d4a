/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The streaming JSON writer behind -o and --format json (jsonw.h). */
#include "util/jsonw.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "util/util.h"

void jw_init(struct json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->first[0] = true;
}

/* The character numbered c, escaped: \u00XX. */
static void put_u(FILE *out, unsigned char c)
{
	fprintf(out, "\\u%04x", c);
}

/*
 * Every string fbrun writes comes out as valid JSON: control characters
 * are escaped, valid UTF-8 passes through, and each byte that is not part
 * of valid UTF-8 (a file name in Latin-1, say) is written as \u00XX, the
 * character with the byte's number, so 0xff reads back as U+00FF.
 */
static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			put_u(out, c);
		else if (c < 0x80)
			fputc(c, out);
		else if ((n = utf8_seq_len((const unsigned char *)s,
					   strnlen(s, 4))) > 0) {
			fwrite(s, 1, n, out);
			s += n;
			continue;
		} else {
			put_u(out, c);
		}
		s++;
	}
	fputc('"', out);
}

/* Comma, newline, indentation and the key of the next member. */
static void next(struct json *j, const char *key)
{
	if (j->depth > 0) {
		fputs(j->first[j->depth] ? "\n" : ",\n", j->out);
		fprintf(j->out, "%*s", j->depth * 2, "");
	}
	j->first[j->depth] = false;
	if (key) {
		put_string(j->out, key);
		fputs(": ", j->out);
	}
}

static void begin(struct json *j, const char *key, char c)
{
	next(j, key);
	fputc(c, j->out);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

void jw_object(struct json *j, const char *key)
{
	begin(j, key, '{');
}

void jw_array(struct json *j, const char *key)
{
	begin(j, key, '[');
}

void jw_end(struct json *j, char close)
{
	bool empty = j->first[j->depth];

	j->depth--;
	if (!empty)
		fprintf(j->out, "\n%*s", j->depth * 2, "");
	fputc(close, j->out);
	if (j->depth == 0)
		fputc('\n', j->out);
}

void jw_str(struct json *j, const char *key, const char *v)
{
	next(j, key);
	put_string(j->out, v);
}

void jw_u64(struct json *j, const char *key, uint64_t v)
{
	next(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

void jw_i64(struct json *j, const char *key, int64_t v)
{
	next(j, key);
	fprintf(j->out, "%" PRId64, v);
}

void jw_num(struct json *j, const char *key, double v)
{
	next(j, key);
	if (isfinite(v))
		fprintf(j->out, JW_NUM, v);
	else
		fputs("null", j->out);
}

void jw_exact(struct json *j, const char *key, double v)
{
	next(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.17g", v);
	else
		fputs("null", j->out);
}

void jw_bool(struct json *j, const char *key, bool v)
{
	next(j, key);
	fputs(v ? "true" : "false", j->out);
}

void jw_null(struct json *j, const char *key)
{
	next(j, key);
	fputs("null", j->out);
}

void jw_reopen(FILE *out, const char *object)
{
	size_t len = strlen(object);

	/* the object without its closing brace and the line before it */
	while (len && object[len - 1] != '}')
		len--;
	if (len)
		len--;
	while (len && (object[len - 1] == '\n' || object[len - 1] == ' '))
		len--;
	fwrite(object, 1, len, out);
}

void jw_member(FILE *out, const char *key)
{
	fputs(",\n  ", out);
	put_string(out, key);
	fputs(": ", out);
}

void jw_put_clean(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f)
			put_u(out, (unsigned char)s[++i]);
		else if (ch == 0x7f)
			put_u(out, ch);
		else
			fputc(ch, out);
	}
}
