/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Summaries of a kind's bitmaps: which blocks may hold an entry free to
 * pick absent, free to pick existing, or busy (fs_sum in fileset_int.h),
 * so that a pick in a fileset where the wanted state is rare goes to the
 * next block holding one in a few loads per level (64^level blocks under
 * each bit) instead of walking every block before it.
 *
 * Kept without locks, and written only when a block changes sort:
 *
 * - Whoever makes a block hold an entry of a sort (a release gives one
 *   back in that state, a claim makes one busy) marks it afterwards: the
 *   bit, if clear, and each clear bit above it, bottom up.
 * - A bit is cleared lazily, by a look that found its block (or the word
 *   below it) without one: clear, then look at the block (word) again, and
 *   set the bit again (marking upwards) if one is there now; a word left
 *   empty by the clear takes its own bit above away the same way.
 *
 * All of these are sequentially consistent operations, so once the
 * operations under way are done a block holding an entry of a sort has
 * its bit set, and every bit above a set bit is set: take the last clear
 * of such a bit.  If it came after the block (word) last came to hold
 * one, its look after the clear saw it and set the bit again; if before,
 * the mark that followed that change found the bit clear and set it.
 * While operations are under way a bit may be clear for a moment over a
 * block that holds one; a pick that finds nothing then is no different
 * from one that ran a moment earlier, and fileset_pick_wait makes sure of
 * "nothing at all" with the bitmaps themselves before it gives up.
 */
#include "engine/fileset/fileset_int.h"

#include <stdlib.h>

#include "util/util.h"

bool fs_block_has(const struct fs_kind *k, unsigned s, uint64_t b)
{
	uint64_t end = fs_block_end(k, b);

	for (uint64_t p = b << k->shift; p < end; p += 64) {
		uint64_t w = fs_word(k, p), left = end - p;
		uint64_t valid = left >= 64 ? ~0ULL : (1ULL << left) - 1;
		/* busy first: a release writes exists before it clears busy */
		uint64_t busy = atomic_load(&k->busy[w]), bits;

		if (s == FS_SUM_BUSY) {
			bits = busy & ~(k->foreign ? k->foreign[w] : 0);
		} else {
			uint64_t ex = atomic_load(&k->exists[w]);

			bits = (s == FS_SUM_EXISTING ? ex : ~ex) & ~busy;
		}
		if (bits & valid)
			return true;
	}
	return false;
}

/* Words of a level of bits bits. */
static uint64_t words(uint64_t bits)
{
	return (bits + 63) / 64;
}

int fs_sum_alloc(struct fs_kind *k)
{
	for (unsigned s = 0; s < FS_NSUMS; s++) {
		struct fs_sum *m = &k->sum[s];
		uint64_t bits = k->nblocks;
		unsigned lv = 0;

		/* a level per 64 of the one below, up to one word */
		for (;;) {
			m->nbits[lv] = bits;
			m->lvl[lv] = calloc_lines(words(bits),
						  sizeof(**m->lvl));
			if (!m->lvl[lv])
				return -1;
			m->nlevels = ++lv;
			if (bits <= 64 || lv == FS_SUM_LEVELS)
				break;
			bits = words(bits);
		}
	}
	return 0;
}

void fs_sum_free(struct fs_kind *k)
{
	for (unsigned s = 0; s < FS_NSUMS; s++) {
		for (unsigned lv = 0; lv < k->sum[s].nlevels; lv++)
			free(k->sum[s].lvl[lv]);
		k->sum[s].nlevels = 0;
	}
}

/* What bit i of level lv stands for is there: the block, or the word below. */
static bool holds(struct fs_kind *k, unsigned s, unsigned lv, uint64_t i)
{
	return lv == 0 ? fs_block_has(k, s, i) :
			 atomic_load(&k->sum[s].lvl[lv - 1][i]) != 0;
}

void fs_sum_rebuild(struct fs_kind *k)
{
	for (unsigned s = 0; s < FS_NSUMS; s++) {
		struct fs_sum *m = &k->sum[s];

		/* bottom up: each level from the one below */
		for (unsigned lv = 0; lv < m->nlevels; lv++)
			for (uint64_t w = 0; w < words(m->nbits[lv]); w++) {
				uint64_t bits = 0, end = w * 64 + 64;

				if (end > m->nbits[lv])
					end = m->nbits[lv];
				for (uint64_t i = w * 64; i < end; i++)
					if (holds(k, s, lv, i))
						bits |= 1ULL << (i % 64);
				atomic_store(&m->lvl[lv][w], bits);
			}
	}
}

void fs_sum_set(struct fs_kind *k, unsigned s, unsigned lv, uint64_t i)
{
	struct fs_sum *m = &k->sum[s];

	for (; lv < m->nlevels; lv++, i /= 64) {
		_Atomic uint64_t *w = &m->lvl[lv][i / 64];
		uint64_t bit = 1ULL << (i % 64);

		/* set already: whoever set it goes on up */
		if ((atomic_load(w) & bit) || (atomic_fetch_or(w, bit) & bit))
			return;
	}
}

/* Clear bit i of level lv (see the top); true if it had to stay. */
static bool drop(struct fs_kind *k, unsigned s, unsigned lv, uint64_t i)
{
	struct fs_sum *m = &k->sum[s];

	for (; lv < m->nlevels; lv++, i /= 64) {
		_Atomic uint64_t *w = &m->lvl[lv][i / 64];
		uint64_t bit = 1ULL << (i % 64), old;

		if (!(atomic_load(w) & bit))
			return false; /* cleared by another, who looks again */
		old = atomic_fetch_and(w, ~bit);
		if (!(old & bit))
			return false;
		if (holds(k, s, lv, i)) {
			fs_sum_set(k, s, lv, i);
			return true;
		}
		/* bits left in the word: those above stay */
		if (old & ~bit)
			return false;
	}
	return false;
}

bool fs_sum_clear(struct fs_kind *k, unsigned s, uint64_t b)
{
	return drop(k, s, 0, b);
}

/* The first set bit of level lv in [i, hi), or FS_NONE. */
static uint64_t next_at(struct fs_kind *k, unsigned s, unsigned lv, uint64_t i,
			uint64_t hi)
{
	struct fs_sum *m = &k->sum[s];

	while (i < hi) {
		uint64_t w = i / 64, up, bits;

		bits = atomic_load(&m->lvl[lv][w]) & (~0ULL << (i % 64));
		if (bits) {
			i = w * 64 + (uint64_t)__builtin_ctzll(bits);
			return i < hi ? i : FS_NONE;
		}
		if (lv + 1 == m->nlevels) {
			i = (w + 1) * 64; /* the top: one word, but for size */
			continue;
		}
		/* the rest of this word is empty: the next word with any */
		up = next_at(k, s, lv + 1, w + 1, (hi + 63) / 64);
		if (up == FS_NONE)
			return FS_NONE;
		if (atomic_load(&m->lvl[lv][up]) || drop(k, s, lv + 1, up))
			i = up * 64;
		else
			i = (up + 1) * 64; /* stale: cleared, and on */
	}
	return FS_NONE;
}

uint64_t fs_sum_next(struct fs_kind *k, unsigned s, uint64_t lo, uint64_t hi)
{
	return next_at(k, s, 0, lo, hi < k->sum[s].nbits[0] ? hi :
							   k->sum[s].nbits[0]);
}
