/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The state a trace expects at its start: the ops walked in recorded
 * order (by time across streams where the trace has times), each path
 * known as absent or present at the start the first time an op tells.
 * A path an op needs before any op made it was there at the start; a
 * file's size is at least what was read from it or what a stat showed
 * before anything wrote it.  Every parent of a path that was there is a
 * directory that was there.
 */
#include "trace/trace_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum pstate { P_UNKNOWN, P_START, P_ABSENT, P_MADE, P_GONE };

struct pinfo {
	enum pstate state;
	bool dir, dirty; /* dirty: written since the start */
	bool at_start; /* there at the start, whatever happened to it after */
	bool linked; /* in its parent's list of children */
	int64_t size;
	int64_t wend; /* the end of the writes at known offsets */
	/*
	 * index + 1, 0 for none: the first child and the next sibling (the
	 * paths below a directory, walked when it is renamed or removed, at
	 * the cost of its subtree alone), and the name a directory was
	 * renamed from (what is below it now was below that name then)
	 */
	int child1, sibling1, from1;
	int orig1; /* index + 1: the name it had at the start, renamed since */
	int target1; /* index + 1: a symbolic link's, where it points */
	unsigned moved; /* from1's rename: the walk's count of renames then */
};

struct walk {
	struct trace *t;
	struct pinfo *p;
	size_t cap;
	int64_t **pos; /* per stream, per handle: the offset, -1 unknown */
	bool *begun; /* per stream: its first op walked */
	unsigned renames; /* so far */
};

static int parent_of(struct trace *t, int path)
{
	const char *s = trace_path(t, path);
	const char *slash = strrchr(s, '/');
	char *dir;
	int idx;

	if (strcmp(s, ".") == 0)
		return -1;
	if (!slash)
		return trace_intern(t, ".");
	dir = xstrndup(s, (size_t)(slash - s));
	idx = trace_intern(t, dir);
	free(dir);
	return idx;
}

/* interning a parent may grow the path table: keep the array as long */
static void grow(struct walk *w)
{
	size_t n = trace_npaths(w->t), cap = w->cap;

	if (n <= cap && w->p)
		return;
	w->p = grow_array(w->p, &cap, n + 1, sizeof(*w->p));
	memset(w->p + w->cap, 0, (cap - w->cap) * sizeof(*w->p));
	w->cap = cap;
}

/* path, and each parent it was not yet below, linked into the tree */
static void link_up(struct walk *w, int path)
{
	while (path >= 0 && !w->p[path].linked) {
		int parent = parent_of(w->t, path);

		w->p[path].linked = true;
		if (parent < 0)
			return;
		grow(w); /* the parent may be new */
		w->p[path].sibling1 = w->p[parent].child1;
		w->p[parent].child1 = path + 1;
		path = parent;
	}
}

static struct pinfo *info(struct walk *w, int path)
{
	grow(w);
	if (!w->p[path].linked)
		link_up(w, path);
	return &w->p[path];
}

/*
 * The paths below top, depth first, into *out (malloc'd, *n set):
 * linked ones only, those the trace named or their parents.
 */
static int *subtree(struct walk *w, int top, size_t *n)
{
	size_t cap = 0;
	int *out = NULL;

	*n = 0;
	for (int c = info(w, top)->child1; c; c = w->p[c - 1].sibling1) {
		out = grow_array(out, &cap, *n + 1, sizeof(*out));
		out[(*n)++] = c - 1;
	}
	/* the list grows as it is walked: each one's children appended */
	for (size_t i = 0; i < *n; i++)
		for (int c = w->p[out[i]].child1; c; c = w->p[c - 1].sibling1) {
			out = grow_array(out, &cap, *n + 1, sizeof(*out));
			out[(*n)++] = c - 1;
		}
	return out;
}

/* "to" with the part of path below "from": a/b/c from a to x is x/b/c */
static int moved_name(struct walk *w, int path, int from, int to)
{
	const char *p = trace_path(w->t, path), *t = trace_path(w->t, to);
	size_t n = strlen(trace_path(w->t, from));
	char *name;
	int idx;

	name = strcmp(t, ".") == 0 ? xstrdup(p + n + 1)
				   : xasprintf("%s%s", t, p + n);
	idx = trace_intern(w->t, name);
	free(name);
	grow(w);
	return idx;
}

