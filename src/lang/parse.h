/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Script text -> syntax tree.  The parser is pure and the scanner
 * reentrant: no globals, so scripts may be parsed concurrently.
 */
#ifndef FBRUN_PARSE_H
#define FBRUN_PARSE_H

#include "lang/ast.h"
#include "util/diag.h"
#include "util/source.h"

/*
 * Parse the whole of src.  On success returns 0 and stores the statement
 * list in *out (NULL for an empty script); the caller frees it with
 * ast_stmt_free.  On a syntax error reports it through d and returns -1
 * with *out = NULL.
 */
int parse_script(const struct source *src, struct diag *d,
		 struct ast_stmt **out);

#endif
