/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Data patterns: what the write flowops and fileset preallocation put in
 * the files, so that compressing or deduplicating storage can be measured
 * with data of a known kind.
 *
 *   zeros       every byte 0
 *   bonnie      bonnie++'s block-write data: a zeroed buffer in which one
 *               byte is incremented before each write, the byte advancing
 *               by one per write and wrapping at the write size (files are
 *               almost all 0x00 and 0x01)
 *   random      incompressible: a splitmix64 stream
 *   compress=N  each 4 KiB block is (100-N)% random bytes then N% zeros,
 *               which gzip -1 shrinks by about N percent
 *
 * random and compress hand out successive slices of a pool of at least
 * 1 MiB, so data does not repeat within any compressor window or record
 * up to that size, and stamp 8 fresh random bytes at every 4 KiB of the
 * pool in each slice (and at its start) before handing it out, so no two
 * written 4 KiB blocks are alike for a deduplicating layer.  Cost per
 * write: one 8-byte store per 4 KiB, no syscall; the pool is allocated
 * and filled once, on first use.
 */
#ifndef FBRUN_DATAPAT_H
#define FBRUN_DATAPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum datapat_kind {
	DATA_DEFAULT, /* not given: whatever is in the I/O buffer */
	DATA_ZEROS,
	DATA_BONNIE,
	DATA_RANDOM,
	DATA_COMPRESS,
};

struct datapat {
	enum datapat_kind kind;
	int compress_pct; /* DATA_COMPRESS: 0..99 */
};

#define DATAPAT_MAX_PCT 99

/* The bare words data= takes, NULL-terminated (for messages and hints). */
extern const char *const datapat_words[];

/*
 * Parse "zeros", "bonnie", "random" or "compress=N" (N 0..99).  Returns 0,
 * or -1 with a message (without the subject) in err.
 */
int datapat_parse(const char *s, struct datapat *out, char *err,
		  size_t errlen);

/* "zeros", "compress=50", ... ("default" for DATA_DEFAULT). */
void datapat_format(char *buf, size_t len, struct datapat p);

bool datapat_equal(struct datapat a, struct datapat b);

/* The first of a, b, c that is not DATA_DEFAULT (precedence order). */
struct datapat datapat_pick(struct datapat a, struct datapat b,
			    struct datapat c);

#endif
