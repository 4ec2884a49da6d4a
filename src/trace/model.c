/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The fit of a synthetic model to a trace: the ops walked in recorded
 * order (by time across streams, as trace/state does), each open of a
 * file followed to its close, the opens grouped by what they did.  A
 * group's counts are exact per open while the trace has few kinds of
 * opens; past MAX_GROUPS they are power-of-two classes, and the script
 * does each class's mean.
 */
#include "trace/model_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/msg.h"
#include "util/util.h"

/* more kinds of opens than this: classes of counts instead */
#define MAX_GROUPS 16

/* The walk's state: which paths exist now, each handle's open. */
struct walk {
	struct model *m;
	bool *exists;
	long **open; /* per stream, per handle: index in m->opens, or -1 */
	int *ppaths[MP_N]; /* the paths of each kind of path op */
	size_t npp[MP_N], cap[MP_N];
};

static void grow(int64_t *size, int path, int64_t v)
{
	if (path >= 0 && v > size[path])
		size[path] = v;
}

static long new_open(struct walk *w, int path, enum model_kind kind,
		     unsigned flags)
{
	struct model *m = w->m;
	struct model_open *o;

	m->opens = grow_array(m->opens, &m->cap, m->nopens + 1,
			      sizeof(*m->opens));
	o = &m->opens[m->nopens];
	*o = (struct model_open){
		.path = path, .kind = kind,
		.rd = (flags & TRACE_O_READ) || !(flags & TRACE_O_WRITE),
		.wr = flags & TRACE_O_WRITE,
		.append = flags & TRACE_O_APPEND,
	};
	return (long)m->nopens++;
}

/* The open an op's handle belongs to (one made for an inherited handle). */
static struct model_open *open_of(struct walk *w, size_t s,
				  const struct trace_op *op)
{
	const struct trace_handle *h;
	long *slot;

	if (op->handle < 0 ||
	    (size_t)op->handle >= trace_stream_nhandles(w->m->t, s))
		return NULL;
	slot = &w->open[s][op->handle];
	if (*slot < 0) {
		h = trace_stream_handle(w->m->t, s, op->handle);
		if (!h->inherited)
			return NULL;
		*slot = new_open(w, h->path, MK_INHERITED, h->flags);
	}
	return &w->m->opens[*slot];
}

static void opened(struct walk *w, size_t s, const struct trace_op *op)
{
	unsigned f = op->flags;
	enum model_kind kind = MK_OPEN;

	if (op->path >= 0 && (f & TRACE_O_CREAT) &&
	    (!w->exists[op->path] || (f & TRACE_O_TRUNC)))
		kind = MK_CREATE;
	if (op->path >= 0)
		w->exists[op->path] = true;
	if (op->handle >= 0 &&
	    (size_t)op->handle < trace_stream_nhandles(w->m->t, s))
		w->open[s][op->handle] = new_open(w, op->path, kind, f);
}

/* A path op's effect on what exists: p made (or removed) now. */
static void set_exists(struct walk *w, int path, bool there)
{
	if (path >= 0)
		w->exists[path] = there;
}

static void path_op(struct walk *w, enum model_pathop p, int path)
{
	w->m->path_ops[p]++;
	w->ppaths[p] = grow_array(w->ppaths[p], &w->cap[p], w->npp[p] + 1,
				  sizeof(*w->ppaths[p]));
	w->ppaths[p][w->npp[p]++] = path;
}

/* What an op on a handle adds to its open; false if none is known. */
static bool on_handle(struct walk *w, size_t s, const struct trace_op *op)
{
	struct model_open *o = open_of(w, s, op);

	if (!o)
		return false;
	switch (op->type) {
	case TOP_READ:
		o->n[MC_READ]++;
		o->rbytes += (uint64_t)op->result;
		o->rasked += (uint64_t)op->length;
		if (op->offset >= 0)
			grow(w->m->psize, o->path, op->offset + op->result);
		return true;
	case TOP_WRITE:
		o->n[MC_WRITE]++;
		o->wbytes += (uint64_t)op->result;
		grow(w->m->psize, o->path, (int64_t)o->wbytes);
		return true;
	case TOP_STAT:
	case TOP_LSTAT:
	case TOP_FSTAT:
		o->n[MC_FSTAT]++;
		return true;
	case TOP_FSYNC:
	case TOP_FDATASYNC:
		o->n[MC_SYNC]++;
		return true;
	case TOP_READDIR:
		o->n[MC_DENTS]++;
		return true;
	default:
		return false;
	}
}

