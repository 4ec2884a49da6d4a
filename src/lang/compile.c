/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The statement-level half of the compiler: order, defines, references. */
#include "lang/compile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "util/util.h"

/*
 * What `define` may name, in the order the error lists them.  The
 * defines met since the last build are built a pass at a time, a
 * composite flowop before the threads that use it, filesets and files
 * (one pass, in the script's order, which is their order in the IR)
 * before the traces and processes that name them.  filebench's lexer
 * takes the plurals too.
 */
static const struct define_kind {
	const char *word, *plural;
	bool body;		/* takes a { ... } body */
	int pass;
	void (*build)(struct compiler *c, const struct ast_stmt *s);
} define_kinds[] = {
	{ "fileset", "filesets", false, 1, compile_build_fileset },
	{ "file", NULL, false, 1, compile_build_fileset },
	{ "trace", NULL, false, 2, compile_build_trace },
	{ "process", "processes", true, 3, compile_build_process },
	{ "flowop", NULL, true, 0, compile_build_composite },
};
#define DEFINE_PASSES 4

/* ------------------------------------------------------------ helpers */

/* "fileset, file, ... or flowop", the words of the table */
static const char *define_words(char *buf, size_t size)
{
	size_t n = ARRAY_SIZE(define_kinds), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i == 0 ? "" : i + 1 < n ? ", " : " or ",
					define_kinds[i].word);
	return buf;
}

static const struct define_kind *define_kind_of(const char *word)
{
	for (size_t i = 0; i < ARRAY_SIZE(define_kinds); i++)
		if (strcmp(word, define_kinds[i].word) == 0 ||
		    (define_kinds[i].plural &&
		     strcmp(word, define_kinds[i].plural) == 0))
			return &define_kinds[i];
	return NULL;
}

static int64_t want_int(struct compiler *c, const struct ast_value *v,
			const char *what, int64_t min, int64_t max, bool *ok)
{
	struct ir_value iv;
	struct origin org;

	if (compile_resolve_value(c, v, &iv, &org) < 0) {
		*ok = false;
		return 0;
	}
	if (iv.kind == IRV_INT && iv.i >= min && iv.i <= max)
		return iv.i;
	if (iv.kind == IRV_INT)
		diag_error(c->d, c->src, v->loc,
			   "%s must be between %" PRId64 " and %" PRId64
			   ", got %" PRId64,
			   what, min, max, iv.i);
	else
		diag_error(c->d, c->src, v->loc, "%s must be an integer",
			   what);
	compile_note_origin(c, &org);
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

	if (compile_resolve_value(c, v, &iv, NULL) < 0)
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

	w->stmts = grow_array(w->stmts, &c->cap_stmts, w->nstmts + 1,
			      sizeof(*w->stmts));
	w->stmts[w->nstmts] = (struct ir_stmt){ .kind = kind, .loc = loc };
	return &w->stmts[w->nstmts++];
}

/*
 * Refuse a run of more than MAX_WORKERS threads at the process that passes
 * it, unless an earlier build has reported it.
 */
static void check_nworkers(struct compiler *c)
{
	const struct workload *w = c->w;
	uint64_t total = 0;

	for (size_t p = 0; p < w->nprocesses; p++) {
		const struct ir_process *pr = &w->processes[p];
		uint64_t n = ir_process_nworkers(w, p), before = total, per = 0;

		if (__builtin_add_overflow(total, n, &total))
			total = UINT64_MAX;
		if (total <= MAX_WORKERS)
			continue;
		if (p < c->built_processes)
			return;
		for (int t = 0; t < pr->nthreads; t++)
			per += (uint64_t)w->threads[pr->first_thread + t].instances;
		if (before == 0)
			diag_error(c->d, c->src, pr->loc,
				   "too many threads: process '%s' starts %" PRIu64
				   " (%" PRId64 " instances x %" PRIu64
				   " threads each); a run may start at most %d",
				   pr->name, n, pr->instances, per, MAX_WORKERS);
		else
			diag_error(c->d, c->src, pr->loc,
				   "too many threads: process '%s' starts %" PRIu64
				   ", making %" PRIu64 " in the run; a run may start "
				   "at most %d",
				   pr->name, n, total, MAX_WORKERS);
		return;
	}
}

