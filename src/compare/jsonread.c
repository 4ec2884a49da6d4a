/*
 * Strict JSON reader: recursive descent over a byte buffer, bounded by
 * JSON_READ_MAX_DEPTH so hostile input cannot blow the stack.  Positions
 * are tracked as we go (columns count UTF-8 characters, like an editor),
 * and the first error wins.
 */
#include "compare/jsonread.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct reader {
	const unsigned char *p, *end;
	const char *name;
	int line, col;
	int depth;
	bool failed;
	char *err;
	size_t errlen;
};

struct buf {
	char *s;
	size_t n, cap;
};

static void buf_add(struct buf *b, const void *data, size_t n)
{
	b->s = grow_array(b->s, &b->cap, b->n + n + 1, 1);
	memcpy(b->s + b->n, data, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void put_utf8(struct buf *b, uint32_t cp)
{
	unsigned char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xc0 | (cp >> 6));
		u[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xe0 | (cp >> 12));
		u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xf0 | (cp >> 18));
		u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	buf_add(b, u, n);
}

static void fail_at(struct reader *r, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fail_at(struct reader *r, int line, int col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return;
	r->failed = true;
	n = snprintf(r->err, r->errlen, "%s:%d:%d: ", r->name, line, col);
	if (n < 0 || (size_t)n >= r->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

#define fail(r, ...) fail_at(r, (r)->line, (r)->col, __VA_ARGS__)

/* What is at the cursor, for "expected X, found Y". */
static const char *found(const struct reader *r, char *buf, size_t len)
{
	if (r->p >= r->end)
		return "end of file";
	if (*r->p > 0x20 && *r->p < 0x7f)
		snprintf(buf, len, "'%c'", *r->p);
	else if (*r->p == '\n')
		return "end of line";
	else
		snprintf(buf, len, "byte 0x%02x", *r->p);
	return buf;
}

/* Advance one byte; continuation bytes do not start a new column. */
static void step(struct reader *r)
{
	if ((*r->p & 0xc0) != 0x80)
		r->col++;
	r->p++;
}

static void skip_ws(struct reader *r)
{
	while (r->p < r->end) {
		if (*r->p == '\n') {
			r->line++;
			r->col = 1;
			r->p++;
		} else if (*r->p == ' ' || *r->p == '\t' || *r->p == '\r') {
			step(r);
		} else {
			break;
		}
	}
}

static struct json_value *new_value(const struct reader *r, enum json_type t)
{
	struct json_value *v = xcalloc(1, sizeof(*v));

	v->type = t;
	v->line = r->line;
	v->col = r->col;
	return v;
}

static int hex4(struct reader *r, uint32_t *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		unsigned char c = r->p < r->end ? *r->p : 0;
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0) {
			char fb[16];

			fail(r, "expected 4 hex digits after \\u, found %s",
			     found(r, fb, sizeof(fb)));
			return -1;
		}
		*out = (*out << 4) | (uint32_t)d;
		step(r);
	}
	return 0;
}

/* After the backslash: one escape, appended to b. */
static int parse_escape(struct reader *r, struct buf *b, int line, int col)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	uint32_t cp, lo;

	if (r->p >= r->end) {
		fail(r, "unterminated string");
		return -1;
	}
	k = *r->p ? strchr(from, *r->p) : NULL;
	if (k) {
		buf_add(b, &to[k - from], 1);
		step(r);
		return 0;
	}
	if (*r->p != 'u') {
		if (*r->p > 0x20 && *r->p < 0x7f)
			fail_at(r, line, col, "invalid escape '\\%c' in string",
				*r->p);
		else
			fail_at(r, line, col, "invalid escape in string");
		return -1;
	}
	step(r);
	if (hex4(r, &cp) < 0)
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff) {
		fail_at(r, line, col, "unpaired UTF-16 surrogate \\u%04X", cp);
		return -1;
	}
	if (cp >= 0xd800 && cp <= 0xdbff) {
		/* a high surrogate must be followed by \uDC00-\uDFFF */
		if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u') {
			fail_at(r, line, col,
				"unpaired UTF-16 surrogate \\u%04X", cp);
			return -1;
		}
		step(r);
		step(r);
		if (hex4(r, &lo) < 0)
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff) {
			fail_at(r, line, col,
				"unpaired UTF-16 surrogate \\u%04X", cp);
			return -1;
		}
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	put_utf8(b, cp);
	return 0;
}

