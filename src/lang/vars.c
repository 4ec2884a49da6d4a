/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Script variables for the compiler: name -> binding, in script order
 * (vars.h).
 */
#include "lang/vars.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The bindings in script order, and a map to find them by name. */
struct env {
	struct binding **order;
	size_t n, cap;
	struct strmap *by_name; /* name -> binding; keys are the bindings' */
};

struct env *vars_env_new(void)
{
	struct env *e = xcalloc(1, sizeof(*e));

	e->by_name = strmap_new();
	return e;
}

void vars_binding_clear(struct binding *b)
{
	if (b->value.kind == IRV_STR)
		free(b->value.s);
	memset(&b->value, 0, sizeof(b->value));
	b->parts = NULL;
	b->set = false;
}

void vars_env_free(struct env *e)
{
	if (!e)
		return;
	strmap_free(e->by_name);
	for (size_t i = 0; i < e->n; i++) {
		vars_binding_clear(e->order[i]);
		free(e->order[i]->name);
		free(e->order[i]);
	}
	free(e->order);
	free(e);
}

struct binding *vars_env_get(struct env *e, const char *name)
{
	return strmap_get(e->by_name, name);
}

struct binding *vars_env_put(struct env *e, const char *name)
{
	struct binding *b = strmap_get(e->by_name, name);

	if (b)
		return b;
	b = xcalloc(1, sizeof(*b));
	b->name = xstrdup(name);
	b->loc = LOC_NONE;
	e->order = grow_array(e->order, &e->cap, e->n + 1, sizeof(*e->order));
	e->order[e->n++] = b;
	strmap_add(e->by_name, b->name, b);
	return b;
}

size_t vars_env_count(const struct env *e)
{
	return e->n;
}

struct binding *vars_env_at(struct env *e, size_t i)
{
	return e->order[i];
}

const char *vars_env_suggest(struct env *e, const char *name)
{
	const char *best = NULL;
	int best_d = 3;

	for (size_t i = 0; i < e->n; i++) {
		int d;

		if (!e->order[i]->set)
			continue;
		d = edit_distance(name, e->order[i]->name, 2);
		if (d < best_d) {
			best_d = d;
			best = e->order[i]->name;
		}
	}
	return best;
}
