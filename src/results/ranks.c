/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The per-rank table of a job (ranks.h). */
#include "results/ranks.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The spread of the ranks' ops/s: min, median, max and their ratio. */
static void spread(FILE *out, double *rates, size_t n)
{
	double median;

	qsort(rates, n, sizeof(*rates), by_value);
	median = n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
	fprintf(out, "Ranks' ops/s: min %.1f, median %.1f, max %.1f", rates[0],
		median, rates[n - 1]);
	if (rates[0] > 0)
		fprintf(out, ", imbalance (max/min) %.2f\n",
			rates[n - 1] / rates[0]);
	else
		fprintf(out, ", imbalance (max/min) -\n");
}

void results_ranks_text(FILE *out, const struct rank_result *k, size_t n,
			int stonewall_rank)
{
	size_t hosts = 0;
	double *rates;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && strcmp(k[j].host, k[i].host))
			j++;
		hosts += j == i;
	}
	fprintf(out, "\nPer-rank (%zu rank%s on %zu host%s)\n", n,
		n == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s");
	fprintf(out, "%-6s %-20s %12s %9s %9s %9s %8s %8s\n", "rank", "host",
		"ops/s", "mb/s", "ms/op", "p99 ms", "secs", "errors");
	rates = xcalloc(n, sizeof(*rates));
	for (size_t i = 0; i < n; i++) {
		const struct rank_result *x = &k[i];

		rates[i] = x->ops_s;
		fprintf(out,
			"%-6zu %-20.20s %12.1f %9.1f %9.3f %9.3f %8.1f %8" PRIu64
			"\n",
			i, x->host, x->ops_s, x->mb_s, x->ms_op,
			(double)x->p99_ns / 1e6, x->secs, x->errors);
	}
	spread(out, rates, n);
	if (stonewall_rank >= 0)
		fprintf(out, "Rank %d's work was done first: it ended the run "
			     "for all (--stonewall)\n",
			stonewall_rank);
	free(rates);
}
