/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Generating a data pattern (lang/datapat.h says what each one is): one
 * generator per writer, the random pool made and filled on first use.
 */
#ifndef FBRUN_DATAGEN_H
#define FBRUN_DATAGEN_H

#include <stddef.h>
#include <stdint.h>

#include "lang/datapat.h"

/* A generator of one pattern's data for one writer (not thread-safe). */
struct datagen;

/* NULL if p is DATA_DEFAULT.  seed makes random data differ per writer. */
struct datagen *datagen_new(struct datapat p, uint64_t seed);
void datagen_free(struct datagen *g);
struct datapat datagen_pattern(const struct datagen *g);

/*
 * n bytes of data for the next write, 512-byte aligned (4096 when n is a
 * multiple of 4096, for O_DIRECT).  Valid until the next call.  NULL if
 * memory runs out.
 */
const char *datagen_next(struct datagen *g, size_t n);

/*
 * Start again as for a stream of its own, key's: what follows depends on
 * the seed and key only, not on what the generator made before (a file's
 * data, whichever of several writers makes it).
 */
void datagen_restart(struct datagen *g, uint64_t key);

#endif
