/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Inside a fileset: shared by the fileset*.c files only, fileset_layout.c
 * (the tree in memory), fileset.c (paths, opening), fileset_pick.c
 * (picking), fileset_summary.c (which blocks hold what, for the picks),
 * fileset_sweep.c (removing the files in parallel), fileset_root.c and fileset_mkroot.c (the root and its
 * marker), fileset_space.c (will it fit), fileset_create.c (making the
 * tree), fileset_replay.c (the replays' trees in it) and fileset_remove.c
 * (removing it).
 */
#ifndef FBRUN_FILESET_INT_H
#define FBRUN_FILESET_INT_H

#include <limits.h>
#include <stdatomic.h>
#include <sys/stat.h>

#include "engine/fileset/fileset.h"

#define NO_DIR UINT32_MAX /* parent of the root */

/* Entries a thread takes at a time from a shared rotor: at most 2^9, one
 * 64-byte line of bitmap. */
#define FS_BLOCK_SHIFT 9

struct fs_ent {
	uint32_t parent; /* index in dirs */
	uint32_t serial; /* 1-based name in the parent */
};

/*
 * What a summary (fs_sum) marks: blocks that may hold an entry free to
 * pick absent, free to pick existing, or held busy (by this process: not
 * a foreign one).  The first two are a pick's wanted state (0, 1).
 */
enum { FS_SUM_ABSENT, FS_SUM_EXISTING, FS_SUM_BUSY, FS_NSUMS };

/* levels of a summary: 64^8 blocks, beyond any fileset that fits memory */
#define FS_SUM_LEVELS 8
#define FS_NONE UINT64_MAX

/*
 * Which blocks may hold an entry of one sort, so that a pick goes
 * straight to one instead of looking at every block: level 0 has a bit
 * per block, each level above a bit per word of the one below (set: that
 * word may have a bit set), up to a top of one word.  A bit may be set for
 * a block that holds none (a pick took the last one; it is cleared by the
 * next look that finds the block without any), but once every pick and
 * release under way is done, a block that holds one has its bit set, and
 * so do the bits above it (fileset_summary.c says why).
 */
struct fs_sum {
	_Atomic uint64_t *lvl[FS_SUM_LEVELS];
	uint64_t nbits[FS_SUM_LEVELS];
	unsigned nlevels;
};

/*
 * Files or leaf directories: what a pick chooses from.  The bitmaps give
 * each block a 64-byte line of its own (the first `block` bits of it), so
 * threads working in neighbouring blocks never write the same line; with
 * the largest block that is a plain bitmap.  The rotor has a line of its
 * own too: every thread reads the fields before it on every pick, and
 * writes the rotor once a block.  The wait counts have a line of their
 * own as well.
 */
struct fs_kind {
	struct fs_ent *ent;
	uint64_t n;
	uint64_t block, nblocks; /* shared round robin: n in blocks of block */
	unsigned shift; /* block == 1 << shift */
	uint64_t nwords; /* of each bitmap: 8 per block */
	_Atomic uint64_t *exists, *busy; /* bitmaps, 64-byte aligned */
	/*
	 * Entries another process of the job owns (fileset_partition): set
	 * in busy for good, so no pick claims them; NULL when all are ours.
	 */
	uint64_t *foreign;
	struct fs_sum sum[FS_NSUMS];
	_Alignas(64) _Atomic uint64_t rotor; /* blocks handed out, never wraps */
	/*
	 * Threads blocked in fileset_pick_wait, by the state they want (0
	 * absent, 1 existing), and entries given back while some waited (a
	 * futex word).  Every release reads a count; only waiting writes.
	 */
	_Alignas(64) _Atomic uint32_t waiters[2];
	_Atomic uint32_t seq;
};

/* Entry e's word in a bitmap of k, and its bit there. */
static inline uint64_t fs_word(const struct fs_kind *k, uint64_t e)
{
	return (e >> k->shift) * 8 + (e & (k->block - 1)) / 64;
}

static inline uint64_t fs_bit(const struct fs_kind *k, uint64_t e)
{
	return 1ULL << (e & (k->block - 1) & 63);
}

static inline bool fs_test(const struct fs_kind *k, _Atomic uint64_t *map,
			   uint64_t e)
{
	return atomic_load_explicit(&map[fs_word(k, e)], memory_order_relaxed) &
	       fs_bit(k, e);
}

/* The end of block b: the next one's first entry, or n for the last. */
static inline uint64_t fs_block_end(const struct fs_kind *k, uint64_t b)
{
	uint64_t end = (b + 1) << k->shift;

	return end < k->n ? end : k->n;
}

/*
 * fileset_summary.c.  Whether block b of k holds an entry of sort s now,
 * from the bitmaps.
 */
bool fs_block_has(const struct fs_kind *k, unsigned s, uint64_t b);
/* k's summaries, for its blocks: 0, or -1 out of memory. */
int fs_sum_alloc(struct fs_kind *k);
void fs_sum_free(struct fs_kind *k);
/* Every summary of k anew from the bitmaps, while no thread picks. */
void fs_sum_rebuild(struct fs_kind *k);
/* Bit i of level lv of summary s, and those above it, set. */
void fs_sum_set(struct fs_kind *k, unsigned s, unsigned lv, uint64_t i);
/*
 * Block b may have come to hold an entry of sort s (given back in that
 * state, or claimed): its bit set if it is not.  One load when it is, the
 * usual case, so the picks' hot path writes no summary.
 */
static inline void fs_sum_mark(struct fs_kind *k, unsigned s, uint64_t b)
{
	if (!(atomic_load(&k->sum[s].lvl[0][b / 64]) & (1ULL << (b % 64))))
		fs_sum_set(k, s, 0, b);
}
/*
 * Block b was found without an entry of sort s: its bit cleared, unless
 * one came meanwhile (then it stays, and true).
 */
bool fs_sum_clear(struct fs_kind *k, unsigned s, uint64_t b);
/*
 * The first block of [lo, hi) whose bit in summary s is set, or FS_NONE;
 * bits above found stale on the way are cleared.
 */
uint64_t fs_sum_next(struct fs_kind *k, unsigned s, uint64_t lo, uint64_t hi);

/* What a thread has left of the block it took: positions [pos, end). */
struct fs_window {
	uint64_t pos, end;
};

/* See fileset.h; the path part is fileset.c's, the rest fileset_pick.c's. */
struct fs_local {
	struct fs_window win[2]; /* files, leaf directories */
	uint64_t own, own_dir; /* opennext rotors */
	uint32_t pdir; /* directory whose path starts path[], NO_DIR: none */
	uint32_t fdir; /* directory dirfd is open on, NO_DIR: none */
	uint32_t serial; /* of the name after pdir's path, 0: none */
	size_t plen; /* length of pdir's path, 0 for the root */
	int dirfd;
	char path[PATH_MAX];
};

/* ROOT_ATTACHED: another process's tree, used here, never removed here */
enum root_state { ROOT_UNTOUCHED, ROOT_REFUSED, ROOT_OURS, ROOT_ATTACHED };

struct fileset {
	char *name, *path, *root;
	int64_t prealloc;
	bool paralloc, reuse, trusttree;
	struct datapat data; /* what preallocation writes */
	bool verify; /* preallocation writes verify's blocks instead */
	/*
	 * verify across runs: the marker says the tree is whole, laid out
	 * as whole_hash says (fileset_verify.c); this run says so once it
	 * is, unless its flowops may delete the fileset's files
	 * (!keeps_whole).  vfiles: what the run knows of the files beyond
	 * their blocks.
	 */
	bool whole, keeps_whole;
	uint64_t whole_hash;
	struct vfy_files *vfiles;
	uint64_t seed;
	struct fs_ent *dirs; /* dirs[0] is the root; preorder */
	uint64_t ndirs, dircap;
	struct fs_kind files, leaves;
	uint64_t *sizes; /* per file, only when sizes vary */
	uint64_t size; /* otherwise */
	uint64_t depth_sum; /* path components of all files and leaf dirs */
	double nominal_width, nominal_depth; /* fileset_nominal_width */
	int rootfd; /* the root, open and flock'ed while the tree is ours */
	enum root_state state;
	bool reused; /* take_root kept an existing tree of ours (reuse) */
	bool root_made; /* create made the root directory itself */
	bool adopted; /* as the marker says: kept when it is rewritten */
	bool createnext; /* createnext's names are fbrun's in this tree */
	/* the replays whose trees (replay-ID-M) are fbrun's too: their ids */
	unsigned *replay;
	size_t nreplay;
	/* what replays will make in the root (fileset_add_extra) */
	struct fs_extra {
		char *who;
		int64_t *sizes;
		size_t n;
		uint64_t ndirs, copies;
	} *extra;
	size_t nextra;
	bool links; /* linkfile gives files more names (fileset_set_uses) */
	bool symlinks; /* symlinkfile makes symlinks in the tree */
	bool blocking; /* entries' fds lose O_NONBLOCK once checked (aio) */
	bool look_first; /* a trusted tree: look at an entry before opening */
	/*
	 * Directories of path that create made (or an earlier run did, as
	 * the marker says), outer first; removal takes them off the end.
	 */
	char **made;
	size_t nmade;
	/*
	 * A block device (blockdev.h): its node, its last component (the one
	 * file's name beneath rootfd, an O_PATH of its directory), whether
	 * the run may write it (and write it whatever it holds: force), and
	 * the descriptor opened and checked when the run took it (the O_EXCL
	 * claim), which every open reopens, and its device number.
	 */
	char *dev;
	const char *devname;
	bool dev_writable, dev_force, dev_size_set, dev_exclusive;
	int devfd;
	dev_t dev_rdev;
	/* written during the run (listdir) and preallocation: lines apart */
	_Alignas(64) _Atomic uint64_t dir_rotor;
	_Alignas(64) _Atomic uint64_t bytes;
	_Atomic uint64_t done; /* entries made or removed, for progress */
};

static inline struct fs_kind *fs_kind_of(struct fileset *fs,
					 enum fs_pick kind)
{
	return kind == FS_FILE_EXISTING || kind == FS_FILE_ABSENT ?
		       &fs->files :
		       &fs->leaves;
}

/* Entries of k that exist now. */
static inline uint64_t fs_nexisting(const struct fs_kind *k)
{
	uint64_t n = 0;

	for (uint64_t w = 0; w < k->nwords; w++)
		n += (uint64_t)__builtin_popcountll(atomic_load_explicit(
			&k->exists[w], memory_order_relaxed));
	return n;
}

/*
 * Mark exactly prealloc percent of k existing, chosen uniformly from the
 * fileset's seed and stream: the same ones at every call (fileset_pick.c).
 */
void fs_choose(struct fileset *fs, struct fs_kind *k, uint64_t stream);
/*
 * The directory holding rel's last component (*last), reached one
 * component at a time with O_NOFOLLOW and never through "..", made on
 * the way with mk; it may be dirfd itself (fileset.c).
 */
int fs_walk_parent(int dirfd, const char *rel, bool mk, const char **last);
/* prealloc percent of n, rounded down, without overflow. */
uint64_t fs_nchosen(const struct fileset *fs, uint64_t n);

/* Characters of a name: "%08d" of the serial. */
static inline size_t fs_serial_width(uint64_t v)
{
	size_t n = 1;

	if (v < 100000000u) /* the common case, on every op's path: no loop */
		return 8;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n < 8 ? 8 : n;
}

void fs_set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* fileset_root.c: "cannot VERB 'a/b': strerror(errno)" into err; -1. */
int fs_fail_errno(char *err, size_t errlen, const char *verb, const char *a,
		  const char *b);
/*
 * fileset_mkroot.c: the root does not exist; make it and the missing
 * directories of its path (recorded in made), whole, marked and locked.
 * Returns the root's locked descriptor; -1 with err set; or -1 and errno
 * EEXIST, err unset, when something appeared meanwhile (look again).
 */
int fs_create_root(struct fileset *fs, char *err, size_t errlen);
/*
 * Make the root ours: make it (and the missing directories of its path,
 * recorded in made) whole, or lock it and keep, empty or adopt it; rootfd is
 * the locked descriptor, kept until removal.  -2: not ours to use (state
 * ROOT_REFUSED), err says why.
 */
int fs_take_root(struct fileset *fs, char *err, size_t errlen);

/* What a marker says (see fileset_root.c for the format). */
#define MARKER_ADOPTED "adopted"
/* written as MARKER_NEW.<run id>, then renamed */
#define MARKER_NEW FILESET_MARKER ".new"

struct marker {
	char *name; /* the fileset */
	bool adopted; /* the root was an empty directory fbrun did not make */
	bool createnext; /* createnext's names may be in the tree */
	/* verify: the preallocated files are as fbrun left them, laid out
	   as whole_hash says */
	bool whole;
	uint64_t whole_hash;
	char *run; /* "ID pid N host H started T", or NULL (older marker) */
	long pid; /* from run, 0 if none */
	char *made; /* outermost directory made for it, absolute, or NULL */
	unsigned *replay; /* the replays whose trees may be in it: ids */
	size_t nreplay;
};

/*
 * 1 and m filled, 0 no marker (ENOENT), -1 unreadable (EMFILE, EIO: never
 * taken for "no marker"), -2 something not ours bears its name (not a
 * regular file, not a marker's text); err set for -1 and -2.
 */
int fs_marker_read(struct fileset *fs, int dfd, struct marker *m, char *err,
		   size_t errlen);
void fs_marker_free(struct marker *m);
/* Write this run's marker into the root dfd, atomically (rename). */
int fs_marker_write(struct fileset *fs, int dfd, bool adopted, char *err,
		    size_t errlen);
/*
 * Whether name in dfd is a marker a run was writing when it was killed
 * (MARKER_NEW, then a run's id): a regular file of one name, else not
 * ours.
 */
bool fs_marker_debris(int dfd, const char *name);

/* Whether name, in the root, is a tree of one of fs's replays. */
bool fs_replay_tree(const struct fileset *fs, const char *name);
/* The marker's line of fs's replays, "replay: ID ...\n", or "" (malloc'ed). */
char *fs_replay_line(const struct fileset *fs);
/* The ids after "replay:" into m; false if they are not a list of them. */
bool fs_replay_parse(const char *ids, struct marker *m);
/* The replays m lists are fs's too: their trees are fbrun's. */
void fs_replay_inherit(struct fileset *fs, const struct marker *m);
/* This run's random id, 16 hex digits, as the marker gives it. */
const char *fs_marker_run_id(void);
/* fileset_remove.c: 1 if the directory holds nothing, 0 if it does, -1 on error. */
int fs_dir_is_empty(int dfd);
/* Empty a root of ours (before a run), all but the marker. */
int fs_empty_root(struct fileset *fs, int dfd, char *err, size_t errlen);
/*
 * Whether the tree under dfd holds names fbrun does not make (a dry walk,
 * nothing removed): 0 no, -2 yes (err names the first), -1 on error.
 */
int fs_check_foreign(struct fileset *fs, int dfd, char *err, size_t errlen);

/*
 * fileset_device.c: take the block device for the run: open it once
 * (claimed O_EXCL unless a job shares it; read-write only when it may be
 * written), check it on that descriptor (a block device, not mounted nor
 * in use, and when written without force nothing libblkid finds on it),
 * its size, the one file existing: 0, -1 with err, or -2 (ROOT_REFUSED)
 * when it is refused.
 */
int fs_device_take(struct fileset *fs, char *err, size_t errlen);
/*
 * Open the device fs took for flags (each flowop's own: access, O_DIRECT,
 * O_SYNC): a reopen of the checked descriptor through /proc/thread-self/fd,
 * never its name, the device number compared.  The descriptor, or -1
 * with errno (ESTALE: not the device checked, or no /proc to reopen it).
 */
int fs_device_open(struct fileset *fs, int flags);

/*
 * Whether st, found at an entry's name, may be used as a file of ours:
 * 0, or -1 with errno EPERM (not a regular file) or EMLINK (more names
 * than fbrun gave it) and the reason kept for fileset_refusal.
 */
int fs_refuse(const struct fileset *fs, const struct stat *st);
/* "a block device", "a FIFO", ...: what mode m is, for messages. */
const char *fs_mode_name(mode_t m);

/*
 * fileset_verify.c: a kept tree of a fileset with verify, checked before
 * use.  Whole (its marker says so): every preallocated file there, at
 * least its size, verify's blocks below it; 0, or -1 with each loss said
 * and err set.  Otherwise a file whose blocks are not verify's is cut,
 * for fill_file to write again; -1 with err if that fails.
 */
int fs_verify_kept(struct fileset *fs, unsigned workers, char *err,
		   size_t errlen);
/* With verify, what the run knows of the files made (vfiles), anew. */
void fs_verify_track(struct fileset *fs);
/*
 * Once the tree is made: what the run knows of its files (vfiles), and
 * the marker rewritten if whether it says the tree is whole changes.
 * 0, or -1 with err set.
 */
int fs_verify_ready(struct fileset *fs, char *err, size_t errlen);

/* openat beneath dirfd, following no symlink (see fileset_openat). */
int fs_open_beneath(int dirfd, const char *rel, int flags, mode_t mode);
/*
 * The same with openat2 alone, which crosses no mount either: -1 and
 * ENOSYS where the kernel or the build has none.
 */
int fs_open_strict(int dirfd, const char *rel, int flags);
/* fileset_names.c: whether name is one the layout gives (eight digits). */
bool fs_layout_name(const char *name);
/*
 * Whether fbrun makes name in the root (top) or below it: a layout serial,
 * createnext's names with createnext, a replay tree the marker lists.
 */
bool fs_name_ours(const struct fileset *fs, const char *name, bool top,
		  bool createnext);
/*
 * fileset_sweep.c: before the walk that removes the tree under rootfd,
 * the files the run knows exist unlinked by a thread per CPU (nothing
 * else, nothing reported: the walk does the rest).
 */
void fs_sweep(struct fileset *fs, int rootfd);

#endif
