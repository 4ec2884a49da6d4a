/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Composite flowops, flowops, threads and processes. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "util/util.h"

/* ------------------------------------------------------------ flowops */

static struct composite *find_composite(struct compiler *c, const char *name)
{
	/* index + 1, so that 0 is not NULL */
	uintptr_t i = c->composite_names ?
			      (uintptr_t)strmap_get(c->composite_names, name) :
			      0;

	return i ? &c->composites[i - 1] : NULL;
}

/*
 * The $locals of attrs in a map from name to attribute (NULL if there are
 * none), each given once: a repeat is an error (what: "declared" for the
 * definition, "given" for a use).
 */
static struct strmap *map_locals(struct compiler *c,
				 const struct ast_attr *attrs, const char *what)
{
	struct strmap *m = NULL;

	for (const struct ast_attr *a = attrs; a; a = a->next) {
		const struct ast_attr *first;

		if (!a->local)
			continue;
		if (!m)
			m = strmap_new();
		first = strmap_add(m, a->name, (void *)a);
		if (first) {
			diag_error(c->d, c->src, a->loc,
				   "local variable '$%s' is %s twice", a->name,
				   what);
			diag_note(c->d, c->src, first->loc, "first %s here",
				  what);
		}
	}
	return m;
}

void compile_build_composite(struct compiler *c, const struct ast_stmt *s)
{
	struct composite cp = { .def = s };
	struct composite *prev;

	if (compile_apply_attrs(c, &attr_composite, s->attrs, &cp.form, false, true,
				"define flowop", s->loc) == (uint64_t)-1) {
		free(cp.form.composite);
		return;
	}
	if (flowop_lookup(cp.form.composite) >= 0) {
		diag_error(c->d, c->src, s->loc,
			   "'%s' is a built-in flowop; give the composite "
			   "another name",
			   cp.form.composite);
		free(cp.form.composite);
		return;
	}
	if ((prev = find_composite(c, cp.form.composite))) {
		diag_error(c->d, c->src, s->loc,
			   "flowop '%s' is already defined", cp.form.composite);
		diag_note(c->d, c->src, prev->def->loc, "first defined here");
		free(cp.form.composite);
		return;
	}
	/* still defined after an error, so its uses are not unknown */
	cp.locals = map_locals(c, s->attrs, "declared");
	c->composites = grow_array(c->composites, &c->cap_composites,
				   c->ncomposites + 1, sizeof(*c->composites));
	c->composites[c->ncomposites++] = cp;
	if (!c->composite_names)
		c->composite_names = strmap_new();
	strmap_add(c->composite_names, cp.form.composite,
		   (void *)(uintptr_t)c->ncomposites);
}

/* Saved bindings of a composite's locals while its body is built. */
struct saved_local {
	struct binding *b;
	struct binding old;
};

/* Bind $locals: the define's defaults, then the instance's values. */
static size_t push_locals(struct compiler *c, const struct ast_attr *def,
			  const struct ast_attr *inst, struct saved_local **out)
{
	const struct ast_attr *lists[2] = { def, inst };
	struct saved_local *saved = NULL;
	size_t n = 0, cap = 0;

	for (int k = 0; k < 2; k++) {
		for (const struct ast_attr *a = lists[k]; a; a = a->next) {
			struct binding *b;
			struct ir_value v = { .kind = IRV_NONE };
			size_t i;

			if (!a->local)
				continue;
			if (a->value && compile_resolve_value(c, a->value, &v, NULL) < 0)
				continue;
			b = vars_env_put(c->env, a->name);
			for (i = 0; i < n && saved[i].b != b; i++)
				;
			if (i == n) {
				saved = grow_array(saved, &cap, n + 1,
						   sizeof(*saved));
				saved[n].b = b;
				saved[n++].old = *b;
				b->value = (struct ir_value){ .kind = IRV_NONE };
				b->parts = NULL;
			} else {
				vars_binding_clear(b);
			}
			b->value = v;
			b->set = v.kind != IRV_NONE;
			b->src = c->src;
			b->loc = a->loc;
			b->cli = false;
			b->used = true;
		}
	}
	*out = saved;
	return n;
}