/*
 * Turn the defines met since the last build into IR, with the variables as
 * they are now, and check what they added.
 */
static void build(struct compiler *c, struct loc run_loc)
{
	struct workload *w = c->w;
	struct strmap *all;

	for (int pass = 0; pass < DEFINE_PASSES; pass++)
		for (size_t i = 0; i < c->ndefines; i++) {
			const struct define_kind *k =
				define_kind_of(c->defines[i]->word);

			if (k->pass == pass)
				k->build(c, c->defines[i]);
		}
	check_nworkers(c);
	/* the new threads' ranges cover every new flowop, in order */
	all = strmap_new();
	for (size_t i = 0; i < w->nflowops; i++)
		strmap_add(all, w->flowops[i]->name, w->flowops[i]);
	for (size_t t = c->built_threads; t < w->nthreads; t++) {
		const struct ir_thread *th = &w->threads[t];
		struct strmap *mine = strmap_new();

		for (size_t i = th->flowop_first; i < th->flowop_end; i++)
			strmap_add(mine, w->flowops[i]->name, w->flowops[i]);
		for (size_t i = th->flowop_first; i < th->flowop_end; i++) {
			compile_resolve_fileset(c, w->flowops[i]);
			compile_resolve_target(c, w->flowops[i], mine, all);
		}
		strmap_free(mine);
	}
	strmap_free(all);
	for (size_t i = c->built_threads; i < w->nthreads; i++)
		if (!w->threads[i].broken)
			compile_check_thread(c, (int)i);
	if (run_loc.start >= 0 && w->nprocesses == 0)
		diag_error(c->d, c->src, run_loc,
			   "nothing to run: the script defines no process");
	c->ndefines = 0;
	c->built_processes = w->nprocesses;
	c->built_threads = w->nthreads;
	c->built_flowops = w->nflowops;
}

/* ------------------------------------------------------------ statements */

