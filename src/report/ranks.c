/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The per-rank figures of a job (ranks.h). */
#include "report/ranks.h"

#include <stdlib.h>

#include "util/layout.h"
#include "util/util.h"

#define MIB (1024.0 * 1024.0)

static double rank_rate(const struct rank_result *k, uint64_t n)
{
	return k->secs > 0 ? (double)n / k->secs : 0;
}

/* The ranks as the table's lines are computed from; free the array. */
static struct layout_rank *table_rows(const struct results *r)
{
	struct layout_rank *t = xcalloc(r->nranks + 1, sizeof(*t));

	for (size_t i = 0; i < r->nranks; i++) {
		const struct rank_result *k = &r->ranks[i];

		t[i] = (struct layout_rank){ k->host, k->secs, k->io_ops,
					     k->io_bytes, k->io_lat_ns,
					     k->p99_ns, k->errors };
	}
	return t;
}

void ranks_text(FILE *out, const struct results *r)
{
	struct layout_rank *t;

	if (!r->ranks)
		return;
	t = table_rows(r);
	layout_ranks(out, t, r->nranks,
		     r->reason == STOP_DONE ? r->stopped_by : -1);
	free(t);
}

void ranks_json(struct json *j, const struct results *r)
{
	struct layout_rank *t;

	if (!r->ranks)
		return;
	t = table_rows(r);
	jw_object(j, "mpi");
	jw_u64(j, "ranks", r->nranks);
	jw_u64(j, "hosts", layout_rank_hosts(t, r->nranks));
	free(t);
	if (r->stopped_by >= 0)
		jw_i64(j, "stopped_by_rank", r->stopped_by);
	jw_end(j, '}');
	jw_array(j, "ranks");
	for (size_t i = 0; i < r->nranks; i++) {
		const struct rank_result *k = &r->ranks[i];

		jw_object(j, NULL);
		jw_u64(j, "rank", i);
		jw_str(j, "host", k->host);
		/* all its digits: fbrun report prints the table again */
		jw_exact(j, "seconds", k->secs);
		jw_u64(j, "ops", k->io_ops);
		jw_num(j, "ops_per_sec", rank_rate(k, k->io_ops));
		jw_u64(j, "bytes", k->io_bytes);
		jw_num(j, "mb_per_sec", rank_rate(k, k->io_bytes) / MIB);
		jw_num(j, "ms_per_op",
			 k->io_ops ? (double)k->io_lat_ns / (double)k->io_ops / 1e6 :
				     0);
		jw_num(j, "p99_ms", (double)k->p99_ns / 1e6);
		jw_u64(j, "errors", k->errors);
		jw_object(j, "latency_ns");
		jw_u64(j, "sum", k->io_lat_ns);
		jw_u64(j, "p99", k->p99_ns);
		jw_u64(j, "max", k->max_ns);
		jw_end(j, '}');
		jw_end(j, '}');
	}
	jw_end(j, ']');
}
