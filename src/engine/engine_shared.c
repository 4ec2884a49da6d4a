/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A job's shared filesets, agreed before anything is made: every rank
 * compiles the script itself (with its own -D, or its own command in an
 * MPMD launch), and each lays out the tree rank 0 makes from what it
 * compiled, so two ranks that compiled different layouts would work on
 * different trees.  The ranks send rank 0 a description of what
 * determines each shared tree; a rank that differs is named with the
 * first attribute that differs, and every rank exits 2.
 *
 * The description is one line per attribute, "index<TAB>key<TAB>value",
 * for every fileset in order: whether it is shared, and for a shared one
 * what its tree is made of (--seed among it).  The trees are laid out
 * from one random stream, the last defined first (fileset_layout.c), so a
 * fileset defined after a shared one and drawing from that stream is
 * described too.
 */
#include "engine/engine_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sys/peers.h"
#include "util/msg.h"
#include "util/paths.h"
#include "util/util.h"

/* A value as the script meant it: a randvar with its distribution. */
static void put_value(FILE *out, const struct workload *w,
		      const struct ir_value *v)
{
	const struct rv_spec *s;
	char buf[256];

	ir_value_format(buf, sizeof(buf), w, v);
	fputs(buf, out);
	if (v->kind != IRV_RAND)
		return;
	/* the layout's own generator draws it: seed and source do not count */
	s = &w->randvars[v->rv].spec;
	fprintf(out, "(%s mean=%.17g gamma=%.17g min=%.17g round=%.17g",
		rv_dist_name(s->dist), s->mean, s->gamma, s->min, s->round);
	if (s->has_max)
		fprintf(out, " max=%.17g", s->max);
	for (int i = 0; i < RV_MAXPARAM; i++)
		fprintf(out, " p%d=%.17g", i, s->param[i]);
	for (size_t i = 0; i < s->ntable; i++)
		fprintf(out, " {%.17g,%.17g,%.17g}", s->table[i].pct,
			s->table[i].min, s->table[i].max);
	fputc(')', out);
}

static void attr_int(FILE *out, size_t i, const char *key, int64_t v)
{
	fprintf(out, "%zu\t%s\t%" PRId64 "\n", i, key, v);
}

static void attr_value(FILE *out, const struct workload *w, size_t i,
		       const char *key, const struct ir_value *v)
{
	fprintf(out, "%zu\t%s\t", i, key);
	put_value(out, w, v);
	fputc('\n', out);
}

/*
 * What of a fileset decides the random numbers its layout takes from the
 * stream: entries, widths, depths, sizes.  nranks: the entries a shared
 * tree holds for each rank, as the script gave them.
 */
static void put_shape(FILE *out, const struct workload *w, size_t i,
		      int64_t nranks)
{
	const struct ir_fileset *def = &w->filesets[i];

	attr_int(out, i, "entries", def->entries / nranks);
	attr_int(out, i, "leafdirs", def->leafdirs / nranks);
	attr_value(out, w, i, "size", &def->size);
	attr_value(out, w, i, "dirwidth", &def->dirwidth);
	attr_int(out, i, "dirgamma", def->dirgamma);
	attr_value(out, w, i, "dirdepth", &def->dirdepth);
}

/*
 * Why fileset def's layout draws from the stream ("dirgamma=1500"), or
 * NULL: gamma-shaped depths or widths not taken from a randvar, or
 * cvar-gamma sizes (fileset_layout.c).
 */
static const char *draws(const struct workload *w,
			 const struct ir_fileset *def, char *buf, size_t len)
{
	if (def->dirgamma > 0 && (def->dirdepth.kind == IRV_NONE ||
				  def->dirwidth.kind != IRV_RAND)) {
		snprintf(buf, len, "dirgamma=%" PRId64, def->dirgamma);
		return buf;
	}
	if (def->size.kind == IRV_RAND &&
	    w->randvars[def->size.rv].spec.dist == RV_CV_GAMMA) {
		snprintf(buf, len, "size=$%s", w->randvars[def->size.rv].name);
		return buf;
	}
	return NULL;
}

static void describe(FILE *out, const struct workload *w, int64_t nranks,
		     uint64_t seed)
{
	const struct ir_value no = { .kind = IRV_NONE };
	bool after = false; /* a shared fileset is defined before */
	char buf[160];

	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct ir_fileset *def = &w->filesets[i];
		struct ir_value s = no;

		fprintf(out, "%zu\tshared\t%s\n", i,
			def->shared ? "true" : "false");
		if (!def->shared) {
			const char *why = after ? draws(w, def, buf, sizeof(buf)) :
						  NULL;

			if (after)
				fprintf(out, "%zu\tdraws\t%s\n", i,
					why ? why : "none");
			if (why)
				put_shape(out, w, i, 1);
			continue;
		}
		after = true;
		s.kind = IRV_STR;
		s.s = def->name;
		attr_value(out, w, i, "name", &s);
		s.s = path_lexical(def->path);
		attr_value(out, w, i, "path", &s);
		free(s.s);
		put_shape(out, w, i, def->is_file ? 1 : nranks);
		/* --seed moves its numbers, unless reuse (engine_filesets.c) */
		fprintf(out, "%zu\tseed\t%" PRIu64 "\n", i,
			def->reuse ? 0 : seed);
		attr_int(out, i, "prealloc", def->prealloc);
		if (!def->is_file)
			attr_int(out, i, "rankshift", def->rankshift);
		fprintf(out, "%zu\tverify\t%s\n", i,
			def->verify ? "true" : "false");
	}
}

