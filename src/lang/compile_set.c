/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The set statements of the compiler: `set $var = value` bound in the
 * environment, `set mode ...`, and the old `define randvar` (a set in
 * another form).  The statement walk (compile.c) calls them.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "util/util.h"

void compile_set_var(struct compiler *c, const struct ast_stmt *s)
{
	struct binding *b = vars_env_put(c->env, s->word);
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
		rv = compile_build_randvar(c, s->word, v->attrs, v->kind == AV_CVAR,
					   v->loc);
		if (rv < 0)
			return;
		vars_binding_clear(b);
		b->value = (struct ir_value){ .kind = IRV_RAND, .rv = rv,
					      .loc = v->loc };
		break;
	case AV_STRING:
		vars_binding_clear(b);
		b->parts = v->parts; /* expanded where it is used */
		break;
	case AV_VAR:
		from = vars_env_get(c->env, v->s);
		if (from && from->set && from->parts) {
			from->used = true;
			vars_binding_clear(b);
			b->parts = from->parts;
			break;
		}
		/* fall through */
	default:
		if (compile_resolve_value(c, v, &iv, NULL) < 0)
			return;
		vars_binding_clear(b);
		b->value = iv;
		break;
	}
	b->set = true;
	b->src = c->src;
	b->loc = s->word_loc;
}

/* The 1.4 form `define randvar name=$x, type=...`. */
void compile_old_randvar(struct compiler *c, const struct ast_stmt *s)
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
	compile_set_var(c, &tmp);
	free(copies);
}

void compile_set_mode(struct compiler *c, const struct ast_stmt *s)
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
