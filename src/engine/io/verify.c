/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Stamping and checking the blocks of verified files (verify.h). */
#include "engine/io/verify.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lang/rand.h"
#include "util/util.h"

#define MAGIC 0x31566266u /* "fbV1" */
#define GEN_AT 24u /* the generation's bytes: [GEN_AT, GEN_AT + 8) */

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

uint64_t vfy_file_id(const char *name, int64_t e)
{
	return rv_mix64(str_hash(name)) + (uint64_t)e;
}

/* The whole block of file id at boff (a multiple of VFY_BLOCK). */
static void block_image(unsigned char *b, uint64_t id, uint64_t boff,
			uint64_t gen)
{
	uint64_t key = rv_mix64(id), sum = 0xcbf29ce484222325ULL;

	for (size_t i = VFY_HEADER; i < VFY_BLOCK; i += 8) {
		uint64_t v = rv_mix64(key ^ (boff + i));

		put64(b + i, v);
		sum = (sum ^ v) * 0x100000001b3ULL;
	}
	sum = rv_mix64(sum ^ id ^ rv_mix64(boff));
	put32(b, MAGIC);
	put32(b + 4, (uint32_t)(sum ^ (sum >> 32)));
	put64(b + 8, id);
	put64(b + 16, boff);
	put64(b + GEN_AT, gen);
}

void vfy_fill(char *buf, uint64_t id, uint64_t off, size_t n, uint64_t gen)
{
	unsigned char tmp[VFY_BLOCK];
	uint64_t end = off + n;

	while (off < end) {
		uint64_t boff = off / VFY_BLOCK * VFY_BLOCK;
		size_t at = (size_t)(off - boff);
		size_t k = end - off < VFY_BLOCK - at ? (size_t)(end - off) :
							VFY_BLOCK - at;

		if (k == VFY_BLOCK) {
			block_image((unsigned char *)buf, id, boff, gen);
		} else {
			block_image(tmp, id, boff, gen);
			memcpy(buf, tmp + at, k);
		}
		buf += k;
		off += k;
	}
}

int64_t vfy_check(const char *buf, uint64_t id, uint64_t off, size_t n,
		  uint64_t zlo, uint64_t zhi)
{
	unsigned char want[VFY_BLOCK];
	const unsigned char *got = (const unsigned char *)buf;
	uint64_t end = off + n;

	while (off < end) {
		uint64_t boff = off / VFY_BLOCK * VFY_BLOCK;
		size_t at = (size_t)(off - boff);
		size_t k = end - off < VFY_BLOCK - at ? (size_t)(end - off) :
							VFY_BLOCK - at;

		block_image(want, id, boff, 0);
		if (memcmp(got, want + at, k) != 0) {
			for (size_t i = 0; i < k; i++) {
				size_t pos = at + i;

				if (pos >= GEN_AT && pos < GEN_AT + 8)
					continue;
				if (got[i] == want[pos] ||
				    (got[i] == 0 && off + i >= zlo &&
				     off + i < zhi))
					continue;
				return (int64_t)(off + i);
			}
		}
		got += k;
		off += k;
	}
	return -1;
}

struct vfy_log {
	pthread_mutex_t lock;
	struct strmap *seen;
	char **paths; /* the map's keys, owned here */
	size_t n, cap;
};

struct vfy_log *vfy_log_new(void)
{
	struct vfy_log *l = xcalloc(1, sizeof(*l));

	pthread_mutex_init(&l->lock, NULL);
	l->seen = strmap_new();
	return l;
}

void vfy_log_free(struct vfy_log *l)
{
	if (!l)
		return;
	strmap_free(l->seen);
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

bool vfy_log_first(struct vfy_log *l, const char *path)
{
	bool first;

	pthread_mutex_lock(&l->lock);
	first = !strmap_get(l->seen, path);
	if (first) {
		l->paths = grow_array(l->paths, &l->cap, l->n + 1,
				      sizeof(*l->paths));
		l->paths[l->n] = xstrdup(path);
		strmap_add(l->seen, l->paths[l->n], l->paths[l->n]);
		l->n++;
	}
	pthread_mutex_unlock(&l->lock);
	return first;
}

/* ------------------------------------------------------------ files */

/* In a length word: the entry's file is not the one fbrun made. */
#define GONE (1ULL << 63)

struct vfy_ent {
	_Atomic uint64_t len; /* GONE | a length the file has at least */
	_Atomic uint64_t zlo, zhi; /* where it may read as zeros */
};

struct vfy_files {
	uint64_t n;
	struct vfy_ent *ent;
};

struct vfy_files *vfy_files_new(uint64_t n)
{
	struct vfy_files *t = xcalloc(1, sizeof(*t));

	t->n = n;
	t->ent = xcalloc(n ? n : 1, sizeof(*t->ent));
	for (uint64_t e = 0; e < n; e++) {
		atomic_init(&t->ent[e].len, GONE);
		atomic_init(&t->ent[e].zlo, UINT64_MAX);
		atomic_init(&t->ent[e].zhi, 0);
	}
	return t;
}

void vfy_files_free(struct vfy_files *t)
{
	if (!t)
		return;
	free(t->ent);
	free(t);
}

void vfy_files_made(struct vfy_files *t, uint64_t e, uint64_t size)
{
	if (e < t->n)
		atomic_store(&t->ent[e].len, size & ~GONE);
}

bool vfy_files_len(const struct vfy_files *t, uint64_t e, uint64_t *len)
{
	uint64_t w = e < t->n ? atomic_load(&t->ent[e].len) : GONE;

	*len = w & ~GONE;
	return !(w & GONE);
}

void vfy_files_grew(struct vfy_files *t, uint64_t e, uint64_t end)
{
	uint64_t w;

	if (e >= t->n || end >= GONE)
		return;
	w = atomic_load(&t->ent[e].len);
	/* not once the entry's file is another: it is not this write's */
	while (!(w & GONE) && w < end &&
	       !atomic_compare_exchange_weak(&t->ent[e].len, &w, end))
		;
}

void vfy_files_gone(struct vfy_files *t, uint64_t e)
{
	if (e < t->n)
		atomic_fetch_or(&t->ent[e].len, GONE);
}

void vfy_files_hole(struct vfy_files *t, uint64_t e, uint64_t lo,
		    uint64_t hi)
{
	struct vfy_ent *v;
	uint64_t w;

	if (e >= t->n || lo >= hi)
		return;
	v = &t->ent[e];
	w = atomic_load(&v->zlo);
	while (lo < w && !atomic_compare_exchange_weak(&v->zlo, &w, lo))
		;
	w = atomic_load(&v->zhi);
	while (hi > w && !atomic_compare_exchange_weak(&v->zhi, &w, hi))
		;
}

void vfy_files_zeros(const struct vfy_files *t, uint64_t e, uint64_t *lo,
		     uint64_t *hi)
{
	*lo = e < t->n ? atomic_load(&t->ent[e].zlo) : UINT64_MAX;
	*hi = e < t->n ? atomic_load(&t->ent[e].zhi) : 0;
}
