/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Unit tests for src/results/: a model written as a results file and read
 * back has every field it had (write, read, write again gives the same
 * bytes); a job's processes' results sent as that text and merged give
 * exactly the sums (every histogram bucket, bytes, errors with their
 * errno), the longest time, each rank's own figures, and garbled or lost
 * texts are refused; a newer major schema_version is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/gather.h"
#include "results/read.h"
#include "results/results.h"
#include "results/write.h"
#include "tap.h"
#include "util/util.h"

static const char *const labels[] = { "open1", "read1", "close1" };
static const char *const types[] = { "openfile", "read", "closefile" };

/* A process's results as results_collect would give them: k's numbers. */
static struct results *part(unsigned k)
{
	struct results *r = results_new(3, 1);

	r->filesets[0] = (struct fileset_result){
		xstrdup("fs"), xstrdup("/tmp/fs"), 4, NULL, true, 3, 2.5, 1.5
	};
	r->vars = xcalloc(2, sizeof(*r->vars));
	r->vars[0] = (struct var_result){ xstrdup("dir"), xstrdup("/tmp") };
	r->nvars = 1;
	r->secs = 1.0 + k;
	r->cpu_ns = 1000 * (k + 1);
	r->cpu_sys_ns = 300 * (k + 1);
	r->nworkers = 2;
	r->started = 1700000000;
	r->reason = RESULTS_END_TIMEOUT;
	for (size_t i = 0; i < r->nfo; i++) {
		struct flowop_result *fr = &r->fo[i];

		fr->label = xstrdup(labels[i]);
		fr->name = xstrdup(labels[i]);
		fr->type = xstrdup(types[i]);
		fr->thread = xstrdup("t");
		fr->process = xstrdup("p");
		fr->io = true;
		fr->reads = i == 1;
		/* latencies spread over many buckets, different per rank */
		for (uint64_t n = 0; n < 1000 + 100 * k; n++)
			fstats_add(&fr->s, (n * 7919 + k * 104729) % 5000000,
				   i == 1 ? 4096 : 0);
	}
	if (k == 1)
		fstats_error(&r->fo[1].s, ENOSPC);
	/* a replay's ops that failed in the recording and not here */
	r->fo[0].s.mismatches = k;
	results_derive(r, RESULTS_FROM_COUNTERS);
	return r;
}

static uint64_t bucket(const struct hist *h, unsigned g, unsigned s)
{
	return h->group[g] ? h->group[g][s] : 0;
}

static bool same_stats(const struct fstats *a, const struct fstats *b)
{
	if (a->count != b->count || a->bytes != b->bytes ||
	    a->lat_sum != b->lat_sum || a->lat_min != b->lat_min ||
	    a->lat_max != b->lat_max || a->cpu_ns != b->cpu_ns ||
	    a->cpu_samples != b->cpu_samples || a->errors != b->errors ||
	    a->err_other != b->err_other || a->waits != b->waits ||
	    a->wait_ns != b->wait_ns || a->verify_errors != b->verify_errors ||
	    a->mismatches != b->mismatches)
		return false;
	for (unsigned i = 0; i < FSTATS_ERRNOS; i++)
		if (a->err_count[i] != b->err_count[i] ||
		    (a->err_count[i] && a->err_no[i] != b->err_no[i]))
			return false;
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		for (unsigned s = 0; s < HIST_SUB; s++)
			if (bucket(&a->hist, g, s) != bucket(&b->hist, g, s))
				return false;
	if (!a->resp != !b->resp)
		return false;
	if (!a->resp)
		return true;
	if (a->resp->count != b->resp->count || a->resp->sum != b->resp->sum ||
	    a->resp->min != b->resp->min || a->resp->max != b->resp->max)
		return false;
	for (unsigned g = 0; g < HIST_GROUPS; g++)
		for (unsigned s = 0; s < HIST_SUB; s++)
			if (bucket(&a->resp->hist, g, s) !=
			    bucket(&b->resp->hist, g, s))
				return false;
	return true;
}

