/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of trace/model: what the fit measures (model.c) and the
 * script printed from it (model_print.c).
 *
 * Each successful open of a file is an *open*, from the open to its
 * close, with what was done through its handle (reads, writes, fstats,
 * syncs, directory reads).  Opens that did alike (the same kind, the
 * same counts of each call) are one *group*: a fileset and a thread that
 * does the group's opens in a loop.  What was done by path (stat,
 * unlink, rename, link, mkdir, rmdir) is counted apart, for a thread of
 * its own.
 */
#ifndef FBRUN_TRACE_MODEL_INT_H
#define FBRUN_TRACE_MODEL_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/model.h"
#include "trace/trace.h"

/* what an open was */
enum model_kind {
	MK_CREATE, /* made the file (O_CREAT and it was absent, or O_TRUNC) */
	MK_OPEN, /* an existing file */
	MK_LIST, /* a directory whose entries were read */
	MK_INHERITED, /* open before its stream began: no open to model */
	MK_NKINDS
};

/* sizes in classes: up to 1K, 4K, ... 16M, more; each one's count and range */
#define MODEL_NSIZES 9

struct model_sizes {
	uint64_t n[MODEL_NSIZES], min[MODEL_NSIZES], max[MODEL_NSIZES];
};

/* the counts that make a group, per open */
enum model_count { MC_READ, MC_WRITE, MC_FSTAT, MC_SYNC, MC_DENTS, MC_N };

struct model_open {
	int path;
	enum model_kind kind;
	bool rd, wr, append; /* what the open asked for */
	uint64_t n[MC_N];
	uint64_t rbytes, wbytes, rasked; /* rasked: the bytes reads asked for */
};

struct model_group {
	enum model_kind kind;
	bool rd, wr, append;
	uint64_t key[MC_N]; /* per open: exact, or a power-of-two class */
	uint64_t nopens, nfiles, ndirs; /* distinct paths, their parents */
	uint64_t n[MC_N]; /* totals over its opens */
	uint64_t rbytes, wbytes, rasked;
	uint64_t size; /* mean size of its files as the trace knew them */
	struct model_sizes sizes; /* of those files, each once */
};

/* what is done by path */
enum model_pathop { MP_STAT, MP_UNLINK, MP_RENAME, MP_LINK, MP_MKDIR,
		    MP_RMDIR, MP_READDIR, MP_N };


struct model {
	struct trace *t;
	struct model_open *opens;
	size_t nopens, cap;
	struct model_group *groups;
	size_t ngroups;
	bool classed; /* counts grouped by power-of-two classes */
	/* the trace as measured: per op type, and the bytes read and written */
	uint64_t count[TOP_COUNT], failed[TOP_COUNT];
	uint64_t rbytes, wbytes;
	uint64_t path_ops[MP_N], path_files[MP_N], path_dirs[MP_N],
		 path_size[MP_N];
	struct model_sizes path_sizes[MP_N];
	/* the files the opens touched: their sizes, how many directories hold them */
	uint64_t nfiles, ndirs;
	struct model_sizes sizes;
	int64_t *psize; /* per path: the largest size the trace showed, -1 */
	unsigned *stamp, mark; /* per path: the last mark that counted it */
};

/* Measure t and group its opens; 0, or -1 for nothing to model. */
/* a / b rounded to the nearest, 0 for b == 0 */
static inline uint64_t model_divr(uint64_t a, uint64_t b)
{
	return b ? (a + b / 2) / b : 0;
}

static inline uint64_t model_maxu(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline const char *model_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

int model_fit(struct model *m, struct trace *t);
void model_release(struct model *m);
/* The script; 0, or -1 with errno when writing failed. */
int model_print(const struct model *m, const char *name, FILE *out);

/* The distinct paths among n, and the distinct parents of those. */
void model_count_paths(const struct trace *t, const int *paths, size_t n,
		       uint64_t *nfiles, uint64_t *ndirs);

#endif
