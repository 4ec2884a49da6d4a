/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * --repeat: runs collected, their statistics printed (repeat.h).  Each
 * run keeps its figures and, when a JSON is wanted, its whole JSON
 * object; the file written is the last run's object with "repeats" (every
 * run's) and "statistics" added, so a reader of one run reads it as
 * before (doc/compare.md).
 */
#include "config.h"

#include "report/repeat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/statistics.h"
#include "util/util.h"

#define LEVEL 0.95
/* --warmup: its length, the mean I/O ops of the warm-ups, runs with one, runs */
#define LAYOUT_REPEAT_WARMUP                                                \
	"\nWarm-up: %.0f s before each measured run, %.0f I/O ops not "       \
	"counted (mean of %zu of %zu runs)\n"
/* the least busy accelerator's utilisation: mean, +-95%, sd */
#define LAYOUT_REPEAT_AU                                                    \
	"\nAccelerator utilisation (the least busy's): %.1f%% +-%.1f, sd "     \
	"%.1f\n"

/*
 * The figures summarised, per flowop and for the IO Summary; an open
 * loop's response times too (RM_SHOWN of them in a closed loop's).
 */
enum { RM_OPS, RM_MB, RM_MS, RM_SHOWN, RM_RP50 = RM_SHOWN, RM_RP99, RM_COUNT };
static const char *const rm_key[RM_COUNT] = { "ops_per_sec", "mb_per_sec",
					      "ms_per_op", "response_p50_ms",
					      "response_p99_ms" };

struct repeat {
	const struct report_dest *dest;
	size_t want, n, cap, jcap;
	size_t nfo;
	char **labels; /* the flowops' report labels, copied */
	/* per run: nfo + 1 rows (the last is the IO Summary) of RM_COUNT */
	double *fig;
	char **json; /* per run, its JSON object, if one is wanted */
	bool want_json;
	bool open; /* a run had an open loop: its response times shown */
	/* per run: its least busy accelerator's utilisation, % */
	double *au;
	size_t aucap;
	bool has_au; /* the runs have accelerators */
	/* --warmup: its length, the runs that had one, their I/O ops summed */
	double warm_s;
	size_t warm_runs;
	uint64_t warm_ops;
};

/* The figures a summary shows: the response times' only if open. */
static int nshown(const struct repeat *rp)
{
	return rp->open ? RM_COUNT : RM_SHOWN;
}

struct repeat *repeat_new(const struct report_dest *dest, size_t want)
{
	struct repeat *rp = xcalloc(1, sizeof(*rp));

	rp->dest = dest;
	rp->want = want;
	rp->want_json = dest->format == FORMAT_JSON ||
			format_of_path(dest->output, FOR_RUN) == FORMAT_JSON;
	return rp;
}

void repeat_free(struct repeat *rp)
{
	if (!rp)
		return;
	for (size_t i = 0; i < rp->n; i++)
		free(rp->json ? rp->json[i] : NULL);
	free(rp->json);
	free(rp->fig);
	free(rp->au);
	for (size_t i = 0; rp->labels && i < rp->nfo; i++)
		free(rp->labels[i]);
	free(rp->labels);
	free(rp);
}

size_t repeat_count(const struct repeat *rp)
{
	return rp->n;
}

static double *row(const struct repeat *rp, size_t run, size_t fo)
{
	return &rp->fig[(run * (rp->nfo + 1) + fo) * RM_COUNT];
}

static void keep_figures(struct repeat *rp, const struct results *r)
{
	for (size_t i = 0; i < rp->nfo; i++) {
		double *x = row(rp, rp->n, i);

		x[RM_OPS] = r->fo[i].fig.ops_s;
		x[RM_MB] = r->fo[i].fig.mb_s;
		x[RM_MS] = r->fo[i].fig.ms_op;
		x[RM_RP50] = r->fo[i].rq[RESULTS_P50] / 1e6;
		x[RM_RP99] = r->fo[i].rq[RESULTS_P99] / 1e6;
	}
	row(rp, rp->n, rp->nfo)[RM_RP50] = r->io_rq[RESULTS_P50] / 1e6;
	row(rp, rp->n, rp->nfo)[RM_RP99] = r->io_rq[RESULTS_P99] / 1e6;
	rp->open = rp->open || results_open_loop(r);
	row(rp, rp->n, rp->nfo)[RM_OPS] = r->sum.ops_s;
	row(rp, rp->n, rp->nfo)[RM_MB] = r->sum.mb_s;
	row(rp, rp->n, rp->nfo)[RM_MS] = r->sum.ms_op;
}

