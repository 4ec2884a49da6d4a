/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* What results/read.c shares with read_shown.c and read_job.c. */
#ifndef FBRUN_RESULTS_READ_INT_H
#define FBRUN_RESULTS_READ_INT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"
#include "results/shown.h"
#include "util/diskstat.h"
#include "util/util.h"

/* The fields of a parsed file's objects, read leniently (read.c). */
static inline const json_t *rd_get(const json_t *o, const char *key)
{
	return json_object_get(o, key);
}

static inline double rd_num(const json_t *o, const char *key)
{
	return json_number_value(rd_get(o, key));
}

/* A count: exact when the file has it as an integer. */
static inline uint64_t rd_u64(const json_t *o, const char *key)
{
	const json_t *v = rd_get(o, key);
	double d;

	if (json_is_integer(v))
		return json_integer_value(v) > 0 ?
			       (uint64_t)json_integer_value(v) : 0;
	d = json_number_value(v);
	return d > 0 && d < 1.8e19 ? (uint64_t)d : 0;
}

/* A figure's whole part as a count, 0 if absurd. */
static inline uint64_t rd_whole(double v)
{
	return v > 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

/* Nanoseconds from a figure in ms or s scaled to ns: rounded. */
static inline uint64_t rd_ns_of(double v)
{
	return rd_whole(v + 0.5);
}

static inline bool rd_flag(const json_t *o, const char *key)
{
	return json_is_true(rd_get(o, key));
}

static inline char *rd_str_dup(const json_t *o, const char *key)
{
	const char *s = json_string_value(rd_get(o, key));

	return s ? xstrdup(s) : NULL;
}

static inline void rd_str_copy(char *out, size_t len, const json_t *o,
			       const char *key)
{
	const char *s = json_string_value(rd_get(o, key));

	snprintf(out, len, "%s", s ? s : "");
}

/* "disk_stats" and "disk_stats_none"; NULL for a file without them. */
struct diskstat_set *results_read_disks(const json_t *root);
/* A job's ranks (fbrun-mpi) and the rank that ended the run, if any. */
void results_read_ranks(struct results *r, const json_t *root);

/*
 * What the parsed file at root shows of its run (shown.h), for a model
 * of nfo flowops and nvars variables read from it.
 */
struct results_shown *results_read_shown(const json_t *root, size_t nfo,
					 size_t nvars);

#endif
