/* The statement-level half of the compiler: order, defines, references. */
#include "compile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "util.h"

static const char *const entities[] = { "fileset", "file", "process",
					"flowop", "randvar" };

/* ------------------------------------------------------------ helpers */

static int64_t want_int(struct compiler *c, const struct ast_value *v,
			const char *what, int64_t min, bool *ok)
{
	struct ir_value iv;
	struct origin org;

	if (resolve_value(c, v, &iv, &org) < 0) {
		*ok = false;
		return 0;
	}
	if (iv.kind == IRV_INT && iv.i >= min)
		return iv.i;
	if (iv.kind == IRV_INT)
		diag_error(c->d, c->src, v->loc,
			   "%s must be at least %" PRId64 ", got %" PRId64,
			   what, min, iv.i);
	else
		diag_error(c->d, c->src, v->loc, "%s must be an integer",
			   what);
	note_origin(c, &org);
	if (iv.kind == IRV_STR)
		free(iv.s);
	*ok = false;
	return 0;
}

/* Text of echo/system: a quoted string, a word or a variable. */
static char *want_text(struct compiler *c, const struct ast_value *v)
{
	struct ir_value iv;
	char buf[64];

	if (resolve_value(c, v, &iv, NULL) < 0)
		return NULL;
	switch (iv.kind) {
	case IRV_STR:
		return iv.s;
	case IRV_INT:
		return xasprintf("%" PRId64, iv.i);
	case IRV_BOOL:
		return xstrdup(iv.i ? "true" : "false");
	default:
		ir_value_format(buf, sizeof(buf), c->w, &iv);
		return xstrdup(buf);
	}
}

static struct ir_stmt *add_stmt(struct compiler *c, enum ir_stmt_kind kind,
				struct loc loc)
{
	struct workload *w = c->w;

	w->stmts = xrealloc(w->stmts, (w->nstmts + 1) * sizeof(*w->stmts));
	w->stmts[w->nstmts] = (struct ir_stmt){ .kind = kind, .loc = loc };
	return &w->stmts[w->nstmts++];
}

/* ------------------------------------------------------------ set */

static void set_var(struct compiler *c, const struct ast_stmt *s)
{
	struct binding *b = env_put(c->env, s->word);
	const struct ast_value *v = s->value;
	struct ir_value iv;
	struct binding *from;
	int rv;

	if (b->cli) {
		b->used = true;
		return; /* -D wins over the script */
	}
	switch (v->kind) {
	case AV_RANDVAR:
	case AV_CVAR:
		rv = build_randvar(c, s->word, v->attrs, v->kind == AV_CVAR,
				   v->loc);
		if (rv < 0)
			return;
		binding_clear(b);
		b->value = (struct ir_value){ .kind = IRV_RAND, .rv = rv,
					      .loc = v->loc };
		break;
	case AV_STRING:
		binding_clear(b);
		b->parts = v->parts; /* expanded where it is used */
		break;
	case AV_VAR:
		from = env_get(c->env, v->s);
		if (from && from->set && from->parts) {
			from->used = true;
			binding_clear(b);
			b->parts = from->parts;
			break;
		}
		/* fall through */
	default:
		if (resolve_value(c, v, &iv, NULL) < 0)
			return;
		binding_clear(b);
		b->value = iv;
		break;
	}
	b->set = true;
	b->src = c->src;
	b->loc = s->word_loc;
}

/* The 1.4 form `define randvar name=$x, type=...`. */
static void old_randvar(struct compiler *c, const struct ast_stmt *s)
{
	const struct ast_attr *name = ast_attr_find(s->attrs, "name");
	struct ast_stmt tmp;
	struct ast_value val;
	struct ast_attr *copies;
	size_t n = 0;

	if (!name || !name->value || name->value->kind != AV_VAR) {
		diag_error(c->d, c->src, s->loc,
			   "define randvar needs name=$variable");
		return;
	}
	diag_warning(c->d, c->src, s->loc,
		     "'define randvar' is the old form; write 'set $%s = "
		     "randvar(type=..., ...)'",
		     name->value->s);
	/* the same attributes without name=, as shallow copies */
	for (const struct ast_attr *a = s->attrs; a; a = a->next)
		n += a != name;
	copies = xcalloc(n ? n : 1, sizeof(*copies));
	n = 0;
	for (const struct ast_attr *a = s->attrs; a; a = a->next) {
		if (a == name)
			continue;
		copies[n] = *a;
		copies[n].next = NULL;
		if (n > 0)
			copies[n - 1].next = &copies[n];
		n++;
	}
	memset(&val, 0, sizeof(val));
	val.kind = AV_RANDVAR;
	val.loc = s->loc;
	val.attrs = n > 0 ? copies : NULL;
	tmp = *s;
	tmp.word = name->value->s;
	tmp.word_loc = name->value->loc;
	tmp.value = &val;
	set_var(c, &tmp);
	free(copies);
}

