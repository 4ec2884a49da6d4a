/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Grammar of the workload language.  Pure: actions only build AST nodes
 * (ast.h); nothing is looked up, checked or executed here, so the meaning
 * of a script never depends on the order bison reduces it in.
 */
%define api.pure full
%define parse.error custom
%define parse.lac full
%define api.location.type {struct loc}
%locations
%expect 0
%param {yyscan_t scanner}
%parse-param {struct parse_ctx *ctx}

%code requires {
#include <stdint.h>
#include "lang/ast.h"
#include "lang/parse_int.h"
}

%code provides {
int yylex(YYSTYPE *yylval, YYLTYPE *yylloc, yyscan_t scanner);
}

%code top {
/* Spans cover their children; an empty rule sits where the previous ended. */
#define YYLLOC_DEFAULT(cur, rhs, n)                                            \
	do {                                                                   \
		if (n) {                                                       \
			(cur).start = YYRHSLOC(rhs, 1).start;                  \
			(cur).end = YYRHSLOC(rhs, n).end;                      \
		} else {                                                       \
			(cur).start = (cur).end = YYRHSLOC(rhs, 0).end;        \
		}                                                              \
	} while (0)
}

%code {
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static struct ast_value *word_value(char *s, struct loc loc);
static struct ast_stmt *stmt(enum ast_stmt_kind kind, struct loc loc);
static char *keyword_text(int token);
static void yyerror(YYLTYPE *loc, yyscan_t scanner, struct parse_ctx *ctx,
		    const char *msg);
}

%union {
	int64_t i;
	double f;
	char *s;
	struct ast_strpart *parts;
	struct ast_value *val;
	struct ast_attr *attr;
	struct ast_stmt *stmt;
}

%token END 0 "end of file"
%token <s> WORD "word"
%token <s> VAR "variable"
%token <i> INT "integer"
%token <f> FLOAT "number"
%token <parts> STRING "string"
%token LEXERR "invalid token"
%token K_CREATE "'create'" K_CVAR "'cvar'" K_DEBUG "'debug'"
%token K_DEFINE "'define'" K_DOMULTISYNC "'domultisync'" K_ECHO "'echo'"
%token K_ENABLE "'enable'" K_EVENTGEN "'eventgen'" K_FLOWOP "'flowop'"
%token K_HELP "'help'" K_LIST "'list'" K_LOG "'log'" K_PSRUN "'psrun'"
%token K_QUIT "'quit'" K_USAGE "'usage'" K_VARS "'vars'"
%token K_RANDVAR "'randvar'" K_RUN "'run'" K_SET "'set'"
%token K_SLEEP "'sleep'" K_SYSTEM "'system'" K_THREAD "'thread'"
%token K_VERSION "'version'"

%type <stmt> stmts stmt items item opt_body
%type <attr> attrs attr_list attr
%type <val> value num list_items
%type <s> entity keyword

%destructor { free($$); } <s>
%destructor { ast_strpart_free($$); } <parts>
%destructor { ast_value_free($$); } <val>
%destructor { ast_attr_free($$); } <attr>
%destructor { ast_stmt_free($$); } <stmt>

%%

program:
	stmts			{ ctx->result = ast_stmt_reverse($1); }
	;

stmts:
	%empty			{ $$ = NULL; }
	| stmts stmt		{ $2->next = $1; $$ = $2; } /* reversed */
	;