static void pop_locals(struct saved_local *saved, size_t n)
{
	while (n-- > 0) {
		vars_binding_clear(saved[n].b);
		*saved[n].b = saved[n].old;
	}
	free(saved);
}

static struct ir_flowop *build_flowop(struct compiler *c,
				      const struct ast_stmt *s, int tidx,
				      const char *parent);

static void unknown_flowop(struct compiler *c, const struct ast_stmt *s)
{
	const char **names = xmalloc((FO_NTYPES + c->ncomposites) *
				     sizeof(*names));
	const char *hint;
	size_t n = 0;

	for (int i = 0; i < FO_NTYPES; i++)
		names[n++] = flowop_info[i].name;
	for (size_t i = 0; i < c->ncomposites; i++)
		names[n++] = c->composites[i].form.composite;
	hint = did_you_mean(s->word, names, n, sizeof(*names));
	if (hint)
		diag_error(c->d, c->src, s->word_loc,
			   "unknown flowop '%s'; did you mean '%s'?", s->word,
			   hint);
	else
		diag_error(c->d, c->src, s->word_loc,
			   "unknown flowop '%s' (fbrun --list-flowops shows "
			   "them all)",
			   s->word);
	free(names);
}

/*
 * Whether a composite being expanded can be reached from cp's body: then
 * cp uses itself through others.  Depth first over the definitions, each
 * visited once; only run when the depth limit is met.
 */
static bool leads_back(struct compiler *c, struct composite *cp)
{
	size_t n = c->ncomposites, top = 0;
	bool *seen = xcalloc(n, sizeof(*seen)), found = false;
	size_t *stack = xmalloc(n * sizeof(*stack));

	stack[top++] = (size_t)(cp - c->composites);
	seen[stack[0]] = true;
	while (top && !found) {
		const struct composite *at = &c->composites[stack[--top]];

		for (const struct ast_stmt *it = at->def->body; it && !found;
		     it = it->next) {
			struct composite *to = it->kind == AS_FLOWOP ?
						       find_composite(c, it->word) :
						       NULL;
			size_t i = to ? (size_t)(to - c->composites) : 0;

			if (!to || seen[i])
				continue;
			found = to->expanding;
			seen[i] = true;
			stack[top++] = i;
		}
	}
	free(seen);
	free(stack);
	return found;
}

/* The names of cp's locals, for "did you mean". */
static const char **local_names(const struct composite *cp, size_t *n)
{
	const char **names;

	*n = 0;
	for (const struct ast_attr *d = cp->def->attrs; d; d = d->next)
		*n += d->local;
	names = xmalloc((*n ? *n : 1) * sizeof(*names));
	*n = 0;
	for (const struct ast_attr *d = cp->def->attrs; d; d = d->next)
		if (d->local)
			names[(*n)++] = d->name;
	return names;
}

/* A use of composite cp passes only locals its definition declares, once. */
static void check_use_locals(struct compiler *c, const struct ast_stmt *s,
			     const struct composite *cp)
{
	const char **names = NULL, *hint;
	size_t n = 0;

	strmap_free(map_locals(c, s->attrs, "given"));
	for (const struct ast_attr *a = s->attrs; a; a = a->next) {
		if (!a->local || (cp->locals && strmap_get(cp->locals, a->name)))
			continue;
		if (!names)
			names = local_names(cp, &n);
		/* past the error cap, no suggestion is shown: spare the search */
		hint = diag_full(c->d) ? NULL :
					 did_you_mean(a->name, names, n,
						      sizeof(*names));
		if (hint)
			diag_error(c->d, c->src, a->loc,
				   "flowop '%s' has no local variable '$%s'; "
				   "did you mean '$%s'?",
				   s->word, a->name, hint);
		else
			diag_error(c->d, c->src, a->loc,
				   "flowop '%s' has no local variable '$%s'",
				   s->word, a->name);
		diag_note(c->d, c->src, cp->def->loc,
			  "'%s' is defined here%s", s->word,
			  n ? "" : ", with none");
	}
	free(names);
}

