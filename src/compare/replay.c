/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun report: one saved run printed again as the run printed it (the
 * classic text table, its CSV, or compare's page for one run), from the
 * counts its results file keeps (replay.h).
 */
#include "compare/replay.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/html.h"
#include "compare/match.h"
#include "compare/model.h"
#include "compare/read.h"
#include "util/diskstat.h"
#include "util/layout.h"
#include "util/msg.h"
#include "util/util.h"

#define MIB (1024.0 * 1024.0)

enum replay_format { RF_TEXT, RF_JSON, RF_CSV, RF_HTML };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fbrun report [options] RUN.json\n"
		"\n"
		"      --format FORMAT  text (the table the run printed), json "
		"(the results\n"
		"                       file, checked), csv or html\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit status: 0 ok, 2 usage or bad input.\n");
}

/* Counts are whole numbers in the file; read back as doubles. */
static uint64_t u64(double v)
{
	return v > 0 ? (uint64_t)v : 0;
}

static double per_sec(const struct cmp_run *r, double n)
{
	return r->seconds > 0 ? n / r->seconds : 0;
}

static double ms_per_op(const struct cmp_counts *n)
{
	return n->ops ? n->lat_sum / n->ops / 1e6 : 0;
}

static double cpu_us_per_op(const struct cmp_counts *n)
{
	return n->cpu_samples ? n->cpu_ns / n->cpu_samples / 1e3 : 0;
}

static void print_histogram(FILE *out, const struct cmp_flowop *f)
{
	fprintf(out, LAYOUT_HIST_HEAD, f->name);
	for (size_t k = 0; k < f->nhist; k++)
		if (f->hist[k].count > 0)
			fprintf(out, LAYOUT_HIST_ROW, f->hist[k].from_ns / 1e6,
				f->hist[k].to_ns / 1e6, u64(f->hist[k].count));
}

static void print_waits_errors(FILE *out, const struct cmp_run *r)
{
	bool any = false;

	if (r->io.waits > 0) {
		fprintf(out, LAYOUT_WAITS_HEAD);
		for (size_t i = 0; i < r->nflowops; i++) {
			const struct cmp_counts *n = &r->flowops[i].n;

			if (n->waits > 0)
				fprintf(out, LAYOUT_WAITS_ROW,
					r->flowops[i].name, u64(n->waits),
					n->wait_ns / 1e9);
		}
	}
	for (size_t i = 0; i < r->nflowops; i++) {
		const struct cmp_flowop *f = &r->flowops[i];

		if (f->n.errors <= 0)
			continue;
		if (!any)
			fprintf(out, LAYOUT_ERRORS_HEAD);
		any = true;
		fprintf(out, LAYOUT_ERRORS_ROW, f->name, u64(f->n.errors));
		for (size_t k = 0; k < f->nerrnos; k++)
			fprintf(out, LAYOUT_ERRNO,
				f->errnos[k].message ? f->errnos[k].message :
						       "?",
				u64(f->errnos[k].count));
		if (f->n.err_other > 0)
			fprintf(out, LAYOUT_ERR_OTHER, u64(f->n.err_other));
		fputc('\n', out);
	}
}

/* The text the run printed (report_text in report/report.c). */
static void print_text(FILE *out, const struct cmp_run *r)
{
	const struct cmp_counts *io = &r->io;

	fprintf(out, "Per-Operation Breakdown\n");
	for (size_t i = 0; i < r->nflowops; i++) {
		const struct cmp_counts *n = &r->flowops[i].n;

		fprintf(out, LAYOUT_FLOWOP, r->flowops[i].name,
			per_sec(r, n->ops), per_sec(r, n->bytes) / MIB,
			ms_per_op(n), cpu_us_per_op(n));
	}
	fprintf(out, LAYOUT_SUMMARY, u64(io->ops), per_sec(r, io->ops),
		per_sec(r, io->reads), per_sec(r, io->writes),
		per_sec(r, io->bytes) / MIB,
		io->ops ? io->cpu_ns / io->ops / 1e3 : 0,
		io->ops ? io->lat_sum / io->ops / 1e6 : 0);
	fprintf(out, LAYOUT_LAT_HEAD, "Latency (ms)", "count", "mean", "p50",
		"p90", "p99", "p99.9", "max");
	for (size_t i = 0; i < r->nflowops; i++) {
		const struct cmp_counts *n = &r->flowops[i].n;

		if (n->ops <= 0)
			continue;
		fprintf(out, LAYOUT_LAT_ROW, r->flowops[i].name, u64(n->ops),
			ms_per_op(n), n->q[CQ_P50] / 1e6, n->q[CQ_P90] / 1e6,
			n->q[CQ_P99] / 1e6, n->q[CQ_P999] / 1e6,
			n->lat_max / 1e6);
	}
	fprintf(out, LAYOUT_IN_OPS, r->in_ops, (size_t)u64(r->threads));
	if (r->warm_s > 0 && r->warm_done)
		fprintf(out, LAYOUT_WARMUP, r->warm_s, u64(r->warm_ops));
	if (r->steady_tol > 0 && r->steady_judged)
		fprintf(out, LAYOUT_STEADY, r->steady ? "yes" : "no",
			(size_t)u64(r->steady_n), r->steady_dev,
			r->steady_mean, r->steady_tol);
	else if (r->steady_tol > 0)
		fprintf(out, LAYOUT_STEADY_NONE, (size_t)u64(r->steady_n));
	for (size_t i = 0; r->lathist && i < r->nflowops; i++)
		if (r->flowops[i].n.ops > 0)
			print_histogram(out, &r->flowops[i]);
	for (size_t i = 0; i < r->nflowops; i++) {
		const struct cmp_counts *n = &r->flowops[i].n;

		if (r->flowops[i].sample_mean && n->ops > 0)
			fprintf(out, LAYOUT_MEAN, r->flowops[i].name,
				n->bytes / n->ops, u64(n->ops));
	}
	print_waits_errors(out, r);
	if (r->io.verify_errors > 0) {
		fprintf(out, LAYOUT_VERIFY_HEAD);
		for (size_t i = 0; i < r->nflowops; i++)
			if (r->flowops[i].n.verify_errors > 0)
				fprintf(out, LAYOUT_VERIFY_ROW,
					r->flowops[i].name,
					u64(r->flowops[i].n.verify_errors));
	}
	cmp_run_ranks_text(out, r);
	/* as the run: no page cache note for a job of several ranks */
	diskstat_print(out, r->disks, r->nranks > 1 ? 0 : u64(io->rd_bytes));
}

