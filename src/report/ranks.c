/* The per-rank figures of a job (ranks.h). */
#include "report/ranks.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define MIB (1024.0 * 1024.0)

static double rank_rate(const struct rank_result *k, uint64_t n)
{
	return k->secs > 0 ? (double)n / k->secs : 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* How many distinct host names the ranks have. */
static size_t count_hosts(const struct results *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nranks; i++) {
		size_t k = 0;

		while (k < i && strcmp(r->ranks[k].host, r->ranks[i].host))
			k++;
		n += k == i;
	}
	return n;
}

void ranks_text(FILE *out, const struct results *r)
{
	double *rates, median;
	size_t n = r->nranks, hosts = count_hosts(r);

	if (!r->ranks)
		return;
	fprintf(out, "\nPer-rank (%zu rank%s on %zu host%s)\n", n,
		n == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s");
	fprintf(out, "%-6s %-20s %12s %9s %9s %9s %8s %8s\n", "rank", "host",
		"ops/s", "mb/s", "ms/op", "p99 ms", "secs", "errors");
	rates = xcalloc(n, sizeof(*rates));
	for (size_t i = 0; i < n; i++) {
		const struct rank_result *k = &r->ranks[i];

		rates[i] = rank_rate(k, k->io_ops);
		fprintf(out,
			"%-6zu %-20.20s %12.1f %9.1f %9.3f %9.3f %8.1f %8" PRIu64
			"\n",
			i, k->host, rates[i], rank_rate(k, k->io_bytes) / MIB,
			k->io_ops ? (double)k->io_lat_ns / (double)k->io_ops / 1e6 :
				    0,
			(double)k->p99_ns / 1e6, k->secs, k->errors);
	}
	qsort(rates, n, sizeof(*rates), by_value);
	median = n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
	fprintf(out, "Ranks' ops/s: min %.1f, median %.1f, max %.1f", rates[0],
		median, rates[n - 1]);
	if (rates[0] > 0)
		fprintf(out, ", imbalance (max/min) %.2f\n",
			rates[n - 1] / rates[0]);
	else
		fprintf(out, ", imbalance (max/min) -\n");
	if (r->stopped_by >= 0 && r->reason == STOP_DONE)
		fprintf(out, "Rank %d's work was done first: it ended the run "
			     "for all (--stonewall)\n",
			r->stopped_by);
	free(rates);
}

void ranks_json(struct json *j, const struct results *r)
{
	if (!r->ranks)
		return;
	json_object(j, "mpi");
	json_u64(j, "ranks", r->nranks);
	json_u64(j, "hosts", count_hosts(r));
	if (r->stopped_by >= 0)
		json_i64(j, "stopped_by_rank", r->stopped_by);
	json_end(j, '}');
	json_array(j, "ranks");
	for (size_t i = 0; i < r->nranks; i++) {
		const struct rank_result *k = &r->ranks[i];

		json_object(j, NULL);
		json_u64(j, "rank", i);
		json_str(j, "host", k->host);
		json_num(j, "seconds", k->secs);
		json_u64(j, "ops", k->io_ops);
		json_num(j, "ops_per_sec", rank_rate(k, k->io_ops));
		json_u64(j, "bytes", k->io_bytes);
		json_num(j, "mb_per_sec", rank_rate(k, k->io_bytes) / MIB);
		json_num(j, "ms_per_op",
			 k->io_ops ? (double)k->io_lat_ns / (double)k->io_ops / 1e6 :
				     0);
		json_num(j, "p99_ms", (double)k->p99_ns / 1e6);
		json_u64(j, "errors", k->errors);
		json_end(j, '}');
	}
	json_end(j, ']');
}