static void need_before(struct walk *w, int path, bool dir, unsigned before);

/*
 * A path the trace never named, below a symbolic link the trace made
 * (a, the nearest parent it knows), or below a directory renamed here
 * from another name by a rename before
 * `before`: it was below the old name when the rename came, and there
 * at the start if that was.  A name renamed away and back is followed
 * through its renames one way only, each earlier than the last.
 */
static bool need_moved(struct walk *w, int path, bool dir, unsigned before)
{
	int a = parent_of(w->t, path), old;
	unsigned when;

	while (a >= 0 && info(w, a)->state == P_UNKNOWN)
		a = parent_of(w->t, a);
	if (a >= 0 && w->p[a].state == P_MADE && w->p[a].target1) {
		/* below a link the trace made: below where it points */
		old = moved_name(w, path, a, w->p[a].target1 - 1);
		need_before(w, old, dir, before);
		for (int q = path; q != a; q = parent_of(w->t, q), dir = true)
			info(w, q)->state = P_START; /* there, through the link */
		return true;
	}
	if (a < 0 || !w->p[a].from1 || w->p[a].moved >= before)
		return false;
	when = w->p[a].moved;
	old = moved_name(w, path, a, w->p[a].from1 - 1);
	if (info(w, old)->state == P_UNKNOWN) {
		need_before(w, old, dir, when);
		info(w, old)->state = P_GONE; /* moved away by the rename */
	}
	for (int q = path; q != a; q = parent_of(w->t, q), dir = true) {
		struct pinfo *pi = info(w, q);

		pi->dir |= dir;
		pi->state = P_START; /* there, under this name */
	}
	info(w, path)->orig1 = old + 1;
	return true;
}

static void need_before(struct walk *w, int path, bool dir, unsigned before)
{
	if (path >= 0 && info(w, path)->state == P_UNKNOWN &&
	    need_moved(w, path, dir, before))
		return;
	for (; path >= 0; path = parent_of(w->t, path), dir = true) {
		struct pinfo *pi = info(w, path);

		if (dir)
			pi->dir = true;
		if (pi->state != P_UNKNOWN)
			return;
		pi->state = P_START;
		pi->at_start = true;
	}
}

static void need(struct walk *w, int path, bool dir)
{
	need_before(w, path, dir, UINT_MAX);
}

static void absent(struct walk *w, int path)
{
	if (info(w, path)->state == P_UNKNOWN)
		info(w, path)->state = P_ABSENT;
}

static void made(struct walk *w, int path, bool dir)
{
	int parent = parent_of(w->t, path);

	absent(w, path);
	info(w, path)->state = P_MADE;
	info(w, path)->dir = dir;
	info(w, path)->from1 = 0;
	info(w, path)->target1 = 0;
	if (parent >= 0)
		need(w, parent, true);
}

/* gone, and with a directory everything beneath it */
static void gone(struct walk *w, int path, bool tree)
{
	size_t n;
	int *below;

	info(w, path)->state = P_GONE;
	if (!tree)
		return;
	below = subtree(w, path, &n);
	for (size_t i = 0; i < n; i++)
		w->p[below[i]].state = P_GONE;
	free(below);
}

/*
 * A rename of from to to: what the trace knows below from is below to
 * now, there or not as it was; from and all below it are gone.
 */
