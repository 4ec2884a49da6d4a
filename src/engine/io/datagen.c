/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The bytes the write flowops and preallocation put in files (datagen.h). */
#include "engine/io/datagen.h"

#include <stdlib.h>
#include <string.h>

#include "lang/rand.h"
#include "util/util.h"

#define BLOCK 4096u
#define MIN_POOL (1u << 20)
#define STAMP 8u

struct datagen {
	struct datapat pat;
	unsigned char *buf;
	size_t size; /* allocated and filled */
	size_t off; /* random/compress: start of the next slice */
	size_t idx; /* bonnie: the byte to increment next */
	size_t head; /* random bytes at the start of each pool block */
	uint64_t seed; /* the pool's, and the stamps' from a restart */
	uint64_t state; /* splitmix64: the stamps */
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

/*
 * Random bytes at the head of each block, zeros after (compress=N), from
 * the seed alone: the pool does not depend on when it was made.
 */
static void fill_pool(struct datagen *g)
{
	uint64_t stamps = g->state;

	g->state = rv_mix64(g->seed ^ 0xbb67ae8584caa73bULL);
	for (size_t b = 0; b < g->size; b += BLOCK)
		put_random(g, g->buf + b, g->head); /* the rest stays zero */
	g->state = stamps;
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
	g->seed = seed;
	g->state = seed ^ 0x6a09e667f3bcc909ULL;
	g->head = BLOCK;
	if (p.kind == DATA_COMPRESS)
		g->head = BLOCK * (size_t)(100 - p.compress_pct) / 100;
	return g;
}

void datagen_restart(struct datagen *g, uint64_t key)
{
	g->state = rv_mix64(g->seed ^ rv_mix64(key + 1));
	g->off = 0;
	g->idx = 0;
	if (g->pat.kind == DATA_BONNIE && g->buf)
		memset(g->buf, 0, g->size); /* its counts start again */
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