static void set_mode(struct compiler *c, const struct ast_stmt *s)
{
	const struct ast_value *w1 = s->words, *w2 = w1 ? w1->next : NULL;
	static const char *const quits[] = { "timeout", "alldone",
					     "firstdone" };

	if (strcmp(s->word, "mode") != 0) {
		diag_error(c->d, c->src, s->word_loc,
			   "expected 'set $variable = value' or 'set mode "
			   "...', got 'set %s'",
			   s->word);
		return;
	}
	if (strcmp(w1->s, "nousestats") == 0 && !w2) {
		c->w->nousestats = true;
		return;
	}
	if (strcmp(w1->s, "quit") == 0 && w2 && !w2->next) {
		for (size_t i = 0; i < ARRAY_SIZE(quits); i++)
			if (strcmp(w2->s, quits[i]) == 0) {
				c->w->quit = (enum ir_quit)i;
				return;
			}
		diag_error(c->d, c->src, w2->loc,
			   "unknown quit mode '%s'; expected timeout, alldone "
			   "or firstdone",
			   w2->s);
		return;
	}
	diag_error(c->d, c->src, w1->loc,
		   "unknown mode; expected 'set mode quit timeout|alldone|"
		   "firstdone' or 'set mode nousestats'");
}

/* ------------------------------------------------------------ filesets */

static void fileset_release(struct ir_fileset *fs)
{
	free(fs->name);
	free(fs->path);
}

