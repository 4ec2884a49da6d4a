/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A job's results sent to rank 0 and merged there (gather.h). */
#include "results/gather.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/read.h"
#include "results/write.h"
#include "util/util.h"

char *results_serialise(const struct results *r, const char *host,
			size_t *len)
{
	struct results one = *r; /* read only: r with its one rank */
	struct rank_result me = { 0 };
	struct results_meta m = { .exact = true };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL; /* the merge then says this rank's are missing */
	snprintf(me.host, sizeof(me.host), "%s", host);
	one.ranks = &me;
	one.nranks = 1;
	results_write(f, &one, &m);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * What a process's text must hold to be merged: mine's flowops, and
 * counters that add up as the workers' always do (every op in a bucket,
 * every failure under an errno or "other"), so a garbled number is
 * caught rather than summed.
 */
static int consistent(const struct results *part, const struct results *mine)
{
	if (part->nfo != mine->nfo || part->nranks != 1)
		return -1;
	for (size_t i = 0; i < part->nfo; i++) {
		const struct fstats *s = &part->fo[i].s;
		uint64_t errs = s->err_other;

		if (hist_total(&s->hist) != s->count)
			return -1;
		for (unsigned k = 0; k < FSTATS_ERRNOS; k++)
			errs += s->err_count[k];
		if (errs != s->errors)
			return -1;
	}
	return 0;
}

/* A text's line feeds as spaces: the job's first failure is one line. */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n')
			*s = ' ';
}

struct results *results_merge_texts(const struct results *mine,
				    char *const *texts, size_t n, char *err,
				    size_t errlen)
{
	struct results **parts = xcalloc(n ? n : 1, sizeof(*parts));
	char **hosts = xcalloc(n ? n : 1, sizeof(*hosts));
	struct results *job = NULL;
	char why[256];
	size_t k;

	for (k = 0; k < n; k++) {
		char name[32];

		snprintf(name, sizeof(name), "rank %zu", k);
		parts[k] = texts[k] ? results_read(texts[k], strlen(texts[k]),
						   name, why, sizeof(why)) :
				      NULL;
		if (!parts[k] || consistent(parts[k], mine) < 0)
			break;
		one_line(parts[k]->error);
		one_line(parts[k]->note);
		hosts[k] = parts[k]->ranks[0].host;
	}
	if (k == n)
		job = results_merge(mine, parts, hosts, n);
	else
		snprintf(err, errlen, "the results of rank %zu cannot be read",
			 k);
	for (k = 0; k < n; k++)
		results_free(parts[k]);
	free(parts);
	free(hosts);
	return job;
}
