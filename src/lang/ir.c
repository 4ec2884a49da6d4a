/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The compiled workload: constructors, lookups and freeing (ir.h). */
#include "lang/ir.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "util/util.h"

const char *ir_quit_name(enum ir_quit q)
{
	static const char *const names[] = { "timeout", "alldone",
					     "firstdone" };

	return names[q];
}

uint64_t ir_process_nworkers(const struct workload *w, size_t p)
{
	const struct ir_process *pr = &w->processes[p];
	uint64_t per = 0, n;

	for (int t = pr->first_thread; t < pr->first_thread + pr->nthreads; t++)
		if (__builtin_add_overflow(per, (uint64_t)w->threads[t].instances,
					   &per))
			return UINT64_MAX;
	if (__builtin_mul_overflow(per, (uint64_t)pr->instances, &n))
		return UINT64_MAX;
	return n;
}

uint64_t workload_nworkers(const struct workload *w)
{
	uint64_t n = 0;

	for (size_t p = 0; p < w->nprocesses; p++)
		if (__builtin_add_overflow(n, ir_process_nworkers(w, p), &n))
			return UINT64_MAX;
	return n;
}

struct ir_flowop *ir_flowop_new(void)
{
	/* on lines of its own: its first line is read at every op */
	struct ir_flowop *f = calloc_lines(1, sizeof(*f));

	return f ? f : xcalloc(1, sizeof(*f));
}

void ir_flowop_free(struct ir_flowop *f)
{
	if (!f)
		return;
	free(f->name);
	free(f->label);
	free(f->composite);
	free(f->fileset.name);
	free(f->target.name);
	free(f->iosize.s);
	free(f->workingset.s);
	free(f->value.s);
	free(f->indexed.s);
	free(f->entries.s);
	free(f->filesize.s);
	free(f->children);
	free(f->trace.name);
	free(f->replay_rows);
	free(f);
}

unsigned ir_flowop_flags(const struct ir_flowop *f)
{
	if (!f->replay_row)
		return flowop_flags(f->type);
	if (f->replay_op == TOP_READ)
		return FF_IO | FF_MOVES_DATA | FF_READ;
	if (f->replay_op == TOP_WRITE)
		return FF_IO | FF_MOVES_DATA | FF_WRITE;
	return FF_IO;
}

bool ir_flowop_holds_others(const struct ir_flowop *f)
{
	return f->type == FO_COMPOSITE || (f->type == FO_REPLAY && !f->replay_row);
}

void workload_add_flowop(struct workload *w, struct ir_flowop *f, size_t *cap)
{
	f->id = (int)w->nflowops;
	w->flowops = grow_array(w->flowops, cap, w->nflowops + 1,
				sizeof(*w->flowops));
	w->flowops[w->nflowops++] = f;
}

void workload_truncate(struct workload *w, const struct workload *to)
{
	struct workload now = *w;

	for (size_t i = to->nfilesets; i < now.nfilesets; i++) {
		free(now.filesets[i].name);
		free(now.filesets[i].path);
		free(now.filesets[i].path_given);
	}
	for (size_t i = to->ntraces; i < now.ntraces; i++) {
		free(now.traces[i].name);
		free(now.traces[i].path);
		free(now.traces[i].format);
		trace_free(now.traces[i].trace);
	}
	for (size_t i = to->nprocesses; i < now.nprocesses; i++)
		free(now.processes[i].name);
	for (size_t i = to->nthreads; i < now.nthreads; i++) {
		free(now.threads[i].name);
		free(now.threads[i].flowops);
	}
	for (size_t i = to->nflowops; i < now.nflowops; i++)
		ir_flowop_free(now.flowops[i]);
	for (size_t i = to->nrandvars; i < now.nrandvars; i++) {
		free(now.randvars[i].name);
		rv_spec_release(&now.randvars[i].spec);
	}
	for (size_t i = to->nvars; i < now.nvars; i++) {
		free(now.vars[i].name);
		if (now.vars[i].value.kind == IRV_STR)
			free(now.vars[i].value.s);
	}
	for (size_t i = to->nstmts; i < now.nstmts; i++)
		free(now.stmts[i].text);
	/* the counts and settings of `to`, in the arrays as they are now */
	*w = *to;
	w->filesets = now.filesets;
	w->traces = now.traces;
	w->processes = now.processes;
	w->threads = now.threads;
	w->flowops = now.flowops;
	w->randvars = now.randvars;
	w->vars = now.vars;
	w->stmts = now.stmts;
}