static void csv_row(FILE *out, const struct cmp_run *r, const char *name,
		    const char *type, const char *thread,
		    const struct cmp_counts *n, double cpu_us)
{
	csv_put(out, name);
	fputc(',', out);
	csv_put(out, type ? type : "");
	fputc(',', out);
	csv_put(out, thread ? thread : "");
	fprintf(out, LAYOUT_CSV_ROW, u64(n->ops), per_sec(r, n->ops),
		per_sec(r, n->bytes) / MIB, ms_per_op(n), cpu_us,
		u64(n->bytes), u64(n->rd_bytes), u64(n->wr_bytes),
		u64(n->errors), n->q[CQ_P50] / 1e6, n->q[CQ_P90] / 1e6,
		n->q[CQ_P99] / 1e6, n->q[CQ_P999] / 1e6, n->lat_max / 1e6);
}

/* The CSV the run printed (report_csv in report/report.c). */
static void print_csv(FILE *out, const struct cmp_run *r)
{
	fprintf(out, LAYOUT_CSV_HEAD);
	for (size_t i = 0; i < r->nflowops; i++) {
		const struct cmp_flowop *f = &r->flowops[i];

		csv_row(out, r, f->name, f->type, f->thread, &f->n,
			cpu_us_per_op(&f->n));
	}
	csv_row(out, r, "IO Summary", "summary", "", &r->io,
		r->io.ops ? r->io.cpu_ns / r->io.ops / 1e3 : 0);
}

/* Returns -1 to exit 2, 1 to exit 0 (--help), 0 to go on. */
static int parse_args(int argc, char **argv, enum replay_format *fmt)
{
	enum { OPT_FORMAT = 256 };
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				*fmt = RF_TEXT;
			else if (strcmp(optarg, "json") == 0)
				*fmt = RF_JSON;
			else if (strcmp(optarg, "csv") == 0)
				*fmt = RF_CSV;
			else if (strcmp(optarg, "html") == 0)
				*fmt = RF_HTML;
			else
				return fb_error("--format expects text, json, "
						"csv or html, got '%s'",
						optarg);
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
			return msg_bad_option(ch, argv, optind);
		default:
			msg_bad_option(ch, argv, optind);
			usage(stderr);
			return -1;
		}
	}
	if (argc - optind != 1) {
		fb_error("report needs one results file");
		usage(stderr);
		return -1;
	}
	return 0;
}

/* Built in memory so that text from the file is cleaned on the way out. */
static int print(const struct cmp *c, enum replay_format fmt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return fb_error("cannot build the report: %s", strerror(errno));
	if (fmt == RF_TEXT)
		print_text(mem, &c->runs[0]);
	else if (fmt == RF_CSV)
		print_csv(mem, &c->runs[0]);
	else
		html_page(mem, c);
	if (fclose(mem) != 0) {
		free(text);
		return fb_error("cannot build the report: %s", strerror(errno));
	}
	if (fmt == RF_HTML)
		fwrite(text, 1, len, stdout); /* html_page escapes its text */
	else
		cmp_put_clean(stdout, text, len);
	free(text);
	if (fflush(stdout) != 0 || ferror(stdout))
		return fb_error("cannot write the report");
	return 0;
}

/*
 * The results file itself, once read as any other: the same document the
 * run wrote with -o or printed with --format json (its byte order mark
 * left out).  C1 characters in its strings become \u escapes, the same
 * values.
 */
static int print_json(struct cmp *c)
{
	char *text;
	size_t len, bom;
	int rc = FB_EXIT_USAGE;

	if (cmp_read_file_text(&c->runs[0], &text, &len) < 0)
		return rc;
	bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	if (cmp_match(c, false) == 0) {
		cmp_put_json_clean(stdout, text + bom, len - bom);
		if (fflush(stdout) != 0 || ferror(stdout))
			fb_error("cannot write the report");
		else
			rc = FB_EXIT_OK;
	}
	free(text);
	return rc;
}

int replay_main(int argc, char **argv)
{
	enum replay_format fmt = RF_TEXT;
	struct cmp c = { 0 };
	struct cmp_run run = { 0 };
	int rc = parse_args(argc, argv, &fmt);

	if (rc)
		return rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	run.path = argv[optind];
	run.label = xstrdup(strrchr(run.path, '/') ? strrchr(run.path, '/') + 1 :
						    run.path);
	c.nruns = 1;
	c.runs = &run;
	rc = FB_EXIT_USAGE;
	if (fmt == RF_JSON)
		rc = print_json(&c);
	else if (cmp_read_file(&run) == 0 && cmp_match(&c, false) == 0 &&
		 print(&c, fmt) == 0)
		rc = FB_EXIT_OK;
	cmp_rows_free(&c);
	free(run.label);
	cmp_run_clear(&run);
	return rc;
}
