/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Data verification (a fileset's verify attribute): what its files hold,
 * so that a read can tell whether the bytes it got are the ones fbrun
 * wrote there.  A file is cut in 4 KiB blocks at offsets that are
 * multiples of 4096; each starts with a 32-byte header
 *
 *   [0, 4)   magic "fbV1"
 *   [4, 8)   checksum of the block (its header and payload, the
 *            generation left out)
 *   [8, 16)  file id (the fileset's name and the file's entry number)
 *   [16, 24) the block's offset in the file
 *   [24, 32) generation: the thread instance (high 16 bits) and its
 *            count of writes, telling which write stamped the block
 *
 * and the rest is payload, a pure function of the file id and the
 * offset.  All numbers are little-endian.  As every byte but the
 * generation depends on the file and the position only, a write may start
 * and end anywhere (appends, odd iosizes), writers of one file never
 * disagree, and a read of any range is checked byte for byte.
 */
#ifndef FBRUN_VERIFY_H
#define FBRUN_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VFY_BLOCK 4096u
#define VFY_HEADER 32u

/* The id of entry e of the fileset named name. */
uint64_t vfy_file_id(const char *name, int64_t e);

/* Bytes [off, off + n) of file id, its headers carrying gen. */
void vfy_fill(char *buf, uint64_t id, uint64_t off, size_t n, uint64_t gen);

/*
 * -1 if buf holds bytes [off, off + n) of file id as vfy_fill makes them
 * (whatever their generations), else the file offset of the first byte
 * that differs.  A zero byte at an offset in [zlo, zhi), where fbrun may
 * have left the file unwritten (struct vfy_files), is right too.
 */
int64_t vfy_check(const char *buf, uint64_t id, uint64_t off, size_t n,
		  uint64_t zlo, uint64_t zhi);

/*
 * What a run knows of a verified fileset's files beyond their blocks,
 * per entry, shared by the threads (lock-free):
 *
 * - a length the entry's file has at least: its preallocated size, raised
 *   by the writes that went through an fd of that same file.  fbrun never
 *   makes a file shorter (verify refuses truncatefile), so a read that
 *   ends before it met a file cut by someone else.  Once the entry is
 *   deleted the file is another one: the length stays the old file's, for
 *   the fds still open on it, and new opens of the entry know nothing.
 * - the span [zlo, zhi) where fbrun may have left bytes it never wrote,
 *   which read as zeros: from where a write or fallocatefile went past
 *   the length its thread knew to where it began (or, for fallocate,
 *   ended).  Registered before the system call that makes the hole, and
 *   looked at after a read, so a read that met a hole finds it.
 */
struct vfy_files;

/* n entries, none with a known file yet. */
struct vfy_files *vfy_files_new(uint64_t n);
void vfy_files_free(struct vfy_files *t);
/* Entry e holds the file that fbrun made size bytes long. */
void vfy_files_made(struct vfy_files *t, uint64_t e, uint64_t size);
/*
 * The length entry e's file has at least; false when e was deleted or
 * was not made with its size (*len is then the old file's).
 */
bool vfy_files_len(const struct vfy_files *t, uint64_t e, uint64_t *len);
/* A write through an fd opened while vfy_files_len was true ended at end. */
void vfy_files_grew(struct vfy_files *t, uint64_t e, uint64_t end);
/* e's file is deleted: later opens of e get another file. */
void vfy_files_gone(struct vfy_files *t, uint64_t e);
/* fbrun may leave bytes of e's file in [lo, hi) unwritten (zeros). */
void vfy_files_hole(struct vfy_files *t, uint64_t e, uint64_t lo,
		    uint64_t hi);
/* Where e's file may read as zeros: [*lo, *hi), empty if *lo >= *hi. */
void vfy_files_zeros(const struct vfy_files *t, uint64_t e, uint64_t *lo,
		     uint64_t *hi);

/* The files found wrong in a run, each to be reported once. */
struct vfy_log;

struct vfy_log *vfy_log_new(void);
void vfy_log_free(struct vfy_log *l);
/* true the first time path is given; any thread may call it. */
bool vfy_log_first(struct vfy_log *l, const char *path);

#endif
