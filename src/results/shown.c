/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* What a results file shows of its run (shown.h). */
#include "results/shown.h"

#include <stdlib.h>

const char *const results_shown_summary_keys[RESULTS_NSUMMARY] = {
	"ops_per_sec", "reads_per_sec", "writes_per_sec",
	"mb_per_sec", "ms_per_op", "cpu_us_per_op",
};

void results_shown_free(struct results_shown *s, size_t nfo)
{
	if (!s)
		return;
	free(s->script);
	free(s->script_sha256);
	free(s->started);
	free(s->ended_by);
	free(s->error);
	free(s->data);
	free(s->kernel);
	free(s->fs_type);
	free(s->mountpoint);
	free(s->mount_options);
	for (size_t i = 0; i < nfo; i++)
		free(s->fo[i].hist);
	free(s->fo);
	free(s->iv);
	free(s->var_string);
	free(s);
}
