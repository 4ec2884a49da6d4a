/*
 * Picking a fileset's entries without locks (see fileset.h).
 *
 * Each kind (files, leaf directories) has two bitmaps: `exists`, and
 * `busy` for an entry some thread has picked and not yet released.  A
 * pick claims the busy bit with one atomic OR; only the claimer changes
 * the entry's bits until it releases them.
 *
 * The shared round robin hands out blocks of `block` consecutive
 * positions: the rotor counts blocks, and a thread picks from the rest of
 * its block before it takes the next one.  One atomic add per block, not
 * per pick; each block's bits have a cache line of their own, and threads
 * mostly work in different directories.
 * With block 1 this is exactly one shared rotor.
 */
#include "fileset_int.h"

#include <stdlib.h>
#include <unistd.h>

struct fs_local *fs_local_new(void)
{
	struct fs_local *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	l->win[0] = l->win[1] = (struct fs_window){ 0, 0 };
	l->own = l->own_dir = 0;
	l->pdir = l->fdir = NO_DIR;
	l->serial = 0;
	l->plen = 0;
	l->dirfd = -1;
	return l;
}

void fs_local_free(struct fs_local *l)
{
	if (!l)
		return;
	if (l->dirfd >= 0)
		close(l->dirfd);
	free(l);
}

static bool wants_existing(enum fs_pick kind)
{
	return kind == FS_FILE_EXISTING || kind == FS_LEAF_EXISTING;
}

/* Take entry e if nobody holds it and it is in the wanted state. */
static inline __attribute__((always_inline)) bool
claim(struct fs_kind *k, uint64_t e, bool want)
{
	uint64_t m = fs_bit(k, e), w = fs_word(k, e);

	/* fetch_or is the compare-exchange that cannot fail spuriously */
	if (atomic_fetch_or(&k->busy[w], m) & m)
		return false;
	if (!!(atomic_load(&k->exists[w]) & m) == want)
		return true;
	atomic_fetch_and(&k->busy[w], ~m);
	return false;
}

/*
 * The first entry of [p, end) that can be claimed, in order, a word at a
 * time: up to 64 entries, never past the end of a block (its line).
 */
static bool scan_range(struct fs_kind *k, bool want, uint64_t p, uint64_t end,
		       uint64_t *out)
{
	while (p < end) {
		uint64_t w = fs_word(k, p), b = p & (k->block - 1) & 63;
		uint64_t span = 64 - b, left = ((p | (k->block - 1)) + 1) - p;
		uint64_t mask;

		if (span > left)
			span = left;
		if (span > end - p)
			span = end - p;
		mask = (span == 64 ? ~0ULL : (1ULL << span) - 1) << b;
		for (;;) {
			uint64_t ex = atomic_load(&k->exists[w]);
			uint64_t c = (want ? ex : ~ex) & mask &
				     ~atomic_load(&k->busy[w]);
			uint64_t e;

			if (!c)
				break;
			e = p + ((uint64_t)__builtin_ctzll(c) - b);
			if (claim(k, e, want)) {
				*out = e;
				return true;
			}
			mask &= ~fs_bit(k, e);
		}
		p += span;
	}
	return false;
}

/* One pass over every entry from p, wrapping; each is tried once. */
static bool scan(struct fs_kind *k, bool want, uint64_t p, uint64_t *out)
{
	return scan_range(k, want, p, k->n, out) || scan_range(k, want, 0, p, out);
}

/* The shared round robin, a block at a time (see the top). */
static __attribute__((noinline)) bool
pick_shared(struct fs_kind *k, bool want, struct fs_window *win, uint64_t *out)
{
	/*
	 * The rest of this block, then fresh ones up to a whole turn, so
	 * that a thread alone that finds nothing ends where it began.
	 */
	for (uint64_t i = 0; i < k->nblocks; i++) {
		if (win->pos >= win->end) {
			uint64_t b = atomic_fetch_add_explicit(
					     &k->rotor, 1, memory_order_relaxed) %
				     k->nblocks;

			win->pos = b * k->block;
			win->end = win->pos + k->block < k->n ?
					   win->pos + k->block :
					   k->n;
		}
		if (scan_range(k, want, win->pos, win->end, out)) {
			win->pos = *out + 1;
			return true;
		}
		win->pos = win->end;
	}
	/*
	 * Other threads took blocks meanwhile, so that turn may have missed
	 * some: -1 only once every entry was looked at.
	 */
	return scan(k, want, win->end % k->n, out);
}

int64_t fileset_pick(struct fileset *fs, enum fs_pick kind, struct fs_local *l,
		     bool own)
{
	struct fs_kind *k = fs_kind_of(fs, kind);
	bool want = wants_existing(kind);
	uint64_t p, e;

	if (k->n == 0)
		return -1;
	if (!own) {
		struct fs_window *win = &l->win[k == &fs->leaves];

		/*
		 * Every op comes here: first the next position of the block,
		 * which is usually free and in the wanted state (a stat or an
		 * open of a fileset that is all there).
		 */
		p = win->pos;
		if (p < win->end && fs_test(k, k->exists, p) == want &&
		    claim(k, p, want)) {
			win->pos = p + 1;
			return (int64_t)p;
		}
		return pick_shared(k, want, win, &e) ? (int64_t)e : -1;
	}
	p = l->own % k->n;
	if (!scan(k, want, p, &e))
		return -1;
	l->own += (e + k->n - p) % k->n + 1;
	return (int64_t)e;
}

int64_t fileset_pick_at(struct fileset *fs, enum fs_pick kind, int64_t index)
{
	struct fs_kind *k = fs_kind_of(fs, kind);
	bool want = wants_existing(kind);
	uint64_t p, e;

	if (k->n == 0 || index < 0)
		return -1;
	p = (uint64_t)index % k->n;
	if (claim(k, p, want))
		return (int64_t)p;
	/* taken or in the other state: the nearest one after it */
	return scan(k, want, p, &e) ? (int64_t)e : -1;
}

void fileset_unbusy(struct fileset *fs, enum fs_pick kind, int64_t e,
		    bool exists)
{
	struct fs_kind *k = fs_kind_of(fs, kind);
	uint64_t m, w;

	if (e < 0 || (uint64_t)e >= k->n)
		return;
	m = fs_bit(k, (uint64_t)e);
	w = fs_word(k, (uint64_t)e);
	/*
	 * Only the claimer changes e's bits while it is busy, so a bit that
	 * is already right needs no write: stat and open, the usual case,
	 * then leave the shared word alone instead of bouncing its line.
	 */
	if (exists && !(atomic_load(&k->exists[w]) & m))
		atomic_fetch_or(&k->exists[w], m);
	else if (!exists && (atomic_load(&k->exists[w]) & m))
		atomic_fetch_and(&k->exists[w], ~m);
	atomic_fetch_and(&k->busy[w], ~m); /* release: exists first */
}

uint64_t fileset_block(const struct fileset *fs, enum fs_pick kind)
{
	return fs_kind_of((struct fileset *)fs, kind)->block;
}

int64_t fileset_pick_dir(struct fileset *fs, struct fs_local *l, bool own)
{
	uint64_t r = own ? l->own_dir++ : atomic_fetch_add(&fs->dir_rotor, 1);

	return (int64_t)(r % fs->ndirs);
}