/* The run's whole JSON object, as -o would write it alone. */
static char *render_json(const struct results *r, const struct report_dest *d)
{
	struct report_meta m;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return NULL;
	report_meta_get(&m, r, d->script, d->data);
	report_json(mem, r, &m);
	report_meta_release(&m);
	if (fclose(mem) != 0) {
		free(text);
		return NULL;
	}
	/* the object without its final line feed, to nest it */
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	return text;
}

int repeat_deliver(const struct results *r, void *arg)
{
	struct repeat *rp = arg;
	FILE *lines = rp->dest->format == FORMAT_TEXT ? stdout : stderr;

	if (rp->n == 0) {
		rp->nfo = r->nfo;
		rp->labels = xcalloc(r->nfo ? r->nfo : 1, sizeof(*rp->labels));
		for (size_t i = 0; i < r->nfo; i++)
			rp->labels[i] = xstrdup(r->fo[i].label);
	} else if (r->nfo != rp->nfo) {
		return fb_error("run %zu has %zu flowops, the first had %zu: "
				"--repeat needs the same run each time",
				rp->n + 1, r->nfo, rp->nfo);
	}
	rp->fig = grow_array(rp->fig, &rp->cap, rp->n + 1,
			     (rp->nfo + 1) * RM_COUNT * sizeof(double));
	if (rp->want_json) {
		rp->json = grow_array(rp->json, &rp->jcap, rp->n + 1,
				      sizeof(*rp->json));
		rp->json[rp->n] = render_json(r, rp->dest);
		if (!rp->json[rp->n])
			return fb_error("cannot build the JSON of run %zu: %s",
					rp->n + 1, strerror(errno));
	}
	keep_figures(rp, r);
	rp->au = grow_array(rp->au, &rp->aucap, rp->n + 1, sizeof(*rp->au));
	if (r->nacc) {
		struct au_summary au;

		results_au(r, &au);
		rp->au[rp->n] = au.min;
		rp->has_au = true;
	}
	if (r->warm_s > 0 && r->warm_done) {
		rp->warm_s = r->warm_s;
		rp->warm_runs++;
		rp->warm_ops += r->warm_ops;
	}
	rp->n++;
	fprintf(lines, "\nRun %zu of %zu: ", rp->n, rp->want);
	report_summary_line(lines, r);
	report_disks_text(lines, r); /* each run's own devices */
	fflush(lines);
	return 0;
}

static void summarise(const struct repeat *rp, size_t fo, int m,
		      struct st_summary *s)
{
	double *x = xcalloc(rp->n ? rp->n : 1, sizeof(*x));

	for (size_t i = 0; i < rp->n; i++)
		x[i] = row(rp, i, fo)[m];
	st_summarise(x, rp->n, LEVEL, s);
	free(x);
}

static void text_row(FILE *out, const struct repeat *rp, size_t fo,
		     const char *name)
{
	struct st_summary s[RM_COUNT];

	for (int m = 0; m < RM_SHOWN; m++)
		summarise(rp, fo, m, &s[m]);
	fprintf(out,
		"%-20s %10.1f %8.1f %8.1f %8.1f %7.1f %7.1f %9.3f %8.3f %8.3f\n",
		name, s[RM_OPS].mean, s[RM_OPS].half, s[RM_OPS].sd,
		s[RM_MB].mean, s[RM_MB].half, s[RM_MB].sd, s[RM_MS].mean,
		s[RM_MS].half, s[RM_MS].sd);
}

static void print_text(FILE *out, const struct repeat *rp)
{
	fprintf(out,
		"\nPer-Operation Breakdown, mean of %zu runs, the half-width "
		"of its 95%% confidence\ninterval (Student's t) and the "
		"standard deviation\n",
		rp->n);
	fprintf(out,
		"%-20s %10s %8s %8s %8s %7s %7s %9s %8s %8s\n", "", "ops/s",
		"+-95%", "sd", "mb/s", "+-95%", "sd", "ms/op", "+-95%", "sd");
	for (size_t i = 0; i < rp->nfo; i++)
		text_row(out, rp, i, rp->labels[i]);
	fputc('\n', out);
	text_row(out, rp, rp->nfo, "IO Summary");
	if (rp->has_au) {
		struct st_summary s;

		st_summarise(rp->au, rp->n, LEVEL, &s);
		fprintf(out, LAYOUT_REPEAT_AU, s.mean, s.half, s.sd);
	}
	if (rp->warm_runs)
		fprintf(out, LAYOUT_REPEAT_WARMUP, rp->warm_s,
			(double)rp->warm_ops / (double)rp->warm_runs,
			rp->warm_runs, rp->n);
	if (!rp->open)
		return;
	fprintf(out, "\nResponse time (ms), open loop: p50 and p99, their mean "
		"over the runs and the\nhalf-width of its 95%% confidence "
		"interval\n%-20s %10s %8s %10s %8s\n",
		"", "p50", "+-95%", "p99", "+-95%");
	for (size_t i = 0; i <= rp->nfo; i++) {
		struct st_summary p50, p99;

		summarise(rp, i, RM_RP50, &p50);
		summarise(rp, i, RM_RP99, &p99);
		if (i == rp->nfo)
			fputc('\n', out);
		fprintf(out, "%-20s %10.3f %8.3f %10.3f %8.3f\n",
			i < rp->nfo ? rp->labels[i] : "IO Summary", p50.mean,
			p50.half, p99.mean, p99.half);
	}
}