/* One op that succeeded: true if the model does it (the rest are counted). */
static bool step(struct walk *w, size_t s, const struct trace_op *op)
{
	struct model *m = w->m;

	switch (op->type) {
	case TOP_OPEN:
		opened(w, s, op);
		return true;
	case TOP_CLOSE:
		return open_of(w, s, op) != NULL;
	case TOP_STAT:
	case TOP_LSTAT:
		if (op->handle >= 0)
			return on_handle(w, s, op);
		if (!(op->flags & TRACE_O_DIRECTORY))
			grow(m->psize, op->path, op->result);
		path_op(w, MP_STAT, op->path);
		return true;
	case TOP_UNLINK:
		path_op(w, MP_UNLINK, op->path);
		set_exists(w, op->path, false);
		return true;
	case TOP_RENAME:
		path_op(w, MP_RENAME, op->path);
		set_exists(w, op->path, false);
		set_exists(w, op->path2, true);
		if (op->path >= 0 && op->path2 >= 0)
			m->psize[op->path2] = m->psize[op->path];
		return true;
	case TOP_LINK:
		path_op(w, MP_LINK, op->path);
		set_exists(w, op->path2, true);
		return true;
	case TOP_MKDIR:
	case TOP_RMDIR:
		path_op(w, op->type == TOP_MKDIR ? MP_MKDIR : MP_RMDIR,
			op->path);
		set_exists(w, op->path, op->type == TOP_MKDIR);
		return true;
	case TOP_READDIR:
		if (op->handle >= 0)
			return on_handle(w, s, op);
		path_op(w, MP_READDIR, op->path); /* dbench's FIND_FIRST */
		return true;
	default:
		return on_handle(w, s, op);
	}
}

static void walk(struct model *m, struct walk *w)
{
	const struct trace_entry *e;
	size_t n = trace_initial(m->t, &e), nrefs;
	struct trace_step *refs;

	for (size_t i = 0; i < n; i++) {
		w->exists[e[i].path] = true;
		grow(m->psize, e[i].path, e[i].dir ? -1 : e[i].size);
	}
	refs = trace_order(m->t, &nrefs);
	for (size_t k = 0; k < nrefs; k++) {
		const struct trace_op *op =
			&trace_stream_ops(m->t, refs[k].stream)[refs[k].op];

		m->count[op->type]++;
		if (op->err)
			m->failed[op->type]++;
		else
			step(w, refs[k].stream, op);
		if (!op->err && op->type == TOP_READ)
			m->rbytes += (uint64_t)op->result;
		if (!op->err && op->type == TOP_WRITE)
			m->wbytes += (uint64_t)op->result;
	}
	free(refs);
}

/* ---------------------------------------------------------------- paths */

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static size_t distinct(const char **s, size_t n)
{
	size_t d = 0;

	qsort(s, n, sizeof(*s), by_str);
	for (size_t i = 0; i < n; i++)
		d += i == 0 || strcmp(s[i], s[i - 1]) != 0;
	return d;
}

void model_count_paths(const struct trace *t, const int *paths, size_t n,
		       uint64_t *nfiles, uint64_t *ndirs)
{
	const char **s = xmalloc((n + 1) * sizeof(*s));
	char **dirs = xmalloc((n + 1) * sizeof(*dirs));
	size_t nd = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (paths[i] >= 0)
			s[k++] = trace_path(t, paths[i]);
	n = k;
	*nfiles = distinct(s, n);
	for (size_t i = 0; i < n; i++) {
		const char *slash;

		if (i > 0 && strcmp(s[i], s[i - 1]) == 0)
			continue;
		slash = strrchr(s[i], '/');
		dirs[nd++] = slash ? xstrndup(s[i], (size_t)(slash - s[i])) :
				     xstrdup(".");
	}
	*ndirs = distinct((const char **)dirs, nd);
	for (size_t i = 0; i < nd; i++)
		free(dirs[i]);
	free(dirs);
	free(s);
}

