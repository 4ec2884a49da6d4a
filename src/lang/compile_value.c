/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Values: variables expanded in strings and values resolved to what
 * they hold, where they came from noted for the errors (compile_int.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "util/util.h"

void compile_note_origin(struct compiler *c, const struct origin *org)
{
	const struct binding *b = org ? org->via : NULL;

	if (!b)
		return;
	if (b->builtin)
		diag_note(c->d, NULL, LOC_NONE, "'$%s' is predefined by fbrun",
			  b->name);
	else
		diag_note(c->d, b->src, b->loc, "'$%s' is set here", b->name);
}

static void unset_variable(struct compiler *c, const char *name,
			   struct loc loc)
{
	const char *hint = vars_env_suggest(c->env, name);

	if (hint)
		diag_error(c->d, c->src, loc,
			   "variable '$%s' is not set; did you mean '$%s'?",
			   name, hint);
	else
		diag_error(c->d, c->src, loc, "variable '$%s' is not set",
			   name);
	for (const struct ast_stmt *s = c->prog; s; s = s->next)
		if (s->kind == AS_SET && strcmp(s->word, name) == 0 &&
		    s->loc.start > loc.start) {
			diag_note(c->d, c->src, s->word_loc,
				  "it is set only later, here");
			break;
		}
}

static char *value_text(struct compiler *c, const struct ir_value *v)
{
	char buf[64];

	switch (v->kind) {
	case IRV_INT:
		return xasprintf("%" PRId64, v->i);
	case IRV_BOOL:
		return xstrdup(v->i ? "true" : "false");
	case IRV_DOUBLE:
		return xasprintf("%g", v->d);
	case IRV_STR:
		return xstrdup(v->s);
	case IRV_RAND:
		snprintf(buf, sizeof(buf), "%.0f",
			 rv_sample(&c->w->randvars[v->rv].spec, &c->rng));
		return xstrdup(buf);
	case IRV_NONE:
		break;
	}
	return xstrdup("");
}

/* One expansion: the text so far, and what it has cost. */
struct expansion {
	char *buf;
	size_t len, cap;
	size_t refs, max_refs; /* variable references followed, allowed */
	bool too_long; /* past MAX_EXPANDED bytes */
};

static int append(struct expansion *x, const char *s)
{
	size_t n = strlen(s);

	if (n > MAX_EXPANDED - x->len) {
		x->too_long = true;
		return -1;
	}
	if (x->len + n + 1 > x->cap) {
		x->cap = (x->len + n + 1) * 2;
		x->buf = xrealloc(x->buf, x->cap);
	}
	memcpy(x->buf + x->len, s, n + 1);
	x->len += n;
	return 0;
}

static int expand_into(struct compiler *c, struct expansion *x,
		       const struct ast_strpart *parts, struct binding *self);

/* Append $name's text; b->expanding marks the bindings being expanded. */
static int expand_ref(struct compiler *c, struct expansion *x,
		      const struct ast_strpart *p)
{
	struct binding *b = vars_env_get(c->env, p->text);
	char *text;
	int rc;

	if (!b || !b->set) {
		if (!c->silent)
			unset_variable(c, p->text, p->loc);
		return -1;
	}
	if (b->expanding) {
		if (!c->silent)
			diag_error(c->d, c->src, p->loc,
				   "variable '$%s' refers to itself through "
				   "quoted strings",
				   p->text);
		return -1;
	}
	if (++x->refs > x->max_refs)
		return -1;
	b->used = true;
	if (b->parts)
		return expand_into(c, x, b->parts, b);
	text = value_text(c, &b->value);
	rc = append(x, text);
	free(text);
	return rc;
}

static int expand_into(struct compiler *c, struct expansion *x,
		       const struct ast_strpart *parts, struct binding *self)
{
	int rc = 0;

	if (self)
		self->expanding = true;
	for (const struct ast_strpart *p = parts; p && rc == 0; p = p->next)
		rc = p->is_var ? expand_ref(c, x, p) :
				 append(x, p->text);
	if (self)
		self->expanding = false;
	return rc;
}

char *compile_expand_string(struct compiler *c, const struct ast_strpart *parts,
			    struct binding *self, struct loc where)
{
	struct expansion x = { .buf = xstrdup(""), .cap = 1 };
	int rc;

	/* silent ones (every variable's final value) share one allowance */
	x.max_refs = c->silent ? c->silent_refs : MAX_EXPANDED;
	rc = expand_into(c, &x, parts, self);
	if (c->silent)
		c->silent_refs -= x.refs < x.max_refs ? x.refs : x.max_refs;
	if (rc == 0)
		return x.buf;
	free(x.buf);
	if (c->silent)
		return NULL;
	if (x.too_long)
		diag_error(c->d, c->src, where,
			   "this quoted string expands to more than %u bytes",
			   MAX_EXPANDED);
	else if (x.refs > x.max_refs)
		diag_error(c->d, c->src, where,
			   "this quoted string expands through more than %u "
			   "variable references",
			   MAX_EXPANDED);
	return NULL;
}

int compile_resolve_value(struct compiler *c, const struct ast_value *v,
			  struct ir_value *out, struct origin *org)
{
	struct binding *b;

	memset(out, 0, sizeof(*out));
	out->loc = v->loc;
	if (org)
		org->via = NULL;
	switch (v->kind) {
	case AV_INT:
		out->kind = IRV_INT;
		out->i = v->i;
		return 0;
	case AV_FLOAT:
		out->kind = IRV_DOUBLE;
		out->d = v->f;
		return 0;
	case AV_WORD:
		if (strcmp(v->s, "true") == 0 || strcmp(v->s, "false") == 0) {
			out->kind = IRV_BOOL;
			out->i = v->s[0] == 't';
			return 0;
		}
		out->kind = IRV_STR;
		out->s = xstrdup(v->s);
		return 0;
	case AV_STRING:
		out->s = compile_expand_string(c, v->parts, NULL, v->loc);
		if (!out->s)
			return -1;
		out->kind = IRV_STR;
		return 0;
	case AV_VAR:
		b = vars_env_get(c->env, v->s);
		if (!b || !b->set) {
			unset_variable(c, v->s, v->loc);
			return -1;
		}
		b->used = true;
		if (org)
			org->via = b;
		if (b->parts) {
			out->s = compile_expand_string(c, b->parts, b, v->loc);
			if (!out->s)
				return -1;
			out->kind = IRV_STR;
			return 0;
		}
		*out = b->value;
		out->loc = v->loc;
		if (out->kind == IRV_STR)
			out->s = xstrdup(b->value.s);
		return 0;
	case AV_RANDVAR:
	case AV_CVAR:
		diag_error(c->d, c->src, v->loc,
			   "%s(...) can only be assigned to a variable: "
			   "set $v = %s(...)",
			   v->kind == AV_RANDVAR ? "randvar" : "cvar",
			   v->kind == AV_RANDVAR ? "randvar" : "cvar");
		return -1;
	case AV_LIST:
		diag_error(c->d, c->src, v->loc,
			   "a {...} list is only valid as a randtable");
		return -1;
	}
	return -1;
}