/* One line of a description: its fields cut in place; false at the end. */
static bool next_line(char **pos, size_t *index, char **key, char **value)
{
	char *line = *pos, *end, *tab;

	if (!line || !*line)
		return false;
	end = strchr(line, '\n');
	*pos = end ? end + 1 : NULL;
	if (end)
		*end = '\0';
	*index = (size_t)strtoull(line, &tab, 10);
	*key = *tab ? tab + 1 : tab;
	tab = strchr(*key, '\t');
	if (!tab)
		tab = *key + strlen(*key); /* no value: an empty one */
	*value = *tab ? tab + 1 : tab;
	*tab = '\0';
	return true;
}

/* The last fileset before i that is shared on rank 0 (one there is). */
static const char *shared_before(const struct workload *w, size_t i)
{
	while (i-- > 0 && i < w->nfilesets)
		if (w->filesets[i].shared)
			return w->filesets[i].name;
	return "?";
}

/* Rank 0: the first difference of fileset i, rank r's against its own. */
static void say(const struct workload *w, size_t i, unsigned r,
		const char *key, const char *mine, const char *theirs)
{
	const char *name = w->filesets[i].name;

	if (!strcmp(key, "shared"))
		fb_error("fileset '%s' differs between ranks: rank 0 has "
			 "shared=%s, rank %u has shared=%s",
			 name, mine, r, theirs);
	else if (!strcmp(key, "seed"))
		fb_error("shared fileset '%s' differs between ranks: rank 0 "
			 "has --seed %s, rank %u has --seed %s",
			 name, mine, r, theirs);
	else if (w->filesets[i].shared)
		fb_error("shared fileset '%s' differs between ranks: rank 0 "
			 "has %s=%s, rank %u has %s=%s",
			 name, key, mine, r, key, theirs);
	else if (!strcmp(key, "draws") && !strcmp(mine, "none"))
		fb_error("shared fileset '%s' differs between ranks: its "
			 "layout takes the random numbers that fileset '%s' "
			 "(laid out first) leaves, which draws some on rank "
			 "%u (%s) and none on rank 0",
			 shared_before(w, i), name, r, theirs);
	else if (!strcmp(key, "draws") && !strcmp(theirs, "none"))
		fb_error("shared fileset '%s' differs between ranks: its "
			 "layout takes the random numbers that fileset '%s' "
			 "(laid out first) leaves, which draws some on rank 0 "
			 "(%s) and none on rank %u",
			 shared_before(w, i), name, mine, r);
	else
		fb_error("shared fileset '%s' differs between ranks: its "
			 "layout takes the random numbers that fileset '%s' "
			 "(laid out first) leaves, and there rank 0 has "
			 "%s=%s, rank %u has %s=%s",
			 shared_before(w, i), name, key, mine, r, key, theirs);
}

/*
 * Two lines alike: the same attribute and value; a fileset that draws
 * from the stream on both is described by the lines that follow (its
 * reason to draw is for the message).
 */
static bool same(const char *ka, const char *va, const char *kb,
		 const char *vb)
{
	if (strcmp(ka, kb))
		return false;
	if (!strcmp(ka, "draws"))
		return !strcmp(va, "none") == !strcmp(vb, "none");
	return !strcmp(va, vb);
}

/*
 * Rank 0: rank r's description against its own, the first difference
 * said.  Returns whether they differ.
 */
static bool differs(const struct workload *w, const char *mine,
		    const char *theirs, unsigned r)
{
	char *a = xstrdup(mine), *b = xstrdup(theirs), *pa = a, *pb = b;
	char *ka, *va, *kb, *vb;
	size_t ia, ib;
	bool more_a, more_b;

	do {
		more_a = next_line(&pa, &ia, &ka, &va);
		more_b = next_line(&pb, &ib, &kb, &vb);
	} while (more_a && more_b && ia == ib && same(ka, va, kb, vb));
	if (more_a && more_b && ia == ib && ia < w->nfilesets &&
	    !strcmp(ka, kb))
		say(w, ia, r, ka, va, vb);
	else if (more_a || more_b) /* the same script: cannot happen */
		fb_error("the filesets differ between ranks: rank 0 and rank "
			 "%u have other lists of filesets",
			 r);
	free(a);
	free(b);
	return more_a || more_b;
}

int engine_check_shared(const struct engine *e)
{
	const struct workload *w = e->w;
	const struct engine_opts *o = e->o;
	const struct engine_peers *p = e->peers;
	bool any = false;
	char *text = NULL, **all;
	size_t len = 0;
	FILE *mem;
	int rc = 0;

	for (size_t i = 0; i < w->nfilesets; i++)
		any |= w->filesets[i].shared;
	if (!p->agree(p->arg, any ? 1 : 0))
		return 0; /* no rank has one: nothing to agree on */
	if ((mem = open_memstream(&text, &len))) {
		describe(mem, w, p->nranks, o->seed);
		if (fclose(mem) != 0) {
			free(text);
			text = NULL;
		}
	}
	all = p->gather(p->arg, text ? text : "", text ? strlen(text) : 0);
	/* the first rank that differs from rank 0 is said */
	for (unsigned r = 1; all && all[0] && r < p->nranks && !rc; r++)
		if (all[r] && differs(w, all[0], all[r], r))
			rc = FB_EXIT_USAGE;
	for (unsigned r = 0; all && r < p->nranks; r++)
		free(all[r]);
	free(all);
	free(text);
	return p->agree(p->arg, rc);
}
