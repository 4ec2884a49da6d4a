/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Building and freeing the syntax tree; the parser's only allocator (ast.h). */
#include "lang/ast.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct ast_value *ast_value_new(enum ast_value_kind kind, struct loc loc)
{
	struct ast_value *v = xcalloc(1, sizeof(*v));

	v->kind = kind;
	v->loc = loc;
	return v;
}

struct ast_attr *ast_attr_new(char *name, bool local, struct loc loc,
			      struct ast_value *value)
{
	struct ast_attr *a = xcalloc(1, sizeof(*a));

	a->name = name;
	a->local = local;
	a->loc = loc;
	a->value = value;
	return a;
}

struct ast_stmt *ast_stmt_new(enum ast_stmt_kind kind, struct loc loc)
{
	struct ast_stmt *s = xcalloc(1, sizeof(*s));

	s->kind = kind;
	s->loc = loc;
	s->word_loc = LOC_NONE;
	s->body_loc = LOC_NONE;
	return s;
}

/* One append for the three list types: each has `next` at a known offset. */
#define APPEND(type, a, b)                                                     \
	do {                                                                   \
		type *t_;                                                      \
		if (!(a))                                                      \
			return (b);                                            \
		for (t_ = (a); t_->next; t_ = t_->next)                        \
			;                                                      \
		t_->next = (b);                                                \
		return (a);                                                    \
	} while (0)

struct ast_attr *ast_attr_append(struct ast_attr *a, struct ast_attr *b)
{
	APPEND(struct ast_attr, a, b);
}

struct ast_value *ast_value_append(struct ast_value *a, struct ast_value *b)
{
	APPEND(struct ast_value, a, b);
}

struct ast_stmt *ast_stmt_append(struct ast_stmt *a, struct ast_stmt *b)
{
	APPEND(struct ast_stmt, a, b);
}

/* Reverse a list built by prepending (appending each would be O(n^2)). */
#define REVERSE(type, l)                                                       \
	do {                                                                   \
		type *prev_ = NULL;                                            \
		while (l) {                                                    \
			type *next_ = (l)->next;                               \
			(l)->next = prev_;                                     \
			prev_ = (l);                                           \
			(l) = next_;                                           \
		}                                                              \
		return prev_;                                                  \
	} while (0)

struct ast_stmt *ast_stmt_reverse(struct ast_stmt *l)
{
	REVERSE(struct ast_stmt, l);
}

struct ast_attr *ast_attr_reverse(struct ast_attr *l)
{
	REVERSE(struct ast_attr, l);
}

struct ast_value *ast_value_reverse(struct ast_value *l)
{
	REVERSE(struct ast_value, l);
}

void ast_strpart_free(struct ast_strpart *p)
{
	while (p) {
		struct ast_strpart *next = p->next;

		free(p->text);
		free(p);
		p = next;
	}
}

void ast_value_free(struct ast_value *v)
{
	while (v) {
		struct ast_value *next = v->next;

		free(v->s);
		ast_strpart_free(v->parts);
		ast_attr_free(v->attrs);
		ast_value_free(v->items);
		free(v);
		v = next;
	}
}

void ast_attr_free(struct ast_attr *a)
{
	while (a) {
		struct ast_attr *next = a->next;

		free(a->name);
		ast_value_free(a->value);
		free(a);
		a = next;
	}
}

void ast_stmt_free(struct ast_stmt *s)
{
	while (s) {
		struct ast_stmt *next = s->next;

		free(s->word);
		ast_value_free(s->value);
		ast_value_free(s->value2);
		ast_value_free(s->words);
		ast_attr_free(s->attrs);
		ast_stmt_free(s->body);
		free(s);
		s = next;
	}
}

