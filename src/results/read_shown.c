/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A results file's figures and strings as it shows them (shown.h). */
#include <jansson.h>
#include <stdlib.h>

#include "results/read_int.h"
#include "results/shown.h"
#include "util/util.h"

static struct results_num num_get(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (!json_is_number(v))
		return (struct results_num){ 0, false };
	return (struct results_num){ json_number_value(v), true };
}

static double num_or(const json_t *obj, const char *key, double def)
{
	struct results_num n = num_get(obj, key);

	return n.has ? n.v : def;
}

static void read_fo(struct results_shown_fo *f, const json_t *fo)
{
	static const char *const keys[RESULTS_NFIG] = {
		[RESULTS_FIG_OPS] = "ops",
		[RESULTS_FIG_CPU_SAMPLES] = "cpu_samples",
		[RESULTS_FIG_OPS_PER_SEC] = "ops_per_sec",
		[RESULTS_FIG_MB_PER_SEC] = "mb_per_sec",
		[RESULTS_FIG_MS_PER_OP] = "ms_per_op",
		[RESULTS_FIG_CPU_US_PER_OP] = "cpu_us_per_op",
	};
	const json_t *h = json_object_get(fo, "histogram");

	for (int k = 0; k < RESULTS_NFIG; k++)
		f->fig[k] = k == RESULTS_FIG_P99_NS ?
				    num_get(json_object_get(fo, "latency_ns"),
					    "p99") :
				    num_get(fo, keys[k]);
	f->nhist = json_array_size(h);
	f->hist = xcalloc(f->nhist ? f->nhist : 1, sizeof(*f->hist));
	for (size_t k = 0; k < f->nhist; k++) {
		const json_t *b = json_array_get(h, k);

		f->hist[k] = (struct results_bucket){
			num_or(b, "from_ns", -1), num_or(b, "to_ns", -1),
			num_or(b, "count", -1)
		};
	}
}

static void read_points(struct results_shown *s, const json_t *iv)
{
	s->iv = xcalloc(json_array_size(iv) + 1, sizeof(*s->iv));
	for (size_t i = 0; i < json_array_size(iv); i++) {
		const json_t *p = json_array_get(iv, i);
		struct results_num t = num_get(p, "t_s");
		struct results_num ops = num_get(p, "ops_per_s");

		if (t.has && ops.has)
			s->iv[s->niv++] = (struct results_point){ t.v, ops.v };
	}
}

struct results_shown *results_read_shown(const json_t *root, size_t nfo,
					 size_t nvars)
{
	const json_t *fos = json_object_get(root, "flowops");
	const json_t *fs = json_array_get(json_object_get(root, "filesets"), 0);
	const json_t *sum = json_object_get(root, "summary");
	const json_t *vars = json_object_get(root, "variables"), *v;
	struct results_shown *s = xcalloc(1, sizeof(*s));
	const char *key;
	size_t n = 0;

	s->script = rd_str_dup(root, "script");
	s->script_sha256 = rd_str_dup(root, "script_sha256");
	s->started = rd_str_dup(root, "started");
	s->ended_by = rd_str_dup(root, "ended_by");
	s->error = rd_str_dup(root, "error");
	s->data = rd_str_dup(root, "data");
	s->kernel = rd_str_dup(json_object_get(root, "system"), "kernel");
	s->cpus = num_or(json_object_get(root, "system"), "cpus", 0);
	s->fs_type = rd_str_dup(fs, "fs_type");
	s->mountpoint = rd_str_dup(fs, "mountpoint");
	s->mount_options = rd_str_dup(fs, "mount_options");
	for (size_t i = 0; i < RESULTS_NSUMMARY; i++)
		s->summary[i] = num_get(sum, results_shown_summary_keys[i]);
	s->fo = xcalloc(nfo + 1, sizeof(*s->fo));
	for (size_t i = 0; i < nfo; i++)
		read_fo(&s->fo[i], json_array_get(fos, i));
	read_points(s, json_object_get(root, "intervals"));
	/* in the order results/read.c reads them in */
	s->var_string = xcalloc(nvars + 1, sizeof(*s->var_string));
	json_object_foreach((json_t *)vars, key, v)
		if (n < nvars)
			s->var_string[n++] = json_is_string(v);
	return s;
}