static void renamed(struct walk *w, int from, int to)
{
	bool dir = info(w, from)->dir;
	enum pstate st;
	size_t n;
	int *below;

	if (strcmp(trace_path(w->t, from), ".") == 0 ||
	    strcmp(trace_path(w->t, to), ".") == 0)
		return; /* the root is never renamed (EBUSY) */
	below = subtree(w, from, &n);

	for (size_t i = 0; i < n; i++) {
		int d = below[i], t;

		st = w->p[d].state;
		if (st == P_UNKNOWN)
			continue;
		t = moved_name(w, d, from, to);
		absent(w, t); /* nothing was there before: not at the start */
		/* P_START: there since the start, under d's name (orig1) */
		w->p[t].state = st == P_START || st == P_MADE ? st : P_GONE;
		w->p[t].orig1 = st == P_START ? d + 1 : 0;
		w->p[t].dir = w->p[d].dir;
		w->p[t].dirty = w->p[d].dirty;
		w->p[t].wend = w->p[d].wend;
		w->p[t].from1 = w->p[d].from1;
		w->p[t].moved = w->p[d].moved;
		info(w, t);
	}
	free(below);
	st = info(w, from)->state;
	gone(w, from, true);
	made(w, to, dir);
	if (st == P_START) { /* there since the start, as from */
		info(w, to)->state = P_START;
		w->p[to].orig1 = from + 1;
		w->p[to].dirty = w->p[from].dirty;
		w->p[to].wend = w->p[from].wend;
	}
	/* a name below to the trace never named was below from then */
	info(w, to)->from1 = from + 1;
	info(w, to)->moved = ++w->renames;
}

static void saw_size(struct walk *w, int path, int64_t end)
{
	struct pinfo *pi = info(w, path);
	bool renamed = false;

	/* a file renamed since the start: its size is its first name's */
	while (pi->state == P_START && !pi->at_start && pi->orig1 &&
	       !pi->dirty && !pi->wend) {
		pi = &w->p[pi->orig1 - 1];
		renamed = true;
	}
	/* beyond what it wrote, a file shows what it held at the start */
	if ((pi->state == P_START || renamed) && !pi->dirty &&
	    end > pi->wend && end > pi->size)
		pi->size = end;
}

static void on_handle(struct walk *w, size_t s, const struct trace_op *op,
		      int path)
{
	const struct trace_handle *h = trace_stream_handle(w->t, s, op->handle);
	int64_t *pos = &w->pos[s][op->handle];
	int64_t at = op->offset >= 0 ? op->offset : *pos;

	if (h->inherited && info(w, path)->state == P_UNKNOWN)
		need(w, path, false);
	switch (op->type) {
	case TOP_READ:
		if (at >= 0)
			saw_size(w, path, at + op->result);
		break;
	case TOP_WRITE:
		if (at >= 0 && at + op->result > info(w, path)->wend)
			info(w, path)->wend = at + op->result;
		else if (at < 0)
			info(w, path)->dirty = true;
		break;
	case TOP_FTRUNCATE:
		info(w, path)->dirty = true;
		break;
	case TOP_FSTAT:
		saw_size(w, path, op->result);
		break;
	case TOP_READDIR:
		info(w, path)->dir = true;
		return;
	case TOP_SEEK:
		*pos = op->offset;
		return;
	default:
		return;
	}
	if (op->offset < 0 && *pos >= 0)
		*pos = (h->flags & TRACE_O_APPEND) && op->type == TOP_WRITE
			       ? -1
			       : *pos + op->result;
}

static void on_path(struct walk *w, const struct trace_op *op)
{
	bool enoent = op->err == ENOENT;

	if (op->err && !enoent) {
		if (op->err == EEXIST)
			need(w, op->path, op->type == TOP_MKDIR);
		return;
	}
	if (enoent) {
		absent(w, op->path);
		return;
	}
	switch (op->type) {
	case TOP_OPEN:
		if ((op->flags & TRACE_O_CREAT) &&
		    info(w, op->path)->state != P_START)
			made(w, op->path, op->flags & TRACE_O_DIRECTORY);
		else
			need(w, op->path, op->flags & TRACE_O_DIRECTORY);
		if (op->flags & TRACE_O_TRUNC)
			info(w, op->path)->dirty = true;
		break;
	case TOP_STAT:
	case TOP_LSTAT:
		need(w, op->path, op->flags & TRACE_O_DIRECTORY);
		saw_size(w, op->path, op->result);
		break;
	case TOP_MKDIR:
		made(w, op->path, true);
		break;
	case TOP_UNLINK:
	case TOP_RMDIR:
		need(w, op->path, op->type == TOP_RMDIR);
		gone(w, op->path, false);
		break;
	case TOP_RENAME:
		need(w, op->path, false);
		renamed(w, op->path, op->path2);
		break;
	case TOP_LINK:
		need(w, op->path, false);
		made(w, op->path2, false);
		break;
	case TOP_SYMLINK:
		made(w, op->path, false);
		info(w, op->path)->target1 = op->path2 + 1;
		break;
	case TOP_DELTREE:
		absent(w, op->path);
		gone(w, op->path, true);
		break;
	case TOP_READDIR:
		need(w, op->path, true);
		break;
	case TOP_TRUNCATE:
		need(w, op->path, false);
		info(w, op->path)->dirty = true;
		break;
	default:
		need(w, op->path, false);
	}
	/* read through a link the trace made: what it points to was there */
	if ((op->type == TOP_OPEN || op->type == TOP_STAT) &&
	    !(op->flags & (TRACE_O_NOFOLLOW | TRACE_O_PATH | TRACE_O_CREAT)) &&
	    info(w, op->path)->state == P_MADE && w->p[op->path].target1 > 0)
		need(w, w->p[op->path].target1 - 1,
		     op->flags & TRACE_O_DIRECTORY);
}

