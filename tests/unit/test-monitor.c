/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Unit tests for a job's interval series (engine/monitor.c): each
 * process's interval as numbers, summed element by element as
 * MPI_Reduce does, must give rank 0 the job's interval exactly: the ops
 * and bytes summed, and p50 and p99 those of the ranks' histograms
 * merged, over that interval's operations only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run/monitor.h"
#include "engine/worker/worker.h"
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

#define RANKS 2

/*
 * n ops of rank k's read1 into its worker and into want (what the job's
 * interval holds): rank 0 fast (a few us), rank 1 slow (about 1 ms).
 */
static void work(struct worker *wk, unsigned k, unsigned n, unsigned seed,
		 struct fstats *want)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t lat = k == 0 ? 2000 + (i * 7919u + seed) % 3000 :
					900000 + (i * 104729u + seed) % 200000;

		fstats_add(&wk->stats[1], lat, 4096);
		fstats_add(want, lat, 4096);
	}
}

/* The ranks' intervals taken at now, summed, made rank 0's (returned). */
static const struct interval *job_take(struct monitor **m, uint64_t now)
{
	size_t n = monitor_job_len(m[0]);
	uint64_t *sum = xcalloc(n, sizeof(*sum)), *mine = xcalloc(n, sizeof(*mine));
	const struct interval *iv = NULL;

	for (unsigned k = 0; k < RANKS; k++) {
		const struct interval *t = monitor_take(m[k], now);

		if (k == 0)
			iv = t;
		monitor_job_counts(m[k], mine);
		for (size_t i = 0; i < n; i++)
			sum[i] += mine[i];
	}
	monitor_set_job(m[0], sum, now);
	free(sum);
	free(mine);
	return iv;
}

int main(void)
{
	struct compile_opts o = { .tmpdir = "/tmp" };
	FILE *devnull = fopen("/dev/null", "w");
	struct diag *d = diag_new(devnull, 20);
	struct source *src = source_from_string("t.f", script, strlen(script));
	struct ast_stmt *prog = NULL;
	struct workload *w = NULL;
	struct worker wk[RANKS];
	struct monitor *m[RANKS];
	struct fstats want;
	const struct interval *iv;
	struct interval *series;
	uint64_t *zeros;
	size_t niv, len = 0;
	char *text = NULL;
	FILE *out;

	o.cli_src = src;
	if (parse_script(src, d, &prog) == 0)
		w = compile_workload(prog, src, &o, d);
	if (!ok(w != NULL && w->nflowops == 3, "the script compiles"))
		return tap_done();
	memset(wk, 0, sizeof(wk));
	for (unsigned k = 0; k < RANKS; k++) {
		wk[k].stats = xcalloc(w->nflowops, sizeof(*wk[k].stats));
		for (size_t f = 0; f < w->nflowops; f++)
			fstats_init(&wk[k].stats[f]);
		atomic_init(&wk[k].measuring, true);
		m[k] = monitor_new(w, &wk[k], 1, 0);
		monitor_latency(m[k]);
	}
	is_int(monitor_job_len(m[0]), 3 + 3 + HIST_GROUPS * HIST_SUB,
	       "a job's interval: ops, bytes, errors, 3 flowops, every bucket");

	/* the first interval: 1000 fast reads on rank 0, 300 slow on rank 1 */
	fstats_init(&want);
	work(&wk[0], 0, 1000, 1, &want);
	work(&wk[1], 1, 300, 1, &want);
	fstats_add(&wk[1].stats[0], 5000, 0); /* and an open */
	fstats_add(&want, 5000, 0);
	iv = job_take(m, 1000000000u);
	is_int(iv->ops, 1301, "interval 1: the ranks' I/O ops summed");
	is_int(iv->bytes, 1300 * 4096, "interval 1: their bytes summed");
	is_int(iv->fo_ops[0], 1, "interval 1: open1's ops");
	is_int(iv->fo_ops[1], 1300, "interval 1: read1's ops");
	is_int(iv->p50_ns, hist_quantile(&want.hist, 0.5),
	       "interval 1: p50 of the ranks' histograms merged (%.3f ms)",
	       iv->p50_ns / 1e6);
	is_int(iv->p99_ns, hist_quantile(&want.hist, 0.99),
	       "interval 1: p99 of the ranks' histograms merged (%.3f ms)",
	       iv->p99_ns / 1e6);
	ok(iv->p99_ns > 800000, "... rank 1's slow reads in it, not rank 0's alone");
	ok(iv->t_s == 1.0 && iv->secs == 1.0, "interval 1: ends at 1 s, 1 s long");
	monitor_keep(m[0]);
	fstats_release(&want);

	/* the second: the differences only; now mostly slow reads */
	fstats_init(&want);
	work(&wk[0], 0, 500, 2, &want);
	work(&wk[1], 1, 700, 2, &want);
	iv = job_take(m, 2500000000u);
	is_int(iv->ops, 1200, "interval 2: this interval's ops only");
	is_int(iv->fo_ops[0], 0, "interval 2: no open");
	is_int(iv->p50_ns, hist_quantile(&want.hist, 0.5),
	       "interval 2: p50 of this interval's merged histogram (%.3f ms)",
	       iv->p50_ns / 1e6);
	is_int(iv->p99_ns, hist_quantile(&want.hist, 0.99),
	       "interval 2: p99 of it (%.3f ms)", iv->p99_ns / 1e6);
	ok(iv->t_s == 2.5 && iv->secs == 1.5, "interval 2: ends at 2.5 s, 1.5 s long");
	monitor_keep(m[0]);
	fstats_release(&want);

	out = open_memstream(&text, &len);
	monitor_print_line(m[0], out, true);
	fclose(out);
	ok(strstr(text, "interval    2.500 s        800 ops/s      3.1 mb/s") != NULL,
	   "the line: the job's 1200 ops over 1.5 s, 3.1 mb/s");
	ok(strstr(text, "\n  read1                       800 ops/s\n") != NULL,
	   "--interval-flowops: read1's line");
	free(text);

	/* a time behind the last (a rank's clock): no negative length */
	zeros = xcalloc(monitor_job_len(m[0]), sizeof(*zeros));
	monitor_take(m[0], 2400000000u);
	monitor_set_job(m[0], zeros, 2400000000u);
	ok(iv->t_s == 2.5 && iv->secs == 0, "a time behind the last: 0 s long");
	free(zeros);
	/* psrun's "since the start" is the job's: 2500 reads in 2.5 s */
	text = NULL;
	out = open_memstream(&text, &len);
	monitor_print_psrun(m[0], out, false);
	fclose(out);
	ok(strstr(text, "\nread1                    1000ops/s\n") != NULL,
	   "psrun: read1 since the start, the job's");
	free(text);

	series = monitor_steal(m[0], &niv);
	is_int(niv, 2, "the series: the two intervals kept");
	ok(niv == 2 && series[0].ops == 1301 && series[1].fo_ops[1] == 1200,
	   "... the job's");
	monitor_intervals_free(series, niv);

	for (unsigned k = 0; k < RANKS; k++) {
		for (size_t f = 0; f < w->nflowops; f++)
			fstats_release(&wk[k].stats[f]);
		free(wk[k].stats);
		monitor_free(m[k]);
	}
	workload_free(w);
	ast_stmt_free(prog);
	source_free(src);
	diag_free(d);
	fclose(devnull);
	return tap_done();
}
