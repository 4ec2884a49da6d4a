/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun bonnie: runs bonnie++'s tests, in its order, as the phase scripts
 * of workloads/bonnie/ through the same parser and engine as any script,
 * for the command's flow (cmd/bonnie.c), which reads its options
 * (cmd/bonnie_options.c) and prints bonnie++'s table and CSV line
 * (bonnie_output.c).
 */
#include "bonnie/bonnie.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/sys/timeline.h"
#include "lang/catalog.h"
#include "lang/compile.h"
#include "lang/flowop.h"
#include "lang/script.h"
#include "results/results.h"
#include "util/diag.h"
#include "util/msg.h"
#include "util/util.h"

/* One phase: its script, the figure it gives and the flowop timed. */
struct phase {
	const char *script;
	enum bon_test test;
	enum flowop_type timed;
	const char *says; /* bonnie++'s progress message */
	const char *vars; /* the variables it is given with -D */
};

#define IO_VARS "dir ioname size chunk chunks limit"
#define FILE_VARS "dir name files dirs filechunk limit"

static const struct phase phases[BT_COUNT] = {
	{ "putc", BT_PUTC, FO_WRITEBYTES, "Writing a byte at a time...",
	  IO_VARS " bytechunks direct" },
	{ "block-write", BT_PUT_BLOCK, FO_WRITE, "Writing intelligently...",
	  IO_VARS " direct data" },
	{ "rewrite", BT_REWRITE, FO_REWRITE, "Rewriting...", IO_VARS },
	{ "getc", BT_GETC, FO_READBYTES, "Reading a byte at a time...",
	  IO_VARS " bytechunks" },
	{ "block-read", BT_GET_BLOCK, FO_READ, "Reading intelligently...",
	  IO_VARS },
	{ "seeks", BT_SEEKS, FO_SEEKRW, "start 'em...",
	  IO_VARS " seeks seekers sync" },
	{ "seq-create", BT_SEQ_CREATE, FO_CREATENEXT,
	  "Create files in sequential order...",
	  FILE_VARS " minsize maxsize sizeend sync data" },
	{ "seq-stat", BT_SEQ_STAT, FO_STATNEXT,
	  "Stat files in sequential order...", FILE_VARS },
	{ "seq-delete", BT_SEQ_DEL, FO_DELETENEXT,
	  "Delete files in sequential order...", FILE_VARS " sync" },
	{ "ran-create", BT_RAN_CREATE, FO_CREATENEXT,
	  "Create files in random order...",
	  FILE_VARS " minsize maxsize sizeend sync data" },
	{ "ran-stat", BT_RAN_STAT, FO_STATNEXT,
	  "Stat files in random order...", FILE_VARS },
	{ "ran-delete", BT_RAN_DEL, FO_DELETENEXT,
	  "Delete files in random order...", FILE_VARS " sync" },
};

/* $data stays the script's own (bonnie++'s patterns) unless --random-data. */
static bool passed(const struct bonnie *b, const char *var)
{
	return strcmp(var, "data") != 0 || b->c.random_data;
}

/* The -D value of variable name for this run. */
static char *var_value(const struct bonnie *b, const char *name)
{
	const struct bon_config *c = &b->c;
	uint64_t size = c->size_mib * 1048576;

	if (!strcmp(name, "dir"))
		return xstrdup(b->dir);
	if (!strcmp(name, "ioname"))
		return xstrdup(b->ioname);
	if (!strcmp(name, "name"))
		return xstrdup(b->name);
	if (!strcmp(name, "size"))
		return xasprintf("%" PRIu64, size);
	if (!strcmp(name, "chunk"))
		return xasprintf("%u", c->chunk);
	if (!strcmp(name, "chunks"))
		return xasprintf("%" PRIu64, size / c->chunk);
	if (!strcmp(name, "bytechunks"))
		return xasprintf("%" PRIu64,
				 (uint64_t)c->byte_mib * 1048576 / c->chunk);
	if (!strcmp(name, "limit"))
		return xstrdup("1000000");
	if (!strcmp(name, "direct"))
		return xstrdup(c->direct ? "true" : "false");
	if (!strcmp(name, "data"))
		return xstrdup("random");
	if (!strcmp(name, "sync"))
		return xstrdup(c->fsync_each ? "true" : "false");
	if (!strcmp(name, "seeks"))
		return xasprintf("%u", c->seeks);
	if (!strcmp(name, "seekers"))
		return xasprintf("%u", c->seekers);
	if (!strcmp(name, "files"))
		return xasprintf("%" PRIu64, (uint64_t)c->files * 1024);
	if (!strcmp(name, "dirs"))
		return xasprintf("%u", c->dirs);
	if (!strcmp(name, "filechunk"))
		return xasprintf("%u", c->file_chunk);
	if (!strcmp(name, "minsize"))
		return xasprintf("%" PRIu64, c->min_size);
	/* bonnie++ draws min + rand % (max - min + 1): [min, max + 1) */
	if (!strcmp(name, "maxsize"))
		return xasprintf("%" PRIu64, c->max_size);
	return xasprintf("%" PRIu64, c->max_size + 1); /* sizeend */
}

