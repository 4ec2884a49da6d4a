/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A results file's devices and a job's ranks, read (read_int.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/read_int.h"
#include "util/util.h"

static const char *rd_text_or(const json_t *o, const char *key)
{
	const char *s = json_string_value(rd_get(o, key));

	return s ? s : "?";
}

/* The device named by a slave's "slave_of", before it in the array. */
static int holder(const struct diskstat_set *s, const json_t *o)
{
	const char *name = json_string_value(rd_get(o, "slave_of"));

	for (size_t i = 0; name && i < s->ndev; i++)
		if (strcmp(s->dev[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void read_dev(struct diskstat_set *s, const json_t *o)
{
	const json_t *fs = rd_get(o, "filesets");
	int up = holder(s, o);
	struct diskstat *d = diskstat_add(s, rd_text_or(o, "name"));
	struct diskstat_counts *c = &d->d;
	const char *parent = json_string_value(rd_get(o, "parent"));

	d->major = (unsigned)rd_u64(o, "major");
	d->minor = (unsigned)rd_u64(o, "minor");
	d->slave_of = up;
	snprintf(d->parent, sizeof(d->parent), "%s", parent ? parent : "");
	for (size_t k = 0; k < json_array_size(fs); k++) {
		const char *f = json_string_value(json_array_get(fs, k));

		diskstat_add_fileset(d, f ? f : "?");
	}
	d->secs = rd_num(o, "seconds");
	c->rd_ios = rd_u64(o, "read_ios");
	c->rd_merges = rd_u64(o, "read_merges");
	c->rd_sectors = rd_u64(o, "read_sectors");
	c->rd_ticks = rd_u64(o, "read_ticks_ms");
	c->wr_ios = rd_u64(o, "write_ios");
	c->wr_merges = rd_u64(o, "write_merges");
	c->wr_sectors = rd_u64(o, "write_sectors");
	c->wr_ticks = rd_u64(o, "write_ticks_ms");
	c->in_queue = rd_u64(o, "in_queue_ms");
	c->io_ticks = rd_u64(o, "io_ticks_ms");
	d->has_dc = json_is_number(rd_get(o, "discard_ios"));
	d->has_fl = json_is_number(rd_get(o, "flush_ios"));
	c->dc_ios = rd_u64(o, "discard_ios");
	c->fl_ios = rd_u64(o, "flush_ios");
}

/* "disk_stats" and "disk_stats_none"; NULL for a file without them. */
struct diskstat_set *results_read_disks(const json_t *root)
{
	const json_t *devs = rd_get(root, "disk_stats");
	const json_t *none = rd_get(root, "disk_stats_none");
	struct diskstat_set *s;

	if (!json_is_array(devs))
		return NULL; /* a run without filesets, or from before them */
	s = xcalloc(1, sizeof(*s));
	for (size_t i = 0; i < json_array_size(devs); i++)
		if (json_is_object(json_array_get(devs, i)))
			read_dev(s, json_array_get(devs, i));
	for (size_t i = 0; i < json_array_size(none); i++) {
		const json_t *o = json_array_get(none, i);

		diskstat_add_none(s, rd_text_or(o, "fileset"),
				  rd_text_or(o, "reason"));
	}
	return s;
}

/*
 * A job's ranks (fbrun-mpi).  A file from before "latency_ns" in a rank
 * has its rounded ms_per_op and p99_ms: the table from those is close,
 * not the same.
 */
void results_read_ranks(struct results *r, const json_t *root)
{
	const json_t *ks = rd_get(root, "ranks");
	const json_t *by = rd_get(rd_get(root, "mpi"), "stopped_by_rank");

	/* the rank that ended the run (--stonewall), if one did */
	r->stopped_by = -1;
	if (json_is_number(by) && json_number_value(by) >= 0 &&
	    json_number_value(by) < 1e9)
		r->stopped_by = (int)json_number_value(by);
	if (!json_is_array(ks))
		return;
	r->ranks = xcalloc(json_array_size(ks) + 1, sizeof(*r->ranks));
	for (r->nranks = 0; r->nranks < json_array_size(ks); r->nranks++) {
		const json_t *k = json_array_get(ks, r->nranks);
		const json_t *lat = rd_get(k, "latency_ns");
		struct rank_result *x = &r->ranks[r->nranks];

		snprintf(x->host, sizeof(x->host), "%s", rd_text_or(k, "host"));
		x->secs = rd_num(k, "seconds");
		x->io_ops = rd_u64(k, "ops");
		x->io_bytes = rd_u64(k, "bytes");
		x->errors = rd_u64(k, "errors");
		x->io_lat_ns = json_is_number(rd_get(lat, "sum")) ?
				       rd_u64(lat, "sum") :
				       rd_whole(rd_num(k, "ms_per_op") * 1e6 *
					     (double)x->io_ops);
		x->p99_ns = json_is_number(rd_get(lat, "p99")) ?
				    rd_u64(lat, "p99") :
				    rd_whole(rd_num(k, "p99_ms") * 1e6);
		x->max_ns = rd_u64(lat, "max");
	}
}