stmt:
	K_SET VAR '=' value	{
		$$ = stmt(AS_SET, @1);
		$$->word = $2;
		$$->word_loc = @2;
		$$->value = $4;
	}
	| K_SET WORD WORD	{
		$$ = stmt(AS_SET_MODE, @1);
		$$->word = $2;
		$$->word_loc = @2;
		$$->words = word_value($3, @3);
	}
	| K_SET WORD K_QUIT WORD {
		$$ = stmt(AS_SET_MODE, @1);
		$$->word = $2;
		$$->word_loc = @2;
		$$->words = ast_value_append(word_value(xstrdup("quit"), @3),
					     word_value($4, @4));
	}
	| K_DEFINE entity attrs opt_body {
		$$ = stmt(AS_DEFINE, @1);
		$$->word = $2;
		$$->word_loc = @2;
		$$->attrs = $3;
		if ($4) {
			$$->body_loc = $4->body_loc;
			$$->body = $4->body;
			$4->body = NULL;
			ast_stmt_free($4);
		}
	}
	| K_RUN			{ $$ = stmt(AS_RUN, @1); }
	| K_RUN num		{ $$ = stmt(AS_RUN, @1); $$->value = $2; }
	| K_PSRUN		{ $$ = stmt(AS_PSRUN, @1); }
	| K_PSRUN num		{ $$ = stmt(AS_PSRUN, @1); $$->value = $2; }
	| K_PSRUN num num	{
		$$ = stmt(AS_PSRUN, @1);
		$$->value = $2;
		$$->value2 = $3;
	}
	| K_CREATE WORD		{
		$$ = stmt(AS_CREATE, @1);
		$$->word = $2;
		$$->word_loc = @2;
	}
	| K_SLEEP num		{ $$ = stmt(AS_SLEEP, @1); $$->value = $2; }
	| K_EVENTGEN attrs	{ $$ = stmt(AS_EVENTGEN, @1); $$->attrs = $2; }
	| K_ENABLE WORD attrs	{
		$$ = stmt(AS_ENABLE, @1);
		$$->word = $2;
		$$->word_loc = @2;
		$$->attrs = $3;
	}
	| K_ECHO value		{ $$ = stmt(AS_ECHO, @1); $$->value = $2; }
	| K_SYSTEM value	{ $$ = stmt(AS_SYSTEM, @1); $$->value = $2; }
	| K_DEBUG num		{ $$ = stmt(AS_DEBUG, @1); $$->value = $2; }
	| K_VERSION		{ $$ = stmt(AS_VERSION, @1); }
	| K_QUIT		{ $$ = stmt(AS_QUIT, @1); }
	| K_LIST		{ $$ = stmt(AS_LIST, @1); }
	| K_LIST WORD		{
		$$ = stmt(AS_LIST, @1);
		$$->word = $2;
		$$->word_loc = @2;
	}
	| K_LIST K_FLOWOP	{
		$$ = stmt(AS_LIST, @1);
		$$->word = xstrdup("flowop");
		$$->word_loc = @2;
	}
	| K_DOMULTISYNC attrs	{ $$ = stmt(AS_DOMULTISYNC, @1); $$->attrs = $2; }
	/* filebench 1.4's: log is its echo; the others change nothing */
	| K_LOG value		{ $$ = stmt(AS_ECHO, @1); $$->value = $2; }
	| K_USAGE value		{ $$ = stmt(AS_USAGE, @1); $$->value = $2; }
	| K_VARS		{ $$ = stmt(AS_VARS, @1); }
	| K_HELP		{ $$ = stmt(AS_HELP, @1); }
	;

/* What follows `define`: fileset, file, process, flowop, or old randvar. */
entity:
	WORD			{ $$ = $1; }
	| K_FLOWOP		{ $$ = xstrdup("flowop"); }
	| K_RANDVAR		{ $$ = xstrdup("randvar"); }
	| K_THREAD		{ $$ = xstrdup("thread"); }
	;

num:
	INT			{ $$ = ast_value_new(AV_INT, @1); $$->i = $1; }
	| VAR			{ $$ = ast_value_new(AV_VAR, @1); $$->s = $1; }
	;

/* A body holder: only body_loc and body are used. */
opt_body:
	%empty			{ $$ = NULL; }
	| '{' items '}'		{
		$$ = stmt(AS_DEFINE, @1);
		$$->body_loc = @1;
		$$->body = ast_stmt_reverse($2);
	}
	;