#define MAX_DEFINES 16 /* the most variables a phase is given */

/* The -D NAME=VALUE a phase is given; returns how many (free_defines). */
static size_t phase_defines(const struct bonnie *b, const struct phase *ph,
			    struct cli_define *defs)
{
	char vars[128], *save = NULL, *tok;
	size_t n = 0;

	snprintf(vars, sizeof(vars), "%s", ph->vars);
	for (tok = strtok_r(vars, " ", &save); tok && n < MAX_DEFINES;
	     tok = strtok_r(NULL, " ", &save))
		if (passed(b, tok))
			defs[n++] = (struct cli_define){ xstrdup(tok),
							 var_value(b, tok) };
	return n;
}

static void free_defines(struct cli_define *defs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)defs[i].name);
		free((char *)defs[i].value);
	}
}

static int collect(const struct results *r, void *arg)
{
	struct bonnie *b = arg;

	/* a job: each rank's own time, CPU and slowest operation */
	for (size_t k = 0; b->per_rank && k < r->nranks; k++)
		b->per_rank[k].t[b->ph->test] = (struct bon_figure){
			true, r->ranks[k].secs, (double)r->ranks[k].cpu_ns / 1e9,
			(double)r->ranks[k].max_ns / 1e9
		};
	b->fig.elapsed = r->secs;
	b->fig.cpu = (double)r->cpu_ns / 1e9;
	for (size_t i = 0; i < r->nfo; i++)
		if (r->fo[i].type &&
		    !strcmp(r->fo[i].type, flowop_info[b->ph->timed].name)) {
			b->count += r->fo[i].s.count;
			if (r->fo[i].s.count &&
			    (double)r->fo[i].s.lat_max / 1e9 > b->fig.max_lat)
				b->fig.max_lat = (double)r->fo[i].s.lat_max / 1e9;
		}
	if (r->error[0])
		snprintf(b->error, sizeof(b->error), "%s", r->error);
	return 0;
}

/* The operations a complete phase does. */
static uint64_t expected(const struct bonnie *b, enum bon_test t)
{
	const struct bon_config *c = &b->c;

	switch (t) {
	case BT_PUTC:
	case BT_GETC:
		return (uint64_t)c->byte_mib * 1048576 / c->chunk;
	case BT_SEEKS:
		return c->seeks;
	case BT_PUT_BLOCK:
	case BT_REWRITE:
	case BT_GET_BLOCK:
		return c->size_mib * 1048576 / c->chunk;
	default:
		return (uint64_t)c->files * 1024;
	}
}

/* A phase's script, compiled for this process (phase_open). */
struct phase_script {
	char *path;
	struct cli_define defs[MAX_DEFINES];
	size_t nd;
	struct diag *d;
	struct script *sc;
	const struct workload *w; /* NULL: it did not compile (said) */
};

static void phase_open(const struct bonnie *b, const struct phase *ph,
		       struct phase_script *ps)
{
	const char *dir = catalog_dir();
	const struct engine_peers *p = b->peers;
	struct compile_opts co = { 0 };

	ps->path = xasprintf("%s/bonnie/%s.f", dir ? dir : "workloads",
			     ph->script);
	ps->nd = phase_defines(b, ph, ps->defs);
	ps->d = diag_new(stderr, 20);
	ps->sc = script_new(ps->path);
	co.defines = ps->defs;
	co.ndefines = ps->nd;
	/* a job: each rank in <dir>/rank-N */
	co.rank = p ? p->rank : 0;
	co.nranks = p ? p->nranks : 1;
	co.rank_dirs = p != NULL;
	co.seed = b->c.seed;
	ps->w = ps->sc && script_parse(ps->sc, ps->d) == 0 ?
			script_compile(ps->sc, &co, ps->d) :
			NULL;
}

static void phase_close(struct phase_script *ps)
{
	diag_finish(ps->d);
	diag_free(ps->d);
	script_free(ps->sc);
	free_defines(ps->defs, ps->nd);
	free(ps->path);
}