static int find_fileset(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->nfilesets; i++)
		if (strcmp(w->filesets[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The obsolete filesizegamma=N: gamma-shaped sizes around size. */
static void filesizegamma(struct compiler *c, const struct ast_stmt *s,
			  struct ir_fileset *fs)
{
	const struct ast_attr *a = ast_attr_find(s->attrs, "filesizegamma");
	struct ir_value v;
	struct rv_spec spec = { 0 };
	char err[160];

	if (!a || !a->value || resolve_value(c, a->value, &v, NULL) < 0)
		return;
	if (v.kind != IRV_INT || v.i <= 0 || fs->size.kind != IRV_INT)
		return;
	spec.dist = RV_GAMMA;
	spec.src = RV_SRC_URANDOM;
	spec.mean = (double)fs->size.i;
	spec.gamma = (double)v.i;
	if (rv_spec_check(&spec, err, sizeof(err)) < 0)
		return;
	c->w->randvars = xrealloc(c->w->randvars, (c->w->nrandvars + 1) *
							  sizeof(struct ir_randvar));
	c->w->randvars[c->w->nrandvars] = (struct ir_randvar){
		xasprintf("%s.size", fs->name), a->loc, spec
	};
	fs->size.kind = IRV_RAND;
	fs->size.rv = (int)c->w->nrandvars++;
}

static void build_fileset(struct compiler *c, const struct ast_stmt *s)
{
	struct workload *w = c->w;
	struct ir_fileset fs;
	bool is_file = strcmp(s->word, "file") == 0;
	const struct ast_attr *dd;
	int prev;

	memset(&fs, 0, sizeof(fs));
	if (apply_attrs(c, &fileset_attrs, s->attrs, &fs, is_file, false,
			is_file ? "define file" : "define fileset",
			s->loc) == (uint64_t)-1) {
		if (fs.name) {
			c->bad_filesets = xrealloc(c->bad_filesets,
						   (c->nbad_filesets + 1) *
							   sizeof(char *));
			c->bad_filesets[c->nbad_filesets++] = fs.name;
			fs.name = NULL;
		}
		fileset_release(&fs);
		return;
	}
	fs.loc = s->loc;
	fs.is_file = is_file;
	if (is_file) {
		fs.entries = 1;
		fs.dirgamma = 0;
		fs.dirwidth = (struct ir_value){ .kind = IRV_INT, .i = 1 };
	} else if (fs.dirwidth.kind == IRV_NONE) {
		diag_warning(c->d, c->src, s->loc,
			     "fileset '%s' has no dirwidth; all its files go "
			     "in one directory",
			     fs.name);
		fs.dirwidth = (struct ir_value){
			.kind = IRV_INT, .i = fs.entries > 0 ? fs.entries : 1
		};
	}
	dd = ast_attr_find(s->attrs, "dirdepth");
	if (dd && dd->value && fs.dirdepth.kind == IRV_NONE)
		resolve_value(c, dd->value, &fs.dirdepth, NULL);
	filesizegamma(c, s, &fs);
	if (fs.readonly && fs.writeonly)
		diag_error(c->d, c->src, s->loc,
			   "fileset '%s' cannot be both readonly and "
			   "writeonly",
			   fs.name);
	if (fs.path && fs.path[0] == '\0')
		diag_error(c->d, c->src, s->loc, "fileset '%s' has an empty path",
			   fs.name);
	prev = find_fileset(w, fs.name);
	if (prev >= 0) {
		diag_error(c->d, c->src, s->loc,
			   "fileset '%s' is already defined", fs.name);
		diag_note(c->d, c->src, w->filesets[prev].loc,
			  "first defined here");
		fileset_release(&fs);
		return;
	}
	w->filesets = xrealloc(w->filesets,
			       (w->nfilesets + 1) * sizeof(*w->filesets));
	w->filesets[w->nfilesets++] = fs;
}

/* ------------------------------------------------------------ flowops */

static struct composite *find_composite(struct compiler *c, const char *name)
{
	for (size_t i = 0; i < c->ncomposites; i++)
		if (strcmp(c->composites[i].form.composite, name) == 0)
			return &c->composites[i];
	return NULL;
}

static void build_composite(struct compiler *c, const struct ast_stmt *s)
{
	struct composite cp = { .def = s };
	struct composite *prev;

	if (apply_attrs(c, &composite_attrs, s->attrs, &cp.form, false, true,
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
	c->composites = xrealloc(c->composites, (c->ncomposites + 1) *
							sizeof(*c->composites));
	c->composites[c->ncomposites++] = cp;
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
			if (a->value && resolve_value(c, a->value, &v, NULL) < 0)
				continue;
			b = env_put(c->env, a->name);
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
				binding_clear(b);
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
		binding_clear(saved[n].b);
		*saved[n].b = saved[n].old;
	}
	free(saved);
}

static void register_flowop(struct compiler *c, struct ir_flowop *f)
{
	struct workload *w = c->w;

	f->id = (int)w->nflowops;
	w->flowops = xrealloc(w->flowops, (w->nflowops + 1) * sizeof(*w->flowops));
	w->flowops[w->nflowops++] = f;
}

static struct ir_flowop *build_flowop(struct compiler *c,
				      const struct ast_stmt *s, int tidx,
				      const char *prefix);

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

static int expand_composite(struct compiler *c, const struct ast_stmt *s,
			    struct composite *cp, struct ir_flowop *f,
			    int tidx)
{
	struct saved_local *saved;
	size_t nsaved, cap = 0;
	char *prefix;

	for (size_t i = 0; i < c->nexpanding; i++)
		if (strcmp(c->expanding[i], cp->form.composite) == 0) {
			diag_error(c->d, c->src, s->word_loc,
				   "flowop '%s' uses itself", s->word);
			diag_note(c->d, c->src, cp->def->loc,
				  "'%s' is defined here", s->word);
			return -1;
		}
	c->expanding = grow_array(c->expanding, &c->cap_expanding,
				  c->nexpanding + 1, sizeof(*c->expanding));
	c->expanding[c->nexpanding++] = cp->form.composite;
	nsaved = push_locals(c, cp->def->attrs, s->attrs, &saved);
	prefix = xasprintf("%s.", f->name);
	for (const struct ast_stmt *it = cp->def->body; it; it = it->next) {
		struct ir_flowop *child;

		if (it->kind != AS_FLOWOP) {
			diag_error(c->d, c->src, it->loc,
				   "only flowops may appear in 'define "
				   "flowop'");
			continue;
		}
		child = build_flowop(c, it, tidx, prefix);
		if (!child) {
			c->w->threads[tidx].broken = true;
			continue;
		}
		f->children = grow_array(f->children, &cap, f->nchildren + 1,
					 sizeof(*f->children));
		f->children[f->nchildren++] = child;
	}
	free(prefix);
	pop_locals(saved, nsaved);
	c->nexpanding--;
	if (!cp->def->body)
		diag_error(c->d, c->src, cp->def->loc,
			   "'define flowop' needs a { flowop ... } body with "
			   "at least one flowop");
	return 0;
}

static struct ir_flowop *build_flowop(struct compiler *c,
				      const struct ast_stmt *s, int tidx,
				      const char *prefix)
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
	f = xcalloc(1, sizeof(*f));
	snprintf(what, sizeof(what), "flowop %s", s->word);
	given = apply_attrs(c, &flowop_attrs, s->attrs, f, false, cp != NULL,
			    what, s->loc);
	if (given == (uint64_t)-1) {
		ir_flowop_free(f);
		return NULL;
	}
	f->type = cp ? FO_COMPOSITE : (enum flowop_type)type;
	f->loc = s->loc;
	f->thread = tidx;
	if (prefix) {
		name = xasprintf("%s%s", prefix, f->name);
		free(f->name);
		f->name = name;
	}
	if (given & FA(ROTATEFD))
		f->opennext = true;
	if (!cp) {
		unsigned unused = (unsigned)given & ~flowop_info[type].uses &
				  ~FA(ROTATEFD);

		for (const struct ast_attr *a = s->attrs; a; a = a->next) {
			const struct attr_spec *sp =
				a->local ? NULL : attr_lookup(&flowop_attrs, a->name);

			if (sp && (unused & (1u << (sp - flowop_attrs.specs))))
				diag_warning(c->d, c->src, a->loc,
					     "attribute '%s' has no effect on "
					     "flowop '%s'",
					     a->name, s->word);
		}
		register_flowop(c, f);
		return f;
	}
	f->composite = xstrdup(cp->form.composite);
	if (!(given & FA(ITERS)))
		f->iters = cp->form.iters;
	register_flowop(c, f);
	expand_composite(c, s, cp, f, tidx);
	return f;
}

/* ------------------------------------------------------------ processes */

static void build_thread(struct compiler *c, const struct ast_stmt *s,
			 int pidx)
{
	struct workload *w = c->w;
	struct ir_thread t;
	size_t cap = 0;
	int tidx = (int)w->nthreads;

	memset(&t, 0, sizeof(t));
	if (apply_attrs(c, &thread_attrs, s->attrs, &t, false, false,
			"thread", s->loc) == (uint64_t)-1) {
		free(t.name);
		return;
	}
	t.loc = s->loc;
	t.process = pidx;
	for (int i = w->processes[pidx].first_thread; i < tidx; i++)
		if (strcmp(w->threads[i].name, t.name) == 0) {
			diag_error(c->d, c->src, s->loc,
				   "thread '%s' is already defined in process "
				   "'%s'",
				   t.name, w->processes[pidx].name);
			diag_note(c->d, c->src, w->threads[i].loc,
				  "first defined here");
		}
	/* Register first: flowops refer to the thread by index. */
	w->threads = xrealloc(w->threads, (w->nthreads + 1) * sizeof(t));
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
		th->flowops = grow_array(th->flowops, &cap, th->nflowops + 1,
					 sizeof(*th->flowops));
		th->flowops[th->nflowops++] = f;
	}
	if (s->body_loc.start < 0)
		diag_error(c->d, c->src, s->loc,
			   "thread '%s' needs a { flowop ... } body", t.name);
	else if (!s->body)
		diag_error(c->d, c->src, s->body_loc,
			   "thread '%s' has no flowops", t.name);
}

static void build_process(struct compiler *c, const struct ast_stmt *s)
{
	struct workload *w = c->w;
	struct ir_process p;
	int pidx = (int)w->nprocesses;

	memset(&p, 0, sizeof(p));
	if (apply_attrs(c, &process_attrs, s->attrs, &p, false, false,
			"define process", s->loc) == (uint64_t)-1) {
		free(p.name);
		return;
	}
	p.loc = s->loc;
	p.first_thread = (int)w->nthreads;
	for (int i = 0; i < pidx; i++)
		if (strcmp(w->processes[i].name, p.name) == 0) {
			diag_error(c->d, c->src, s->loc,
				   "process '%s' is already defined", p.name);
			diag_note(c->d, c->src, w->processes[i].loc,
				  "first defined here");
		}
	w->processes = xrealloc(w->processes, (w->nprocesses + 1) * sizeof(p));
	w->processes[w->nprocesses++] = p;
	for (const struct ast_stmt *it = s->body; it; it = it->next) {
		if (it->kind == AS_THREAD)
			build_thread(c, it, pidx);
		else
			diag_error(c->d, c->src, it->loc,
				   "a flowop must be inside a thread: define "
				   "process name=... { thread name=... { "
				   "flowop ... } }");
	}
	w->processes[pidx].nthreads = (int)w->nthreads - p.first_thread;
	if (s->body_loc.start < 0)
		diag_error(c->d, c->src, s->loc,
			   "define process needs a { thread ... } body");
	else if (!s->body)
		diag_error(c->d, c->src, s->body_loc,
			   "process '%s' has no threads", p.name);
}

/* ------------------------------------------------------------ checks */

static void resolve_fileset(struct compiler *c, struct ir_flowop *f)
{
	struct workload *w = c->w;
	const char *hint;

	if (!f->fileset.name)
		return;
	f->fileset.index = find_fileset(w, f->fileset.name);
	if (f->fileset.index >= 0)
		return;
	for (size_t i = 0; i < c->nbad_filesets; i++)
		if (strcmp(c->bad_filesets[i], f->fileset.name) == 0)
			return; /* its define was reported already */
	hint = w->nfilesets ? did_you_mean(f->fileset.name,
					   &w->filesets[0].name, w->nfilesets,
					   sizeof(w->filesets[0])) :
			      NULL;
	if (hint)
		diag_error(c->d, c->src, f->fileset.loc,
			   "no fileset named '%s'; did you mean '%s'?",
			   f->fileset.name, hint);
	else
		diag_error(c->d, c->src, f->fileset.loc,
			   "no fileset named '%s'", f->fileset.name);
}

static bool moves_data(const struct ir_flowop *f)
{
	enum flowop_class cls = f->type < FO_NTYPES ?
					flowop_info[f->type].cls : FC_OTHER;

	return cls == FC_READ || cls == FC_WRITE || cls == FC_AIO;
}

/* target=: the same thread first, then anywhere. */
static void resolve_target(struct compiler *c, struct ir_flowop *f)
{
	struct workload *w = c->w;
	struct ir_flowop *t = NULL;
	const char *want = NULL;

	if (!f->target.name)
		return;
	for (size_t i = 0; i < w->nflowops && !t; i++)
		if (w->flowops[i]->thread == f->thread &&
		    strcmp(w->flowops[i]->name, f->target.name) == 0)
			t = w->flowops[i];
	for (size_t i = 0; i < w->nflowops && !t; i++)
		if (strcmp(w->flowops[i]->name, f->target.name) == 0)
			t = w->flowops[i];
	if (!t) {
		diag_error(c->d, c->src, f->target.loc,
			   "no flowop named '%s'", f->target.name);
		return;
	}
	f->target.index = t->id;
	switch (f->type) {
	case FO_WAKEUP:
		if (t->type != FO_BLOCK)
			want = "a block flowop";
		break;
	case FO_SEMPOST:
		if (t->type != FO_SEMBLOCK)
			want = "a semblock flowop";
		break;
	case FO_IOPSLIMIT:
	case FO_BWLIMIT:
		if (!moves_data(t))
			want = "a flowop that reads or writes";
		break;
	default:
		break;
	}
	if (want) {
		diag_error(c->d, c->src, f->target.loc,
			   "target of '%s' must be %s; '%s' is %s",
			   flowop_info[f->type].name, want, t->name,
			   t->type < FO_NTYPES ? flowop_info[t->type].name :
						 "a composite flowop");
		diag_note(c->d, c->src, t->loc, "'%s' is defined here",
			  t->name);
	}
}

struct slot {
	bool opened;
	int fileset; /* of openfile/createfile; -1 none, -2 they disagree */
};

static void check_flowop(struct compiler *c, struct ir_flowop *f,
			 const struct ir_thread *t, struct slot *slots,
			 bool slot0_rotates)
{
	struct workload *w = c->w;
	const struct flowop_info *fi = &flowop_info[f->type];
	int64_t slot = f->fd >= 0 ? f->fd : 0;
	bool has_slot = slots[slot].opened || (f->fd < 0 && slot0_rotates);
	const struct ir_fileset *fs =
		f->fileset.index >= 0 ? &w->filesets[f->fileset.index] : NULL;

	if ((fi->needs & NEED_FILESET) && !f->fileset.name)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs filesetname=", f->name,
			   fi->name);
	if ((fi->needs & NEED_FD) && !has_slot) {
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) uses fd %" PRId64
			   ", which no openfile or createfile in thread '%s' "
			   "opens",
			   f->name, fi->name, slot, t->name);
	}
	if ((fi->needs & NEED_FILE) && !f->fileset.name && !has_slot)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) has no file: give filesetname= "
			   "or an fd that openfile or createfile opens in "
			   "thread '%s'",
			   f->name, fi->name, t->name);
	if ((fi->needs & NEED_FILE) && fs && f->fd >= 0 &&
	    slots[slot].opened && slots[slot].fileset >= 0 &&
	    slots[slot].fileset != f->fileset.index)
		diag_error(c->d, c->src, f->fileset.loc,
			   "flowop '%s' names fileset '%s' but fd %" PRId64
			   " holds files of fileset '%s'",
			   f->name, fs->name, slot,
			   w->filesets[slots[slot].fileset].name);
	if (f->srcfd >= 0 && !slots[f->srcfd].opened)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' uses srcfd %" PRId64
			   ", which no openfile or createfile in thread '%s' "
			   "opens",
			   f->name, f->srcfd, t->name);
	if ((fi->needs & NEED_IOSIZE) && f->iosize.kind == IRV_NONE)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs iosize=", f->name,
			   fi->name);
	else if ((fi->needs & NEED_IOSIZE) && f->iosize.kind == IRV_INT &&
		 f->iosize.i == 0)
		diag_error(c->d, c->src, f->iosize.loc,
			   "iosize of flowop '%s' must be greater than 0",
			   f->name);
	if (t->memsize > 0 && f->iosize.kind == IRV_INT &&
	    f->iosize.i > t->memsize)
		diag_error(c->d, c->src, f->iosize.loc,
			   "iosize %" PRId64 " of flowop '%s' is larger than "
			   "thread '%s' memsize %" PRId64,
			   f->iosize.i, f->name, t->name, t->memsize);
	if ((fi->needs & NEED_LEAFDIRS) && fs && fs->leafdirs == 0)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs a fileset with leafdirs=N; "
			   "fileset '%s' has none",
			   f->name, fi->name, fs->name);
	if ((fi->needs & NEED_TARGET) && !f->target.name)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs target=", f->name, fi->name);
	if ((fi->needs & NEED_VALUE) && f->value.kind == IRV_NONE)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs value=", f->name, fi->name);
	else if (f->type == FO_TESTRANDVAR && f->value.kind != IRV_RAND)
		diag_error(c->d, c->src, f->value.loc,
			   "value of testrandvar must be a random variable");
	else if (f->type != FO_PRINT && f->value.kind == IRV_STR)
		diag_error(c->d, c->src, f->value.loc,
			   "value of flowop '%s' must be an integer, got '%s'",
			   f->name, f->value.s);
	if (w->eventgen_rate == 0 &&
	    (f->type == FO_EVENTLIMIT || f->type == FO_OPSLIMIT ||
	     f->type == FO_IOPSLIMIT || f->type == FO_BWLIMIT))
		diag_warning(c->d, c->src, f->loc,
			     "flowop '%s' (%s) does nothing without "
			     "'eventgen rate=N'",
			     f->name, fi->name);
}

