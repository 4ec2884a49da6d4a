/* Stamping and checking the blocks of verified files (verify.h). */
#include "engine/verify.h"

#include <pthread.h>
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

int64_t vfy_check(const char *buf, uint64_t id, uint64_t off, size_t n)
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
				if (got[i] != want[pos])
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
