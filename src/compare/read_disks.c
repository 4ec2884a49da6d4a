/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A results file's "disk_stats" and "disk_stats_none", for fbrun report
 * to print the run's "Disk stats" block again (read_int.h).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare/model.h"
#include "compare/read_int.h"
#include "util/diskstat.h"
#include "util/util.h"

/* Counts are whole numbers in the file; read back as doubles. */
static uint64_t count(const json_t *o, const char *key)
{
	double v = json_number_value(json_object_get(o, key));

	return v > 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

static const char *text(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "?";
}

/* The device named by a slave's "slave_of", before it in the array. */
static int holder(const struct diskstat_set *s, const json_t *o)
{
	const char *name = json_string_value(json_object_get(o, "slave_of"));

	for (size_t i = 0; name && i < s->ndev; i++)
		if (strcmp(s->dev[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void read_dev(struct diskstat_set *s, const json_t *o)
{
	const json_t *fs = json_object_get(o, "filesets");
	int up = holder(s, o);
	struct diskstat *d = diskstat_add(s, text(o, "name"));
	struct diskstat_counts *c = &d->d;
	const char *parent = json_string_value(json_object_get(o, "parent"));

	d->major = (unsigned)count(o, "major");
	d->minor = (unsigned)count(o, "minor");
	d->slave_of = up;
	snprintf(d->parent, sizeof(d->parent), "%s", parent ? parent : "");
	for (size_t k = 0; k < json_array_size(fs); k++) {
		const char *f = json_string_value(json_array_get(fs, k));

		diskstat_add_fileset(d, f ? f : "?");
	}
	d->secs = json_number_value(json_object_get(o, "seconds"));
	c->rd_ios = count(o, "read_ios");
	c->rd_merges = count(o, "read_merges");
	c->rd_sectors = count(o, "read_sectors");
	c->rd_ticks = count(o, "read_ticks_ms");
	c->wr_ios = count(o, "write_ios");
	c->wr_merges = count(o, "write_merges");
	c->wr_sectors = count(o, "write_sectors");
	c->wr_ticks = count(o, "write_ticks_ms");
	c->in_queue = count(o, "in_queue_ms");
	c->io_ticks = count(o, "io_ticks_ms");
	d->has_dc = json_is_number(json_object_get(o, "discard_ios"));
	d->has_fl = json_is_number(json_object_get(o, "flush_ios"));
	c->dc_ios = count(o, "discard_ios");
	c->fl_ios = count(o, "flush_ios");
}

void read_disks(struct cmp_run *r, const json_t *root)
{
	const json_t *devs = json_object_get(root, "disk_stats");
	const json_t *none = json_object_get(root, "disk_stats_none");

	if (!json_is_array(devs))
		return; /* a run without filesets, or from before disk stats */
	r->disks = xcalloc(1, sizeof(*r->disks));
	for (size_t i = 0; i < json_array_size(devs); i++)
		if (json_is_object(json_array_get(devs, i)))
			read_dev(r->disks, json_array_get(devs, i));
	for (size_t i = 0; i < json_array_size(none); i++) {
		const json_t *o = json_array_get(none, i);

		diskstat_add_none(r->disks, text(o, "fileset"),
				  text(o, "reason"));
	}
}