struct ast_attr *ast_attr_find(struct ast_attr *a, const char *name)
{
	for (; a; a = a->next)
		if (!a->local && strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

const char *ast_stmt_keyword(enum ast_stmt_kind kind)
{
	static const char *const names[] = {
#define KEYWORD(id, word, command, stmt) KW_STMT_##stmt(id, word)
#define KW_STMT_1(id, word) [AS_##id] = word,
#define KW_STMT_0(id, word)
#include "grammar/keywords.h"
#undef KW_STMT_0
#undef KW_STMT_1
#undef KEYWORD
		[AS_SET_MODE] = "set", /* set mode ...: the set keyword too */
	};

	return names[kind];
}

static void print_attrs(FILE *out, const struct ast_attr *a);

void ast_value_print(FILE *out, const struct ast_value *v)
{
	const struct ast_strpart *p;
	const struct ast_value *it;

	switch (v->kind) {
	case AV_INT:
		fprintf(out, "%lld", (long long)v->i);
		break;
	case AV_FLOAT:
		fprintf(out, "%g", v->f);
		break;
	case AV_WORD:
		fputs(v->s, out);
		break;
	case AV_VAR:
		fprintf(out, "$%s", v->s);
		break;
	case AV_STRING:
		fputc('"', out);
		for (p = v->parts; p; p = p->next) {
			if (p->is_var) {
				fprintf(out, "${%s}", p->text);
				continue;
			}
			for (const char *c = p->text; *c; c++) {
				if (*c == '"' || *c == '\\' || *c == '$')
					fputc('\\', out);
				if (*c == '\n')
					fputs("\\n", out);
				else
					fputc(*c, out);
			}
		}
		fputc('"', out);
		break;
	case AV_RANDVAR:
	case AV_CVAR:
		fputs(v->kind == AV_RANDVAR ? "randvar(" : "cvar(", out);
		print_attrs(out, v->attrs);
		fputc(')', out);
		break;
	case AV_LIST:
		fputc('{', out);
		for (it = v->items; it; it = it->next) {
			ast_value_print(out, it);
			if (it->next)
				fputs(", ", out);
		}
		fputc('}', out);
		break;
	}
}

static void print_attrs(FILE *out, const struct ast_attr *a)
{
	for (; a; a = a->next) {
		fprintf(out, "%s%s", a->local ? "$" : "", a->name);
		if (a->value) {
			fputc('=', out);
			ast_value_print(out, a->value);
		}
		if (a->next)
			fputs(", ", out);
	}
}

static void dump_loc(FILE *out, const struct source *src, struct loc loc)
{
	int line, col;

	source_position(src, loc.start, &line, &col);
	fprintf(out, "%d:%d", line, col);
}

static void dump(FILE *out, const struct source *src, const struct ast_stmt *s,
		 int depth)
{
	const struct ast_attr *a;

	for (; s; s = s->next) {
		fprintf(out, "%*s", depth * 2, "");
		dump_loc(out, src, s->loc);
		fprintf(out, " %s", ast_stmt_keyword(s->kind));
		if (s->kind == AS_SET)
			fprintf(out, " $%s =", s->word);
		else if (s->word)
			fprintf(out, " %s", s->word);
		for (const struct ast_value *w = s->words; w; w = w->next)
			fprintf(out, " %s", w->s);
		if (s->value) {
			fputc(' ', out);
			ast_value_print(out, s->value);
		}
		if (s->value2) {
			fputc(' ', out);
			ast_value_print(out, s->value2);
		}
		fputc('\n', out);
		for (a = s->attrs; a; a = a->next) {
			fprintf(out, "%*s", depth * 2 + 2, "");
			dump_loc(out, src, a->loc);
			fprintf(out, " %s%s", a->local ? "$" : "", a->name);
			if (a->value) {
				fputs(" = ", out);
				ast_value_print(out, a->value);
			}
			fputc('\n', out);
		}
		if (s->body_loc.start >= 0) {
			fprintf(out, "%*s{\n", depth * 2 + 2, "");
			dump(out, src, s->body, depth + 2);
			fprintf(out, "%*s}\n", depth * 2 + 2, "");
		}
	}
}

void ast_dump(FILE *out, const struct source *src, const struct ast_stmt *s)
{
	dump(out, src, s, 0);
}