static void define(struct compiler *c, const struct ast_stmt *s)
{
	const struct define_kind *k = define_kind_of(s->word);
	const char *hint, *words[ARRAY_SIZE(define_kinds) + 1];
	char list[128];
	bool has_body = s->body_loc.start >= 0;

	if (strcmp(s->word, "randvar") == 0) {
		compile_old_randvar(c, s);
		return;
	}
	if (strcmp(s->word, "thread") == 0) {
		diag_error(c->d, c->src, s->word_loc,
			   "a thread must be inside 'define process name=... "
			   "{ thread ... }'");
		return;
	}
	if (!k) {
		for (size_t i = 0; i < ARRAY_SIZE(define_kinds); i++)
			words[i] = define_kinds[i].word;
		words[ARRAY_SIZE(define_kinds)] = "randvar";
		hint = did_you_mean(s->word, words, ARRAY_SIZE(words),
				    sizeof(words[0]));
		if (hint)
			diag_error(c->d, c->src, s->word_loc,
				   "cannot define '%s'; did you mean '%s'?",
				   s->word, hint);
		else
			diag_error(c->d, c->src, s->word_loc,
				   "cannot define '%s'; expected %s", s->word,
				   define_words(list, sizeof(list)));
		return;
	}
	if (has_body && !k->body) {
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
		secs = want_int(c, s->value, "run time", 0, MAX_SECONDS, &ok);
	if (s->kind == AS_PSRUN) {
		period = 10;
		if (s->value) {
			period = want_int(c, s->value, "psrun interval",
					  -MAX_SECONDS, MAX_SECONDS, &ok);
			if (ok && period == 0) {
				diag_error(c->d, c->src, s->value->loc,
					   "psrun interval cannot be 0");
				ok = false;
			}
		}
		if (s->value2)
			secs = want_int(c, s->value2, "run time", 0,
					MAX_SECONDS, &ok);
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
			     0, MAX_SECONDS, &ok);
		if (ok)
			add_stmt(c, s->kind == AS_SLEEP ? IS_SLEEP : IS_DEBUG,
				 s->loc)->n = n;
		return;
	case AS_EVENTGEN:
		if (compile_apply_attrs(c, &attr_eventgen, s->attrs, &eg, false,
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
	case AS_USAGE:
		/* 1.4 printed it when a user loaded the script by hand */
		return;
	case AS_VARS:
		diag_warning(c->d, c->src, s->loc,
			     "'vars' (filebench 1.4's) does nothing here; "
			     "--dump-ir lists the variables");
		return;
	case AS_HELP:
		diag_warning(c->d, c->src, s->loc,
			     "'help' (filebench 1.4's) does nothing here; "
			     "see fbrun --help");
		return;
	default:
		return;
	}
}

/*
 * Statements from s on, up to the first run or quit, which builds what was
 * defined; without one, what was defined is built at the end.  Returns
 * the run or quit, or NULL.
 */
static const struct ast_stmt *walk(struct compiler *c,
				   const struct ast_stmt *s)
{
	for (; s; s = s->next) {
		switch (s->kind) {
		case AS_SET:
			compile_set_var(c, s);
			break;
		case AS_SET_MODE:
			compile_set_mode(c, s);
			break;
		case AS_DEFINE:
			define(c, s);
			break;
		case AS_RUN:
		case AS_PSRUN:
			run_stmt(c, s);
			return s;
		case AS_QUIT:
			build(c, LOC_NONE);
			return s;
		default:
			simple_stmt(c, s);
			break;
		}
	}
	build(c, LOC_NONE);
	return NULL;
}

/*
 * The statements after the run or quit `stop` are never executed, but are
 * checked as if they were, so that a mistake there is an error now rather
 * than when the script is next changed.  What they add to the workload is
 * taken out again.
 */
static void check_unreached(struct compiler *c, const struct ast_stmt *stop)
{
	struct workload keep = *c->w;
	const struct ast_stmt *s = stop->next;

	if (!s)
		return;
	diag_warning(c->d, c->src, s->loc, "'%s' is never executed",
		     ast_stmt_keyword(s->kind));
	diag_note(c->d, c->src, stop->loc, "the script ends at this '%s'",
		  ast_stmt_keyword(stop->kind));
	while (s && (stop = walk(c, s)))
		s = stop->next;
	workload_truncate(c->w, &keep);
}

/* ------------------------------------------------------------ driver */

static void predefine(struct compiler *c)
{
	const struct compile_opts *o = c->opts;
	struct binding *b = vars_env_put(c->env, "tmpdir");

	b->value = (struct ir_value){ .kind = IRV_STR,
				      .s = xstrdup(o->tmpdir ? o->tmpdir :
							      "/tmp") };
	b->set = b->builtin = true;
	/* fbrun-mpi's; named in results only by the scripts that use them */
	b = vars_env_put(c->env, "rank");
	b->value = (struct ir_value){ .kind = IRV_INT, .i = o->rank };
	b->set = b->builtin = b->shy = true;
	b = vars_env_put(c->env, "nranks");
	b->value = (struct ir_value){ .kind = IRV_INT,
				      .i = o->nranks > 0 ? o->nranks : 1 };
	b->set = b->builtin = b->shy = true;
	/* the rank after this one: work on what it wrote (IOR -C) */
	b = vars_env_put(c->env, "nextrank");
	b->value = (struct ir_value){
		.kind = IRV_INT,
		.i = o->nranks > 1 ? (o->rank + 1) % o->nranks : 0
	};
	b->set = b->builtin = b->shy = true;
	for (size_t i = 0; i < o->ndefines; i++) {
		const char *v = o->defines[i].value;
		int64_t n;

		enum num_status ns = parse_int(v, strlen(v), &n);

		b = vars_env_put(c->env, o->defines[i].name);
		vars_binding_clear(b);
		if (ns == NUM_RANGE) /* as the lexer says of the script's */
			diag_error(c->d, o->cli_src,
				   o->define_locs ? o->define_locs[i] : LOC_NONE,
				   "-D %s: integer '%s' is too %s (the limit is "
				   "%s)",
				   o->defines[i].name, v,
				   v[0] == '-' ? "small" : "large",
				   v[0] == '-' ? "-2^63" : "2^63-1");
		if (ns == NUM_OK)
			b->value = (struct ir_value){ .kind = IRV_INT, .i = n };
		else if (!strcmp(v, "true") || !strcmp(v, "false"))
			b->value = (struct ir_value){ .kind = IRV_BOOL,
						      .i = v[0] == 't' };
		else
			b->value = (struct ir_value){ .kind = IRV_STR,
						      .s = xstrdup(v) };
		b->set = b->cli = true;
		b->builtin = b->shy = false;
		b->used = false;
		b->src = o->cli_src;
		b->loc = o->define_locs ? o->define_locs[i] : LOC_NONE;
	}
}

/*
 * A -D the script neither sets nor reads: most often a misspelt name,
 * which would leave the script's own value measured under the -D's
 * label, so it is an error unless --define-unused=warn.
 */
static void unused_define(struct compiler *c, const struct binding *b)
{
	const char *hint = NULL;
	int best = 3;
	bool warn = c->opts->define_unused_warn;

	for (size_t i = 0; i < vars_env_count(c->env); i++) {
		const struct binding *o = vars_env_at(c->env, i);
		int dist;

		if (o == b || !o->set || (o->cli && !o->used))
			continue;
		dist = edit_distance(b->name, o->name, 2);
		if (dist < best) {
			best = dist;
			hint = o->name;
		}
	}
	(warn ? diag_warning : diag_error)(c->d, b->src, b->loc,
					   "-D %s is not used by the script%s%s%s",
					   b->name,
					   hint ? "; did you mean '" : "",
					   hint ? hint : "", hint ? "'?" : "");
	if (!warn)
		diag_note(c->d, NULL, LOC_NONE,
			  "--define-unused=warn runs the script all the same");
}

/* Final variable values, for --dump-ir and results metadata. */
static void collect_vars(struct compiler *c)
{
	struct workload *w = c->w;
	size_t n = vars_env_count(c->env);

	w->vars = xcalloc(n ? n : 1, sizeof(*w->vars));
	/*
	 * One allowance for them all: unused quoted variables that double
	 * each other would otherwise cost it once per variable.  A value
	 * past it is left out, as one past the size limit.
	 */
	c->silent_refs = MAX_EXPANDED;
	for (size_t i = 0; i < n; i++) {
		struct binding *b = vars_env_at(c->env, i);
		struct ir_var *v;

		if (b->cli && !b->used)
			unused_define(c, b);
		if (!b->set || (b->shy && !b->used))
			continue;
		v = &w->vars[w->nvars++];
		v->name = xstrdup(b->name);
		v->from_cli = b->cli;
		if (b->parts) {
			c->silent = true;
			v->value.kind = IRV_STR;
			v->value.s = compile_expand_string(c, b->parts, b, b->loc);
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
	const struct ast_stmt *stop;
	int errors = diag_error_count(d);

	c.w = xcalloc(1, sizeof(*c.w));
	c.w->src = src;
	c.env = vars_env_new();
	c.fileset_names = strmap_new();
	c.bad_fileset_names = strmap_new();
	c.process_names = strmap_new();
	rv_rng_seed(&c.rng, rv_seed_with(1, opts->seed));
	predefine(&c);
	stop = walk(&c, prog);
	collect_vars(&c); /* the values at the run */
	if (stop)
		check_unreached(&c, stop);
	for (size_t i = 0; i < c.nbad_filesets; i++)
		free(c.bad_filesets[i]);
	free(c.bad_filesets);
	strmap_free(c.bad_fileset_names);
	strmap_free(c.fileset_names);
	strmap_free(c.process_names);
	for (size_t i = 0; i < c.ncomposites; i++) {
		free(c.composites[i].form.composite);
		strmap_free(c.composites[i].locals);
	}
	free(c.composites);
	strmap_free(c.composite_names);
	free(c.defines);
	vars_env_free(c.env);
	if (diag_error_count(d) > errors) {
		workload_free(c.w);
		return NULL;
	}
	workload_label_flowops(c.w);
	return c.w;
}