void workload_free(struct workload *w)
{
	struct workload none = { 0 };

	if (!w)
		return;
	workload_truncate(w, &none);
	free(w->filesets);
	free(w->traces);
	free(w->processes);
	free(w->threads);
	free(w->flowops);
	free(w->randvars);
	free(w->vars);
	free(w->stmts);
	free(w);
}

void ir_value_format(char *buf, size_t len, const struct workload *w,
		     const struct ir_value *v)
{
	switch (v->kind) {
	case IRV_NONE:
		snprintf(buf, len, "-");
		break;
	case IRV_INT:
		format_size(buf, len, v->i);
		break;
	case IRV_DOUBLE:
		snprintf(buf, len, "%.10g", v->d);
		break;
	case IRV_BOOL:
		snprintf(buf, len, "%s", v->i ? "true" : "false");
		break;
	case IRV_STR: {
		size_t o = 0;

		/* quoted, with control characters escaped: one line per value */
		if (len < 8) {
			snprintf(buf, len, "\"...\"");
			break;
		}
		buf[o++] = '"';
		for (const char *c = v->s; *c && o + 6 < len; c++) {
			if (*c == '\n') {
				buf[o++] = '\\';
				buf[o++] = 'n';
			} else if ((unsigned char)*c < 0x20) {
				o += (size_t)snprintf(buf + o, len - o, "\\x%02x",
						      (unsigned char)*c);
			} else {
				buf[o++] = *c;
			}
		}
		buf[o++] = '"';
		buf[o] = '\0';
		break;
	}
	case IRV_RAND:
		snprintf(buf, len, "$%s", w->randvars[v->rv].name);
		break;
	}
}

static void dump_value(FILE *out, const struct workload *w, const char *name,
		       const struct ir_value *v)
{
	char buf[256];

	if (v->kind == IRV_NONE)
		return;
	ir_value_format(buf, sizeof(buf), w, v);
	fprintf(out, " %s=%s", name, buf);
}

static void dump_spec(FILE *out, const struct rv_spec *s)
{
	fprintf(out, "%s src=%s", rv_dist_name(s->dist),
		s->src == RV_SRC_RAND48 ? "rand48" : "urandom");
	if (s->has_seed)
		fprintf(out, " seed=%" PRIu64, s->seed);
	if (s->dist == RV_GAMMA)
		fprintf(out, " gamma=%.10g", s->gamma);
	if (s->dist == RV_GAMMA || s->dist == RV_UNIFORM)
		fprintf(out, " mean=%.10g", s->mean);
	if (s->min)
		fprintf(out, " min=%.10g", s->min);
	if (s->has_max)
		fprintf(out, " max=%.10g", s->max);
	if (s->round)
		fprintf(out, " round=%.10g", s->round);
	if (rv_dist_is_cvar(s->dist))
		for (int i = 0; i < RV_MAXPARAM; i++)
			if (s->param[i] != 0)
				fprintf(out, " p%d=%.10g", i, s->param[i]);
	for (size_t i = 0; i < s->ntable; i++)
		fprintf(out, " {%.10g,%.10g,%.10g}", s->table[i].pct, s->table[i].min,
			s->table[i].max);
}

static void dump_data(FILE *out, struct datapat p)
{
	char buf[32];

	if (p.kind == DATA_DEFAULT)
		return;
	datapat_format(buf, sizeof(buf), p);
	fprintf(out, " %s%s", p.kind == DATA_COMPRESS ? "" : "data=", buf);
}

static void dump_rate(FILE *out, const struct ir_rate *r)
{
	if (r->per_sec <= 0)
		return;
	fprintf(out, " rate=%g%s arrivals=%s backlog=%" PRId64, r->per_sec,
		r->per_job ? "/job" : "",
		r->arrivals == IR_ARRIVALS_POISSON ? "poisson" : "fixed",
		r->backlog);
}

