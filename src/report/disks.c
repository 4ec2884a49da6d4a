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

	json_object(j, NULL);
	json_str(j, "name", d->name);
	json_u64(j, "major", d->major);
	json_u64(j, "minor", d->minor);
	if (d->parent[0])
		json_str(j, "parent", d->parent);
	if (d->slave_of >= 0)
		json_str(j, "slave_of", s->dev[d->slave_of].name);
	json_array(j, "filesets");
	for (size_t k = 0; k < d->nfilesets; k++)
		json_str(j, NULL, d->filesets[k]);
	json_end(j, ']');
	json_exact(j, "seconds", d->secs);
	json_u64(j, "read_ios", c->rd_ios);
	json_u64(j, "read_merges", c->rd_merges);
	json_u64(j, "read_sectors", c->rd_sectors);
	json_u64(j, "read_bytes", c->rd_sectors * 512);
	json_u64(j, "read_ticks_ms", c->rd_ticks);
	json_u64(j, "write_ios", c->wr_ios);
	json_u64(j, "write_merges", c->wr_merges);
	json_u64(j, "write_sectors", c->wr_sectors);
	json_u64(j, "write_bytes", c->wr_sectors * 512);
	json_u64(j, "write_ticks_ms", c->wr_ticks);
	json_u64(j, "in_queue_ms", c->in_queue);
	json_u64(j, "io_ticks_ms", c->io_ticks);
	json_num(j, "util_pct", diskstat_util(d));
	if (d->has_dc)
		json_u64(j, "discard_ios", c->dc_ios);
	if (d->has_fl)
		json_u64(j, "flush_ios", c->fl_ios);
	json_end(j, '}');
}

void disks_json(struct json *j, const struct results *r)
{
	const struct diskstat_set *s = r->disks;

	if (!s)
		return;
	json_array(j, "disk_stats");
	for (size_t i = 0; i < s->ndev; i++)
		json_dev(j, s, &s->dev[i]);
	json_end(j, ']');
	json_array(j, "disk_stats_none");
	for (size_t i = 0; i < s->nnone; i++) {
		json_object(j, NULL);
		json_str(j, "fileset", s->none[i].fileset);
		json_str(j, "reason", s->none[i].why);
		json_end(j, '}');
	}
	json_end(j, ']');
}
