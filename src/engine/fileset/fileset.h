/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Filesets at run time: the tree of directories and files of one
 * `define fileset`/`define file`, on disk and in memory, and the lock-free
 * bookkeeping of which entries exist and which a thread is working on.
 *
 * On disk the tree is <path>/<name>/ with directories and files named by
 * their 1-based serial in their parent, "%08d".  fbrun writes the marker
 * file FILESET_MARKER in every root it creates and only ever removes or
 * reuses a root that carries it (or an empty directory).  Every access
 * stays beneath the root: no symlink is followed out of it.
 *
 * Memory is 8 bytes per entry (16 with random sizes) plus 2 bits, and a
 * bit per block in each of three summaries (no fixed pools); the bits
 * come in a 64-byte line per block of the shared round robin, so blocks
 * smaller than 512 entries (many threads on few entries) cost up to 128
 * bytes each.
 */
#ifndef FBRUN_FILESET_H
#define FBRUN_FILESET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lang/ir.h"
#include "lang/rand.h"

#define FILESET_MARKER ".fbrun-fileset"

struct fileset;
struct fs_local;

/* What a pick looks for. */
enum fs_pick {
	FS_FILE_EXISTING, /* openfile, statfile, deletefile, I/O self-open */
	FS_FILE_ABSENT, /* createfile */
	FS_LEAF_EXISTING, /* removedir */
	FS_LEAF_ABSENT, /* makedir */
};

/*
 * The random numbers trees are laid out with: filebench's (drand48 from
 * the C library's initial state).  filebench draws them for all the
 * filesets of a script in one stream, the last defined fileset first.
 */
struct fs_stream {
	uint64_t x;
};
#define FS_STREAM_INIT { 0 }

/*
 * The stream of a run's seed (--seed): for 0, the default, drand48's
 * initial state, filebench's; another seed starts it elsewhere in the
 * generator's cycle of 2^48 numbers.
 */
static inline struct fs_stream fs_stream_of(uint64_t seed)
{
	return (struct fs_stream){ rv_mix64(seed) & ((1ULL << 48) - 1) };
}

/*
 * Lay out the tree of fileset `index` of w in memory (no I/O), as
 * filebench does (see fileset_layout.c): directory shape from
 * dirwidth/dirgamma/dirdepthrv drawn from stream, which moves on (NULL:
 * a stream of its own, from the start), per-file sizes (sampled once per
 * file if size is random), leaf directories.  seed seeds what filebench
 * does not draw from that stream (randvar widths, depths and sizes; which
 * files are preallocated).  Nothing exists yet.  Returns NULL with a
 * message in err on failure (e.g. out of memory).
 */
struct fileset *fileset_new(const struct workload *w, int index,
			    uint64_t seed, struct fs_stream *stream, char *err,
			    size_t errlen);
void fileset_free(struct fileset *fs);

const char *fileset_name(const struct fileset *fs);
/* <path>/<name> */
const char *fileset_root(const struct fileset *fs);
uint64_t fileset_nfiles(const struct fileset *fs);
uint64_t fileset_nleafdirs(const struct fileset *fs);
uint64_t fileset_ndirs(const struct fileset *fs);
/* Entries that exist now (files), for reports and tests. */
uint64_t fileset_nexisting(const struct fileset *fs);
/* Bytes of the files created so far by fileset_create. */
uint64_t fileset_prealloc_bytes(const struct fileset *fs);
/*
 * For a progress line: the entries (directories, leaf directories, files)
 * fileset_create makes and fileset_remove removes, and how many of them
 * the one going on now has done (fs is a struct fileset).
 */
uint64_t fileset_create_total(const struct fileset *fs);
uint64_t fileset_remove_total(const struct fileset *fs);
uint64_t fileset_done(const void *fs);
/* fileset_create made or adopted the tree, and it has not been removed. */
bool fileset_on_disk(const struct fileset *fs);
/*
 * The tree as laid out: entries (subdirectories, files, leaf directories)
 * per directory, and the mean depth of the files and leaf directories
 * (path components below the root: 2 for "00000001/00000007").
 */
