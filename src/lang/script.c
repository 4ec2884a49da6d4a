/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Reading, parsing and compiling a script (script.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"
#include "lang/catalog.h"
#include "lang/ir.h"
#include "lang/parse.h"
#include "lang/script.h"
#include "util/msg.h"
#include "util/source.h"
#include "util/util.h"

struct script {
	struct source *src;
	struct ast_stmt *prog;
	struct workload *w;
};

struct script *script_new(const char *path)
{
	struct source *src = source_load(path);
	struct script *s;

	if (!src && errno == EFBIG) {
		fb_error("cannot read '%s': a script may be at most %u MiB",
			 path, SOURCE_MAX_BYTES >> 20);
		return NULL;
	}
	if (!src) {
		int err = errno;
		char *hint = err == ENOENT ? catalog_suggest(path) : NULL;

		fb_error("cannot read '%s': %s%s%s%s", path, strerror(err),
			 hint ? "; did you mean '" : "", hint ? hint : "",
			 hint ? "'?" : "");
		free(hint);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->src = src;
	return s;
}

struct script *script_from_text(const char *name, const char *text,
				size_t len)
{
	struct script *s = xcalloc(1, sizeof(*s));

	s->src = source_from_string(name, text, len);
	return s;
}

void script_free(struct script *s)
{
	if (!s)
		return;
	workload_free(s->w);
	ast_stmt_free(s->prog);
	source_free(s->src);
	free(s);
}

int script_parse(struct script *s, struct diag *d)
{
	return parse_script(s->src, d, &s->prog);
}

const struct workload *script_compile(struct script *s,
				      const struct compile_opts *o,
				      struct diag *d)
{
	struct compile_opts co = *o;
	const char *tmp = getenv("TMPDIR");

	if (!co.tmpdir)
		co.tmpdir = tmp && tmp[0] ? tmp : "/tmp";
	workload_free(s->w);
	s->w = compile_workload(s->prog, s->src, &co, d);
	return s->w;
}

const struct source *script_source(const struct script *s)
{
	return s->src;
}

const struct ast_stmt *script_ast(const struct script *s)
{
	return s->prog;
}