static void dump_flowop(FILE *out, const struct workload *w,
			const struct ir_flowop *f, int depth)
{
	fprintf(out, "%*sflowop %s %s", depth * 2, "",
		f->type == FO_COMPOSITE ? f->composite :
					  flowop_info[f->type].name,
		f->name);
	if (f->fileset.name)
		fprintf(out, " fileset=%s", f->fileset.name);
	if (f->fd >= 0)
		fprintf(out, " fd=%" PRId64, f->fd);
	if (f->srcfd >= 0)
		fprintf(out, " srcfd=%" PRId64, f->srcfd);
	dump_value(out, w, "iosize", &f->iosize);
	dump_value(out, w, "workingset", &f->workingset);
	dump_value(out, w, "value", &f->value);
	dump_value(out, w, "indexed", &f->indexed);
	dump_value(out, w, "entries", &f->entries);
	dump_value(out, w, "filesize", &f->filesize);
	if (f->dirs > 0)
		fprintf(out, " dirs=%" PRId64, f->dirs);
	if (f->iters != 1)
		fprintf(out, " iters=%" PRId64, f->iters);
	if (f->target.name)
		fprintf(out, " target=%s", f->target.name);
	if (f->trace.name)
		fprintf(out, " trace=%s", f->trace.name);
	if (f->pace > 0)
		fprintf(out, " pace=%g", f->pace);
	if (f->streams == IR_STREAMS_PARALLEL)
		fprintf(out, " streams=parallel");
	if (f->calls == IR_CALLS_DBENCH)
		fprintf(out, " calls=dbench");
	if (f->highwater != 1)
		fprintf(out, " highwater=%" PRId64, f->highwater);
	if (f->iodepth > 0)
		fprintf(out, " iodepth=%" PRId64, f->iodepth);
	if (f->type == FO_QUEUETAKE)
		fprintf(out, " depth=%" PRId64, f->depth);
	dump_data(out, f->data);
	dump_rate(out, &f->rate);
	fprintf(out, "%s%s%s%s%s%s%s%s\n", f->random ? " random" : "",
		f->dsync ? " dsync" : "", f->directio ? " directio" : "",
		f->opennext ? " opennext" : "",
		f->noreadahead ? " noreadahead" : "",
		f->blocking ? " blocking" : "", f->fsync ? " fsync" : "",
		f->del ? " delete" : "");
	for (size_t i = 0; i < f->nchildren; i++)
		dump_flowop(out, w, f->children[i], depth + 1);
}

/* A thread's own line (its flowops follow). */
static void dump_thread(FILE *out, const struct ir_thread *th)
{
	char buf[32];

	format_size(buf, sizeof(buf), th->memsize);
	fprintf(out, "  thread %s instances=%" PRId64 " memsize=%s slots=%" PRId64,
		th->name, th->instances, buf, th->nslots);
	if (th->ioprio != 8)
		fprintf(out, " ioprio=%" PRId64, th->ioprio);
	if (th->accelerator)
		fprintf(out, " accelerator=%" PRId64 "%%", th->accelerator);
	dump_rate(out, &th->rate);
	fprintf(out, "%s\n", th->useism ? " useism" : "");
}

