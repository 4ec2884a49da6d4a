#include "datapat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rand.h"
#include "util.h"

#define BLOCK 4096u
#define MIN_POOL (1u << 20)
#define STAMP 8u

const char *const datapat_words[] = { "zeros", "bonnie", "random", NULL };

int datapat_parse(const char *s, struct datapat *out, char *err,
		  size_t errlen)
{
	static const enum datapat_kind kinds[] = { DATA_ZEROS, DATA_BONNIE,
						   DATA_RANDOM };
	const char *hint;
	int64_t n;

	for (size_t i = 0; datapat_words[i]; i++)
		if (strcmp(s, datapat_words[i]) == 0) {
			*out = (struct datapat){ kinds[i], 0 };
			return 0;
		}
	if (strncmp(s, "compress=", 9) == 0) {
		if (parse_int(s + 9, strlen(s + 9), &n) != NUM_OK || n < 0 ||
		    n > DATAPAT_MAX_PCT) {
			snprintf(err, errlen,
				 "compress= expects a percent from 0 to %d, "
				 "got '%s'",
				 DATAPAT_MAX_PCT, s + 9);
			return -1;
		}
		*out = (struct datapat){ DATA_COMPRESS, (int)n };
		return 0;
	}
	hint = did_you_mean(s, datapat_words, 3, sizeof(datapat_words[0]));
	snprintf(err, errlen,
		 "expects zeros, bonnie, random or compress=N, got '%s'%s%s%s",
		 s, hint ? "; did you mean '" : "", hint ? hint : "",
		 hint ? "'?" : "");
	return -1;
}

void datapat_format(char *buf, size_t len, struct datapat p)
{
	switch (p.kind) {
	case DATA_ZEROS:
	case DATA_BONNIE:
	case DATA_RANDOM:
		snprintf(buf, len, "%s", datapat_words[p.kind - DATA_ZEROS]);
		break;
	case DATA_COMPRESS:
		snprintf(buf, len, "compress=%d", p.compress_pct);
		break;
	case DATA_DEFAULT:
		snprintf(buf, len, "default");
		break;
	}
}

bool datapat_equal(struct datapat a, struct datapat b)
{
	return a.kind == b.kind &&
	       (a.kind != DATA_COMPRESS || a.compress_pct == b.compress_pct);
}

struct datapat datapat_pick(struct datapat a, struct datapat b,
			    struct datapat c)
{
	return a.kind != DATA_DEFAULT ? a : b.kind != DATA_DEFAULT ? b : c;
}

/* ------------------------------------------------------------ generator */

struct datagen {
	struct datapat pat;
	unsigned char *buf;
	size_t size; /* allocated and filled */
	size_t off; /* random/compress: start of the next slice */
	size_t idx; /* bonnie: the byte to increment next */
	size_t head; /* random bytes at the start of each pool block */
	uint64_t state; /* splitmix64 */
};

static uint64_t next64(struct datagen *g)
{
	return rv_mix64(g->state += 0x9e3779b97f4a7c15ULL);
}

static void put_random(struct datagen *g, unsigned char *p, size_t n)
{
	while (n > 0) {
		uint64_t v = next64(g);
		size_t k = n < 8 ? n : 8;

		memcpy(p, &v, k);
		p += k;
		n -= k;
	}
}

/* Random bytes at the head of each block, zeros after (compress=N). */
static void fill_pool(struct datagen *g)
{
	for (size_t b = 0; b < g->size; b += BLOCK)
		put_random(g, g->buf + b, g->head); /* the rest stays zero */
}

/* Make room for n bytes; new bytes are zero (zeros, bonnie) or filled. */
static int grow(struct datagen *g, size_t n)
{
	bool pool = g->pat.kind == DATA_RANDOM || g->pat.kind == DATA_COMPRESS;
	size_t want = (n + BLOCK - 1) / BLOCK * BLOCK;
	void *q;

	if (pool && want < MIN_POOL)
		want = MIN_POOL;
	if (want <= g->size)
		return 0;
	if (posix_memalign(&q, BLOCK, want))
		return -1;
	memset(q, 0, want);
	if (g->pat.kind == DATA_BONNIE && g->buf)
		memcpy(q, g->buf, g->size); /* keep the counts so far */
	free(g->buf);
	g->buf = q;
	g->size = want;
	g->off = 0;
	if (pool)
		fill_pool(g);
	return 0;
}

struct datagen *datagen_new(struct datapat p, uint64_t seed)
{
	struct datagen *g;

	if (p.kind == DATA_DEFAULT)
		return NULL;
	g = xcalloc(1, sizeof(*g));
	g->pat = p;
	g->state = seed ^ 0x6a09e667f3bcc909ULL;
	g->head = BLOCK;
	if (p.kind == DATA_COMPRESS)
		g->head = BLOCK * (size_t)(100 - p.compress_pct) / 100;
	return g;
}

void datagen_free(struct datagen *g)
{
	if (!g)
		return;
	free(g->buf);
	free(g);
}

struct datapat datagen_pattern(const struct datagen *g)
{
	return g->pat;
}

static void stamp(struct datagen *g, size_t at, size_t end)
{
	put_random(g, g->buf + at, end - at < STAMP ? end - at : STAMP);
}

const char *datagen_next(struct datagen *g, size_t n)
{
	size_t at, end;

	if (grow(g, n ? n : 1) < 0)
		return NULL;
	switch (g->pat.kind) {
	case DATA_BONNIE:
		if (n == 0)
			break;
		if (g->idx >= n)
			g->idx = 0;
		g->buf[g->idx++]++;
		break;
	case DATA_RANDOM:
	case DATA_COMPRESS:
		at = g->off;
		if (n % BLOCK == 0)
			at = (at + BLOCK - 1) / BLOCK * BLOCK;
		if (at + n > g->size)
			at = 0;
		end = at + n;
		/* 512-byte steps keep half-block writes of compress=N mixed */
		g->off = at + (n + 511) / 512 * 512;
		if (at % BLOCK < g->head)
			stamp(g, at, end);
		for (size_t b = (at / BLOCK + 1) * BLOCK; b < end; b += BLOCK)
			stamp(g, b, end);
		return (const char *)g->buf + at;
	case DATA_ZEROS:
	case DATA_DEFAULT:
		break;
	}
	return (const char *)g->buf;
}
