/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Runs matched by flowop name, or refused, for fbrun compare (match.h). */
#include "compare/match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/msg.h"
#include "util/util.h"

#define MAX_LISTED 5 /* names shown in a "only in" list */
#define QUOTE_MAX 64 /* bytes of a name an error message shows */

/* A run's flowops sorted by (name, position), for matching by name. */
struct name_key {
	const char *name;
	size_t occ; /* 0 for the first flowop of this name, 1 next... */
	size_t idx; /* position in the file */
};

struct names {
	struct name_key *keys;
	size_t *occ; /* occ of each flowop, by position */
	size_t n;
};

static int cmp_key(const void *a, const void *b)
{
	const struct name_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->occ != y->occ)
		return x->occ < y->occ ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void index_names(const struct cmp_run *r, struct names *l)
{
	size_t n = r->nflowops;

	l->keys = xcalloc(n ? n : 1, sizeof(*l->keys));
	l->occ = xcalloc(n ? n : 1, sizeof(*l->occ));
	l->n = n;
	for (size_t i = 0; i < n; i++)
		l->keys[i] = (struct name_key){ r->flowops[i].name, 0, i };
	/* sorted by (name, position), then number the repeats */
	qsort(l->keys, n, sizeof(*l->keys), cmp_key);
	for (size_t i = 1; i < n; i++)
		if (strcmp(l->keys[i].name, l->keys[i - 1].name) == 0)
			l->keys[i].occ = l->keys[i - 1].occ + 1;
	for (size_t i = 0; i < n; i++)
		l->occ[l->keys[i].idx] = l->keys[i].occ;
}

static const struct name_key *find_key(const struct names *l,
				       const char *name, size_t occ)
{
	size_t lo = 0, hi = l->n;

	/* binary search on (name, occ), ignoring idx */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->keys[mid].name, name);

		if (!c)
			c = l->keys[mid].occ < occ ? -1 : l->keys[mid].occ > occ;
		if (!c)
			return &l->keys[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * A name from a results file in an error message: its first QUOTE_MAX
 * bytes (not cutting a UTF-8 character), then "..." if there is more.
 */
static void put_quoted(FILE *out, const char *s)
{
	size_t n = strnlen(s, QUOTE_MAX + 1);

	if (n <= QUOTE_MAX) {
		cmp_put_clean(out, s, n);
		return;
	}
	n = QUOTE_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	cmp_put_clean(out, s, n);
	fputs("...", out);
}

/*
 * Print up to MAX_LISTED flowops of run a (in its order) that lb lacks;
 * returns how many there are.  out NULL only counts.
 */
static size_t only_in(FILE *out, const struct cmp_run *a,
		      const struct names *la, const struct names *lb)
{
	size_t n = 0;

	for (size_t i = 0; i < la->n; i++) {
		const char *name = a->flowops[i].name;

		if (find_key(lb, name, la->occ[i]))
			continue;
		if (out && n < MAX_LISTED) {
			fputs(n ? ", " : "", out);
			put_quoted(out, name);
		}
		n++;
	}
	if (out && !n)
		fputs("none", out);
	if (out && n > MAX_LISTED)
		fprintf(out, " and %zu more", n - MAX_LISTED);
	return n;
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "?";
}

/* Why runs a and b are not comparable, as one message. */
static void refuse(const struct cmp_run *a, const struct names *la,
		   const struct cmp_run *b, const struct names *lb,
		   bool scripts)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		fb_error("%s and %s are runs of different workloads", b->path,
			 a->path);
		return;
	}
	if (scripts) {
		fprintf(f, "%s and %s are runs of different scripts (", b->path,
			a->path);
		put_quoted(f, base_name(b->script));
		fputs(" and ", f);
		put_quoted(f, base_name(a->script));
		fputs(": their script_sha256 differ)", f);
	} else {
		fprintf(f, "%s and %s ran different flowops (only in %s: ",
			b->path, a->path, b->path);
		only_in(f, b, lb, la);
		fprintf(f, "; only in %s: ", a->path);
		only_in(f, a, la, lb);
		fputs(")", f);
	}
	if (fclose(f) == 0)
		fb_error("%s", text);
	free(text);
}

/*
 * The runs of one file (fbrun --repeat, in a group) are refused once:
 * the same message for each would say nothing more.
 */
static bool said_for(const struct cmp *c, size_t i, const bool *refused)
{
	for (size_t k = 1; k < i; k++)
		if (refused[k] && c->runs[k].path && c->runs[i].path &&
		    strcmp(c->runs[k].path, c->runs[i].path) == 0)
			return true;
	return false;
}

static int check_workloads(struct cmp *c, const struct names *l, bool common)
{
	const struct cmp_run *a = &c->runs[0];
	bool *refused = xcalloc(c->nruns, sizeof(*refused));
	int rc = 0;

	c->same_script = true;
	for (size_t i = 1; i < c->nruns; i++) {
		const struct cmp_run *b = &c->runs[i];
		bool diff_sets = only_in(NULL, a, &l[0], &l[i]) ||
				 only_in(NULL, b, &l[i], &l[0]);
		bool scripts = a->script_sha256 && b->script_sha256 &&
			       strcmp(a->script_sha256, b->script_sha256) != 0;

		if (scripts)
			c->same_script = false;
		if (common || (!scripts && !diff_sets))
			continue;
		if (!said_for(c, i, refused))
			refuse(a, &l[0], b, &l[i], scripts);
		refused[i] = true;
		rc = -1;
	}
	free(refused);
	if (rc < 0)
		fb_note("use --common to compare only the flowops they share");
	return rc;
}

static int match_rows(struct cmp *c, const struct names *l)
{
	size_t n0 = c->runs[0].nflowops;

	c->rows = xcalloc(n0 ? n0 : 1, sizeof(*c->rows));
	for (size_t k = 0; k < n0; k++) {
		const char *name = c->runs[0].flowops[k].name;
		struct cmp_row row = { name, NULL };
		bool all = true;

		row.fo = xcalloc(c->nruns, sizeof(*row.fo));
		for (size_t i = 0; i < c->nruns && all; i++) {
			const struct name_key *m = find_key(&l[i], name,
							    l[0].occ[k]);

			if (m)
				row.fo[i] = &c->runs[i].flowops[m->idx];
			all = m != NULL;
		}
		if (!all) {
			free(row.fo);
			continue;
		}
		c->rows[c->nrows++] = row;
	}
	for (size_t i = 0; i < c->nruns; i++)
		c->runs[i].nleft = c->runs[i].nflowops - c->nrows;
	if (!c->nrows)
		return fb_error("the runs have no flowop in common");
	return 0;
}

int cmp_match(struct cmp *c, bool common)
{
	struct names *l = xcalloc(c->nruns, sizeof(*l));
	int rc;

	for (size_t i = 0; i < c->nruns; i++)
		index_names(&c->runs[i], &l[i]);
	rc = check_workloads(c, l, common);
	if (!rc)
		rc = match_rows(c, l);
	for (size_t i = 0; i < c->nruns; i++) {
		free(l[i].keys);
		free(l[i].occ);
	}
	free(l);
	return rc;
}

void cmp_rows_free(struct cmp *c)
{
	for (size_t r = 0; r < c->nrows; r++)
		free(c->rows[r].fo);
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}