/* At the opening quote.  Returns the contents in a fresh buffer. */
static char *parse_string(struct reader *r, size_t *len)
{
	struct buf b = { 0 };
	int line = r->line, col = r->col;

	buf_add(&b, "", 0);
	step(r);
	for (;;) {
		const unsigned char *run = r->p;
		size_t n;

		while (r->p < r->end && *r->p >= 0x20 && *r->p < 0x80 &&
		       *r->p != '"' && *r->p != '\\')
			r->p++;
		r->col += (int)(r->p - run);
		buf_add(&b, run, (size_t)(r->p - run));
		if (r->p >= r->end) {
			fail_at(r, line, col, "unterminated string");
			break;
		}
		if (*r->p == '"') {
			step(r);
			*len = b.n;
			return b.s;
		}
		if (*r->p == '\\') {
			int el = r->line, ec = r->col;

			step(r);
			if (parse_escape(r, &b, el, ec) < 0)
				break;
			continue;
		}
		if (*r->p < 0x20) {
			fail(r, "control character 0x%02x in string (write it "
				"as \\u%04x)", *r->p, *r->p);
			break;
		}
		n = utf8_seq_len(r->p, (size_t)(r->end - r->p));
		if (!n) {
			fail(r, "invalid UTF-8 byte 0x%02x in string", *r->p);
			break;
		}
		buf_add(&b, r->p, n);
		r->p += n;
		r->col++;
	}
	free(b.s);
	return NULL;
}

static bool is_digit(const struct reader *r)
{
	return r->p < r->end && *r->p >= '0' && *r->p <= '9';
}

static void digits(struct reader *r)
{
	while (is_digit(r))
		step(r);
}

static struct json_value *parse_number(struct reader *r)
{
	const unsigned char *start = r->p;
	int col = r->col;
	struct json_value *v;
	char small[64], *text, *endp;
	size_t n;
	char fb[16];

	if (*r->p == '-')
		step(r);
	if (!is_digit(r)) {
		fail(r, "expected a digit after '-', found %s",
		     found(r, fb, sizeof(fb)));
		return NULL;
	}
	if (*r->p == '0') {
		step(r);
		if (is_digit(r)) {
			fail(r, "numbers cannot have leading zeros");
			return NULL;
		}
	} else {
		digits(r);
	}
	if (r->p < r->end && *r->p == '.') {
		step(r);
		if (!is_digit(r)) {
			fail(r, "expected a digit after '.', found %s",
			     found(r, fb, sizeof(fb)));
			return NULL;
		}
		digits(r);
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		step(r);
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			step(r);
		if (!is_digit(r)) {
			fail(r, "expected a digit in the exponent, found %s",
			     found(r, fb, sizeof(fb)));
			return NULL;
		}
		digits(r);
	}
	/* strtod needs a terminated copy: the buffer may not end here */
	n = (size_t)(r->p - start);
	text = n < sizeof(small) ? small : xmalloc(n + 1);
	memcpy(text, start, n);
	text[n] = '\0';
	v = xcalloc(1, sizeof(*v));
	v->type = JSON_NUMBER;
	v->num = strtod(text, &endp);
	if (text != small)
		free(text);
	if (!isfinite(v->num)) {
		free(v);
		fail_at(r, r->line, col, "number out of range");
		return NULL;
	}
	return v;
}

static bool literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return false;
	r->p += n;
	r->col += (int)n;
	return true;
}

static struct json_value *parse_value(struct reader *r);

/* Objects with more members than this get an index for json_get. */
#define INDEX_FROM 8

/*
 * Bytes of a key an error message quotes: at most QUOTE_MAX, not cutting
 * a UTF-8 character, so that the message's reason is never cut off.
 */
#define QUOTE_MAX 64
static int quote_len(const char *s)
{
	size_t n = strnlen(s, QUOTE_MAX + 1);

	if (n > QUOTE_MAX)
		for (n = QUOTE_MAX; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80;)
			n--;
	return (int)n;
}

