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
 * Memory is about 16 bytes per entry plus 2 bits (no fixed pools).
 */
#ifndef FBRUN_FILESET_H
#define FBRUN_FILESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ir.h"
#include "rand.h"

#define FILESET_MARKER ".fbrun-fileset"

struct fileset;

/* What a pick looks for. */
enum fs_pick {
	FS_FILE_EXISTING, /* openfile, statfile, deletefile, I/O self-open */
	FS_FILE_ABSENT, /* createfile */
	FS_LEAF_EXISTING, /* removedir */
	FS_LEAF_ABSENT, /* makedir */
};

/*
 * Lay out the tree of def in memory (no I/O): directory shape from
 * dirwidth/dirgamma/dirdepthrv, per-file sizes (sampled once per file if
 * size is random), leaf directories.  Nothing exists yet.  Returns NULL
 * with a message in err on failure (e.g. out of memory).
 */
struct fileset *fileset_new(const struct workload *w, int index,
			    uint64_t seed, char *err, size_t errlen);
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
/* Mean directory width and depth of the laid-out tree. */
double fileset_mean_width(const struct fileset *fs);
double fileset_mean_depth(const struct fileset *fs);

/* What preallocation writes (def's data= by default). */
void fileset_set_data(struct fileset *fs, struct datapat p);

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
 * Remove the tree: only if its root carries our marker; never follows a
 * symlink, never crosses into another file system; also removes the
 * directories of `path` that fileset_create made, if they are empty.
 * Returns 0, or -1 with a message.  Safe to call if create failed midway.
 */
int fileset_remove(struct fileset *fs, char *err, size_t errlen);

/* An fd for the root directory (O_PATH/O_DIRECTORY), valid after create. */
int fileset_rootfd(const struct fileset *fs);

/*
 * Pick an entry of the given kind and mark it busy, without locks.
 * rotor: the caller's own position (opennext), or NULL for the
 * fileset's shared one; picks are round-robin from the rotor, skipping
 * busy entries.  index >= 0 (indexed=) picks entry index % count if it is
 * in the wanted state and free, else the next one after it that is,
 * without moving any rotor.  Returns the entry, or -1 if none is
 * available.
 */
int64_t fileset_pick(struct fileset *fs, enum fs_pick kind, uint64_t *rotor,
		     int64_t index);
/* End a pick: the entry is no longer busy and exists (or not) now. */
void fileset_unbusy(struct fileset *fs, enum fs_pick kind, int64_t e,
		    bool exists);

/* A directory for listdir, round-robin via rotor (or the shared one). */
int64_t fileset_pick_dir(struct fileset *fs, uint64_t *rotor);

/*
 * Path of an entry relative to the root, e.g. "00000003/00000017".
 * kind FS_FILE_* names files, FS_LEAF_* leaf directories; dir paths come
 * from fileset_dirpath.  Returns the length, or -1 if it does not fit.
 */
int fileset_relpath(const struct fileset *fs, enum fs_pick kind, int64_t e,
		    char *buf, size_t len);
int fileset_dirpath(const struct fileset *fs, int64_t dir, char *buf,
		    size_t len);

/* The file's intended size (its prealloc size). */
uint64_t fileset_entry_size(const struct fileset *fs, int64_t e);

/*
 * Open rel beneath the root without following symlinks anywhere on the
 * way (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS where the kernel has
 * it, else O_NOFOLLOW on the last component).  With O_CREAT, missing
 * parent directories are made first.  Returns an fd, or -1 with errno.
 */
int fileset_openat(struct fileset *fs, const char *rel, int flags,
		   mode_t mode);

#endif
