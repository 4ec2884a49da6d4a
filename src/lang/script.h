/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A workload script from its file to a workload: the steps that a run
 * of `fbrun SCRIPT` and each Bonnie phase share.  Parse and compile
 * report to the caller's diag; nothing runs here.
 */
#ifndef FBRUN_SCRIPT_H
#define FBRUN_SCRIPT_H

#include "lang/compile.h"

struct script;
struct ast_stmt;
struct diag;
struct source;
struct workload;

/*
 * Read the script at path ("-": standard input).  NULL after saying why
 * (fb_error: "cannot read ...").
 */
struct script *script_new(const char *path);
/* A script whose text another process read (fbrun-mpi's rank 0). */
struct script *script_from_text(const char *name, const char *text,
				size_t len);
void script_free(struct script *s);

/* Parse it: 0, or -1 after reporting to d. */
int script_parse(struct script *s, struct diag *d);

/*
 * Compile the parsed script with o; a NULL o->tmpdir becomes $TMPDIR, or
 * /tmp.  The workload belongs to s; NULL after reporting to d.
 */
const struct workload *script_compile(struct script *s,
				      const struct compile_opts *o,
				      struct diag *d);

const struct source *script_source(const struct script *s);
const struct ast_stmt *script_ast(const struct script *s);

#endif