static int cmp_member(const void *a, const void *b)
{
	const struct json_member *x = *(const struct json_member *const *)a;
	const struct json_member *y = *(const struct json_member *const *)b;
	int c = strcmp(x->key, y->key);

	/* ties by position, so the later duplicate is the one reported */
	if (c)
		return c;
	return (x > y) - (x < y);
}

/*
 * Sort the members by key: a duplicate is then next to its first, and
 * json_get can search.  O(n log n) even for huge hostile objects.
 */
static int index_members(struct reader *r, struct json_value *o)
{
	struct json_member **s;

	if (o->n < 2)
		return 0;
	s = xmalloc(o->n * sizeof(*s));
	for (size_t i = 0; i < o->n; i++)
		s[i] = &o->members[i];
	qsort(s, o->n, sizeof(*s), cmp_member);
	for (size_t i = 1; i < o->n; i++) {
		if (strcmp(s[i - 1]->key, s[i]->key) == 0) {
			fail_at(r, s[i]->line, s[i]->col,
				"duplicate key \"%.*s%s\" (first at %d:%d)",
				quote_len(s[i]->key), s[i]->key,
				s[i]->key[quote_len(s[i]->key)] ? "..." : "",
				s[i - 1]->line, s[i - 1]->col);
			free(s);
			return -1;
		}
	}
	if (o->n > INDEX_FROM)
		o->byname = s;
	else
		free(s);
	return 0;
}

static int parse_object(struct reader *r, struct json_value *o)
{
	char fb[16];

	step(r);
	skip_ws(r);
	if (r->p < r->end && *r->p == '}') {
		step(r);
		return 0;
	}
	for (;;) {
		struct json_member m = { .line = r->line, .col = r->col };
		size_t klen;

		if (r->p >= r->end || *r->p != '"') {
			fail(r, "expected a member name in double quotes, "
				"found %s", found(r, fb, sizeof(fb)));
			return -1;
		}
		m.key = parse_string(r, &klen);
		if (!m.key)
			return -1;
		o->members = grow_array(o->members, &o->cap, o->n + 1,
					sizeof(*o->members));
		o->members[o->n++] = m;
		skip_ws(r);
		if (r->p >= r->end || *r->p != ':') {
			fail(r, "expected ':' after the member name, found %s",
			     found(r, fb, sizeof(fb)));
			return -1;
		}
		step(r);
		o->members[o->n - 1].value = parse_value(r);
		if (!o->members[o->n - 1].value)
			return -1;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			step(r);
			skip_ws(r);
			continue;
		}
		if (r->p < r->end && *r->p == '}') {
			step(r);
			return index_members(r, o);
		}
		fail(r, "expected ',' or '}' after an object member, found %s",
		     found(r, fb, sizeof(fb)));
		return -1;
	}
}

static int parse_array(struct reader *r, struct json_value *a)
{
	char fb[16];

	step(r);
	skip_ws(r);
	if (r->p < r->end && *r->p == ']') {
		step(r);
		return 0;
	}
	for (;;) {
		struct json_value *item = parse_value(r);

		if (!item)
			return -1;
		a->items = grow_array(a->items, &a->cap, a->n + 1,
				      sizeof(*a->items));
		a->items[a->n++] = item;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			step(r);
			continue;
		}
		if (r->p < r->end && *r->p == ']') {
			step(r);
			return 0;
		}
		fail(r, "expected ',' or ']' after an array element, found %s",
		     found(r, fb, sizeof(fb)));
		return -1;
	}
}

static struct json_value *parse_value(struct reader *r)
{
	struct json_value *v;
	int line, col, rc;
	char fb[16];

	skip_ws(r);
	line = r->line;
	col = r->col;
	if (r->p >= r->end) {
		fail(r, "expected a value, found end of file");
		return NULL;
	}
	switch (*r->p) {
	case '{':
	case '[':
		if (r->depth >= JSON_READ_MAX_DEPTH) {
			fail(r, "nested deeper than %d levels",
			     JSON_READ_MAX_DEPTH);
			return NULL;
		}
		r->depth++;
		v = new_value(r, *r->p == '{' ? JSON_OBJECT : JSON_ARRAY);
		rc = v->type == JSON_OBJECT ? parse_object(r, v) :
					      parse_array(r, v);
		r->depth--;
		if (rc < 0) {
			json_value_free(v);
			return NULL;
		}
		return v;
	case '"':
		v = new_value(r, JSON_STRING);
		v->str = parse_string(r, &v->len);
		if (!v->str) {
			free(v);
			return NULL;
		}
		return v;
	case '-':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		v = parse_number(r);
		break;
	default:
		v = NULL;
		if (literal(r, "true") || literal(r, "false")) {
			v = xcalloc(1, sizeof(*v));
			v->type = JSON_BOOL;
			v->b = *(r->p - 4) == 't';
		} else if (literal(r, "null")) {
			v = xcalloc(1, sizeof(*v));
			v->type = JSON_NULL;
		} else {
			fail(r, "expected a value, found %s",
			     found(r, fb, sizeof(fb)));
		}
		break;
	}
	if (v) {
		v->line = line;
		v->col = col;
	}
	return v;
}