static void check_thread(struct compiler *c, int tidx)
{
	struct workload *w = c->w;
	struct ir_thread *t = &w->threads[tidx];
	struct slot *slots;
	bool slot0_rotates = false;
	int64_t nslots = 1;

	for (size_t i = 0; i < w->nflowops; i++) {
		const struct ir_flowop *f = w->flowops[i];

		if (f->thread != tidx)
			continue;
		if (f->fd + 1 > nslots)
			nslots = f->fd + 1;
		if (f->srcfd + 1 > nslots)
			nslots = f->srcfd + 1;
	}
	t->nslots = nslots;
	slots = xcalloc((size_t)nslots, sizeof(*slots));
	for (size_t i = 0; i < w->nflowops; i++) {
		const struct ir_flowop *f = w->flowops[i];
		struct slot *sl;

		/* data flowops open their file themselves when the slot is empty */
		if (f->thread != tidx || f->type == FO_COMPOSITE ||
		    !((flowop_info[f->type].needs & OPENS) ||
		      (moves_data(f) && f->fileset.name)))
			continue;
		if (f->fd < 0 && f->opennext)
			slot0_rotates = true;
		sl = &slots[f->fd >= 0 ? f->fd : 0];
		if (!sl->opened)
			sl->fileset = -1;
		sl->opened = true;
		if (!(flowop_info[f->type].needs & OPENS))
			continue;
		if (sl->fileset == -1)
			sl->fileset = f->fileset.index;
		else if (sl->fileset != f->fileset.index)
			sl->fileset = -2;
	}
	for (size_t i = 0; i < w->nflowops; i++) {
		struct ir_flowop *f = w->flowops[i];

		if (f->thread == tidx && f->type != FO_COMPOSITE)
			check_flowop(c, f, t, slots, slot0_rotates);
	}
	for (size_t i = 0; i < w->nflowops; i++) {
		struct ir_flowop *f = w->flowops[i];

		if (f->thread != tidx)
			continue;
		for (size_t j = 0; j < i; j++)
			if (w->flowops[j]->thread == tidx &&
			    strcmp(w->flowops[j]->name, f->name) == 0) {
				diag_error(c->d, c->src, f->loc,
					   "flowop name '%s' is already used "
					   "in thread '%s'",
					   f->name, t->name);
				diag_note(c->d, c->src, w->flowops[j]->loc,
					  "first used here");
				break;
			}
	}
	free(slots);
}