static void print_csv(FILE *out, const struct repeat *rp)
{
	fprintf(out, "name,runs");
	for (int m = 0; m < nshown(rp); m++)
		fprintf(out, ",%s_mean,%s_sd,%s_ci95", rm_key[m], rm_key[m],
			rm_key[m]);
	fputc('\n', out);
	for (size_t i = 0; i <= rp->nfo; i++) {
		csv_put(out, i < rp->nfo ? rp->labels[i] : "IO Summary");
		fprintf(out, ",%zu", rp->n);
		for (int m = 0; m < nshown(rp); m++) {
			struct st_summary s;

			summarise(rp, i, m, &s);
			fprintf(out, ",%.6f,%.6f,%.6f", s.mean, s.sd, s.half);
		}
		fputc('\n', out);
	}
}

static void json_stats(struct json *j, const struct repeat *rp, size_t fo)
{
	for (int m = 0; m < nshown(rp); m++) {
		struct st_summary s;

		summarise(rp, fo, m, &s);
		jw_object(j, rm_key[m]);
		jw_num(j, "mean", s.mean);
		jw_num(j, "sd", s.sd);
		jw_num(j, "ci95", s.half);
		jw_array(j, "values");
		for (size_t i = 0; i < rp->n; i++)
			jw_num(j, NULL, row(rp, i, fo)[m]);
		jw_end(j, ']');
		jw_end(j, '}');
	}
}

/*
 * The last run's object, reopened: its members, then "repeats" (every
 * run's object) and "statistics".
 */
static void print_json(FILE *out, const struct repeat *rp)
{
	struct json j;

	jw_reopen(out, rp->json[rp->n - 1]);
	jw_member(out, "repeats");
	fputs("[\n", out);
	for (size_t i = 0; i < rp->n; i++)
		fprintf(out, "%s%s", rp->json[i], i + 1 < rp->n ? ",\n" : "\n");
	fputs("  ]", out);
	jw_member(out, "statistics");
	jw_init(&j, out);
	jw_object(&j, NULL);
	jw_u64(&j, "runs", rp->n);
	jw_num(&j, "confidence", LEVEL);
	jw_array(&j, "flowops");
	for (size_t i = 0; i < rp->nfo; i++) {
		jw_object(&j, NULL);
		jw_str(&j, "name", rp->labels[i]);
		json_stats(&j, rp, i);
		jw_end(&j, '}');
	}
	jw_end(&j, ']');
	jw_object(&j, "summary");
	json_stats(&j, rp, rp->nfo);
	jw_end(&j, '}');
	if (rp->has_au) {
		struct st_summary s;

		st_summarise(rp->au, rp->n, LEVEL, &s);
		jw_object(&j, "accelerators");
		jw_object(&j, "utilisation_min_pct");
		jw_num(&j, "mean", s.mean);
		jw_num(&j, "sd", s.sd);
		jw_num(&j, "ci95", s.half);
		jw_array(&j, "values");
		for (size_t i = 0; i < rp->n; i++)
			jw_num(&j, NULL, rp->au[i]);
		jw_end(&j, ']');
		jw_end(&j, '}');
		jw_end(&j, '}');
	}
	jw_end(&j, '}');
	fputs("}\n", out);
}

/* The printers of each row of util/format_list.h a run prints. */
typedef void repeat_printer(FILE *out, const struct repeat *rp);

static repeat_printer *const printers[FORMAT_COUNT] = {
	[FORMAT_TEXT] = print_text,
	[FORMAT_JSON] = print_json,
	[FORMAT_CSV] = print_csv,
};

/* -o's statistics, in the format its name asks for. */
static void fill_output(FILE *out, const void *arg)
{
	const struct repeat *rp = arg;

	printers[format_of_path(rp->dest->output, FOR_RUN)](out, rp);
}

int repeat_finish(struct repeat *rp)
{
	const struct report_dest *d = rp->dest;

	if (!rp->n)
		return 0;
	printers[d->format](stdout, rp);
	if (!d->output)
		return 0;
	return outfile_write(d->output, fill_output, rp);
}