static int expand_composite(struct compiler *c, const struct ast_stmt *s,
			    struct composite *cp, struct ir_flowop *f,
			    int tidx)
{
	struct saved_local *saved;
	size_t nsaved, cap = 0;

	if (cp->expanding) {
		diag_error(c->d, c->src, s->word_loc, "flowop '%s' uses itself",
			   s->word);
		diag_note(c->d, c->src, cp->def->loc, "'%s' is defined here",
			  s->word);
		return -1;
	}
	if (c->composite_depth == MAX_COMPOSITE_DEPTH) {
		if (leads_back(c, cp))
			diag_error(c->d, c->src, s->word_loc,
				   "flowop '%s' uses itself through other "
				   "composites",
				   s->word);
		else
			diag_error(c->d, c->src, s->word_loc,
				   "composite flowops nested more than %d "
				   "deep",
				   MAX_COMPOSITE_DEPTH);
		diag_note(c->d, c->src, cp->def->loc, "'%s' is defined here",
			  s->word);
		return -1;
	}
	c->composite_depth++;
	cp->expanding = true;
	nsaved = push_locals(c, cp->def->attrs, s->attrs, &saved);
	for (const struct ast_stmt *it = cp->def->body; it; it = it->next) {
		struct ir_flowop *child;

		if (it->kind != AS_FLOWOP) {
			diag_error(c->d, c->src, it->loc,
				   "only flowops may appear in 'define "
				   "flowop'");
			continue;
		}
		child = build_flowop(c, it, tidx, f->name);
		if (!child) {
			c->w->threads[tidx].broken = true;
			continue;
		}
		f->children = grow_array(f->children, &cap, f->nchildren + 1,
					 sizeof(*f->children));
		f->children[f->nchildren++] = child;
	}
	pop_locals(saved, nsaved);
	cp->expanding = false;
	c->composite_depth--;
	if (!cp->def->body)
		diag_error(c->d, c->src, cp->def->loc,
			   "'define flowop' needs a { flowop ... } body with "
			   "at least one flowop");
	return 0;
}

/*
 * arrivals= and backlog= say how an open loop's arrivals come and wait:
 * given without rate= on the same entity they would do nothing, so they
 * are errors, as a typo is.
 */
static bool check_open_loop(struct compiler *c, const struct ast_attr *attrs,
			    const struct ir_rate *r, const char *entity)
{
	bool ok = true;

	if (r->per_sec > 0)
		return true;
	for (const struct ast_attr *a = attrs; a; a = a->next)
		if (!a->local && (strcmp(a->name, "arrivals") == 0 ||
				  strcmp(a->name, "backlog") == 0)) {
			diag_error(c->d, c->src, a->loc,
				   "attribute '%s' needs rate= on the same "
				   "%s: it says how an open loop's arrivals %s",
				   a->name, entity,
				   a->name[0] == 'a' ? "come" : "wait");
			ok = false;
		}
	return ok;
}

