/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Small helpers shared by every module: allocation that cannot fail,
 * number parsing with size suffixes, edit distance for "did you mean",
 * the string hash and the hash map.
 */
#ifndef FBRUN_UTIL_H
#define FBRUN_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation failures print one line and exit(1): the only exit outside main. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/*
 * calloc on whole 64-byte cache lines of its own, for what one thread
 * writes on every operation, so no other thread's data shares its lines;
 * NULL when the memory is not there (free() it as usual).
 */
void *calloc_lines(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (element size sz) so that it holds at least n elements. */
void *grow_array(void *arr, size_t *cap, size_t n, size_t sz);

enum num_status {
	NUM_OK,
	NUM_SYNTAX, /* not a number, or junk after it */
	NUM_SUFFIX, /* unknown size suffix */
	NUM_RANGE, /* does not fit in int64_t */
};

/*
 * Parse a decimal integer with an optional size suffix k, m, g or t (either
 * case, powers of 1024) and an optional leading '-' or '+'.  The whole of
 * s[0..len) must be consumed.  Never wraps: returns NUM_RANGE instead.
 */
enum num_status parse_int(const char *s, size_t len, int64_t *out);

/* Format a byte count the way scripts write it: 131072 -> "128k". */
void format_size(char *buf, size_t len, int64_t v);

/* Damerau-free Levenshtein distance, capped at max+1 for speed. */
int edit_distance(const char *a, const char *b, int max);

/*
 * Best match for `word` among `n` candidates (an array of strings, each
 * `stride` bytes apart so tables of structs can be searched in place).
 * Returns NULL if nothing is close enough to suggest.
 */
const char *did_you_mean(const char *word, const void *cands, size_t n,
			 size_t stride);

/*
 * Length of the valid UTF-8 sequence at s (at most n bytes), 0 if it is
 * not one (overlong, surrogate, past U+10FFFF, truncated).
 */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/*
 * The one string hash: FNV-1a's 64-bit steps (from an offset basis of
 * its own, not FNV's).  Stable from run to run and machine to machine:
 * the filesets' trees are seeded with it, so it must never change.
 */
uint64_t str_hash(const char *s);

/*
 * A string -> pointer map for lookups that would otherwise be quadratic.
 * Keys are not copied: each must outlive the map.  Values are not NULL.
 */
struct strmap;

struct strmap *strmap_new(void);
void strmap_free(struct strmap *m);
/* The value for key, or NULL. */
void *strmap_get(const struct strmap *m, const char *key);
/* Add key -> value unless key is there; returns the value already there, or NULL. */
void *strmap_add(struct strmap *m, const char *key, void *value);

/*
 * A directory entry as the getdents64 system call gives it (Linux's
 * struct linux_dirent64), for reading a directory without a DIR's calls.
 */
struct dirent_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* A CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
void csv_put(FILE *out, const char *s);

#endif
