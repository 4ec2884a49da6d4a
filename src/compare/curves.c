/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Load curves side by side (curves.h): each file's curve (fbrun curve
 * -o), its levels matched by name, the achieved rates and the p99
 * response times, and the rate each met its objective up to.
 */
#include "compare/curves.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/html.h"
#include "compare/model.h"
#include "results/read.h"
#include "util/jsonw.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/schema_version.h"
#include "util/util.h"

/* path's curve, NULL if it has none; *bad after saying why it is bad. */
static struct curve *read_one(const char *path, bool *bad)
{
	char err[512], *text;
	size_t len;
	struct curve *c;

	*bad = true;
	if (!(text = results_read_file(path, &len)))
		return NULL;
	c = results_read_curve(text, len, err, sizeof(err), bad);
	free(text);
	if (*bad)
		fb_error("%s: %s", path, err);
	return c;
}

int curves_all(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool bad;
		struct curve *c = read_one(paths[i], &bad);

		curve_free(c);
		if (bad)
			return -1;
		if (!c)
			return 0;
	}
	return 1;
}

/* The level of c named name, or NULL. */
static const struct curve_level *level_named(const struct curve *c,
					     const char *name)
{
	for (size_t i = 0; i < c->nlevels; i++)
		if (!strcmp(c->levels[i].name, name))
			return &c->levels[i];
	return NULL;
}

/* Every level name of the curves, the first's order first, once each. */
static const char **names_of(struct curve *const *cv, size_t n, size_t *count)
{
	const char **names = NULL;
	size_t cap = 0;

	*count = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < cv[k]->nlevels; i++) {
			bool seen = false;

			for (size_t j = 0; j < *count && !seen; j++)
				seen = !strcmp(names[j], cv[k]->levels[i].name);
			if (seen)
				continue;
			names = grow_array(names, &cap, *count + 1,
					   sizeof(*names));
			names[(*count)++] = cv[k]->levels[i].name;
		}
	return names;
}

static void text_table(FILE *out, struct curve *const *cv,
		       const char *const *labels, size_t n)
{
	size_t nn;
	const char **names = names_of(cv, n, &nn);

	fprintf(out, "Load curves side by side: achieved arrivals a second "
		     "and p99 response time (ms)\n%-10s", "level");
	for (size_t k = 0; k < n; k++)
		fprintf(out, " %12.12s %9s", labels[k], "p99");
	for (size_t k = 1; k < n; k++)
		fprintf(out, " %9s", "p99/first");
	fputc('\n', out);
	for (size_t i = 0; i < nn; i++) {
		const struct curve_level *first = level_named(cv[0], names[i]);

		fprintf(out, "%-10s", names[i]);
		for (size_t k = 0; k < n; k++) {
			const struct curve_level *l = level_named(cv[k], names[i]);

			if (l)
				fprintf(out, " %12.1f %9.3f",
					l->sum[CF_ACHIEVED].mean,
					l->sum[CF_RESP_P99].mean);
			else
				fprintf(out, " %12s %9s", "-", "-");
		}
		for (size_t k = 1; k < n; k++) {
			const struct curve_level *l = level_named(cv[k], names[i]);

			if (l && first && first->sum[CF_RESP_P99].mean > 0)
				fprintf(out, " %9.2f",
					l->sum[CF_RESP_P99].mean /
						first->sum[CF_RESP_P99].mean);
			else
				fprintf(out, " %9s", "-");
		}
		fputc('\n', out);
	}
	free(names);
	for (size_t k = 0; k < n; k++) {
		const struct curve *c = cv[k];

		if (!c->has_objective || !c->slo.searched)
			continue;
		fprintf(out, "%s: %s ", labels[k], c->obj.text);
		if (c->slo.met && c->slo.at_max)
			fprintf(out, "met at the closed loops' most, %.1f "
				     "arrivals/s",
				c->slo.rate);
		else if (c->slo.met)
			fprintf(out, "met up to %.1f arrivals/s (95%% interval "
				     "%.1f to %.1f)",
				c->slo.rate, c->slo.low, c->slo.high);
		else
			fprintf(out, "not met at any rate probed");
		if (k && c->slo.met && cv[0]->slo.met && cv[0]->slo.rate > 0)
			fprintf(out, ", %.2f times %s's", c->slo.rate /
							  cv[0]->slo.rate,
				labels[0]);
		fputc('\n', out);
	}
}

