/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Unit tests for the merge of a job's results (engine/results.c): each
 * process's counters serialised and merged back must give exactly the
 * sums (every histogram bucket, bytes, errors with their errno), the
 * longest time, each rank's own figures, and refuse garbled input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/results.h"
#include "lang/compile.h"
#include "lang/parse.h"
#include "tap.h"
#include "util/util.h"

static const char script[] =
	"define fileset name=fs,path=/tmp,entries=4,size=4k\n"
	"define process name=p { thread name=t {\n"
	"  flowop openfile name=open1,filesetname=fs,fd=1\n"
	"  flowop read name=read1,fd=1,iosize=4k\n"
	"  flowop closefile name=close1,fd=1 } }\n"
	"run 1\n";

/* A process's results as results_collect would give them: k's own numbers. */
static struct results *part(const struct workload *w, unsigned k)
{
	struct results *r = xcalloc(1, sizeof(*r));

	r->w = w;
	r->trees = xcalloc(w->nfilesets, sizeof(*r->trees));
	r->nfo = w->nflowops;
	r->fo = xcalloc(r->nfo, sizeof(*r->fo));
	r->secs = 1.0 + k;
	r->cpu_ns = 1000 * (k + 1);
	r->nworkers = 2;
	r->stopped_by = -1;
	fstats_init(&r->io);
	for (size_t i = 0; i < r->nfo; i++) {
		r->fo[i].f = w->flowops[i];
		r->fo[i].label = w->flowops[i]->label;
		fstats_init(&r->fo[i].s);
		/* latencies spread over many buckets, different per rank */
		for (uint64_t n = 0; n < 1000 + 100 * k; n++)
			fstats_add(&r->fo[i].s, (n * 7919 + k * 104729) % 5000000,
				   i == 1 ? 4096 : 0);
	}
	if (k == 1)
		fstats_error(&r->fo[1].s, ENOSPC);
	return r;
}

static uint64_t bucket(const struct hist *h, unsigned g, unsigned s)
{
	return h->group[g] ? h->group[g][s] : 0;
}

int main(void)
{
	struct compile_opts o = { .tmpdir = "/tmp" };
	FILE *devnull = fopen("/dev/null", "w");
	struct diag *d = diag_new(devnull, 20);
	struct source *src = source_from_string("t.f", script, strlen(script));
	struct ast_stmt *prog = NULL;
	struct workload *w = NULL;
	struct results *p[3], *job;
	char *texts[3], err[128] = "";
	size_t len;
	int exact = 1;

	o.cli_src = src;
	if (parse_script(src, d, &prog) == 0)
		w = compile_workload(prog, src, &o, d);
	if (!ok(w != NULL, "the script compiles"))
		return tap_done();
	for (unsigned k = 0; k < 3; k++) {
		p[k] = part(w, k);
		texts[k] = results_serialise(p[k], k == 2 ? "node-b" : "node-a",
					     &len);
		ok(texts[k] && len == strlen(texts[k]),
		   "rank %u's results serialise", k);
	}
	job = results_merge(p[0], texts, 3, err, sizeof(err));
	if (!ok(job != NULL, "three ranks merge: %s", err))
		return tap_done();
	for (size_t i = 0; i < job->nfo; i++) {
		uint64_t count = 0, bytes = 0;

		for (unsigned k = 0; k < 3; k++) {
			count += p[k]->fo[i].s.count;
			bytes += p[k]->fo[i].s.bytes;
		}
		is_int(job->fo[i].s.count, count, "flowop %zu: ops summed", i);
		is_int(job->fo[i].s.bytes, bytes, "flowop %zu: bytes summed", i);
		for (unsigned g = 0; g < HIST_GROUPS; g++)
			for (unsigned s = 0; s < HIST_SUB; s++)
				if (bucket(&job->fo[i].s.hist, g, s) !=
				    bucket(&p[0]->fo[i].s.hist, g, s) +
					    bucket(&p[1]->fo[i].s.hist, g, s) +
					    bucket(&p[2]->fo[i].s.hist, g, s))
					exact = 0;
	}
	ok(exact, "every histogram bucket is the sum of the ranks' buckets");
	is_int(job->fo[1].s.errors, 1, "rank 1's failed read is counted");
	is_int(job->fo[1].s.err_no[0], ENOSPC, "... with its errno");
	ok(job->secs == 3.0, "the job's time is the longest rank's (%g)",
	   job->secs);
	is_int(job->cpu_ns, 6000, "CPU time summed");
	is_int(job->nworkers, 6, "threads summed");
	/* open, read and close are I/O flowops, as filebench counts them */
	is_int(job->io_ops, 3 * (1000 + 1100 + 1200),
	       "the IO Summary counts the I/O flowops of every rank");
	is_int(job->nranks, 3, "three ranks' figures");
	is_str(job->ranks[2].host, "node-b", "rank 2's host");
	is_int(job->ranks[1].io_ops, 3 * 1100, "rank 1's own I/O ops");
	ok(job->ranks[1].secs == 2.0, "rank 1's own time");
	is_int(job->ranks[1].errors, 1, "rank 1's own errors");
	results_free(job);

	/* a garbled count is caught, not merged */
	texts[1][strlen(texts[1]) / 2] ^= 0x11;
	job = results_merge(p[0], texts, 3, err, sizeof(err));
	ok(job == NULL, "a garbled text is refused");
	is_str(err, "the results of rank 1 cannot be read", "... naming the rank");
	results_free(job);
	free(texts[1]);
	texts[1] = NULL;
	job = results_merge(p[0], texts, 3, err, sizeof(err));
	ok(job == NULL, "a lost text is refused");
	results_free(job);
	for (unsigned k = 0; k < 3; k++) {
		free(texts[k]);
		results_free(p[k]);
	}
	workload_free(w);
	ast_stmt_free(prog);
	source_free(src);
	diag_free(d);
	fclose(devnull);
	return tap_done();
}
