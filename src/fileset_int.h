/*
 * Inside a fileset: shared by fileset.c (layout, picking, paths) and
 * fileset_disk.c (creating and removing the tree).  Nothing else uses it.
 */
#ifndef FBRUN_FILESET_INT_H
#define FBRUN_FILESET_INT_H

#include <stdatomic.h>

#include "fileset.h"

#define NO_DIR UINT32_MAX /* parent of the root */

struct fs_ent {
	uint32_t parent; /* index in dirs */
	uint32_t serial; /* 1-based name in the parent */
};

/* Files or leaf directories: what a pick chooses from. */
struct fs_kind {
	struct fs_ent *ent;
	uint64_t n;
	_Atomic uint64_t *exists, *busy; /* bitmaps, n / 64 + 1 words */
	_Atomic uint64_t rotor; /* shared round-robin position, never wraps */
};

enum root_state { ROOT_UNTOUCHED, ROOT_REFUSED, ROOT_OURS };

struct fileset {
	char *name, *path, *root;
	int64_t prealloc;
	bool paralloc, reuse, trusttree;
	struct datapat data; /* what preallocation writes */
	uint64_t seed;
	struct fs_ent *dirs; /* dirs[0] is the root; preorder */
	uint64_t ndirs, dircap;
	struct fs_kind files, leaves;
	uint64_t *sizes; /* per file, only when sizes vary */
	uint64_t size; /* otherwise */
	uint64_t depth_sum; /* path components of all files */
	_Atomic uint64_t dir_rotor, bytes;
	int rootfd;
	enum root_state state;
	bool reused; /* take_root kept an existing tree of ours (reuse) */
	bool root_made; /* create made the root directory itself */
	char **made; /* directories of path that create made, outer first */
	size_t nmade;
};

void fs_set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* openat beneath dirfd, following no symlink (see fileset_openat). */
int fs_open_beneath(int dirfd, const char *rel, int flags, mode_t mode);

#endif