/* Turn the defines met so far into IR, with the variables as they are now. */
static void build(struct compiler *c, struct loc run_loc)
{
	struct workload *w = c->w;

	for (size_t i = 0; i < c->ndefines; i++)
		if (strcmp(c->defines[i]->word, "flowop") == 0)
			build_composite(c, c->defines[i]);
	for (size_t i = 0; i < c->ndefines; i++)
		if (strcmp(c->defines[i]->word, "fileset") == 0 ||
		    strcmp(c->defines[i]->word, "file") == 0)
			build_fileset(c, c->defines[i]);
	for (size_t i = 0; i < c->ndefines; i++)
		if (strcmp(c->defines[i]->word, "process") == 0)
			build_process(c, c->defines[i]);
	for (size_t i = 0; i < w->nflowops; i++) {
		resolve_fileset(c, w->flowops[i]);
		resolve_target(c, w->flowops[i]);
	}
	for (size_t i = 0; i < w->nthreads; i++)
		if (!w->threads[i].broken)
			check_thread(c, (int)i);
	if (run_loc.start >= 0 && w->nprocesses == 0)
		diag_error(c->d, c->src, run_loc,
			   "nothing to run: the script defines no process");
}

/* ------------------------------------------------------------ statements */

static void define(struct compiler *c, const struct ast_stmt *s)
{
	const char *hint;
	bool has_body = s->body_loc.start >= 0;

	if (strcmp(s->word, "randvar") == 0) {
		old_randvar(c, s);
		return;
	}
	if (strcmp(s->word, "thread") == 0) {
		diag_error(c->d, c->src, s->word_loc,
			   "a thread must be inside 'define process name=... "
			   "{ thread ... }'");
		return;
	}
	if (strcmp(s->word, "fileset") && strcmp(s->word, "file") &&
	    strcmp(s->word, "process") && strcmp(s->word, "flowop")) {
		hint = did_you_mean(s->word, entities, ARRAY_SIZE(entities),
				    sizeof(entities[0]));
		if (hint)
			diag_error(c->d, c->src, s->word_loc,
				   "cannot define '%s'; did you mean '%s'?",
				   s->word, hint);
		else
			diag_error(c->d, c->src, s->word_loc,
				   "cannot define '%s'; expected fileset, "
				   "file, process or flowop",
				   s->word);
		return;
	}
	if (has_body && (!strcmp(s->word, "fileset") || !strcmp(s->word, "file"))) {
		diag_error(c->d, c->src, s->body_loc,
			   "define %s takes no { ... } body", s->word);
		return;
	}
	c->defines = grow_array(c->defines, &c->cap_defines, c->ndefines + 1,
				sizeof(*c->defines));
	c->defines[c->ndefines++] = s;
}