items:
	%empty			{ $$ = NULL; }
	| items item		{ $2->next = $1; $$ = $2; } /* reversed */
	;

item:
	K_THREAD attrs opt_body	{
		$$ = stmt(AS_THREAD, @1);
		$$->attrs = $2;
		if ($3) {
			$$->body_loc = $3->body_loc;
			$$->body = $3->body;
			$3->body = NULL;
			ast_stmt_free($3);
		}
	}
	| K_FLOWOP WORD attrs	{
		$$ = stmt(AS_FLOWOP, @1);
		$$->word = $2;
		$$->word_loc = @2;
		$$->attrs = $3;
	}
	;

attrs:
	%empty			{ $$ = NULL; }
	| attr_list		{ $$ = ast_attr_reverse($1); }
	;

attr_list:
	attr			{ $$ = $1; }
	| attr_list ',' attr	{ $3->next = $1; $$ = $3; } /* reversed */
	;

attr:
	WORD			{ $$ = ast_attr_new($1, false, @1, NULL); }
	| WORD '=' value	{ $$ = ast_attr_new($1, false, @1, $3); }
	| VAR			{ $$ = ast_attr_new($1, true, @1, NULL); }
	| VAR '=' value		{ $$ = ast_attr_new($1, true, @1, $3); }
	;

value:
	INT			{ $$ = ast_value_new(AV_INT, @1); $$->i = $1; }
	| FLOAT			{ $$ = ast_value_new(AV_FLOAT, @1); $$->f = $1; }
	| WORD			{ $$ = word_value($1, @1); }
	| keyword		{ $$ = word_value($1, @1); }
	| VAR			{ $$ = ast_value_new(AV_VAR, @1); $$->s = $1; }
	| STRING		{
		$$ = ast_value_new(AV_STRING, @1);
		$$->parts = $1;
	}
	| K_RANDVAR '(' attrs ')' {
		$$ = ast_value_new(AV_RANDVAR, @$);
		$$->attrs = $3;
	}
	| K_CVAR '(' attrs ')'	{
		$$ = ast_value_new(AV_CVAR, @$);
		$$->attrs = $3;
	}
	| '{' list_items '}'	{
		$$ = ast_value_new(AV_LIST, @$);
		$$->items = $2;
	}
	| '{' list_items ',' '}' {
		$$ = ast_value_new(AV_LIST, @$);
		$$->items = $2;
	}
	;

list_items:
	value			{ $$ = $1; }
	| list_items ',' value	{ $$ = ast_value_append($1, $3); }
	;

/* Command words are not reserved after '=': name=run is a name. */
keyword:
	K_CREATE		{ $$ = keyword_text(K_CREATE); }
	| K_DEBUG		{ $$ = keyword_text(K_DEBUG); }
	| K_DEFINE		{ $$ = keyword_text(K_DEFINE); }
	| K_DOMULTISYNC		{ $$ = keyword_text(K_DOMULTISYNC); }
	| K_ECHO		{ $$ = keyword_text(K_ECHO); }
	| K_ENABLE		{ $$ = keyword_text(K_ENABLE); }
	| K_EVENTGEN		{ $$ = keyword_text(K_EVENTGEN); }
	| K_FLOWOP		{ $$ = keyword_text(K_FLOWOP); }
	| K_HELP		{ $$ = keyword_text(K_HELP); }
	| K_LIST		{ $$ = keyword_text(K_LIST); }
	| K_LOG			{ $$ = keyword_text(K_LOG); }
	| K_PSRUN		{ $$ = keyword_text(K_PSRUN); }
	| K_QUIT		{ $$ = keyword_text(K_QUIT); }
	| K_RUN			{ $$ = keyword_text(K_RUN); }
	| K_SET			{ $$ = keyword_text(K_SET); }
	| K_SLEEP		{ $$ = keyword_text(K_SLEEP); }
	| K_SYSTEM		{ $$ = keyword_text(K_SYSTEM); }
	| K_THREAD		{ $$ = keyword_text(K_THREAD); }
	| K_USAGE		{ $$ = keyword_text(K_USAGE); }
	| K_VARS		{ $$ = keyword_text(K_VARS); }
	| K_VERSION		{ $$ = keyword_text(K_VERSION); }
	;