double fileset_mean_width(const struct fileset *fs);
double fileset_mean_depth(const struct fileset *fs);
/*
 * What the layout aims for and filebench prints as "avg. dir. width" and
 * "avg. dir. depth": the integer part of the mean dirwidth, and
 * ln(entries + leafdirs) / ln(that) (0 where that is not a number).
 */
double fileset_nominal_width(const struct fileset *fs);
double fileset_nominal_depth(const struct fileset *fs);

/*
 * Make fs the block device dev (blockdev_of's path): its one file is the
 * device, never created, written before the run, truncated or removed;
 * opened read-only unless writable, and when writable refused if
 * libblkid finds anything on it, unless force; its size the device's
 * unless size_set asks for less (the part random offsets fall in).
 * Claimed for the run (O_EXCL) when exclusive; a job's ranks share it,
 * and several on one host cannot all claim it.
 */
void fileset_set_device(struct fileset *fs, const char *dev, bool writable,
			bool force, bool size_set, bool exclusive);
/* The block device fs is, or NULL. */
const char *fileset_device(const struct fileset *fs);

/* What preallocation writes (def's data= by default). */
void fileset_set_data(struct fileset *fs, struct datapat p);
/* Treat the fileset as if it said reuse (the runs of --repeat). */
void fileset_set_reuse(struct fileset *fs);
/*
 * Give this process (rank of nranks, fbrun-mpi) only the entries i with
 * i mod nranks == rank of a tree the ranks share: the others are never
 * picked here, so each entry's creates, deletes and exists-state are one
 * process's.  Before fileset_create or fileset_attach.  -1: out of memory.
 */
int fileset_partition(struct fileset *fs, unsigned rank, unsigned nranks);

/*
 * Create the tree on disk: check or write the marker, remove an old tree
 * of ours unless reuse, make every directory, create prealloc percent of
 * the files (chosen at random) with their size, and the leaf directories
 * in the same proportion.  With paralloc, up to `workers` threads write
 * files.  reuse keeps an existing tree of ours: files of the right size
 * are kept, longer ones truncated, shorter or missing ones rewritten
 * (trusttree: assumed right, not checked).  Returns 0, -1 with a
 * message in err naming the path and the errno text, or -2 if the root is
 * not fbrun's to use (a non-empty directory without the marker, a
 * symlink, a file): nothing was changed there.
 */
int fileset_create(struct fileset *fs, unsigned workers, char *err,
		   size_t errlen);

/*
 * Use the tree another process made and keeps (fbrun-mpi's rank 0, for a
 * shared fileset): its root must carry the marker naming this fileset;
 * the entries that exist are those its fileset_create made (the same
 * layout and seed).  Nothing is written; fileset_remove leaves it.
 * Returns 0, or -1 with a message in err.
 */
int fileset_attach(struct fileset *fs, char *err, size_t errlen);
/*
 * Whether preallocating the n filesets (laid out, not yet created; NULL
 * entries are skipped) fits: per file system, the files they will write
 * (in whole blocks, less what a tree of ours there already holds) against
 * its free space (statvfs f_bavail).  Returns 0, or -1 with a message in
 * err.  A file system that cannot tell is taken to have room.
 */
int fileset_check_space(struct fileset *const *fs, size_t n, char *err,
			size_t errlen);
/*
 * What a replay (who, its name) will make in fs's root before the run,
 * for fileset_check_space: copies of a tree of the n files of sizes
 * (copied) and ndirs directories (the tree's own included).  Its bytes
 * count as the preallocation's do, and its files and directories are
 * checked against the file system's free inodes.
 */
void fileset_add_extra(struct fileset *fs, const char *who,
		       const int64_t *sizes, size_t n, uint64_t ndirs,
		       uint64_t copies);

/*
 * Remove the tree: only if its root carries our marker naming this
 * fileset and is still the directory create took; only the names fbrun
 * makes (fileset_remove.c), never following a symlink, never crossing a
 * mount; then the directories of `path` that fileset_create made (or a
 * killed run made, as the marker said), while they are empty.  Returns
 * 0, or -1 with a message that says what was left.  Safe to call if
 * create failed midway.
 */