static void run_stmt(struct compiler *c, const struct ast_stmt *s)
{
	struct ir_stmt *st;
	bool ok = true;
	int64_t secs = 60, period = 0;

	if (s->kind == AS_RUN && s->value)
		secs = want_int(c, s->value, "run time", 0, &ok);
	if (s->kind == AS_PSRUN) {
		period = 10;
		if (s->value) {
			period = want_int(c, s->value, "psrun interval",
					  INT64_MIN + 1, &ok);
			if (ok && period == 0) {
				diag_error(c->d, c->src, s->value->loc,
					   "psrun interval cannot be 0");
				ok = false;
			}
		}
		if (s->value2)
			secs = want_int(c, s->value2, "run time", 0, &ok);
	}
	if (ok && secs == 0)
		secs = 60;
	st = add_stmt(c, IS_RUN, s->loc);
	st->n = secs;
	st->n2 = period;
	c->w->has_run = true;
	build(c, s->loc);
}

static void simple_stmt(struct compiler *c, const struct ast_stmt *s)
{
	struct ir_stmt *st;
	struct eventgen_form eg;
	bool ok = true;
	char *text;
	int64_t n;

	switch (s->kind) {
	case AS_CREATE:
		if (strcmp(s->word, "files") && strcmp(s->word, "filesets") &&
		    strcmp(s->word, "fileset")) {
			diag_error(c->d, c->src, s->word_loc,
				   "expected 'create files', got 'create %s'",
				   s->word);
			return;
		}
		add_stmt(c, IS_CREATE_FILES, s->loc);
		return;
	case AS_SLEEP:
	case AS_DEBUG:
		n = want_int(c, s->value, s->kind == AS_SLEEP ? "sleep time" :
								 "debug level",
			     0, &ok);
		if (ok)
			add_stmt(c, s->kind == AS_SLEEP ? IS_SLEEP : IS_DEBUG,
				 s->loc)->n = n;
		return;
	case AS_EVENTGEN:
		if (apply_attrs(c, &eventgen_attrs, s->attrs, &eg, false,
				false, "eventgen", s->loc) != (uint64_t)-1)
			c->w->eventgen_rate = eg.rate;
		return;
	case AS_ENABLE:
		if (strcmp(s->word, "lathist") == 0 && !s->attrs)
			c->w->lathist = true;
		else if (strcmp(s->word, "multi") == 0)
			diag_error(c->d, c->src, s->word_loc,
				   "multi-client synchronisation ('enable "
				   "multi') is not supported");
		else
			diag_error(c->d, c->src, s->word_loc,
				   "cannot enable '%s'; expected 'enable "
				   "lathist'",
				   s->word);
		return;
	case AS_ECHO:
	case AS_SYSTEM:
		text = want_text(c, s->value);
		if (text)
			add_stmt(c, s->kind == AS_ECHO ? IS_ECHO : IS_SYSTEM,
				 s->loc)->text = text;
		return;
	case AS_VERSION:
		add_stmt(c, IS_VERSION, s->loc);
		return;
	case AS_LIST:
		st = add_stmt(c, IS_LIST, s->loc);
		st->text = xstrdup(s->word ? s->word : "");
		return;
	case AS_DOMULTISYNC:
		diag_error(c->d, c->src, s->loc,
			   "multi-client synchronisation ('domultisync') is "
			   "not supported");
		return;
	default:
		return;
	}
}

