/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Shared between grammar/lexer.l and grammar/parser.y only. */
#ifndef FBRUN_PARSE_INT_H
#define FBRUN_PARSE_INT_H

#include <stddef.h>

#include "lang/ast.h"
#include "util/diag.h"
#include "util/source.h"

typedef void *yyscan_t;

struct lex_state {
	const struct source *src;
	struct diag *diag; /* for warnings */
	int offset; /* byte offset of the next character */
	/* quoted string being scanned */
	struct ast_strpart *parts, **tail;
	char *buf;
	size_t len, cap;
	int str_start;
	/* message for the LEXERR token, owned here */
	char *errmsg;
	/* '{' not yet closed, innermost last */
	struct loc *braces;
	size_t nbraces, cap_braces;
};

struct parse_ctx {
	const struct source *src;
	struct diag *diag;
	struct lex_state *lex;
	struct ast_stmt *result;
};

/* Keyword lookup for the scanner: token number or -1. */
int parse_keyword_token(const char *word);
/* Command keywords, for "did you mean" on an unknown command. */
extern const char *const parse_command_words[];
extern const size_t parse_ncommand_words;

#endif