int fileset_remove(struct fileset *fs, char *err, size_t errlen);
/*
 * rmdir the made directories still there, innermost first, stopping at
 * one that is not empty (another fileset's tree): called again once
 * every fileset is removed, so the last one under a directory takes it.
 */
void fileset_remove_made(struct fileset *fs);
/* createnext's names are fbrun's in this fileset's tree (fileset_remove.c). */
void fileset_set_createnext(struct fileset *fs, bool on);
/* What the run's flowops do with a fileset's files (fileset_set_uses). */
enum fs_uses {
	/* linkfile: a file may have several names, not only planted ones */
	FS_USES_LINKS = 1 << 0,
	/* symlinkfile: renamefile and linkfile move symlinks of ours */
	FS_USES_SYMLINKS = 1 << 1,
	/* aioread, aiowrite: io_uring fails what would block on O_NONBLOCK */
	FS_USES_AIO = 1 << 2,
};
void fileset_set_uses(struct fileset *fs, unsigned uses);
/* Whether the tree may hold symlinks of ours (symlinkfile, trusttree). */
bool fileset_has_symlinks(const struct fileset *fs);
/*
 * Why the calling thread's last fileset_openat was refused ("a FIFO
 * fbrun did not make"), once; NULL if it was not.
 */
const char *fileset_refusal(void);

/*
 * verify: whether the run's flowops leave the files fileset_create makes
 * as they are but for verify's writes (none deletes them), so that its
 * marker can say the tree is whole and the next run check it (fileset_
 * verify.c).  Off until set.
 */
void fileset_set_keeps_whole(struct fileset *fs, bool on);

/*
 * replay flowop id makes its trees in fs's root: the names replay-ID-M
 * there are fbrun's, with everything beneath them (flowops_replay.c
 * makes those trees whole), and the marker lists id so that any later
 * run knows them too (fileset_replay.c).
 */
void fileset_add_replay(struct fileset *fs, unsigned id);
/*
 * openat of rel beneath dirfd, following no symlink on the way (openat2
 * RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_XDEV where the kernel
 * has it, else a component at a time with O_NOFOLLOW); no parent is
 * made.  An fd, or -1 with errno.
 */
int fileset_open_beneath(int dirfd, const char *rel, int flags, mode_t mode);
/*
 * The same following symbolic links, as long as each leads beneath
 * dirfd (openat2 RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS|RESOLVE_NO_XDEV:
 * EXDEV for one that leads out); ENOSYS where the kernel has no openat2.
 */
int fileset_open_following(int dirfd, const char *rel, int flags, mode_t mode);

/* An fd for the root directory (O_DIRECTORY, locked), valid after create. */
int fileset_rootfd(const struct fileset *fs);
/*
 * Write back the fileset's files (or its device) and drop them from the
 * page cache, counting them in *files: 0, or -1 with errno when the file
 * system could not be written back.
 */
int fileset_drop_cache(struct fileset *fs, uint64_t *files);

/*
 * A thread's own state in one fileset: its share of the round robin, its
 * opennext rotors, and the directory it last worked in (that directory's
 * path, and an fd for it opened beneath the root).  One per thread and
 * fileset, used by that thread alone.  NULL if out of memory.
 */
struct fs_local *fs_local_new(void);
/* Frees l and closes the directory fd it holds. */
void fs_local_free(struct fs_local *l);

/*
 * Pick an entry of the given kind and mark it busy, without locks: the
 * next one in entry order that is in the wanted state and not busy
 * (blocks without one are skipped through their summaries, so the cost
 * does not grow with the fileset's size or the state's rarity).  own
 * (opennext): from the thread's own rotor in l.  Else from the fileset's
 * shared round robin, which hands each thread fileset_block consecutive
 * positions at a time, so that threads sharing a fileset neither write
 * the same cache lines nor work in the same directory on every pick; a
 * thread alone sees the plain order 0, 1, 2, ...  Returns the entry, or -1
 * if none is available.
 */
int64_t fileset_pick(struct fileset *fs, enum fs_pick kind, struct fs_local *l,
		     bool own);
/*
 * indexed=: entry index % count if it is free and in the wanted state,
 * else the next one after it that is; no rotor moves.  -1 if none.
 */