static void walk(struct compiler *c, const struct ast_stmt *prog)
{
	const struct ast_stmt *stop = NULL;

	for (const struct ast_stmt *s = prog; s; s = s->next) {
		if (stop) {
			diag_warning(c->d, c->src, s->loc,
				     "'%s' is never executed",
				     ast_stmt_keyword(s->kind));
			diag_note(c->d, c->src, stop->loc,
				  "the script ends at this '%s'",
				  ast_stmt_keyword(stop->kind));
			return;
		}
		switch (s->kind) {
		case AS_SET:
			set_var(c, s);
			break;
		case AS_SET_MODE:
			set_mode(c, s);
			break;
		case AS_DEFINE:
			define(c, s);
			break;
		case AS_RUN:
		case AS_PSRUN:
			run_stmt(c, s);
			stop = s;
			break;
		case AS_QUIT:
			build(c, LOC_NONE);
			stop = s;
			break;
		default:
			simple_stmt(c, s);
			break;
		}
	}
	if (!stop)
		build(c, LOC_NONE);
}

/* ------------------------------------------------------------ driver */

static void predefine(struct compiler *c)
{
	const struct compile_opts *o = c->opts;
	struct binding *b = env_put(c->env, "tmpdir");

	b->value = (struct ir_value){ .kind = IRV_STR,
				      .s = xstrdup(o->tmpdir ? o->tmpdir :
							      "/tmp") };
	b->set = b->builtin = true;
	for (size_t i = 0; i < o->ndefines; i++) {
		const char *v = o->defines[i].value;
		int64_t n;

		b = env_put(c->env, o->defines[i].name);
		binding_clear(b);
		if (parse_int(v, strlen(v), &n) == NUM_OK)
			b->value = (struct ir_value){ .kind = IRV_INT, .i = n };
		else if (!strcmp(v, "true") || !strcmp(v, "false"))
			b->value = (struct ir_value){ .kind = IRV_BOOL,
						      .i = v[0] == 't' };
		else
			b->value = (struct ir_value){ .kind = IRV_STR,
						      .s = xstrdup(v) };
		b->set = b->cli = true;
		b->builtin = false;
		b->used = false;
		b->src = o->cli_src;
		b->loc = o->define_locs ? o->define_locs[i] : LOC_NONE;
	}
}