/* Each path among n once, of a size the trace showed, into h's classes. */
static void size_classes(struct model *m, const int *paths, size_t n,
			 struct model_sizes *h)
{
	m->mark++;
	for (size_t i = 0; i < n; i++) {
		int p = paths[i];
		uint64_t sz;
		int b = 0;

		if (p < 0 || m->psize[p] < 0 || m->stamp[p] == m->mark)
			continue;
		m->stamp[p] = m->mark;
		sz = (uint64_t)m->psize[p];
		while (b + 1 < MODEL_NSIZES && sz > (1024ULL << (2 * b)))
			b++;
		if (!h->n[b] || sz < h->min[b])
			h->min[b] = sz;
		if (!h->n[b] || sz > h->max[b])
			h->max[b] = sz;
		h->n[b]++;
	}
}

/* The distinct paths of each path op, and the mean size of those known. */
static void count_path_ops(struct model *m, struct walk *w)
{
	for (int p = 0; p < MP_N; p++) {
		uint64_t sum = 0, known = 0;

		model_count_paths(m->t, w->ppaths[p], w->npp[p],
				  &m->path_files[p], &m->path_dirs[p]);
		for (size_t i = 0; i < w->npp[p]; i++) {
			int path = w->ppaths[p][i];

			if (path >= 0 && m->psize[path] >= 0) {
				sum += (uint64_t)m->psize[path];
				known++;
			}
		}
		m->path_size[p] = known ? (sum + known / 2) / known : 0;
		size_classes(m, w->ppaths[p], w->npp[p], &m->path_sizes[p]);
		free(w->ppaths[p]);
	}
}

/* ---------------------------------------------------------------- groups */

/* 0, 1, 2, 3-4, 5-8, ...: a class's number */
static uint64_t class_of(uint64_t n)
{
	uint64_t c = 0;

	while (n > 0) {
		c++;
		n = n == 1 ? 0 : (n + 1) / 2;
	}
	return c;
}

static void key_of(const struct model_open *o, bool classed, uint64_t *key)
{
	for (int c = 0; c < MC_N; c++)
		key[c] = classed ? class_of(o->n[c]) : o->n[c];
}

static bool same(const struct model_group *g, const struct model_open *o,
		 const uint64_t *key)
{
	return g->kind == o->kind && g->rd == o->rd && g->wr == o->wr &&
	       g->append == o->append &&
	       memcmp(g->key, key, sizeof(g->key)) == 0;
}

/* The opens grouped; false when exact counts make more than MAX_GROUPS. */
static bool group(struct model *m, bool classed)
{
	size_t cap = 0;

	free(m->groups);
	m->groups = NULL;
	m->ngroups = 0;
	for (size_t i = 0; i < m->nopens; i++) {
		const struct model_open *o = &m->opens[i];
		struct model_group *g = NULL;
		uint64_t key[MC_N];

		/* open before the stream and only closed: nothing to do */
		if (o->kind == MK_INHERITED &&
		    !(o->n[MC_READ] + o->n[MC_WRITE] + o->n[MC_FSTAT]))
			continue;
		key_of(o, classed, key);
		for (size_t j = 0; j < m->ngroups && !g; j++)
			if (same(&m->groups[j], o, key))
				g = &m->groups[j];
		if (!g) {
			if (!classed && m->ngroups == MAX_GROUPS)
				return false;
			m->groups = grow_array(m->groups, &cap, m->ngroups + 1,
					       sizeof(*m->groups));
			g = &m->groups[m->ngroups++];
			*g = (struct model_group){ .kind = o->kind, .rd = o->rd,
						   .wr = o->wr,
						   .append = o->append };
			memcpy(g->key, key, sizeof(key));
		}
		g->nopens++;
		for (int c = 0; c < MC_N; c++)
			g->n[c] += o->n[c];
		g->rbytes += o->rbytes;
		g->wbytes += o->wbytes;
		g->rasked += o->rasked;
	}
	return true;
}

