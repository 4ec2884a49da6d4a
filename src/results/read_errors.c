/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* jansson's parse errors in fbrun's words and places (read.h). */
#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/read.h"
#include "util/util.h"

#define QUOTE_MAX 64 /* bytes of a key an error message quotes */

/* The text being read, to place an error jansson reports. */
struct src {
	const char *t;
	size_t len;
};

/* line:col of byte off; columns count UTF-8 characters, as editors do. */
static void place(const struct src *s, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < s->len; i++) {
		if (s->t[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)s->t[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
}

/* Whether the quote at t[j] is escaped: an odd run of backslashes. */
static bool escaped(const char *t, size_t j)
{
	size_t n = 0;

	while (n < j && t[j - n - 1] == '\\')
		n++;
	return n % 2;
}

/* The opening quote of the string whose last byte is t[end - 1]. */
static size_t string_start(const struct src *s, size_t end)
{
	for (size_t j = end - 1; j-- > 0;)
		if (s->t[j] == '"' && !escaped(s->t, j))
			return j;
	return end - 1;
}

static bool is_word(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}

/*
 * jansson places an error after the token it read last (a string, a
 * number, a word or one character); the message names where it starts.
 */
static size_t token_start(const struct src *s, size_t end)
{
	size_t i;

	if (end == 0)
		return 0;
	if (end > s->len)
		end = s->len;
	i = end - 1;
	if (s->t[i] == '"')
		return string_start(s, end);
	if (is_word(s->t[i])) {
		while (i > 0 && is_word(s->t[i - 1]))
			i--;
		return i;
	}
	while (i > 0 && ((unsigned char)s->t[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/* What is at off, for "expected X, found Y". */
static const char *found(const struct src *s, size_t off, char *buf,
			 size_t len)
{
	unsigned char c;

	if (off >= s->len)
		return "end of file";
	c = (unsigned char)s->t[off];
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else if (c == '\n')
		return "end of line";
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

/* Whether the string token t[0..n) decodes to key. */
static bool same_key(const char *t, size_t n, const json_t *key)
{
	json_t *k = json_loadb(t, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	bool same = json_is_string(k) &&
		    json_string_length(k) == json_string_length(key) &&
		    memcmp(json_string_value(k), json_string_value(key),
			   json_string_length(key)) == 0;

	json_decref(k);
	return same;
}

/* Past the string that opens at t[i] (jansson has read it whole). */
static size_t skip_string(const char *t, size_t i, size_t end)
{
	for (i++; i < end && t[i] != '"'; i++)
		if (t[i] == '\\')
			i++;
	return i + 1;
}

/*
 * Where the first member named `key` starts in the object that holds the
 * duplicate at dup; SIZE_MAX if it is not found.  jansson has read the
 * text before dup without error, so skipping strings and counting
 * brackets is enough.
 */
static size_t first_key(const struct src *s, size_t dup, const json_t *key)
{
	size_t *open = NULL, n = 0, cap = 0, obj, i;
	int depth = 0;
	char prev = '{';

	for (i = 0; i < dup;) {
		char c = s->t[i];

		if (c == '"') {
			i = skip_string(s->t, i, dup);
			continue;
		}
		if (c == '{' || c == '[') {
			open = grow_array(open, &cap, n + 1, sizeof(*open));
			open[n++] = i;
		} else if ((c == '}' || c == ']') && n) {
			n--;
		}
		i++;
	}
	obj = n ? open[n - 1] : SIZE_MAX;
	free(open);
	if (obj == SIZE_MAX)
		return SIZE_MAX;
	/* members of that object: a string after '{' or ',' is a key */
	for (i = obj + 1; i < dup;) {
		char c = s->t[i];

		if (c == '"') {
			size_t e = skip_string(s->t, i, dup);

			if (!depth && (prev == '{' || prev == ',') && e <= dup &&
			    same_key(s->t + i, e - i, key))
				return i;
			prev = depth ? prev : '"';
			i = e;
			continue;
		}
		if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']')
			depth--;
		else if (!depth && (c == ',' || c == ':'))
			prev = c;
		i++;
	}
	return SIZE_MAX;
}

/* "duplicate key "..." (first at L:C)" for the key at t[at..end). */
static void duplicate(const struct src *s, size_t at, size_t end, char *msg,
		      size_t len)
{
	json_t *k = json_loadb(s->t + at, end - at,
			       JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	const char *key = json_is_string(k) ? json_string_value(k) : "";
	size_t q = strnlen(key, QUOTE_MAX + 1), first;
	int n, line, col;

	/* at most QUOTE_MAX bytes, not cutting a UTF-8 character */
	if (q > QUOTE_MAX)
		for (q = QUOTE_MAX; q > 0 && ((unsigned char)key[q] & 0xc0) == 0x80;)
			q--;
	n = snprintf(msg, len, "duplicate key \"%.*s%s\"", (int)q, key,
		     key[q] ? "..." : "");
	first = k ? first_key(s, at, k) : SIZE_MAX;
	if (first != SIZE_MAX && n > 0 && (size_t)n < len) {
		place(s, first, &line, &col);
		snprintf(msg + n, len - (size_t)n, " (first at %d:%d)", line,
			 col);
	}
	json_decref(k);
}

static bool digit_at(const struct src *s, size_t i)
{
	return i < s->len && s->t[i] >= '0' && s->t[i] <= '9';
}

/*
 * What is wrong with the number at t[at], which jansson refused as an
 * invalid token; false if it is not one.  *at moves to the fault.
 */
static bool bad_number(const struct src *s, size_t *at, char *msg,
		       size_t len)
{
	size_t i = *at;
	char fb[16];

	if (i < s->len && s->t[i] == '-')
		i++;
	else if (!digit_at(s, i))
		return false;
	if (!digit_at(s, i)) {
		snprintf(msg, len, "expected a digit after '-', found %s",
			 found(s, i, fb, sizeof(fb)));
	} else if (s->t[i] == '0' && digit_at(s, i + 1)) {
		snprintf(msg, len, "numbers cannot have leading zeros");
		i++;
	} else {
		while (digit_at(s, i))
			i++;
		if (i < s->len && s->t[i] == '.' && !digit_at(s, ++i)) {
			snprintf(msg, len, "expected a digit after '.', "
				 "found %s", found(s, i, fb, sizeof(fb)));
			*at = i;
			return true;
		}
		while (digit_at(s, i))
			i++;
		if (i < s->len && (s->t[i] == 'e' || s->t[i] == 'E'))
			i++;
		if (i < s->len && (s->t[i] == '+' || s->t[i] == '-'))
			i++;
		snprintf(msg, len, "expected a digit in the exponent, found %s",
			 found(s, i, fb, sizeof(fb)));
	}
	*at = i;
	return true;
}

/*
 * jansson's "invalid escape", in the words of where it went wrong: the
 * character after a backslash, one of the four hex digits after \u, or
 * the end of the file.
 */
static void bad_escape(const struct src *s, size_t pos, size_t *at,
		       char *msg, size_t len)
{
	const char *t = s->t;
	size_t j = pos - 1;
	char fb[16];

	if (t[j] == '\\' && !escaped(t, j) && pos >= s->len) {
		*at = string_start(s, pos);
		snprintf(msg, len, "unterminated string");
		return;
	}
	/* the backslash that starts the escape */
	while (j > 0 && pos - j < 7 && !(t[j - 1] == '\\' && !escaped(t, j - 1)))
		j--;
	if (j == 0 || pos - j >= 7) {
		*at = pos - 1;
		snprintf(msg, len, "invalid escape in string");
	} else if (t[j] != 'u') {
		unsigned char c = (unsigned char)t[j];

		*at = j - 1;
		if (c > 0x20 && c < 0x7f)
			snprintf(msg, len, "invalid escape '\\%c' in string", c);
		else
			snprintf(msg, len, "invalid escape in string");
	} else {
		bool eof = pos >= s->len && pos - j < 5 &&
			   (t[pos - 1] == 'u' || isxdigit((unsigned char)t[pos - 1]));

		*at = eof ? s->len : pos - 1;
		snprintf(msg, len, "expected 4 hex digits after \\u, found %s",
			 found(s, *at, fb, sizeof(fb)));
	}
}

/*
 * Where the token jansson names ("... near 'TOKEN'") starts: it ends at
 * pos, or just before when jansson read one byte past it.  SIZE_MAX if
 * the message names none (long tokens are not quoted).
 */
static size_t quoted_token(const struct src *s, const char *m, size_t pos)
{
	const char *q = strstr(m, " near '"), *next;
	size_t n;

	while (q && (next = strstr(q + 1, " near '")))
		q = next;
	if (!q)
		return SIZE_MAX;
	q += strlen(" near '");
	n = strlen(q);
	if (n < 2 || q[n - 1] != '\'')
		return SIZE_MAX;
	n--;
	for (size_t end = pos; end + 2 > pos && end >= n; end--)
		if (end <= s->len && memcmp(s->t + end - n, q, n) == 0)
			return end - n;
	return SIZE_MAX;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * jansson's error in fbrun's words, placed where the offending token
 * starts.  Its messages are matched by their start; one not known here
 * is passed on as it is, at jansson's own line and column.
 */
void results_read_explain(const char *text, size_t len, const json_error_t *e,
			  const char *name, char *err, size_t errlen)
{
	static const struct {
		const char *jansson, *ours;
	} found_msgs[] = {
		{ "']' expected", "expected ',' or ']' after an array element" },
		{ "'}' expected", "expected ',' or '}' after an object member" },
		{ "string or '}' expected",
		  "expected a member name in double quotes" },
		{ "':' expected", "expected ':' after the member name" },
		{ "unexpected token", "expected a value" },
		{ "invalid token", "expected a value" },
	};
	const struct src src = { text, len }, *s = &src;
	const char *m = e->text;
	size_t pos = e->position > 0 ? (size_t)e->position : 0;
	size_t at = strstr(m, " near end of file") ? s->len :
						      quoted_token(s, m, pos);
	char msg[256], fb[16];
	int line = e->line, col = e->column > 0 ? e->column : 1;
	bool placed = true;

	if (pos > s->len)
		pos = s->len;
	if (at == SIZE_MAX)
		at = token_start(s, pos);
	if (starts(m, "invalid token") && bad_number(s, &at, msg, sizeof(msg)))
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(found_msgs); i++)
		if (starts(m, found_msgs[i].jansson)) {
			snprintf(msg, sizeof(msg), "%s, found %s",
				 found_msgs[i].ours,
				 found(s, at, fb, sizeof(fb)));
			goto out;
		}
	if (starts(m, "end of file expected")) {
		snprintf(msg, sizeof(msg), "unexpected %s after the JSON value",
			 found(s, at, fb, sizeof(fb)));
	} else if (starts(m, "maximum parsing depth")) {
		snprintf(msg, sizeof(msg), "nested deeper than %d levels",
			 JSON_PARSER_MAX_DEPTH);
	} else if (starts(m, "duplicate object key")) {
		duplicate(s, at, pos, msg, sizeof(msg));
	} else if (starts(m, "premature end of input") && pos > 0) {
		at = string_start(s, pos);
		snprintf(msg, sizeof(msg), "unterminated string");
	} else if ((starts(m, "control character") ||
		    starts(m, "unexpected newline")) && pos < s->len) {
		at = pos;
		snprintf(msg, sizeof(msg), "control character 0x%02x in "
			 "string (write it as \\u%04x)",
			 (unsigned char)s->t[pos], (unsigned char)s->t[pos]);
	} else if (starts(m, "invalid escape") && pos > 0) {
		bad_escape(s, pos, &at, msg, sizeof(msg));
	} else if (starts(m, "invalid Unicode '\\u")) {
		/* the first code unit of what jansson quotes */
		snprintf(msg, sizeof(msg), "unpaired UTF-16 surrogate %.6s",
			 m + strlen("invalid Unicode '"));
	} else if (starts(m, "unable to decode byte") && pos < s->len) {
		at = pos;
		snprintf(msg, sizeof(msg), "invalid UTF-8 byte 0x%02x",
			 (unsigned char)s->t[pos]);
	} else if (starts(m, "real number overflow") || starts(m, "too big")) {
		snprintf(msg, sizeof(msg), "number out of range");
	} else if (starts(m, "NUL byte in object key")) {
		snprintf(msg, sizeof(msg), "a member name cannot hold \\u0000");
	} else {
		snprintf(msg, sizeof(msg), "%s", m);
		placed = false;
	}
out:
	if (placed)
		place(s, at, &line, &col);
	snprintf(err, errlen, "%s:%d:%d: %s", name, line, col, msg);
}
