/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The syntax tree of a script, exactly as written: nothing is resolved or
 * checked here (that is compile.c's job), so the grammar stays pure.
 * Every node keeps the byte span it came from.
 */
#ifndef FBRUN_AST_H
#define FBRUN_AST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/source.h"

enum ast_value_kind {
	AV_INT, /* 128k */
	AV_FLOAT, /* 1.5 (rejected where an integer is needed) */
	AV_WORD, /* bare word: bigfileset, /tmp/x, true */
	AV_STRING, /* "quoted $text", parts expanded when used */
	AV_VAR, /* $name */
	AV_RANDVAR, /* randvar(attrs) */
	AV_CVAR, /* cvar(attrs) */
	AV_LIST, /* {a, b, ...}: randtable and its rows */
};

/* A piece of a quoted string: literal text or a $variable. */
struct ast_strpart {
	bool is_var;
	char *text; /* literal, or variable name without '$' */
	struct loc loc;
	struct ast_strpart *next;
};

struct ast_attr;

struct ast_value {
	enum ast_value_kind kind;
	struct loc loc;
	int64_t i;
	double f;
	char *s; /* AV_WORD text, AV_VAR name without '$' */
	struct ast_strpart *parts; /* AV_STRING */
	struct ast_attr *attrs; /* AV_RANDVAR, AV_CVAR */
	struct ast_value *items; /* AV_LIST */
	struct ast_value *next; /* sibling in an AV_LIST */
};

/* `name`, `name=value`, or a composite's local `$name[=value]`. */
struct ast_attr {
	char *name;
	bool local; /* written as $name */
	struct loc loc; /* the name */
	struct ast_value *value; /* NULL for a bare attribute */
	struct ast_attr *next;
};

enum ast_stmt_kind {
	AS_SET, /* set $word = value */
	AS_SET_MODE, /* set mode words... */
	AS_DEFINE, /* define word attrs [{ body }] */
	AS_THREAD, /* thread attrs { body } inside define process */
	AS_FLOWOP, /* flowop word attrs */
	AS_RUN, /* run [value] */
	AS_PSRUN, /* psrun [value [value2]] */
	AS_CREATE, /* create word */
	AS_SLEEP, /* sleep value */
	AS_EVENTGEN, /* eventgen attrs */
	AS_ENABLE, /* enable word [attrs] */
	AS_ECHO, /* echo value */
	AS_SYSTEM, /* system value */
	AS_DEBUG, /* debug value */
	AS_VERSION,
	AS_QUIT,
	AS_LIST, /* list [word] */
	AS_DOMULTISYNC, /* domultisync attrs */
	AS_USAGE, /* usage value: filebench 1.4's help text, kept unused */
	AS_VARS, /* filebench 1.4's: listed the variables */
	AS_HELP, /* filebench 1.4's: its interactive help */
};

struct ast_stmt {
	enum ast_stmt_kind kind;
	struct loc loc; /* the command keyword */
	char *word; /* see the kinds above; NULL if absent */
	struct loc word_loc;
	struct ast_value *value, *value2;
	struct ast_value *words; /* AS_SET_MODE: AV_WORD list */
	struct ast_attr *attrs;
	struct loc body_loc; /* the opening '{', if there is a body */
	struct ast_stmt *body;
	struct ast_stmt *next;
};

struct ast_value *ast_value_new(enum ast_value_kind kind, struct loc loc);
struct ast_attr *ast_attr_new(char *name, bool local, struct loc loc,
			      struct ast_value *value);
struct ast_stmt *ast_stmt_new(enum ast_stmt_kind kind, struct loc loc);

/* Append b to list a (either may be NULL); returns the head. */
struct ast_attr *ast_attr_append(struct ast_attr *a, struct ast_attr *b);
struct ast_value *ast_value_append(struct ast_value *a, struct ast_value *b);
struct ast_stmt *ast_stmt_append(struct ast_stmt *a, struct ast_stmt *b);

/* Reverse a list (the parser builds lists by prepending). */
struct ast_stmt *ast_stmt_reverse(struct ast_stmt *l);
struct ast_attr *ast_attr_reverse(struct ast_attr *l);
struct ast_value *ast_value_reverse(struct ast_value *l);

void ast_value_free(struct ast_value *v);
void ast_attr_free(struct ast_attr *a);
void ast_strpart_free(struct ast_strpart *p);
/* Frees the whole list starting at s. */
void ast_stmt_free(struct ast_stmt *s);

/* Find attribute `name` (not a local) in a list; NULL if absent. */
struct ast_attr *ast_attr_find(struct ast_attr *a, const char *name);

/* Name of a statement kind as written in scripts ("define", "run"). */
const char *ast_stmt_keyword(enum ast_stmt_kind kind);

/* Readable dump for --dump-ast and the golden tests. */
void ast_dump(FILE *out, const struct source *src, const struct ast_stmt *s);
/* Write a value back in script syntax (for messages and dumps). */
void ast_value_print(FILE *out, const struct ast_value *v);

#endif
