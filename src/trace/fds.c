/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * How many descriptors a replay of a trace holds open at once, walked as
 * the replay runs it: a stream's inherited handles open at its first op,
 * an open that succeeded holds one until its close, and a stream's end
 * (its process exited) closes what it still holds.
 */
#include "trace/trace_int.h"

#include <stdlib.h>

/* the descriptors stream s holds after op i, given those before */
static size_t step(const struct trace *t, size_t s, size_t i, size_t held)
{
	const struct trace_stream *st = &t->streams[s];
	const struct trace_op *op = &st->ops[i];

	if (i == 0)
		for (size_t h = 0; h < st->nhandles; h++)
			held += st->handles[h].inherited;
	if (op->type == TOP_OPEN && !op->err && op->handle >= 0)
		held++;
	else if (op->type == TOP_CLOSE && op->handle >= 0 && held > 0)
		held--;
	return i + 1 == st->nops ? 0 : held;
}

size_t trace_max_open(const struct trace *t, bool parallel)
{
	size_t *held = xcalloc(t->nstreams + 1, sizeof(*held));
	size_t now = 0, most = 0, n;
	struct trace_step *order;

	if (parallel) {
		/* all streams at once: each one's own most, added */
		for (size_t s = 0; s < t->nstreams; s++) {
			size_t h = 0, top = 0;

			for (size_t i = 0; i < t->streams[s].nops; i++) {
				/* an op's own open counts before its close */
				if (h + 1 > top)
					top = h + 1;
				h = step(t, s, i, h);
			}
			most += top;
		}
		free(held);
		return most;
	}
	order = trace_order(t, &n);
	for (size_t k = 0; k < n; k++) {
		size_t s = order[k].stream, after;

		if (now + 1 > most)
			most = now + 1;
		after = step(t, s, order[k].op, held[s]);
		now = now - held[s] + after;
		held[s] = after;
	}
	free(order);
	free(held);
	return most;
}
