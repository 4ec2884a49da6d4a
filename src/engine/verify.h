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
 * that differs.
 */
int64_t vfy_check(const char *buf, uint64_t id, uint64_t off, size_t n);

/* The files found wrong in a run, each to be reported once. */
struct vfy_log;

struct vfy_log *vfy_log_new(void);
void vfy_log_free(struct vfy_log *l);
/* true the first time path is given; any thread may call it. */
bool vfy_log_first(struct vfy_log *l, const char *path);

#endif