/* Compile and run one phase script; 0, or the exit status. */
static int run_phase(struct bonnie *b, const struct phase *ph, bool last)
{
	const struct engine_peers *p = b->peers;
	struct engine_opts eo = { 0 };
	struct phase_script ps;
	int rc = FB_EXIT_USAGE;

	phase_open(b, ph, &ps);
	/* a job: every rank runs the phase (its steps are collective) or none */
	if (p ? p->agree(p->arg, ps.w ? 0 : 1) != 0 : !ps.w)
		goto out;
	b->ph = ph;
	b->fig = (struct bon_figure){ 0 };
	b->count = 0;
	b->error[0] = '\0';
	eo.script = ps.path;
	eo.quiet = true;
	eo.seed = b->c.seed; /* -z, or pid ^ time (check) */
	eo.series = true;
	eo.series_last = last;
	eo.deliver = collect;
	eo.deliver_arg = b;
	eo.peers = p;
	rc = engine_run(ps.w, &eo);
	/* rank 0 counts the job's: every rank's complete phase */
	if (rc == 0 && (!p || p->rank == 0) &&
	    b->count != expected(b, ph->test) * (p ? p->nranks : 1)) {
		snprintf(b->error, sizeof(b->error),
			 "did %" PRIu64 " of its %" PRIu64 " operations",
			 b->count, expected(b, ph->test) * (p ? p->nranks : 1));
		rc = FB_EXIT_RUN;
	}
out:
	phase_close(&ps);
	return rc;
}

static bool wanted(const struct bonnie *b, enum bon_test t);

void bonnie_print_plan(const struct bonnie *b)
{
	for (int t = 0; t < BT_COUNT; t++) {
		struct cli_define defs[MAX_DEFINES];
		size_t n;

		if (!wanted(b, (enum bon_test)t))
			continue;
		n = phase_defines(b, &phases[t], defs);
		printf("fbrun");
		for (size_t i = 0; i < n; i++)
			printf(" -D %s=%s", defs[i].name, defs[i].value);
		printf(" bonnie/%s\n", phases[t].script);
		free_defines(defs, n);
	}
}

static bool wanted(const struct bonnie *b, enum bon_test t)
{
	if (t == BT_PUTC || t == BT_GETC)
		return b->c.size_mib && b->c.byte_mib;
	if (t <= BT_SEEKS)
		return b->c.size_mib;
	return b->c.files;
}

/* The last phase of its scratch tree (the I/O file's, or the files'). */
static bool last_of_tree(const struct bonnie *b, enum bon_test t)
{
	return t == BT_SEEKS || t == BT_RAN_DEL ||
	       (t < BT_SEEKS && !wanted(b, BT_SEEKS));
}

/*
 * Without the per-character test bonnie++ still creates its file, fsyncs
 * and closes it before the block write: the journal is committed, with
 * whatever a previous run left (the freeing of its deleted file), before
 * the block write's clock starts.  syncfs() of the test directory's file
 * system does the same here.
 */
static int settle(struct bonnie *b)
{
	int fd = open(b->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	rc = fd < 0 ? -1 : syncfs(fd);
	if (rc < 0)
		snprintf(b->error, sizeof(b->error),
			 "cannot sync the file system of '%s': %s", b->dir,
			 strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

int bonnie_check_phases(const struct bonnie *b)
{
	int bad = 0;

	for (int t = 0; t < BT_COUNT; t++) {
		struct phase_script ps;

		if (!wanted(b, (enum bon_test)t))
			continue;
		phase_open(b, &phases[t], &ps);
		bad |= !ps.w;
		phase_close(&ps);
	}
	if (b->peers)
		bad = b->peers->agree(b->peers->arg, bad);
	return bad ? FB_EXIT_USAGE : 0;
}

int bonnie_run_all(struct bonnie *b, struct bon_result *res)
{
	for (int t = 0; t < BT_COUNT; t++) {
		const struct phase *ph = &phases[t];
		int rc;

		if (!wanted(b, (enum bon_test)t))
			continue;
		if (t == BT_PUT_BLOCK && !wanted(b, BT_PUTC)) {
			int bad = settle(b) < 0;

			if (bad)
				fb_error("%s", b->error);
			if (b->peers) /* every rank goes on, or none */
				bad = b->peers->agree(b->peers->arg, bad);
			if (bad)
				return FB_EXIT_RUN;
		}
		if (!b->quiet) {
			fputs(t == BT_SEEKS ? "start 'em..." : ph->says, stderr);
			fflush(stderr);
		}
		rc = run_phase(b, ph, last_of_tree(b, (enum bon_test)t));
		if (b->peers) /* the ranks go on to the next phase together */
			rc = b->peers->agree(b->peers->arg, rc);
		if (rc != 0) {
			if (!b->quiet)
				fputc('\n', stderr);
			if (b->error[0])
				fb_error("phase '%s': %s", ph->script,
					 b->error);
			if (timeline_signalled && !(b->peers && b->peers->rank))
				fb_warning("interrupted; results so far");
			return rc;
		}
		res->t[t] = b->fig;
		res->t[t].ran = true;
		if (!b->quiet) {
			if (t == BT_SEEKS)
				for (unsigned i = 0; i < b->c.seekers; i++)
					fputs("done...", stderr);
			fputs(t == BT_SEEKS ? "\n" :
			      t >= BT_SEQ_CREATE ? "done.\n" : "done\n",
			      stderr);
		}
	}
	return 0;
}
