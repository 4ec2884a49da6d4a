/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Script variables: a name -> binding map that compile fills as it walks
 * the statements in order, so each use sees the value set before it.
 */
#ifndef FBRUN_VARS_H
#define FBRUN_VARS_H

#include <stdbool.h>
#include <stddef.h>

#include "lang/ast.h"
#include "lang/ir.h"

struct binding {
	char *name; /* without '$' */
	struct ir_value value; /* INT, DOUBLE, BOOL, STR (a bare word), RAND */
	const struct ast_strpart *parts; /* a quoted string, expanded on use */
	const struct source *src; /* where it was set: the script or -D */
	struct loc loc;
	bool cli; /* from -D: the script's own sets do not replace it */
	bool builtin; /* predefined, such as $tmpdir */
	bool shy; /* a builtin listed in the workload's variables only if read */
	bool used; /* some statement read it */
	bool set; /* has a value (false: only mentioned) */
	bool expanding; /* compile: its quoted string is being expanded */
};

struct env;

struct env *vars_env_new(void);
void vars_env_free(struct env *e);

/* The binding for name, or NULL. */
struct binding *vars_env_get(struct env *e, const char *name);
/* The binding for name, created unset if missing. */
struct binding *vars_env_put(struct env *e, const char *name);
/* Bindings in the order they were created. */
size_t vars_env_count(const struct env *e);
struct binding *vars_env_at(struct env *e, size_t i);
/* Closest set variable name for a "did you mean", or NULL. */
const char *vars_env_suggest(struct env *e, const char *name);

/* Replace a binding's value, freeing the old one. */
void vars_binding_clear(struct binding *b);

#endif