static void csv_table(FILE *out, struct curve *const *cv,
		      const char *const *labels, size_t n)
{
	size_t nn;
	const char **names = names_of(cv, n, &nn);

	fprintf(out, "level");
	for (size_t k = 0; k < n; k++) {
		fputc(',', out);
		csv_put(out, labels[k]);
		fprintf(out, "_achieved_per_sec,");
		csv_put(out, labels[k]);
		fprintf(out, "_response_p99_ms");
	}
	fputc('\n', out);
	for (size_t i = 0; i < nn; i++) {
		csv_put(out, names[i]);
		for (size_t k = 0; k < n; k++) {
			const struct curve_level *l = level_named(cv[k], names[i]);

			if (l)
				fprintf(out, ",%.3f,%.6f",
					l->sum[CF_ACHIEVED].mean,
					l->sum[CF_RESP_P99].mean);
			else
				fprintf(out, ",,");
		}
		fputc('\n', out);
	}
	free(names);
}

static void json_doc(FILE *out, struct curve *const *cv,
		     const char *const *labels, size_t n)
{
	struct json j;

	jw_init(&j, out);
	jw_object(&j, NULL);
	jw_str(&j, "schema_version", SCHEMA_VERSION);
	jw_array(&j, "curves");
	for (size_t k = 0; k < n; k++) {
		jw_object(&j, NULL);
		jw_str(&j, "label", labels[k]);
		curve_write(&j, "curve", cv[k]);
		jw_end(&j, '}');
	}
	jw_end(&j, ']');
	jw_end(&j, '}');
	fputc('\n', out);
}

/* The printers of each row of util/format_list.h compare prints. */
typedef void curves_printer(FILE *out, struct curve *const *cv,
			    const char *const *labels, size_t n);

static curves_printer *const printers[FORMAT_COUNT] = {
	[FORMAT_TEXT] = text_table,
	[FORMAT_JSON] = json_doc,
	[FORMAT_CSV] = csv_table,
};

struct page {
	struct curve *const *cv;
	const char *const *labels;
	size_t n;
};

static void fill_page(FILE *out, const void *arg)
{
	const struct page *p = arg;

	html_curve_page(out, p->cv, p->labels, p->n);
}

int curves_compare(char **paths, size_t n, const char *const *labels,
		   enum format format, const char *html)
{
	struct curve **cv = xcalloc(n, sizeof(*cv));
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int rc = FB_EXIT_USAGE;
	bool bad;

	for (size_t k = 0; k < n; k++)
		if (!(cv[k] = read_one(paths[k], &bad)))
			goto out;
	if (!(mem = open_memstream(&text, &len))) {
		fb_error("cannot build the table: %s", strerror(errno));
		goto out;
	}
	printers[format](mem, cv, labels, n);
	if (fclose(mem) != 0) {
		fb_error("cannot build the table: %s", strerror(errno));
		goto out;
	}
	/* names from the files must not drive the terminal */
	(format == FORMAT_JSON ? jw_put_clean : cmp_put_clean)(stdout,
								      text, len);
	rc = FB_EXIT_OK;
	if (html) {
		struct page p = { cv, labels, n };

		if (outfile_write(html, fill_page, &p) < 0)
			rc = FB_EXIT_RUN;
	}
out:
	for (size_t k = 0; k < n; k++)
		curve_free(cv[k]);
	free(cv);
	free(text);
	return rc;
}
