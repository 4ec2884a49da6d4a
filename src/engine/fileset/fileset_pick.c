/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
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
 *
 * Where the wanted state is rare (a few files among millions of entries,
 * or a few free among millions existing), the blocks without any are
 * skipped by their summaries (fileset_summary.c): a pick that needs a
 * fresh block takes the next one after the rotor that may hold one and
 * moves the rotor past it, as if it had taken and passed over each block
 * between.  A pick costs the same in a fileset of a thousand entries and
 * of a hundred million, however few of them are in the wanted state.
 *
 * A pick that finds nothing while some entry is busy waits for entries to
 * be given back (a futex; fileset_pick_wait) instead of trying again at
 * once: a thread with nothing to do sleeps.  Giving an entry back costs
 * one more load of a line nobody writes unless a thread waits.
 */
#include "engine/fileset/fileset_int.h"

#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine/sys/timeline.h"

/*
 * A blocked pick looks again after WAIT_MIN_NS, then twice as long each
 * time up to WAIT_MAX_NS, even when nothing wakes it (an entry given back
 * in the other state wakes no one, but may leave nothing busy), and it
 * looks at the stop flag that often.
 */
#define WAIT_MIN_NS 1000000u
#define WAIT_MAX_NS 100000000u

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

/*
 * Take entry e if nobody holds it and it is in the wanted state.  Its
 * block holds a busy entry then; one let go at once is given back in the
 * other state (the summaries: see fileset_summary.c).
 */
