/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The filesets' block devices in the text table and the JSON (disks.h). */
#include "report/disks.h"

#include "util/diskstat.h"

void disks_text(FILE *out, const struct results *r)
{
	/* a job's reads are every rank's, the devices rank 0's: no note */
	diskstat_print(out, r->disks, r->nranks > 1 ? 0 : r->rd_bytes);
}

static void json_dev(struct json *j, const struct diskstat_set *s,
		     const struct diskstat *d)
{
	const struct diskstat_counts *c = &d->d;

	jw_object(j, NULL);
	jw_str(j, "name", d->name);
	jw_u64(j, "major", d->major);
	jw_u64(j, "minor", d->minor);
	if (d->parent[0])
		jw_str(j, "parent", d->parent);
	if (d->slave_of >= 0)
		jw_str(j, "slave_of", s->dev[d->slave_of].name);
	jw_array(j, "filesets");
	for (size_t k = 0; k < d->nfilesets; k++)
		jw_str(j, NULL, d->filesets[k]);
	jw_end(j, ']');
	jw_exact(j, "seconds", d->secs);
	jw_u64(j, "read_ios", c->rd_ios);
	jw_u64(j, "read_merges", c->rd_merges);
	jw_u64(j, "read_sectors", c->rd_sectors);
	jw_u64(j, "read_bytes", c->rd_sectors * 512);
	jw_u64(j, "read_ticks_ms", c->rd_ticks);
	jw_u64(j, "write_ios", c->wr_ios);
	jw_u64(j, "write_merges", c->wr_merges);
	jw_u64(j, "write_sectors", c->wr_sectors);
	jw_u64(j, "write_bytes", c->wr_sectors * 512);
	jw_u64(j, "write_ticks_ms", c->wr_ticks);
	jw_u64(j, "in_queue_ms", c->in_queue);
	jw_u64(j, "io_ticks_ms", c->io_ticks);
	jw_num(j, "util_pct", diskstat_util(d));
	if (d->has_dc)
		jw_u64(j, "discard_ios", c->dc_ios);
	if (d->has_fl)
		jw_u64(j, "flush_ios", c->fl_ios);
	jw_end(j, '}');
}

void disks_json(struct json *j, const struct results *r)
{
	const struct diskstat_set *s = r->disks;

	if (!s)
		return;
	jw_array(j, "disk_stats");
	for (size_t i = 0; i < s->ndev; i++)
		json_dev(j, s, &s->dev[i]);
	jw_end(j, ']');
	jw_array(j, "disk_stats_none");
	for (size_t i = 0; i < s->nnone; i++) {
		jw_object(j, NULL);
		jw_str(j, "fileset", s->none[i].fileset);
		jw_str(j, "reason", s->none[i].why);
		jw_end(j, '}');
	}
	jw_end(j, ']');
}