/* A composite's children are named "<parent>.<name>". */
static struct ir_flowop *build_flowop(struct compiler *c,
				      const struct ast_stmt *s, int tidx,
				      const char *parent)
{
	int type = flowop_lookup(s->word);
	struct composite *cp = type < 0 ? find_composite(c, s->word) : NULL;
	struct ir_flowop *f;
	char what[96];
	uint64_t given;
	char *name;

	if (type < 0 && !cp) {
		unknown_flowop(c, s);
		return NULL;
	}
	f = ir_flowop_new();
	snprintf(what, sizeof(what), "flowop %s", s->word);
	given = compile_apply_attrs(c, &attr_flowop, s->attrs, f, false, cp != NULL,
				    what, s->loc);
	if (given == (uint64_t)-1) {
		ir_flowop_free(f);
		return NULL;
	}
	f->type = cp ? FO_COMPOSITE : (enum flowop_type)type;
	f->loc = s->loc;
	f->thread = tidx;
	if (parent) {
		/* memcpy: deep nesting makes these long, and printf is slow */
		size_t np = strlen(parent), nn = strlen(f->name);

		name = xmalloc(np + 1 + nn + 1);
		memcpy(name, parent, np);
		name[np] = '.';
		memcpy(name + np + 1, f->name, nn + 1);
		free(f->name);
		f->name = name;
	}
	if (given & FA(ROTATEFD))
		f->opennext = true;
	if (parent && f->rate.per_sec > 0)
		diag_error(c->d, c->src, f->rate.loc,
			   "rate= is for a thread's own flowops, not those of "
			   "a 'define flowop': give it to '%s', which uses this "
			   "one",
			   parent);
	check_open_loop(c, s->attrs, &f->rate, "flowop");
	if (!cp) {
		uint64_t unused = given & ~flowop_info[type].uses &
				  ~FA(ROTATEFD);

		for (const struct ast_attr *a = s->attrs; a; a = a->next) {
			const struct attr_spec *sp =
				a->local ? NULL : attr_lookup(&attr_flowop, a->name);

			if (sp && (unused & (UINT64_C(1)
					     << (sp - attr_flowop.specs))))
				diag_warning(c->d, c->src, a->loc,
					     "attribute '%s' has no effect on "
					     "flowop '%s'",
					     a->name, s->word);
		}
		workload_add_flowop(c->w, f, &c->cap_flowops);
		if (f->type == FO_REPLAY)
			compile_replay_rows(c, f, s);
		return f;
	}
	f->composite = xstrdup(cp->form.composite);
	if (!(given & FA(ITERS)))
		f->iters = cp->form.iters;
	workload_add_flowop(c->w, f, &c->cap_flowops);
	check_use_locals(c, s, cp);
	expand_composite(c, s, cp, f, tidx);
	return f;
}

/* ------------------------------------------------------------ processes */

/*
 * A flowop's rate= in a thread whose passes are arrivals already (its
 * own rate= or its process's) would pace one loop twice.
 */
static void check_rated_flowop(struct compiler *c, const struct ir_flowop *f,
			       const struct ir_thread *t,
			       const struct ir_process *p)
{
	const struct ir_rate *r = t->rate.per_sec > 0 ? &t->rate : &p->rate;

	if (r->per_sec <= 0)
		return;
	diag_error(c->d, c->src, f->rate.loc,
		   "flowop '%s' has rate=, but each pass of thread '%s' is an "
		   "arrival already (rate= of its %s): give rate= to one of "
		   "them",
		   f->name, t->name, r == &t->rate ? "thread" : "process");
	diag_note(c->d, c->src, r->loc, "that rate= is here");
}