static inline __attribute__((always_inline)) bool
claim(struct fs_kind *k, uint64_t e, bool want)
{
	uint64_t m = fs_bit(k, e), w = fs_word(k, e);

	/* fetch_or is the compare-exchange that cannot fail spuriously */
	if (atomic_fetch_or(&k->busy[w], m) & m)
		return false;
	if (!!(atomic_load(&k->exists[w]) & m) == want) {
		fs_sum_mark(k, FS_SUM_BUSY, e >> k->shift);
		return true;
	}
	atomic_fetch_and(&k->busy[w], ~m);
	fs_sum_mark(k, !want, e >> k->shift);
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

/* The first entry of block b that can be claimed; none: its bit goes. */
static bool pick_block(struct fs_kind *k, bool want, uint64_t b, uint64_t *out)
{
	if (scan_range(k, want, b << k->shift, fs_block_end(k, b), out))
		return true;
	fs_sum_clear(k, want, b);
	return false;
}

/* The same in the blocks of [lo, hi) that may hold one, in order. */
static bool pick_blocks(struct fs_kind *k, bool want, uint64_t lo, uint64_t hi,
			uint64_t *out)
{
	for (uint64_t b = lo; (b = fs_sum_next(k, want, b, hi)) != FS_NONE; b++)
		if (pick_block(k, want, b, out))
			return true;
	return false;
}

/*
 * One pass over every entry from p, wrapping; each is tried once, but
 * for the blocks the summary says hold none.
 */
static bool scan(struct fs_kind *k, bool want, uint64_t p, uint64_t *out)
{
	uint64_t b = p >> k->shift;

	if (scan_range(k, want, p, fs_block_end(k, b), out) ||
	    pick_blocks(k, want, b + 1, k->nblocks, out) ||
	    pick_blocks(k, want, 0, b, out) ||
	    scan_range(k, want, b << k->shift, p, out))
		return true;
	fs_sum_clear(k, want, b); /* looked at whole, in two parts */
	return false;
}

/*
 * A fresh block from the rotor: the next one from it that may hold an
 * entry in the wanted state, the rotor moved past it (the blocks between
 * are passed over as if taken).  Its number, and the blocks the rotor
 * moved in *moved; FS_NONE if none may hold one.
 */
static uint64_t take_block(struct fs_kind *k, bool want, uint64_t *moved)
{
	uint64_t r = atomic_load_explicit(&k->rotor, memory_order_relaxed);

	for (;;) {
		uint64_t b = r % k->nblocks, nb;

		nb = fs_sum_next(k, want, b, k->nblocks);
		if (nb == FS_NONE)
			nb = fs_sum_next(k, want, 0, b);
		if (nb == FS_NONE)
			return FS_NONE;
		*moved = (nb + k->nblocks - b) % k->nblocks + 1;
		/* one atomic a block, as a plain add was */
		if (atomic_compare_exchange_weak_explicit(
			    &k->rotor, &r, r + *moved, memory_order_relaxed,
			    memory_order_relaxed))
			return nb;
	}
}

/* The shared round robin, a block at a time (see the top). */
static __attribute__((noinline)) bool
pick_shared(struct fs_kind *k, bool want, struct fs_window *win, uint64_t *out)
{
	uint64_t passed = 0, b, moved;

	if (win->pos < win->end &&
	    scan_range(k, want, win->pos, win->end, out)) {
		win->pos = *out + 1;
		return true;
	}
	/*
	 * Then fresh blocks up to a whole turn, so that a thread alone that
	 * finds nothing ends where it began.
	 */
	while (passed < k->nblocks) {
		if ((b = take_block(k, want, &moved)) == FS_NONE) {
			win->pos = win->end;
			return false;
		}
		passed += moved;
		win->pos = b << k->shift;
		win->end = fs_block_end(k, b);
		if (pick_block(k, want, b, out)) {
			win->pos = *out + 1;
			return true;
		}
		win->pos = win->end;
	}
	/*
	 * Other threads took blocks meanwhile, so that turn may have missed
	 * some: -1 only once every block that may hold one was looked at.
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

/* An entry was given back while threads wait: all of them look again. */
static __attribute__((noinline, cold)) void wake(struct fs_kind *k)
{
	atomic_fetch_add(&k->seq, 1);
	syscall(SYS_futex, (uint32_t *)&k->seq, FUTEX_WAKE_PRIVATE, INT_MAX,
		NULL, NULL, 0);
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
	fs_sum_mark(k, exists, (uint64_t)e >> k->shift);
	/*
	 * After the release, in the one order of seq_cst operations: a
	 * waiter that registered before it is counted here; one that
	 * registers after it sees the entry given back when it looks.
	 */
	if (__builtin_expect(atomic_load(&k->waiters[exists]) != 0, 0))
		wake(k);
}

/*
 * Foreign entries are held busy for good: every pick already skips a
 * busy entry, so the partition costs the picks nothing (in_flux, the
 * slow path, tells them apart from held ones).
 */
static int partition(struct fs_kind *k, unsigned rank, unsigned nranks)
{
	free(k->foreign);
	k->foreign = calloc(k->nwords ? k->nwords : 1, sizeof(*k->foreign));
	if (!k->foreign)
		return -1;
	for (uint64_t e = 0; e < k->n; e++)
		if (e % nranks != rank)
			k->foreign[fs_word(k, e)] |= fs_bit(k, e);
	for (uint64_t w = 0; w < k->nwords; w++)
		atomic_store(&k->busy[w], k->foreign[w]);
	fs_sum_rebuild(k);
	return 0;
}

int fileset_partition(struct fileset *fs, unsigned rank, unsigned nranks)
{
	if (nranks < 2)
		return 0;
	return partition(&fs->files, rank, nranks) ||
			       partition(&fs->leaves, rank, nranks) ?
		       -1 :
		       0;
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

/* What a waiting thread tries: a pick, or one entry (exact). */
struct attempt {
	struct fileset *fs;
	enum fs_pick kind;
	struct fs_local *l;
	bool own, exact;
	int64_t at;
};

static int64_t attempt(const struct attempt *a)
{
	struct fs_kind *k = fs_kind_of(a->fs, a->kind);

	if (a->exact)
		return claim(k, (uint64_t)a->at, wants_existing(a->kind)) ?
			       a->at :
			       -1;
	return a->at >= 0 ? fileset_pick_at(a->fs, a->kind, a->at) :
			    fileset_pick(a->fs, a->kind, a->l, a->own);
}

/* The bits of word w of k's bitmaps that stand for entries (see fs_word). */
static uint64_t word_entries(const struct fs_kind *k, uint64_t w)
{
	uint64_t off = (w % 8) * 64, first = (w / 8) * k->block + off, bits;

	if (off >= k->block || first >= k->n)
		return 0;
	bits = k->block - off < 64 ? k->block - off : 64;
	if (bits > k->n - first)
		bits = k->n - first;
	return bits == 64 ? ~0ULL : (1ULL << bits) - 1;
}

enum flux { SETTLED, BUSY, FREE };

/*
 * What in_flux says from the bitmaps themselves, every word read: exact,
 * but as long as the fileset is large.  busy is read before exists: a
 * release writes exists before it clears busy, so an entry seen not busy
 * is seen in the state it was given back in.  The block of what it
 * finds is marked in its summary (it may be one the summary missed for
 * a moment): the next attempt goes there.
 */
static enum flux look_all(struct fs_kind *k, bool want)
{
	for (uint64_t w = 0; w < k->nwords; w++) {
		uint64_t mine = k->foreign ? ~k->foreign[w] : ~0ULL;
		uint64_t busy = atomic_load(&k->busy[w]) & mine;
		uint64_t ex = atomic_load(&k->exists[w]);

		if (busy) {
			fs_sum_mark(k, FS_SUM_BUSY, w / 8);
			return BUSY;
		}
		/* ~ex has the padding bits set: only entries count */
		if ((want ? ex : ~ex) & word_entries(k, w) & mine) {
			fs_sum_mark(k, want, w / 8);
			return FREE;
		}
	}
	return SETTLED;
}

/*
 * What the attempt could still get: BUSY, another thread holds it;
 * FREE, it is there for the taking (given back since the attempt
 * looked); SETTLED, neither.  The summaries answer the first two at
 * once: the attempt that failed cleared the bits of the blocks it found
 * without one in the wanted state, so a bit still set is one given back
 * since; busy blocks are looked at as they come.  Only when they show
 * neither are the bitmaps read whole (look_all): a bit may be clear for
 * a moment while an entry is given back, and "nothing at all" ends the
 * thread's work, once.
 */
static enum flux in_flux(struct fs_kind *k, const struct attempt *a)
{
	bool want = wants_existing(a->kind);

	if (a->exact) {
		uint64_t w = fs_word(k, (uint64_t)a->at);
		uint64_t m = fs_bit(k, (uint64_t)a->at);

		if (k->foreign && (k->foreign[w] & m))
			return SETTLED;
		if (atomic_load(&k->busy[w]) & m)
			return BUSY;
		return !!(atomic_load(&k->exists[w]) & m) == want ? FREE :
								   SETTLED;
	}
	if (fs_sum_next(k, want, 0, k->nblocks) != FS_NONE)
		return FREE;
	for (uint64_t b = 0;
	     (b = fs_sum_next(k, FS_SUM_BUSY, b, k->nblocks)) != FS_NONE; b++)
		if (fs_block_has(k, FS_SUM_BUSY, b) ||
		    fs_sum_clear(k, FS_SUM_BUSY, b))
			return BUSY;
	return look_all(k, want);
}

/*
 * Register as waiting, then loop: note seq, attempt, and block on seq
 * unless something was given back since it was noted.  Every release
 * after the registration bumps seq (fileset_unbusy), and every one before
 * it is seen by the attempt, so no wakeup is lost.  A release clears the
 * busy bit before it bumps seq, so "nothing busy, seq unchanged" alone
 * would also hold while one is between the two, its entry free: the look
 * that finds nothing busy also looks for entries in the wanted state, and
 * only "nothing busy, nothing in the wanted state, seq unchanged" means
 * nothing to pick at that moment.  That keeps a release as cheap as it
 * was (no count of releases under way for every op to write).  Only a
 * release in the wanted state wakes a waiter, so threads busy with
 * entries in the other state (stat, while a create waits) cause no storm
 * of wakeups.  exact waits for a release in either state: the entry may
 * be given back deleted.
 */
static int64_t wait_for(struct fs_kind *k, const struct attempt *a,
			const atomic_bool *stop, struct fs_waits *w)
{
	bool want = wants_existing(a->kind);
	uint64_t t0 = 0, nap = WAIT_MIN_NS;
	int64_t e;

	atomic_fetch_add(&k->waiters[want], 1);
	if (a->exact)
		atomic_fetch_add(&k->waiters[!want], 1);
	for (;;) {
		uint32_t seq = atomic_load(&k->seq);
		struct timespec ts = { 0, (long)nap };
		enum flux f;

		e = attempt(a);
		if (e >= 0)
			break;
		f = in_flux(k, a);
		if (f == FREE)
			continue;
		if (f == SETTLED) {
			if (atomic_load(&k->seq) == seq)
				break;
			continue;
		}
		if (!t0)
			t0 = now_ns();
		syscall(SYS_futex, (uint32_t *)&k->seq, FUTEX_WAIT_PRIVATE, seq,
			&ts, NULL, 0);
		w->n++;
		if (timeline_flag_set(stop))
			break;
		nap = nap * 2 < WAIT_MAX_NS ? nap * 2 : WAIT_MAX_NS;
	}
	if (a->exact)
		atomic_fetch_sub(&k->waiters[!want], 1);
	atomic_fetch_sub(&k->waiters[want], 1);
	if (t0)
		w->ns += now_ns() - t0;
	return e;
}

int64_t fileset_pick_wait(struct fileset *fs, enum fs_pick kind,
			  struct fs_local *l, bool own, int64_t at,
			  const atomic_bool *stop, struct fs_waits *w)
{
	struct attempt a = { fs, kind, l, own, false, at };
	int64_t e = attempt(&a);

	if (e >= 0 || fs_kind_of(fs, kind)->n == 0)
		return e;
	return wait_for(fs_kind_of(fs, kind), &a, stop, w);
}

int64_t fileset_claim_wait(struct fileset *fs, enum fs_pick kind, int64_t e,
			   const atomic_bool *stop, struct fs_waits *w)
{
	struct fs_kind *k = fs_kind_of(fs, kind);
	struct attempt a = { fs, kind, NULL, false, true, e };

	if (e < 0 || (uint64_t)e >= k->n)
		return -1;
	return claim(k, (uint64_t)e, wants_existing(kind)) ?
		       e :
		       wait_for(k, &a, stop, w);
}

/* prealloc percent of n, rounded down, without overflow */
uint64_t fs_nchosen(const struct fileset *fs, uint64_t n)
{
	uint64_t pct = (uint64_t)fs->prealloc;

	return n / 100 * pct + n % 100 * pct / 100;
}

void fs_choose(struct fileset *fs, struct fs_kind *k, uint64_t stream)
{
	uint64_t want = fs_nchosen(fs, k->n);
	struct rv_rng rng;

	rv_rng_seed(&rng, fs->seed ^ (stream * 0x9e3779b97f4a7c15ULL));
	for (uint64_t w = 0; w < k->nwords; w++) {
		atomic_store(&k->exists[w], 0);
		atomic_store(&k->busy[w], k->foreign ? k->foreign[w] : 0);
	}
	/* selection sampling (Knuth's algorithm S): one pass, no memory */
	for (uint64_t i = 0; i < k->n && want > 0; i++) {
		if (want < k->n - i && rv_below(&rng, k->n - i) >= want)
			continue;
		atomic_fetch_or(&k->exists[fs_word(k, i)], fs_bit(k, i));
		want--;
	}
	fs_sum_rebuild(k);
}