/* The file's text of r (the meta of a machine, fixed). */
static char *text_of(const struct results *r, bool exact)
{
	static const struct results_fsinfo fs = { "tmpfs", "/tmp", "tmpfs",
						  "rw" };
	static const struct results_feature feat[] = { { "aio", "libaio" },
						       { "mpi", NULL } };
	struct results_meta m = {
		"t.f", "9.9", "random", 1 << 20, "Linux 6.1", "x86_64", 4,
		1 << 30, &fs, feat, 2, exact
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	results_write(f, r, &m);
	fclose(f);
	return buf;
}

/* Everything the writer and reader carry besides part()'s counters. */
static struct results *full(void)
{
	struct results *r = part(1);

	r->fo[0].s.err_other = 2;
	r->fo[0].s.errors += 2;
	r->fo[0].s.waits = 7;
	r->fo[0].s.wait_ns = 14000000;
	r->fo[1].s.verify_errors = 3;
	r->fo[2].s.mismatches = 4;
	r->fo[1].s.cpu_ns = 123456;
	r->fo[1].s.cpu_samples = 12;
	r->fo[2].mean = true;
	r->fo[2].data = xstrdup("zero");
	r->filesets[0].data = xstrdup("random");
	r->lathist = true;
	r->seed = 42;
	r->warm_s = 2;
	r->warm_done = true;
	r->warm_ops = 77;
	r->warm_bytes = 4096;
	snprintf(r->note, sizeof(r->note), "a note");
	snprintf(r->error, sizeof(r->error), "flowop read1 failed: \"x\"");
	snprintf(r->script_sha256, sizeof(r->script_sha256), "%064d", 7);
	r->iv = xcalloc(2, sizeof(*r->iv));
	r->niv = 2;
	r->iv_latency = r->iv_open = true;
	for (size_t i = 0; i < 2; i++) {
		r->iv[i] = (struct interval_result){
			.t_s = 1.5 * (double)(i + 1), .secs = 1.5,
			.ops = 100 + i, .bytes = 4096, .errors = i,
			.p50_ns = 2000000, .p99_ns = 5000000,
			.rp50_ns = 3000000, .rp99_ns = 9000000
		};
		r->iv[i].fo_ops = xcalloc(3, sizeof(uint64_t));
		r->iv[i].fo_ops[1] = 50 + i;
	}
	r->steady = (struct steady){ 0.25, 2, true, true, 66.5, 0.125 };
	r->ranks = xcalloc(1, sizeof(*r->ranks));
	r->nranks = 1;
	r->ranks[0] = (struct rank_result){
		.host = "node-a", .secs = 2.0, .io_ops = 10, .io_bytes = 20,
		.io_lat_ns = 30, .p99_ns = 40, .max_ns = 50, .cpu_ns = 60,
		.errors = 1
	};
	r->stopped_by = 0;
	r->disks = xcalloc(1, sizeof(*r->disks));
	diskstat_add_fileset(diskstat_add(r->disks, "sda"), "fs");
	r->disks->dev[0].secs = 2.0;
	r->disks->dev[0].d.rd_ios = 9;
	r->disks->dev[0].d.wr_sectors = 16;
	/* an open loop: a source's arrivals, a flowop's response times */
	r->arr = xcalloc(1, sizeof(*r->arr));
	r->narr = 1;
	r->arr[0] = (struct arrival_result){
		xstrdup("t"), false, xstrdup("t"), xstrdup("p"),
		xstrdup("poisson"), 123.25, 2, 1000, 240, 230, 5, 4, 6, 3,
		225, 9000000, 400000, false
	};
	for (uint64_t n = 0; n < 500; n++)
		fstats_resp(&r->fo[1].s, 1000000 + n * 3331);
	results_derive(r, RESULTS_FROM_COUNTERS);
	return r;
}

static void test_round_trip(void)
{
	struct results *a = full(), *b;
	char *t1 = text_of(a, true), *t2, err[256] = "";
	bool same = true;

	b = results_read(t1, strlen(t1), "a.json", err, sizeof(err));
	if (!ok(b != NULL, "the file is read back: %s", err)) {
		free(t1);
		results_free(a);
		return;
	}
	is_int(b->nfo, 3, "its flowops");
	for (size_t i = 0; i < 3; i++) {
		same = same && same_stats(&a->fo[i].s, &b->fo[i].s) &&
		       !strcmp(a->fo[i].label, b->fo[i].label) &&
		       !strcmp(a->fo[i].type, b->fo[i].type) &&
		       !strcmp(b->fo[i].thread, "t") &&
		       !strcmp(b->fo[i].process, "p") &&
		       a->fo[i].mean == b->fo[i].mean &&
		       a->fo[i].rd_bytes == b->fo[i].rd_bytes &&
		       a->fo[i].wr_bytes == b->fo[i].wr_bytes;
	}
	ok(same, "every flowop's counters, histograms (an open loop's "
		 "response times too), errnos and names");
	ok(b->narr == 1 && !strcmp(b->arr[0].name, "t") && !b->arr[0].flowop &&
		   !strcmp(b->arr[0].arrivals, "poisson") &&
		   b->arr[0].rate == 123.25 && b->arr[0].instances == 2 &&
		   b->arr[0].backlog == 1000 && b->arr[0].offered == 240 &&
		   b->arr[0].done == 230 && b->arr[0].late == 5 &&
		   b->arr[0].dropped == 4 && b->arr[0].unserved == 6 &&
		   b->arr[0].most_waiting == 3 && b->arr[0].woken == 225 &&
		   b->arr[0].wake_ns == 9000000 &&
		   b->arr[0].wake_max_ns == 400000 &&
		   b->arr[0].held == a->arr[0].held,
	   "an open loop's arrivals");
	ok(!memcmp(b->fo[1].rq, a->fo[1].rq, sizeof(a->fo[1].rq)) &&
		   !memcmp(b->io_rq, a->io_rq, sizeof(a->io_rq)) &&
		   b->io.resp && b->io.resp->count == a->io.resp->count,
	   "its response time quantiles, the flowop's and the summary's");
	is_str(b->fo[2].data, "zero", "a flowop's data pattern");
	ok(!b->fo[0].data, "... none where none is set");
	ok(b->nfilesets == 1 && !strcmp(b->filesets[0].name, "fs") &&
	   !strcmp(b->filesets[0].path, "/tmp/fs") &&
	   b->filesets[0].entries == 4 && b->filesets[0].known &&
	   b->filesets[0].dirs == 3 && b->filesets[0].mean_width == 2.5 &&
	   b->filesets[0].mean_depth == 1.5 &&
	   !strcmp(b->filesets[0].data, "random"),
	   "the fileset and its tree");
	ok(b->nvars == 1 && !strcmp(b->vars[0].name, "dir") &&
	   !strcmp(b->vars[0].value, "/tmp"), "the variables");
	ok(b->started == a->started && b->seed == 42 && b->secs == a->secs &&
	   b->reason == a->reason && b->nworkers == a->nworkers &&
	   b->lathist, "start, seed, time, end, threads, histograms asked");
	ok(b->cpu_ns == a->cpu_ns && b->cpu_sys_ns == a->cpu_sys_ns,
	   "CPU time and its system part (every digit)");
	ok(b->warm_s == 2 && b->warm_done && b->warm_ops == 77 &&
	   b->warm_bytes == 4096, "the warm-up");
	is_str(b->note, a->note, "the note");
	is_str(b->error, a->error, "the error");
	is_str(b->script_sha256, a->script_sha256, "the script's SHA-256");
	ok(b->io_ops == a->io_ops && b->rd_ops == a->rd_ops &&
	   b->wr_ops == a->wr_ops && b->io_bytes == a->io_bytes &&
	   b->rd_bytes == a->rd_bytes && b->wr_bytes == a->wr_bytes &&
	   b->io_lat_ns == a->io_lat_ns && b->io.errors == a->io.errors &&
	   b->io.lat_max == a->io.lat_max &&
	   b->io.verify_errors == a->io.verify_errors &&
	   !memcmp(b->io_q, a->io_q, sizeof(a->io_q)) &&
	   b->in_ops == a->in_ops && b->waits == a->waits &&
	   b->wait_ns == a->wait_ns, "the IO Summary");
	ok(b->niv == 2 && b->iv_latency && b->iv[1].t_s == 3.0 &&
	   b->iv[1].secs == 1.5 && b->iv[1].ops == 101 &&
	   b->iv[1].bytes == 4096 && b->iv[1].errors == 1 &&
	   b->iv[1].p50_ns == 2000000 && b->iv[1].p99_ns == 5000000 &&
	   b->iv_open && b->iv[1].rp50_ns == 3000000 &&
	   b->iv[1].rp99_ns == 9000000 &&
	   b->iv[1].fo_ops[1] == 51, "the intervals");
	ok(b->steady.tol == 0.25 && b->steady.n == 2 && b->steady.judged &&
	   b->steady.steady && b->steady.mean == 66.5 &&
	   b->steady.dev == 0.125, "the steady state");
	ok(b->nranks == 1 && !strcmp(b->ranks[0].host, "node-a") &&
	   b->ranks[0].secs == 2.0 && b->ranks[0].io_ops == 10 &&
	   b->ranks[0].io_bytes == 20 && b->ranks[0].io_lat_ns == 30 &&
	   b->ranks[0].p99_ns == 40 && b->ranks[0].max_ns == 50 &&
	   b->ranks[0].errors == 1 && b->stopped_by == 0, "the ranks");
	same = true;
	for (size_t i = 0; i < 3; i++)
		same = same && !memcmp(&b->fo[i].fig, &a->fo[i].fig,
				       sizeof(a->fo[i].fig));
	ok(same && !memcmp(&b->sum, &a->sum, sizeof(a->sum)) &&
		   b->rd_s == a->rd_s && b->wr_s == a->wr_s,
	   "read back, the same figures derived (every flowop's, the "
	   "summary's)");
	ok(a->fo[1].fig.ops_s == (double)a->fo[1].s.count / a->secs &&
		   a->fo[1].fig.mb_s == (double)a->fo[1].s.bytes / a->secs /
						(1024.0 * 1024.0) &&
		   a->fo[1].fig.cpu_us == 123456.0 / 12 / 1e3 &&
		   a->fo[1].fig.resp_ms > 0 && a->fo[0].fig.resp_ms == 0 &&
		   a->rd_s == (double)a->rd_ops / a->secs &&
		   a->sum.cpu_us == (double)a->cpu_ns / (double)a->io_ops / 1e3,
	   "the figures are the counts over the time and the ops");
	ok(b->ranks[0].ops_s == 5 &&
		   b->ranks[0].mb_s == 10 / (1024.0 * 1024.0) &&
		   b->ranks[0].ms_op == 3 / 1e6,
	   "a rank's figures: its ops, MiB a second, ms an op");
	ok(b->disks && b->disks->ndev == 1 &&
	   !strcmp(b->disks->dev[0].name, "sda") &&
	   b->disks->dev[0].d.rd_ios == 9 &&
	   b->disks->dev[0].d.wr_sectors == 16 &&
	   b->disks->dev[0].nfilesets == 1, "the block devices");
	t2 = text_of(b, true);
	is_str(t2, t1, "written again, the same bytes");
	free(t2);
	free(t1);
	results_free(b);
	t1 = text_of(a, false);
	b = results_read(t1, strlen(t1), "a.json", err, sizeof(err));
	t2 = b ? text_of(b, false) : NULL;
	ok(t2 && !strcmp(t1, t2),
	   "the same with figures rounded for people");
	free(t1);
	free(t2);
	results_free(b);
	results_free(a);
}

static void test_versions(void)
{
	static const char newer[] = "{\"schema_version\": \"2.0\", "
				    "\"flowops\": []}";
	static const char minor[] = "{\"schema_version\": \"1.7\", "
				    "\"flowops\": [], \"new\": 1}";
	char err[256] = "";
	struct results *r;

	r = results_read(newer, strlen(newer), "n.json", err, sizeof(err));
	ok(!r && strstr(err, "schema_version 2.0 is newer"),
	   "a newer major is refused: %s", err);
	r = results_read(minor, strlen(minor), "m.json", err, sizeof(err));
	ok(r != NULL, "a newer minor is read, its new members ignored");
	results_free(r);
	r = results_read("{}", 2, "e.json", err, sizeof(err));
	ok(!r && strstr(err, "not an fbrun results file"),
	   "a file without flowops is refused: %s", err);
}

/* rank 1's text with its first histogram count changed. */
static void garble(char *t)
{
	char *c = strstr(strstr(t, "\"histogram\""), "\"count\": ");

	c += strlen("\"count\": ");
	*c = *c == '1' ? '2' : '1';
}

static void test_merge(void)
{
	struct results *p[3], *job;
	char *texts[3], err[128] = "";
	size_t len;
	int exact = 1;

	for (unsigned k = 0; k < 3; k++) {
		p[k] = part(k);
		texts[k] = results_gather_text(p[k], k == 2 ? "node-b" : "node-a",
					     &len);
		ok(texts[k] && len == strlen(texts[k]),
		   "rank %u's results serialise", k);
	}
	job = results_gather_merge(p[0], texts, 3, err, sizeof(err));
	if (!ok(job != NULL, "three ranks merge: %s", err))
		return;
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
	is_int(job->fo[0].s.mismatches, 0 + 1 + 2,
	       "a replay's mismatches summed over the ranks");
	ok(job->secs == 3.0, "the job's time is the longest rank's (%g)",
	   job->secs);
	is_int(job->cpu_ns, 6000, "CPU time summed");
	is_int(job->cpu_sys_ns, 1800, "... and its system part");
	is_int(job->nworkers, 6, "threads summed");
	is_int(job->io_ops, 3 * (1000 + 1100 + 1200),
	       "the IO Summary counts the I/O flowops of every rank");
	is_int(job->nranks, 3, "three ranks' figures");
	is_str(job->ranks[2].host, "node-b", "rank 2's host");
	is_int(job->ranks[1].io_ops, 3 * 1100, "rank 1's own I/O ops");
	ok(job->ranks[1].secs == 2.0, "rank 1's own time");
	is_int(job->ranks[1].errors, 1, "rank 1's own errors");
	is_str(job->fo[1].label, "read1", "the labels are mine's");
	results_free(job);

	/* a garbled count is caught, not merged */
	garble(texts[1]);
	job = results_gather_merge(p[0], texts, 3, err, sizeof(err));
	ok(job == NULL, "a garbled count is refused");
	is_str(err, "the results of rank 1 cannot be read", "... naming the rank");
	results_free(job);
	texts[1][strlen(texts[1]) / 2] = '\0';
	job = results_gather_merge(p[0], texts, 3, err, sizeof(err));
	ok(job == NULL, "a cut text is refused");
	results_free(job);
	free(texts[1]);
	texts[1] = NULL;
	job = results_gather_merge(p[0], texts, 3, err, sizeof(err));
	ok(job == NULL, "a lost text is refused");
	results_free(job);
	for (unsigned k = 0; k < 3; k++) {
		free(texts[k]);
		results_free(p[k]);
	}
}

int main(void)
{
	test_round_trip();
	test_versions();
	test_merge();
	return tap_done();
}