int64_t fileset_pick_at(struct fileset *fs, enum fs_pick kind, int64_t index);
/*
 * End a pick: the entry is no longer busy and exists (or not) now.  Wakes
 * the threads waiting for an entry in that state, if any (one load when
 * none waits).
 */
void fileset_unbusy(struct fileset *fs, enum fs_pick kind, int64_t e,
		    bool exists);

/* The times a thread blocked waiting for an entry, and for how long. */
struct fs_waits {
	uint64_t n, ns;
};

/*
 * fileset_pick (at < 0) or fileset_pick_at(at) that, when no entry is in
 * the wanted state but some entry is busy, waits: the thread that holds
 * it may give it back, or another entry, in that state.  It blocks until
 * an entry is given back in the wanted state, or for 0.1 s at most, and
 * then looks again; after each block it also looks at *stop.  -1: no
 * entry in the wanted state and none busy (nothing to pick), or *stop is
 * set.  Each block and its time are added to *w.  No lock, no system
 * call unless it blocks.
 */
int64_t fileset_pick_wait(struct fileset *fs, enum fs_pick kind,
			  struct fs_local *l, bool own, int64_t at,
			  const atomic_bool *stop, struct fs_waits *w);
/*
 * Entry e itself, waiting while another thread has it busy (as above).
 * -1: e is not in the wanted state, or *stop is set.
 */
int64_t fileset_claim_wait(struct fileset *fs, enum fs_pick kind, int64_t e,
			   const atomic_bool *stop, struct fs_waits *w);
/* Positions a thread takes at a time from the shared round robin. */
uint64_t fileset_block(const struct fileset *fs, enum fs_pick kind);

/* A directory for listdir, round-robin: shared, or l's own (opennext). */
int64_t fileset_pick_dir(struct fileset *fs, struct fs_local *l, bool own);

/*
 * Path of an entry relative to the root, e.g. "00000003/00000017".
 * kind FS_FILE_* names files, FS_LEAF_* leaf directories; dir paths come
 * from fileset_dirpath.  Returns the length, or -1 if it does not fit.
 * Every path of a fileset is shorter than PATH_MAX (fileset_new checks).
 */
int fileset_relpath(const struct fileset *fs, enum fs_pick kind, int64_t e,
		    char *buf, size_t len);
int fileset_dirpath(const struct fileset *fs, int64_t dir, char *buf,
		    size_t len);

/*
 * The same path in l's buffer, valid until l's next use: consecutive
 * entries mostly share a directory, so then only the last component is
 * written.  For the per-op paths.
 */
const char *fileset_path(const struct fileset *fs, enum fs_pick kind,
			 int64_t e, struct fs_local *l);

/*
 * The directory holding entry e, opened beneath the root without
 * following symlinks and kept open in l for the next entry there, and
 * e's name in it (*name).  For unlinkat and mkdirat, which cannot refuse
 * a symlink on the way themselves.  Returns an fd not to be closed, or -1
 * with errno.
 */
int fileset_parent(struct fileset *fs, enum fs_pick kind, int64_t e,
		   struct fs_local *l, const char **name);

/* The file's intended size (its prealloc size). */
uint64_t fileset_entry_size(const struct fileset *fs, int64_t e);

/* Entry e's id in the blocks verify writes (engine/verify.h). */
uint64_t fileset_file_id(const struct fileset *fs, int64_t e);
/*
 * With verify, what the run knows of its files' lengths and holes
 * (engine/verify.h), set up once the tree exists; else NULL.
 */
struct vfy_files *fileset_vfy(const struct fileset *fs);

/*
 * Open rel beneath the root without following symlinks anywhere on the
 * way (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS where the kernel has
 * it, else O_NOFOLLOW on the last component).  With O_CREAT, missing
 * parent directories are made first, and a name already there is opened
 * as it is.  A file is opened only if it is a regular file with one name
 * (more with linkfile): a device node, FIFO, socket or another file's
 * hard link planted at the name is closed unwritten, -1 with errno EPERM
 * or EMLINK, and fileset_refusal says what it was.  Returns an fd, or -1
 * with errno.
 */
int fileset_openat(struct fileset *fs, const char *rel, int flags,
		   mode_t mode);

#endif