%%

static struct ast_value *word_value(char *s, struct loc loc)
{
	struct ast_value *v = ast_value_new(AV_WORD, loc);

	v->s = s;
	return v;
}

static struct ast_stmt *stmt(enum ast_stmt_kind kind, struct loc loc)
{
	return ast_stmt_new(kind, loc);
}

/* From the one list, sorted by name for bsearch. */
static const struct keyword {
	const char *name;
	int token;
} keywords[] = {
#define KEYWORD(id, word, command, stmt) { word, K_##id },
#include "grammar/keywords.h"
#undef KEYWORD
};

static int keyword_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct keyword *)elem)->name);
}

int parse_keyword_token(const char *word)
{
	const struct keyword *k = bsearch(word, keywords, ARRAY_SIZE(keywords),
					  sizeof(keywords[0]), keyword_cmp);

	return k ? k->token : -1;
}

/* A keyword used as a word (after '='): its text, malloc'd. */
static char *keyword_text(int token)
{
	size_t i = 0;

	/* every K_ token is in the list */
	while (i + 1 < ARRAY_SIZE(keywords) && keywords[i].token != token)
		i++;
	return xstrdup(keywords[i].name);
}

const char *const parse_command_words[] = {
#define KEYWORD(id, word, command, stmt) KW_COMMAND_##command(word)
#define KW_COMMAND_1(word) word,
#define KW_COMMAND_0(word)
#include "grammar/keywords.h"
#undef KW_COMMAND_0
#undef KW_COMMAND_1
#undef KEYWORD
};
const size_t parse_ncommand_words = ARRAY_SIZE(parse_command_words);

/*
 * Commands of filebench 1.4 that fbrun does not take (1.5 dropped them
 * too), and what to write instead; usage, vars, help and log are taken.
 */