/* Final variable values, for --dump-ir and results metadata. */
static void collect_vars(struct compiler *c)
{
	struct workload *w = c->w;
	size_t n = env_count(c->env);

	w->vars = xcalloc(n ? n : 1, sizeof(*w->vars));
	for (size_t i = 0; i < n; i++) {
		struct binding *b = env_at(c->env, i);
		struct ir_var *v;

		if (b->cli && !b->used)
			diag_warning(c->d, b->src, b->loc,
				     "-D %s is not used by the script",
				     b->name);
		if (!b->set)
			continue;
		v = &w->vars[w->nvars++];
		v->name = xstrdup(b->name);
		v->from_cli = b->cli;
		if (b->parts) {
			c->silent = true;
			v->value.kind = IRV_STR;
			v->value.s = expand_string(c, b->parts, 0);
			c->silent = false;
			if (!v->value.s)
				v->value.kind = IRV_NONE;
		} else {
			v->value = b->value;
			if (v->value.kind == IRV_STR)
				v->value.s = xstrdup(b->value.s);
		}
	}
}

struct workload *compile_workload(const struct ast_stmt *prog,
				  const struct source *src,
				  const struct compile_opts *opts,
				  struct diag *d)
{
	struct compiler c = { .src = src, .d = d, .opts = opts, .prog = prog };
	int errors = diag_error_count(d);

	c.w = xcalloc(1, sizeof(*c.w));
	c.w->src = src;
	c.env = env_new();
	rv_rng_seed(&c.rng, 1);
	predefine(&c);
	walk(&c, prog);
	collect_vars(&c);
	for (size_t i = 0; i < c.nbad_filesets; i++)
		free(c.bad_filesets[i]);
	free(c.bad_filesets);
	for (size_t i = 0; i < c.ncomposites; i++)
		free(c.composites[i].form.composite);
	free(c.composites);
	free(c.defines);
	free(c.expanding);
	env_free(c.env);
	if (diag_error_count(d) > errors) {
		workload_free(c.w);
		return NULL;
	}
	return c.w;
}
