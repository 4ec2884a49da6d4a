/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * `define trace` and the replay flowop's rows.  The trace file is read
 * here, when the script is compiled: a bad trace is its own located
 * error (TRACE:line:col) and fails the script before anything is made.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "trace/trace.h"
#include "util/util.h"

static void trace_release(struct ir_trace *t)
{
	free(t->name);
	free(t->path);
	free(t->format);
	trace_free(t->trace);
}

int compile_find_trace(const struct compiler *c, const char *name)
{
	for (size_t i = 0; i < c->w->ntraces; i++)
		if (strcmp(c->w->traces[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Where attribute `name` of s was given (its value, or its bare name), or s. */
static struct loc attr_at(const struct ast_stmt *s, const char *name)
{
	const struct ast_attr *a = ast_attr_find(s->attrs, name);

	if (!a)
		return s->loc;
	return a->value ? a->value->loc : a->loc;
}

/* Read the trace t names; left NULL after reporting why it cannot be. */
static void load(struct compiler *c, const struct ast_stmt *s,
		 struct ir_trace *t)
{
	struct trace_opts opts = { .format = TRACE_AUTO };
	char words[128];

	if (t->format && trace_format_parse(t->format, &opts.format) < 0) {
		diag_error(c->d, c->src, attr_at(s, "format"),
			   "unknown trace format '%s'; expected %s", t->format,
			   trace_format_words(words, sizeof(words)));
		return;
	}
	if (!t->path[0]) {
		diag_error(c->d, c->src, attr_at(s, "path"),
			   "trace '%s' has an empty path", t->name);
		return;
	}
	t->trace = trace_load(t->path, &opts);
	if (t->trace) {
		const struct trace_entry *ent;

		/* worked out once, here: the threads only read the trace */
		trace_initial(t->trace, &ent);
		return;
	}
	/* trace_load said what is wrong where; this says which define */
	diag_error(c->d, c->src, attr_at(s, "path"),
		   "trace '%s' cannot be replayed (the error above)", t->name);
}

void compile_build_trace(struct compiler *c, const struct ast_stmt *s)
{
	struct workload *w = c->w;
	struct ir_trace t;
	int prev;

	memset(&t, 0, sizeof(t));
	if (compile_apply_attrs(c, &attr_trace, s->attrs, &t, false, false,
				"define trace", s->loc) == (uint64_t)-1) {
		trace_release(&t);
		return;
	}
	t.loc = s->loc;
	prev = compile_find_trace(c, t.name);
	if (prev >= 0) {
		diag_error(c->d, c->src, s->loc,
			   "trace '%s' is already defined", t.name);
		diag_note(c->d, c->src, w->traces[prev].loc,
			  "first defined here");
		trace_release(&t);
		return;
	}
	/* a bad one is kept without its trace: its uses are not errors too */
	load(c, s, &t);
	w->traces = grow_array(w->traces, &c->cap_traces, w->ntraces + 1,
			       sizeof(*w->traces));
	w->traces[w->ntraces++] = t;
}

/* Whether the trace has ops of type ty in any stream. */
static bool has_ops(const struct trace *t, enum trace_op_type ty)
{
	for (size_t s = 0; s < trace_nstreams(t); s++) {
		const struct trace_op *ops = trace_stream_ops(t, s);

		for (size_t i = 0; i < trace_stream_nops(t, s); i++)
			if (ops[i].type == ty)
				return true;
	}
	return false;
}

/* How many of t's ops have no time (the recording kept none). */
static size_t untimed(const struct trace *t)
{
	size_t n = 0;

	for (size_t s = 0; s < trace_nstreams(t); s++) {
		const struct trace_op *ops = trace_stream_ops(t, s);

		for (size_t i = 0; i < trace_stream_nops(t, s); i++)
			n += ops[i].time_ns == TRACE_NO_TIME;
	}
	return n;
}

void compile_replay_rows(struct compiler *c, struct ir_flowop *f,
			 const struct ast_stmt *s)
{
	size_t nott;
	const struct trace *t;

	if (!f->trace.name) {
		diag_error(c->d, c->src, f->loc,
			   "flowop replay needs trace= (a define trace)");
		return;
	}
	f->trace.index = compile_find_trace(c, f->trace.name);
	if (f->trace.index < 0) {
		diag_error(c->d, c->src, f->trace.loc, "no trace named '%s'",
			   f->trace.name);
		return;
	}
	t = c->w->traces[f->trace.index].trace;
	if (!t)
		return; /* its define was reported */
	if (f->pace > 0 && (nott = untimed(t)))
		diag_error(c->d, c->src, attr_at(s, "pace"),
			   "flowop replay attribute 'pace' needs the times of "
			   "the trace's operations: trace '%s' has none for "
			   "%zu of them",
			   f->trace.name, nott);
	/* the calls dbench makes are for its own loadfile's lines */
	if (f->calls == IR_CALLS_DBENCH && trace_format(t) != TRACE_DBENCH)
		diag_error(c->d, c->src, attr_at(s, "calls"),
			   "flowop replay attribute 'calls=dbench' needs a "
			   "dbench loadfile: trace '%s' is in %s's format",
			   f->trace.name, trace_format_name(trace_format(t)));
	f->replay_rows = xmalloc(TOP_COUNT * sizeof(*f->replay_rows));
	for (int ty = 0; ty < TOP_COUNT; ty++) {
		struct ir_flowop *row;

		f->replay_rows[ty] = -1;
		if (!has_ops(t, (enum trace_op_type)ty))
			continue;
		row = xcalloc(1, sizeof(*row));
		row->type = FO_REPLAY;
		row->name = xasprintf("%s.%s", f->name,
				      trace_op_name((enum trace_op_type)ty));
		row->loc = f->loc;
		row->thread = f->thread;
		row->fd = row->srcfd = -1;
		row->iters = row->highwater = 1;
		row->fileset = (struct ir_ref){ .index = -1 };
		row->target = (struct ir_ref){ .index = -1 };
		row->trace = (struct ir_ref){ .index = f->trace.index };
		row->replay_row = true;
		row->replay_op = ty;
		workload_add_flowop(c->w, row, &c->cap_flowops);
		f->replay_rows[ty] = row->id;
	}
}
