/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The layout of a fileset's tree in memory: filebench's population
 * algorithm, drawn from filebench's random numbers, so that a script gets
 * the tree filebench builds for it, directory for directory.
 *
 * The algorithm (filebench's fileset_populate_subdir): directories are
 * made depth first, each drawing a depth and a width; a directory at
 * least as deep as its drawn depth is a leaf and holds `width` files,
 * any other holds `width` subdirectories; the root keeps adding
 * subdirectories until every file exists, then the same again for the
 * leaf directories.  Depths are Gamma(dirgamma/1000) around
 * ln(entries + leafdirs) / ln(dirwidth), truncated; widths Gamma around
 * dirwidth.  With dirgamma 1.5 the tree below the first subdirectories is
 * supercritical (a directory has on average more non-leaf children than
 * one), so it is much deeper than the depth aimed for: the first branch
 * grows until it holds every file.
 *
 * The random numbers are those of filebench on Linux: drand48's generator
 * from the C library's initial state, one stream for all the filesets of
 * a script in the order filebench populates them (the last defined
 * first), through Knuth's gamma samplers, with cvar-gamma file sizes
 * drawn from the same stream as filebench's plug-in does.  Widths or
 * depths from a randvar, and other random sizes, have streams of their
 * own in both programs, so they do not move the stream.
 *
 * Entries are numbered in creation order, which is the order round-robin
 * picks follow.  Memory: every directory, file and leaf directory is 8
 * bytes (parent index and serial), files with random sizes add 8 bytes,
 * and files and leaf directories have one `exists` and one `busy` bit,
 * and their blocks a bit in each of three summaries (fileset_summary.c).
 */
#include "engine/fileset/fileset_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/paths.h"
#include "util/util.h"

#define MAX_DEPTH 1000.0 /* as the dirdepthrv attribute's range */

/* ------------------------------------------------------------ random */

/*
 * drand48: x <- (0x5deece66d x + 0xb) mod 2^48, and x / 2^48 is the
 * number.  glibc and musl start from x = 0 (not the 0x1234abcd330e that
 * SVID names and BSD uses), and filebench never seeds it.
 */
static double stream_next(struct fs_stream *s)
{
	s->x = (0x5deece66dULL * s->x + 0xb) & ((1ULL << 48) - 1);
	return (double)s->x * 0x1p-48;
}

/*
 * A Gamma(a, 1) variate by Knuth's algorithms (TAOCP vol. 2, 3.4.1):
 * algorithm A for a > 1, the rejection method of exercise 16 (Ahrens and
 * Dieter's GS) for a <= 1.  The same uniforms in the same order, and the
 * same arithmetic, as filebench: the number of uniforms a draw takes
 * depends on them, so any other sampler would put every later draw of
 * the stream out of step.  The caller scales: the uniforms used do not
 * depend on the scale (filebench draws even when it is 0).
 */
static double knuth_gamma(struct fs_stream *s, double a)
{
	double x, u, v, y, q, p;

	if (a > 1) {
		double r = sqrt(2 * a - 1);

		for (;;) {
			y = tan(M_PI * stream_next(s));
			x = r * y + a - 1;
			if (x <= 0)
				continue;
			v = stream_next(s);
			if (v <= (1 + y * y) *
					 exp((a - 1) * log(x / (a - 1)) - r * y))
				return x;
		}
	}
	p = M_E / (a + M_E);
	for (;;) {
		u = stream_next(s);
		do
			v = stream_next(s);
		while (v == 0);
		if (u < p) {
			x = pow(v, 1 / a);
			q = exp(-x);
		} else {
			x = 1 - log(v);
			q = pow(x, a - 1);
		}
		if (stream_next(s) < q)
			return x;
	}
}

/* ------------------------------------------------------------ layout */

struct layout {
	struct fileset *fs;
	const struct workload *w;
	const struct ir_fileset *def;
	struct rv_rng rng, size_rng; /* randvar depths and widths; sizes */
	struct fs_stream *stream; /* filebench's */
	const struct rv_spec *cvgamma; /* size: a cvar-gamma, else NULL */
	double gamma, meandepth, meanwidth;
	char *err;
	size_t errlen;
};

/* Characters of the path `len` long with the name of serial added. */
static size_t path_len(size_t len, uint64_t serial)
{
	return len + (len ? 1 : 0) + fs_serial_width(serial);
}

static double value_mean(const struct workload *w, const struct ir_value *v,
			 double def)
{
	switch (v->kind) {
	case IRV_INT:
		return (double)v->i;
	case IRV_DOUBLE:
		return v->d;
	case IRV_RAND:
		return rv_spec_mean(&w->randvars[v->rv].spec);
	default:
		return def;
	}
}

static double value_draw(const struct workload *w, const struct ir_value *v,
			 struct rv_rng *rng, double def)
{
	if (v->kind == IRV_RAND)
		return rv_sample(&w->randvars[v->rv].spec, rng);
	return value_mean(w, v, def);
}

static int kind_alloc(struct fs_kind *k, int64_t n)
{
	if (n < 0 || (uint64_t)n > SIZE_MAX / sizeof(*k->ent) - 1)
		return -1;
	k->ent = malloc(((size_t)n + 1) * sizeof(*k->ent));
	return k->ent ? 0 : -1;
}

static int64_t add_dir(struct layout *l, uint32_t parent, uint64_t serial)
{
	struct fileset *fs = l->fs;

	if (fs->ndirs >= NO_DIR || serial > UINT32_MAX) {
		fs_set_err(l->err, l->errlen,
			"fileset '%s' needs more than 2^32 directories",
			fs->name);
		return -1;
	}
	if (fs->ndirs == fs->dircap) {
		uint64_t cap = fs->dircap ? fs->dircap * 2 : 256;
		void *p = realloc(fs->dirs, cap * sizeof(*fs->dirs));

		if (!p) {
			fs_set_err(l->err, l->errlen,
				"out of memory laying out fileset '%s'",
				fs->name);
			return -1;
		}
		fs->dirs = p;
		fs->dircap = cap;
	}
	fs->dirs[fs->ndirs] = (struct fs_ent){ parent, (uint32_t)serial };
	return (int64_t)fs->ndirs++;
}

/* A file or leaf directory in directory dir, `depth` levels down. */
static int add_entry(struct layout *l, struct fs_kind *k, uint32_t dir,
		     uint64_t serial, uint64_t depth)
{
	if (serial > UINT32_MAX) {
		fs_set_err(l->err, l->errlen,
			"fileset '%s' has a directory of more than 2^32 entries",
			l->fs->name);
		return -1;
	}
	k->ent[k->n++] = (struct fs_ent){ dir, (uint32_t)serial };
	l->fs->depth_sum += depth; /* the root's entries are depth 1 */
	return 0;
}

static int add_file(struct layout *l, uint32_t dir, uint64_t serial,
		    uint64_t depth)
{
	struct fileset *fs = l->fs;
	uint64_t e = fs->files.n;
	double v;

	if (add_entry(l, &fs->files, dir, serial, depth))
		return -1;
	if (!fs->sizes)
		return 0;
	if (l->cvgamma) /* filebench's plug-in draws from the same stream */
		v = rv_cvar_finish(l->cvgamma,
				   knuth_gamma(l->stream, l->cvgamma->param[1]) *
					   (l->cvgamma->param[0] /
					    l->cvgamma->param[1]));
	else
		v = value_draw(l->w, &l->def->size, &l->size_rng, 1024);
	fs->sizes[e] = v < 0x1p63 ? (uint64_t)v : (uint64_t)1 << 63;
	return 0;
}

static double draw_depth(struct layout *l)
{
	const struct ir_value *v = &l->def->dirdepth;
	double d;

	if (v->kind != IRV_NONE)
		d = value_draw(l->w, v, &l->rng, 1);
	else if (l->gamma > 0)
		d = knuth_gamma(l->stream, l->gamma) *
		    (l->meandepth / l->gamma);
	else
		d = l->meandepth;
	d = floor(d); /* filebench truncates the drawn depth */
	/* bounds the recursion; deeper paths exceed PATH_MAX anyway */
	if (d > MAX_DEPTH)
		d = MAX_DEPTH;
	return d >= 1 ? d : 1;
}

static double draw_width(struct layout *l)
{
	double x;

	if (l->def->dirwidth.kind == IRV_RAND)
		x = value_draw(l->w, &l->def->dirwidth, &l->rng, 1);
	else if (l->gamma > 0)
		x = knuth_gamma(l->stream, l->gamma) *
		    (l->meanwidth / l->gamma);
	else
		x = l->meanwidth;
	return x > 0 ? x : 1;
}

/*
 * Every path beneath the root must fit in PATH_MAX, the most a system
 * call takes: a deeper tree is an error here, before anything is made.
 */
static int path_fits(struct layout *l, size_t len, uint64_t serial,
		     uint64_t depth)
{
	if (path_len(len, serial) < PATH_MAX)
		return 0;
	fs_set_err(l->err, l->errlen,
		   "fileset '%s' would have paths of more than %d bytes "
		   "below its root (%" PRIu64 " levels deep): lower its depth "
		   "(dirdepthrv, dirgamma) or widen it (dirwidth)",
		   l->fs->name, PATH_MAX - 1, depth);
	return -1;
}

/*
 * One directory and, recursively, its contents: the files, then the
 * leaf directories, each loop running while any are still wanted (so a
 * leaf directory made while files remain gets both).  Serials run on
 * across both loops so a leaf directory never takes the name of a file
 * or of a subdirectory made by the first loop; filebench starts again at
 * 1, and its second loop's directories land on its first loop's.
 * len: the length of the directory's path below the root.
 */
static int populate(struct layout *l, uint32_t parent, uint64_t serial,
		    uint64_t depth, size_t len)
{
	struct fileset *fs = l->fs;
	uint64_t nfiles = (uint64_t)l->def->entries;
	uint64_t nleaves = (uint64_t)l->def->leafdirs;
	bool root = parent == NO_DIR, leaf;
	uint64_t next = 1, i;
	int64_t d = add_dir(l, parent, serial);
	double rdepth, rwidth;
	int rc = 0;

	if (d < 0)
		return -1;
	depth++;
	rdepth = draw_depth(l);
	rwidth = draw_width(l);
	leaf = !root && depth >= rdepth;
	for (i = 1; (root || i < rwidth + 1) && fs->files.n < nfiles && !rc;
	     i++, next++) {
		if (path_fits(l, len, next, depth) < 0)
			return -1;
		if (leaf)
			rc = add_file(l, (uint32_t)d, next, depth);
		else
			rc = populate(l, (uint32_t)d, next, depth,
				      path_len(len, next));
	}
	for (i = 1; (root || i < rwidth + 1) && fs->leaves.n < nleaves && !rc;
	     i++, next++) {
		if (path_fits(l, len, next, depth) < 0)
			return -1;
		if (leaf)
			rc = add_entry(l, &fs->leaves, (uint32_t)d, next,
				       depth);
		else
			rc = populate(l, (uint32_t)d, next, depth,
				      path_len(len, next));
	}
	return rc;
}

static int layout_init(struct layout *l, struct fileset *fs, uint64_t seed)
{
	const struct ir_fileset *def = l->def;
	double n = (double)def->entries + (double)def->leafdirs;

	rv_rng_seed(&l->rng, seed);
	rv_rng_seed(&l->size_rng, seed ^ 0x5bd1e995a5a5a5a5ULL);
	l->gamma = (double)def->dirgamma / 1000;
	/* filebench takes the integer part of the mean width */
	l->meanwidth = floor(value_mean(l->w, &def->dirwidth, 1));
	/*
	 * ln(n)/ln(width).  Where that is not a number (n = 0, width 1)
	 * filebench makes every directory below the root a leaf; depth 0
	 * does that too.  The draws are made all the same.
	 */
	l->meandepth = n > 1 && l->meanwidth > 1 ?
			       log(n) / log(l->meanwidth) :
			       0;
	fs->nominal_width = l->meanwidth;
	fs->nominal_depth = l->meandepth;
	if (kind_alloc(&fs->files, def->entries) ||
	    kind_alloc(&fs->leaves, def->leafdirs))
		return -1;
	if (def->size.kind == IRV_RAND) {
		const struct rv_spec *s = &l->w->randvars[def->size.rv].spec;

		if (s->dist == RV_CV_GAMMA)
			l->cvgamma = s;
		fs->sizes = malloc(((size_t)def->entries + 1) * sizeof(uint64_t));
		if (!fs->sizes)
			return -1;
	} else {
		double v = value_mean(l->w, &def->size, 1024);

		fs->size = v > 0 ? (uint64_t)v : 0;
	}
	return 0;
}

/*
 * The shared round robin's block: as many consecutive entries as keep a
 * thread in directories of its own, up to one cache line of bitmap, while
 * all threads' blocks together hold at most a quarter of the entries (a
 * small fileset is shared entry by entry); and the bitmaps, a line per
 * block (fs_kind), with their summaries.  -1: out of memory.
 */
static int kind_blocks(struct fs_kind *k, uint64_t nworkers)
{
	uint64_t per = k->n / 4 / (nworkers ? nworkers : 1);

	k->shift = FS_BLOCK_SHIFT;
	while (k->shift > 0 && (1ULL << k->shift) > per)
		k->shift--;
	k->block = 1ULL << k->shift;
	k->nblocks = (k->n + k->block - 1) / k->block;
	k->nwords = k->nblocks * 8;
	k->exists = calloc_lines(k->nwords, sizeof(_Atomic uint64_t));
	k->busy = calloc_lines(k->nwords, sizeof(_Atomic uint64_t));
	if (!k->exists || !k->busy || fs_sum_alloc(k) < 0)
		return -1;
	fs_sum_rebuild(k); /* every entry absent and free */
	return 0;
}

struct fileset *fileset_new(const struct workload *w, int index,
			    uint64_t seed, struct fs_stream *stream, char *err,
			    size_t errlen)
{
	struct fs_stream own = FS_STREAM_INIT;
	struct layout l = { .w = w, .err = err, .errlen = errlen };
	struct fileset *fs;
	uint64_t nworkers;
	void *shrunk;
	size_t plen;

	if (index < 0 || (size_t)index >= w->nfilesets ||
	    !w->filesets[index].name || !w->filesets[index].path) {
		fs_set_err(err, errlen, "no fileset number %d", index);
		return NULL;
	}
	l.def = &w->filesets[index];
	l.stream = stream ? stream : &own;
	fs = calloc_lines(1, sizeof(*fs)); /* its rotors are line-aligned */
	if (!fs) {
		fs_set_err(err, errlen, "out of memory for fileset '%s'",
			   l.def->name);
		return NULL;
	}
	l.fs = fs;
	fs->rootfd = -1;
	fs->devfd = -1;
	fs->name = xstrdup(l.def->name);
	fs->path = path_lexical(l.def->path); /* no ".." to climb out by */
	plen = strlen(fs->path);
	fs->root = xasprintf("%s%s%s", fs->path,
			     plen && fs->path[plen - 1] == '/' ? "" : "/",
			     fs->name);
	fs->prealloc = l.def->prealloc;
	fs->paralloc = l.def->paralloc;
	fs->reuse = l.def->reuse;
	fs->trusttree = l.def->trusttree;
	fs->verify = l.def->verify;
	fs->data = l.def->data;
	fs->seed = seed;
	if (layout_init(&l, fs, seed) < 0) {
		fs_set_err(err, errlen, "out of memory laying out fileset '%s'",
			fs->name);
		goto fail;
	}
	if (populate(&l, NO_DIR, 1, 0, 0) < 0)
		goto fail;
	nworkers = workload_nworkers(w);
	if (kind_blocks(&fs->files, nworkers) < 0 ||
	    kind_blocks(&fs->leaves, nworkers) < 0) {
		fs_set_err(err, errlen, "out of memory laying out fileset '%s'",
			   fs->name);
		goto fail;
	}
	/* give back the slack of the doubling (keep it if realloc fails) */
	shrunk = realloc(fs->dirs, fs->ndirs * sizeof(*fs->dirs));
	if (shrunk) {
		fs->dirs = shrunk;
		fs->dircap = fs->ndirs;
	}
	return fs;
fail:
	fileset_free(fs);
	return NULL;
}