/* Fewer opens first go last; then kind, then key: the same every time. */
static int by_weight(const void *a, const void *b)
{
	const struct model_group *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->nopens != y->nopens)
		return x->nopens > y->nopens ? -1 : 1;
	if (x->rd != y->rd || x->wr != y->wr || x->append != y->append)
		return (x->rd * 4 + x->wr * 2 + x->append) <
				       (y->rd * 4 + y->wr * 2 + y->append) ?
			       -1 :
			       1;
	return memcmp(x->key, y->key, sizeof(x->key));
}

/* Each group's files: how many, in how many directories, their size. */
static void group_files(struct model *m)
{
	int *paths = xmalloc((m->nopens + 1) * sizeof(*paths));

	for (size_t j = 0; j < m->ngroups; j++) {
		struct model_group *g = &m->groups[j];
		uint64_t sum = 0, known = 0, key[MC_N];
		size_t n = 0;

		for (size_t i = 0; i < m->nopens; i++) {
			const struct model_open *o = &m->opens[i];

			key_of(o, m->classed, key);
			if (!same(g, o, key))
				continue;
			paths[n++] = o->path;
			if (o->path >= 0 && m->psize[o->path] >= 0) {
				sum += (uint64_t)m->psize[o->path];
				known++;
			}
		}
		model_count_paths(m->t, paths, n, &g->nfiles, &g->ndirs);
		g->size = known ? (sum + known / 2) / known : 0;
		size_classes(m, paths, n, &g->sizes);
	}
	free(paths);
}

/* The files the opens touched, for the header. */
static void file_sizes(struct model *m)
{
	int *paths = xmalloc((m->nopens + 1) * sizeof(*paths));
	size_t n = 0;

	for (size_t i = 0; i < m->nopens; i++)
		if (m->opens[i].kind != MK_LIST)
			paths[n++] = m->opens[i].path;
	size_classes(m, paths, n, &m->sizes);
	model_count_paths(m->t, paths, n, &m->nfiles, &m->ndirs);
	free(paths);
}

int model_fit(struct model *m, struct trace *t)
{
	struct walk w = { .m = m };
	const struct trace_entry *e;
	size_t np, ns = trace_nstreams(t);

	*m = (struct model){ .t = t };
	trace_initial(t, &e); /* first: it may add the parents' paths */
	np = trace_npaths(t);
	m->psize = xmalloc((np + 1) * sizeof(*m->psize));
	m->stamp = xcalloc(np + 1, sizeof(*m->stamp));
	for (size_t i = 0; i < np; i++)
		m->psize[i] = -1;
	w.exists = xcalloc(np + 1, sizeof(*w.exists));
	w.open = xcalloc(ns + 1, sizeof(*w.open));
	for (size_t s = 0; s < ns; s++) {
		size_t nh = trace_stream_nhandles(t, s);

		w.open[s] = xmalloc((nh + 1) * sizeof(**w.open));
		for (size_t h = 0; h < nh; h++)
			w.open[s][h] = -1;
	}
	walk(m, &w);
	count_path_ops(m, &w);
	for (size_t s = 0; s < ns; s++)
		free(w.open[s]);
	free(w.open);
	free(w.exists);
	/* a directory opened and never read is an open of nothing: a file */
	for (size_t i = 0; i < m->nopens; i++)
		if (m->opens[i].n[MC_DENTS] > 0)
			m->opens[i].kind = MK_LIST;
	if (!group(m, false)) {
		m->classed = true;
		group(m, true);
	}
	if (m->ngroups) /* none: groups is NULL, which qsort may not take */
		qsort(m->groups, m->ngroups, sizeof(*m->groups), by_weight);
	group_files(m);
	file_sizes(m);
	for (int p = 0; p < MP_N; p++)
		if (m->path_ops[p])
			return 0;
	return m->ngroups ? 0 : -1;
}

void model_release(struct model *m)
{
	free(m->opens);
	free(m->groups);
	free(m->psize);
	free(m->stamp);
	*m = (struct model){ 0 };
}

int model_write(struct trace *t, const char *trace_name, FILE *out)
{
	struct model m;
	int rc;

	if (model_fit(&m, t) < 0) {
		model_release(&m);
		fb_error("%s: nothing to model: no operation on a file "
			 "succeeded",
			 trace_name);
		return -1;
	}
	rc = model_print(&m, trace_name, out);
	model_release(&m);
	return rc;
}