void workload_dump(FILE *out, const struct workload *w)
{
	static const char *const stmt_names[] = {
		[IS_ECHO] = "echo",   [IS_SYSTEM] = "system",
		[IS_SLEEP] = "sleep", [IS_CREATE_FILES] = "create files",
		[IS_RUN] = "run",     [IS_DEBUG] = "debug",
		[IS_VERSION] = "version", [IS_LIST] = "list",
	};
	char buf[256];

	fprintf(out, "mode quit=%s%s%s", ir_quit_name(w->quit),
		w->nousestats ? " nousestats" : "",
		w->lathist ? " lathist" : "");
	if (w->eventgen_rate)
		fprintf(out, " eventgen=%" PRId64, w->eventgen_rate);
	fprintf(out, "%s\n", w->has_run ? "" : " (no run)");
	for (size_t i = 0; i < w->nvars; i++) {
		ir_value_format(buf, sizeof(buf), w, &w->vars[i].value);
		fprintf(out, "var $%s = %s%s\n", w->vars[i].name, buf,
			w->vars[i].from_cli ? " (-D)" : "");
	}
	for (size_t i = 0; i < w->nrandvars; i++) {
		fprintf(out, "randvar $%s ", w->randvars[i].name);
		dump_spec(out, &w->randvars[i].spec);
		fputc('\n', out);
	}
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct ir_fileset *fs = &w->filesets[i];

		fprintf(out, "%s %s path=\"%s\" entries=%" PRId64,
			fs->is_file ? "file" : "fileset", fs->name, fs->path,
			fs->entries);
		dump_value(out, w, "size", &fs->size);
		dump_value(out, w, "dirwidth", &fs->dirwidth);
		fprintf(out, " dirgamma=%" PRId64, fs->dirgamma);
		dump_value(out, w, "dirdepth", &fs->dirdepth);
		if (fs->leafdirs)
			fprintf(out, " leafdirs=%" PRId64, fs->leafdirs);
		dump_data(out, fs->data);
		fprintf(out, " prealloc=%" PRId64 "%s%s%s%s%s%s%s\n",
			fs->prealloc, fs->paralloc ? " paralloc" : "",
			fs->reuse ? " reuse" : "",
			fs->trusttree ? " trusttree" : "",
			fs->removeafter ? " removeafter" : "",
			fs->readonly ? " readonly" : "",
			fs->writeonly ? " writeonly" : "",
			fs->verify ? " verify" : "");
	}
	for (size_t i = 0; i < w->ntraces; i++) {
		const struct ir_trace *t = &w->traces[i];

		if (t->trace)
			fprintf(out, "trace %s path=\"%s\" format=%s "
				"streams=%zu\n",
				t->name, t->path,
				trace_format_name(trace_format(t->trace)),
				trace_nstreams(t->trace));
	}
	for (size_t p = 0; p < w->nprocesses; p++) {
		const struct ir_process *pr = &w->processes[p];

		fprintf(out, "process %s instances=%" PRId64 " nice=%" PRId64,
			pr->name, pr->instances, pr->nice);
		dump_rate(out, &pr->rate);
		fputc('\n', out);
		for (int t = pr->first_thread;
		     t < pr->first_thread + pr->nthreads; t++) {
			const struct ir_thread *th = &w->threads[t];

			dump_thread(out, th);
			for (size_t f = 0; f < th->nflowops; f++)
				dump_flowop(out, w, th->flowops[f], 2);
		}
	}
	for (size_t i = 0; i < w->nstmts; i++) {
		const struct ir_stmt *s = &w->stmts[i];

		fprintf(out, "stmt %s", stmt_names[s->kind]);
		if (s->kind == IS_RUN)
			fprintf(out, " %" PRId64 "s interval=%" PRId64, s->n,
				s->n2);
		else if (s->kind == IS_SLEEP || s->kind == IS_DEBUG)
			fprintf(out, " %" PRId64, s->n);
		if (s->text) {
			struct ir_value v = { .kind = IRV_STR, .s = s->text };

			ir_value_format(buf, sizeof(buf), w, &v);
			fprintf(out, " %s", buf);
		}
		fputc('\n', out);
	}
}

/* A name's threads: the one it was last seen in, and whether there are more. */
struct name_use {
	int thread;
	bool shared;
};

void workload_label_flowops(struct workload *w)
{
	struct strmap *names = strmap_new();
	struct name_use *uses = xcalloc(w->nflowops ? w->nflowops : 1,
					sizeof(*uses));

	for (size_t i = 0; i < w->nflowops; i++) {
		const struct ir_flowop *f = w->flowops[i];
		struct name_use *u = strmap_add(names, f->name, &uses[i]);

		if (!u)
			uses[i].thread = f->thread;
		else if (u->thread != f->thread)
			u->shared = true;
	}
	for (size_t i = 0; i < w->nflowops; i++) {
		struct ir_flowop *f = w->flowops[i];
		const struct name_use *u = strmap_get(names, f->name);
		const char *tname = w->threads[f->thread].name;
		size_t len = strlen(f->name) + 1 + strlen(tname) + 1 + 12;

		free(f->label);
		f->label = xmalloc(len);
		snprintf(f->label, len, "%s%s%s", u->shared ? tname : "",
			 u->shared ? "/" : "", f->name);
		if (f->nth > 1)
			snprintf(f->label + strlen(f->label), 13, "#%d", f->nth);
	}
	free(uses);
	strmap_free(names);
}