struct json_value *json_parse(const char *text, size_t len, const char *name,
			      char *err, size_t errlen)
{
	struct reader r = {
		.p = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
		.name = name ? name : "<json>",
		.line = 1,
		.col = 1,
		.err = err,
		.errlen = errlen,
	};
	struct json_value *v;
	char fb[16];

	if (errlen)
		err[0] = '\0';
	/* editors on some systems add a byte order mark; it is harmless */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		r.p += 3;
	v = parse_value(&r);
	if (!v)
		return NULL;
	skip_ws(&r);
	if (r.p < r.end) {
		fail(&r, "unexpected %s after the JSON value",
		     found(&r, fb, sizeof(fb)));
		json_value_free(v);
		return NULL;
	}
	return v;
}

struct json_value *json_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct buf b = { 0 };
	struct json_value *v;
	char chunk[65536];
	size_t n;

	if (!f) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (b.n + n > JSON_READ_MAX_SIZE) {
			snprintf(err, errlen, "'%s' is too large (over %u MiB)",
				 path, JSON_READ_MAX_SIZE >> 20);
			fclose(f);
			free(b.s);
			return NULL;
		}
		buf_add(&b, chunk, n);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 strerror(errno));
		fclose(f);
		free(b.s);
		return NULL;
	}
	fclose(f);
	v = json_parse(b.s ? b.s : "", b.n, path, err, errlen);
	free(b.s);
	return v;
}

void json_value_free(struct json_value *v)
{
	if (!v)
		return;
	for (size_t i = 0; v->type == JSON_ARRAY && i < v->n; i++)
		json_value_free(v->items[i]);
	for (size_t i = 0; v->type == JSON_OBJECT && i < v->n; i++) {
		free(v->members[i].key);
		json_value_free(v->members[i].value);
	}
	free(v->items);
	free(v->members);
	free(v->byname);
	free(v->str);
	free(v);
}

const struct json_value *json_get(const struct json_value *obj,
				  const char *key)
{
	size_t lo = 0, hi;

	if (!json_is(obj, JSON_OBJECT))
		return NULL;
	if (!obj->byname) {
		for (size_t i = 0; i < obj->n; i++)
			if (strcmp(obj->members[i].key, key) == 0)
				return obj->members[i].value;
		return NULL;
	}
	for (hi = obj->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		const struct json_member *m = obj->byname[mid];
		int c = strcmp(m->key, key);

		if (c == 0)
			return m->value;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct json_value *json_index(const struct json_value *arr, size_t i)
{
	return json_is(arr, JSON_ARRAY) && i < arr->n ? arr->items[i] : NULL;
}

const char *json_key(const struct json_value *obj, size_t i)
{
	return json_is(obj, JSON_OBJECT) && i < obj->n ? obj->members[i].key :
							 NULL;
}

size_t json_len(const struct json_value *v)
{
	return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? v->n :
									0;
}

bool json_is(const struct json_value *v, enum json_type t)
{
	return v && v->type == t;
}

double json_as_num(const struct json_value *v, double def)
{
	return json_is(v, JSON_NUMBER) ? v->num : def;
}

const char *json_as_str(const struct json_value *v, const char *def)
{
	return json_is(v, JSON_STRING) ? v->str : def;
}

double json_get_num(const struct json_value *obj, const char *key, double def)
{
	return json_as_num(json_get(obj, key), def);
}

const char *json_get_str(const struct json_value *obj, const char *key,
			 const char *def)
{
	return json_as_str(json_get(obj, key), def);
}
