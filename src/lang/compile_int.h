/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The compiler's inside: shared by the compile*.c files only. */
#ifndef FBRUN_COMPILE_INT_H
#define FBRUN_COMPILE_INT_H

#include "lang/attr.h"
#include "lang/compile.h"
#include "lang/vars.h"

/*
 * A quoted string expands to at most this many bytes, through at most this
 * many variable references: quoted variables that each use the previous
 * twice double at every step, and would otherwise take exponential time
 * and memory (even when they expand to nothing).
 */
#define MAX_EXPANDED (1u << 20)

/* A `define flowop`: its statement and its name/iters. */
struct composite {
	const struct ast_stmt *def;
	struct ir_flowop form;
	struct strmap *locals; /* "$name" declared -> its ast_attr; or NULL */
	bool expanding; /* being built: using it again is recursion */
};

struct compiler {
	const struct source *src;
	struct diag *d;
	const struct compile_opts *opts;
	const struct ast_stmt *prog;
	bool silent; /* expand without reporting (final variable values) */
	size_t silent_refs; /* variable references left for those */
	struct env *env;
	struct workload *w;
	struct rv_rng rng; /* for randvars sampled at compile time (echo) */
	/* `define` statements met since the last build, in order */
	const struct ast_stmt **defines;
	size_t ndefines, cap_defines;
	/* processes, threads and flowops checked by an earlier build */
	size_t built_processes, built_threads, built_flowops;
	/* names of filesets whose define failed: no follow-on errors */
	char **bad_filesets;
	size_t nbad_filesets, cap_bad_filesets;
	struct strmap *bad_fileset_names; /* the same, for lookups */
	/* capacities of the workload's arrays: they grow geometrically */
	size_t cap_stmts, cap_filesets, cap_processes, cap_threads;
	size_t cap_flowops, cap_randvars, cap_traces;
	struct strmap *fileset_names; /* name -> index + 1 */
	struct strmap *process_names; /* name -> index + 1 */
	struct composite *composites;
	size_t ncomposites, cap_composites;
	struct strmap *composite_names; /* name -> index + 1 */
	unsigned composite_depth; /* composites being expanded now */
};

/* Where a resolved value came from, for notes on errors. */
struct origin {
	const struct binding *via; /* the variable, if it came through one */
};

/*
 * Resolve an AST value to a plain value: variables are looked up, quoted
 * strings expanded, true/false become booleans.  Returns 0, or -1 after
 * reporting an error.  out->loc is the value's location.
 */
int compile_resolve_value(struct compiler *c, const struct ast_value *v,
			  struct ir_value *out, struct origin *org);

/*
 * Expand a quoted string's parts (those of binding self, or NULL for a
 * literal); NULL after reporting an error (a size limit at where).  Linear
 * in the result.
 */
char *compile_expand_string(struct compiler *c, const struct ast_strpart *parts,
			    struct binding *self, struct loc where);

/*
 * Apply attrs to obj (an IR struct laid out as table t says), after
 * filling every row's default.  Local $attrs are skipped when
 * allow_locals, else reported.  only_file: the `define file` subset.
 * Returns a bitmask of the rows given (bit i = t->specs[i]), or
 * (uint64_t)-1 if an error was reported.
 */
uint64_t compile_apply_attrs(struct compiler *c, const struct attr_table *t,
			     const struct ast_attr *attrs, void *obj, bool only_file,
			     bool allow_locals, const char *what, struct loc where);

/*
 * compile_randvar.c: build a random variable from randvar(...) or
 * cvar(...); index or -1.
 */
int compile_build_randvar(struct compiler *c, const char *name,
			  const struct ast_attr *attrs, bool cvar, struct loc loc);

/* compile_fileset.c: `define fileset` and `define file`. */
void compile_build_fileset(struct compiler *c, const struct ast_stmt *s);
/* Index of the fileset named name, or -1. */
int compile_find_fileset(const struct compiler *c, const char *name);

/* compile_trace.c: `define trace`, its file read and checked. */
void compile_build_trace(struct compiler *c, const struct ast_stmt *s);
/* Index of the trace named name, or -1. */
int compile_find_trace(const struct compiler *c, const char *name);
/*
 * A replay flowop f (just registered): trace= resolved and a row
 * registered for each operation type the trace has, "<name>.<type>";
 * with pace=, the trace must have every op's time.  s: its statement.
 */
void compile_replay_rows(struct compiler *c, struct ir_flowop *f,
			 const struct ast_stmt *s);

/* compile_randvar.c: rv appended to the workload's randvars; its index. */
int compile_add_randvar(struct compiler *c, struct ir_randvar rv);

/* compile_set.c: `set $var = value`, `set mode ...`, `define randvar`. */
void compile_set_var(struct compiler *c, const struct ast_stmt *s);
void compile_set_mode(struct compiler *c, const struct ast_stmt *s);
void compile_old_randvar(struct compiler *c, const struct ast_stmt *s);

/* compile_flow.c: `define flowop` and `define process`. */
void compile_build_composite(struct compiler *c, const struct ast_stmt *s);
void compile_build_process(struct compiler *c, const struct ast_stmt *s);

/* compile_check.c: references and per-thread checks. */
void compile_resolve_fileset(struct compiler *c, struct ir_flowop *f);
/* mine, all: flowop names of f's thread and of the workload -> first flowop */
void compile_resolve_target(struct compiler *c, struct ir_flowop *f,
			    const struct strmap *mine, const struct strmap *all);
void compile_check_thread(struct compiler *c, int tidx);

/* Report on the binding a bad value came from. */
void compile_note_origin(struct compiler *c, const struct origin *org);

#endif
