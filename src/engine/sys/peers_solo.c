/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A job of one process (peers.h): every collective call answers with this
 * process's own value, so the engine takes one path alone and in a job.
 */
#include "engine/sys/peers.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int agree(void *arg, int mine)
{
	return mine;
}

static enum stop_reason agree_stop(void *arg, enum stop_reason mine,
				   bool done, int *by)
{
	*by = mine == STOP_NONE || done ? -1 : 0;
	return mine;
}

static char **gather(void *arg, const char *text, size_t len)
{
	char **all = xcalloc(1, sizeof(*all));

	all[0] = xstrndup(text, len);
	return all;
}

static void reduce(void *arg, const uint64_t *mine, uint64_t *out, size_t n)
{
	if (out && n)
		memcpy(out, mine, n * sizeof(*out));
}

const struct engine_peers peers_solo = {
	.rank = 0,
	.nranks = 1,
	.host = "",
	.alone = true,
	.agree = agree,
	.agree_stop = agree_stop,
	.gather = gather,
	.reduce_sum = reduce,
	.reduce_max = reduce,
};