/* names: the process's thread names so far (name -> index + 1) */
static void build_thread(struct compiler *c, const struct ast_stmt *s,
			 int pidx, struct strmap *names)
{
	struct workload *w = c->w;
	struct ir_thread t;
	size_t cap = 0;
	uintptr_t prev;
	int tidx = (int)w->nthreads;

	memset(&t, 0, sizeof(t));
	if (compile_apply_attrs(c, &attr_thread, s->attrs, &t, false, false,
				"thread", s->loc) == (uint64_t)-1) {
		free(t.name);
		return;
	}
	t.loc = s->loc;
	t.process = pidx;
	check_open_loop(c, s->attrs, &t.rate, "thread");
	if (t.rate.per_sec > 0 && w->processes[pidx].rate.per_sec > 0) {
		diag_error(c->d, c->src, t.rate.loc,
			   "thread '%s' has rate= and so has its process '%s': "
			   "give it to one of them",
			   t.name, w->processes[pidx].name);
		diag_note(c->d, c->src, w->processes[pidx].rate.loc,
			  "the process's rate= is here");
	}
	prev = (uintptr_t)strmap_add(names, t.name,
				     (void *)(uintptr_t)(tidx + 1));
	if (prev) {
		diag_error(c->d, c->src, s->loc,
			   "thread '%s' is already defined in process '%s'",
			   t.name, w->processes[pidx].name);
		diag_note(c->d, c->src, w->threads[prev - 1].loc,
			  "first defined here");
	}
	/* Register first: flowops refer to the thread by index. */
	t.flowop_first = w->nflowops;
	w->threads = grow_array(w->threads, &c->cap_threads, w->nthreads + 1,
				sizeof(t));
	w->threads[w->nthreads++] = t;
	for (const struct ast_stmt *it = s->body; it; it = it->next) {
		struct ir_flowop *f;
		struct ir_thread *th = &w->threads[tidx];

		if (it->kind != AS_FLOWOP) {
			diag_error(c->d, c->src, it->loc,
				   "a thread cannot contain a thread");
			continue;
		}
		f = build_flowop(c, it, tidx, NULL);
		th = &w->threads[tidx];
		if (!f) {
			th->broken = true;
			continue;
		}
		if (f->rate.per_sec > 0)
			check_rated_flowop(c, f, th, &w->processes[pidx]);
		th->flowops = grow_array(th->flowops, &cap, th->nflowops + 1,
					 sizeof(*th->flowops));
		th->flowops[th->nflowops++] = f;
	}
	w->threads[tidx].flowop_end = w->nflowops;
	if (s->body_loc.start < 0)
		diag_error(c->d, c->src, s->loc,
			   "thread '%s' needs a { flowop ... } body", t.name);
	else if (!s->body)
		diag_error(c->d, c->src, s->body_loc,
			   "thread '%s' has no flowops", t.name);
}

void compile_build_process(struct compiler *c, const struct ast_stmt *s)
{
	struct workload *w = c->w;
	struct ir_process p;
	struct strmap *names;
	uintptr_t prev;
	int pidx = (int)w->nprocesses;

	memset(&p, 0, sizeof(p));
	if (compile_apply_attrs(c, &attr_process, s->attrs, &p, false, false,
				"define process", s->loc) == (uint64_t)-1) {
		free(p.name);
		return;
	}
	p.loc = s->loc;
	p.first_thread = (int)w->nthreads;
	check_open_loop(c, s->attrs, &p.rate, "process");
	prev = (uintptr_t)strmap_get(c->process_names, p.name);
	if (prev) {
		diag_error(c->d, c->src, s->loc,
			   "process '%s' is already defined", p.name);
		diag_note(c->d, c->src, w->processes[prev - 1].loc,
			  "first defined here");
	}
	w->processes = grow_array(w->processes, &c->cap_processes,
				  w->nprocesses + 1, sizeof(p));
	w->processes[w->nprocesses++] = p;
	if (!prev)
		strmap_add(c->process_names, w->processes[pidx].name,
			   (void *)(uintptr_t)(pidx + 1));
	names = strmap_new();
	for (const struct ast_stmt *it = s->body; it; it = it->next) {
		if (it->kind == AS_THREAD)
			build_thread(c, it, pidx, names);
		else
			diag_error(c->d, c->src, it->loc,
				   "a flowop must be inside a thread: define "
				   "process name=... { thread name=... { "
				   "flowop ... } }");
	}
	strmap_free(names);
	w->processes[pidx].nthreads = (int)w->nthreads - p.first_thread;
	if (s->body_loc.start < 0)
		diag_error(c->d, c->src, s->loc,
			   "define process needs a { thread ... } body");
	else if (!s->body)
		diag_error(c->d, c->src, s->body_loc,
			   "process '%s' has no threads", p.name);
}