static const char *removed_command(const char *w)
{
	static const char *const removed[][2] = {
		{ "load", "run the script directly" },
		{ "stats", "'run N' clears the statistics, runs and prints "
			   "them" },
		{ "shutdown", "the run ends at its 'run N'" },
		{ "warmup", "use fbrun's --warmup" },
		{ "foreach", "run the script once per value with -D" },
		{ "fsflush", "drop the caches before fbrun starts" },
		{ "fscheck", "check the file system before fbrun starts" },
		{ "nousestats", "write 'set mode nousestats'" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(removed); i++)
		if (strcmp(w, removed[i][0]) == 0)
			return removed[i][1];
	return NULL;
}

/* Whether the next non-blank character after loc is '=' (an attribute). */
static bool followed_by_equals(const struct parse_ctx *ctx, struct loc loc)
{
	const char *t = source_text(ctx->src);
	size_t i = (size_t)loc.end, n = source_len(ctx->src);

	while (i < n && (t[i] == ' ' || t[i] == '\t'))
		i++;
	return i < n && t[i] == '=';
}

/* The text of the token at loc, shortened for a message. */
static char *token_text(const struct parse_ctx *ctx, struct loc loc)
{
	size_t len = (size_t)(loc.end - loc.start);

	if (len > 40)
		len = 40;
	return xstrndup(source_text(ctx->src) + loc.start, len);
}

static int yyreport_syntax_error(const yypcontext_t *pc, yyscan_t scanner,
				 struct parse_ctx *ctx)
{
	yysymbol_kind_t tok = yypcontext_token(pc);
	struct loc loc = *yypcontext_location(pc);
	yysymbol_kind_t exp[64];
	int nexp = yypcontext_expected_tokens(pc, exp, 64);
	struct lex_state *ls = ctx->lex;
	bool at_stmt = false, want_close = false, want_comma = false;
	char *text = NULL, expected[256] = "";
	const char *hint;

	(void)scanner;
	bool want_value = false, want_eof = false;

	for (int i = 0; i < nexp; i++) {
		if (exp[i] == YYSYMBOL_K_DEFINE)
			at_stmt = true;
		else if (exp[i] == YYSYMBOL_INT)
			want_value = true;
		else if (exp[i] == YYSYMBOL_YYEOF)
			want_eof = true;
		else if (strcmp(yysymbol_name(exp[i]), "'}'") == 0)
			want_close = true;
		else if (strcmp(yysymbol_name(exp[i]), "','") == 0)
			want_comma = true;
	}
	/* command words are also values after '=' */
	at_stmt = at_stmt && want_eof;
	if (tok == YYSYMBOL_LEXERR) {
		diag_error(ctx->diag, ctx->src, loc, "%s",
			   ls->errmsg ? ls->errmsg : "invalid token");
		return 0;
	}
	if (tok == YYSYMBOL_YYEOF && ls->nbraces > 0) {
		struct loc open = ls->braces[ls->nbraces - 1];

		diag_error(ctx->diag, ctx->src, loc,
			   "missing '}' at end of file");
		diag_note(ctx->diag, ctx->src, open,
			  "to close the '{' opened here");
		return 0;
	}
	if (tok != YYSYMBOL_YYEOF)
		text = token_text(ctx, loc);
	if (tok == YYSYMBOL_WORD && want_comma &&
	    (!at_stmt || followed_by_equals(ctx, loc))) {
		diag_error(ctx->diag, ctx->src, loc,
			   "unexpected '%s'; missing ',' between attributes?",
			   text);
		free(text);
		return 0;
	}
	if (tok == YYSYMBOL_WORD && at_stmt) {
		if ((hint = removed_command(text)))
			diag_error(ctx->diag, ctx->src, loc,
				   "'%s' is filebench 1.4's and not a command "
				   "of this language; %s",
				   text, hint);
		else if ((hint = did_you_mean(text, parse_command_words,
					      parse_ncommand_words,
					      sizeof(parse_command_words[0]))))
			diag_error(ctx->diag, ctx->src, loc,
				   "unknown command '%s'; did you mean '%s'?",
				   text, hint);
		else
			diag_error(ctx->diag, ctx->src, loc,
				   "unknown command '%s'", text);
		free(text);
		return 0;
	}
	if (nexp > 0 && nexp <= 5) {
		strcat(expected, "; expected ");
		for (int i = 0; i < nexp; i++) {
			if (i > 0)
				strcat(expected, i == nexp - 1 ? " or " : ", ");
			strcat(expected, yysymbol_name(exp[i]));
		}
	} else if (at_stmt) {
		strcat(expected, "; expected a command");
	} else if (want_value) {
		strcat(expected, "; expected a value");
	}
	if (tok == YYSYMBOL_YYEOF)
		diag_error(ctx->diag, ctx->src, loc,
			   "unexpected end of file%s", expected);
	else
		diag_error(ctx->diag, ctx->src, loc, "unexpected '%s'%s", text,
			   expected);
	if (want_close && ls->nbraces > 0)
		diag_note(ctx->diag, ctx->src, ls->braces[ls->nbraces - 1],
			  "the '{' opened here is not closed");
	free(text);
	return 0;
}

/* Bison calls this only for "memory exhausted" with custom errors. */
static void yyerror(YYLTYPE *loc, yyscan_t scanner, struct parse_ctx *ctx,
		    const char *msg)
{
	(void)scanner;
	diag_error(ctx->diag, ctx->src, *loc, "%s (nesting too deep?)", msg);
}
