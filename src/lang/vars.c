/*
 * Script variables for the compiler: name -> binding, in script order
 * (vars.h).
 */
#include "lang/vars.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Open addressing over indexes into `order`; scripts may set thousands. */
struct env {
	struct binding **order;
	size_t n, cap;
	int *slots; /* -1 empty, else index into order */
	size_t nslots;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

struct env *env_new(void)
{
	struct env *e = xcalloc(1, sizeof(*e));

	e->nslots = 64;
	e->slots = xmalloc(e->nslots * sizeof(int));
	memset(e->slots, 0xff, e->nslots * sizeof(int));
	return e;
}

void binding_clear(struct binding *b)
{
	if (b->value.kind == IRV_STR)
		free(b->value.s);
	memset(&b->value, 0, sizeof(b->value));
	b->parts = NULL;
	b->set = false;
}

void env_free(struct env *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n; i++) {
		binding_clear(e->order[i]);
		free(e->order[i]->name);
		free(e->order[i]);
	}
	free(e->order);
	free(e->slots);
	free(e);
}

static int *find_slot(struct env *e, const char *name)
{
	size_t mask = e->nslots - 1, i = hash(name) & mask;

	while (e->slots[i] >= 0 && strcmp(e->order[e->slots[i]]->name, name))
		i = (i + 1) & mask;
	return &e->slots[i];
}

struct binding *env_get(struct env *e, const char *name)
{
	int *slot = find_slot(e, name);

	return *slot >= 0 ? e->order[*slot] : NULL;
}

static void rehash(struct env *e)
{
	free(e->slots);
	e->nslots *= 2;
	e->slots = xmalloc(e->nslots * sizeof(int));
	memset(e->slots, 0xff, e->nslots * sizeof(int));
	for (size_t i = 0; i < e->n; i++)
		*find_slot(e, e->order[i]->name) = (int)i;
}

struct binding *env_put(struct env *e, const char *name)
{
	int *slot = find_slot(e, name);
	struct binding *b;

	if (*slot >= 0)
		return e->order[*slot];
	b = xcalloc(1, sizeof(*b));
	b->name = xstrdup(name);
	b->loc = LOC_NONE;
	e->order = grow_array(e->order, &e->cap, e->n + 1, sizeof(*e->order));
	e->order[e->n] = b;
	*slot = (int)e->n++;
	if (e->n * 2 > e->nslots)
		rehash(e);
	return b;
}

size_t env_count(const struct env *e)
{
	return e->n;
}

struct binding *env_at(struct env *e, size_t i)
{
	return e->order[i];
}

const char *env_suggest(struct env *e, const char *name)
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