static int by_path(const void *a, const void *b, void *t)
{
	const struct trace_entry *x = a, *y = b;

	return strcmp(trace_path(t, x->path), trace_path(t, y->path));
}

static void collect(struct trace *t, struct pinfo *p)
{
	size_t n = 0, np = trace_npaths(t);

	free(t->initial);
	t->initial = xmalloc((np + 1) * sizeof(*t->initial));
	for (size_t i = 0; i < np; i++) {
		/* what the trace removes or renames was there too */
		if (!p[i].at_start || strcmp(t->paths[i], ".") == 0)
			continue;
		t->initial[n++] = (struct trace_entry){
			.path = (int)i, .dir = p[i].dir,
			.size = p[i].dir ? 0 : p[i].size,
		};
	}
	qsort_r(t->initial, n, sizeof(*t->initial), by_path, t);
	t->ninitial = n;
}

/*
 * The replay opens a stream's inherited handles at its first op, used or
 * not (a shell's stdout it only replaces with dup2): each is there by
 * then, made earlier in the pass or at the start.
 */
static void on_begin(struct walk *w, size_t s)
{
	w->begun[s] = true;
	for (size_t h = 0; h < w->t->streams[s].nhandles; h++) {
		const struct trace_handle *th = &w->t->streams[s].handles[h];

		if (th->inherited && th->path >= 0 &&
		    info(w, th->path)->state == P_UNKNOWN)
			need(w, th->path, false);
	}
}

size_t trace_initial(struct trace *t, const struct trace_entry **entries)
{
	struct walk w = { .t = t };
	struct trace_step *refs;
	size_t n;

	if (!t->initial_done) {
		free(t->initial);
		t->initial = NULL;
		t->ninitial = 0;
		w.pos = xcalloc(t->nstreams + 1, sizeof(*w.pos));
		w.begun = xcalloc(t->nstreams + 1, sizeof(*w.begun));
		for (size_t s = 0; s < t->nstreams; s++) {
			w.pos[s] = xmalloc((t->streams[s].nhandles + 1) *
					   sizeof(int64_t));
			for (size_t h = 0; h < t->streams[s].nhandles; h++)
				w.pos[s][h] = t->streams[s].handles[h].inherited
						      ? -1
						      : 0;
		}
		refs = trace_order(t, &n);
		for (size_t k = 0; k < n; k++) {
			const struct trace_op *op =
				&t->streams[refs[k].stream].ops[refs[k].op];
			int path = op->path;

			if (!w.begun[refs[k].stream])
				on_begin(&w, refs[k].stream);
			if (op->handle >= 0) {
				path = trace_stream_handle(t, refs[k].stream,
							   op->handle)->path;
				on_handle(&w, refs[k].stream, op, path);
			}
			if (op->path >= 0)
				on_path(&w, op);
		}
		grow(&w);
		collect(t, w.p);
		for (size_t s = 0; s < t->nstreams; s++)
			free(w.pos[s]);
		free(w.pos);
		free(w.begun);
		free(w.p);
		free(refs);
		t->initial_done = true;
	}
	*entries = t->initial;
	return t->ninitial;
}
