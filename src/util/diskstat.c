/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The devices under the filesets and their "Disk stats" block (diskstat.h). */
#include "util/diskstat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

double diskstat_util(const struct diskstat *d)
{
	double u;

	if (d->secs <= 0)
		return 0;
	u = (double)d->d.io_ticks / (d->secs * 1e3) * 100;
	/* io_ticks moves in jiffies: a busy device can read a bit over */
	return u > 100 ? 100 : u;
}

uint64_t diskstat_read_bytes(const struct diskstat_set *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->ndev; i++)
		if (s->dev[i].slave_of < 0)
			n += s->dev[i].d.rd_sectors * 512;
	return n;
}

uint64_t diskstat_write_bytes(const struct diskstat_set *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->ndev; i++)
		if (s->dev[i].slave_of < 0)
			n += s->dev[i].d.wr_sectors * 512;
	return n;
}

/* 6.1 GB, 12.0 MB: powers of 1024, as fbrun's mb/s. */
static void human(char *buf, size_t len, uint64_t n)
{
	static const char *const unit[] = { "KB", "MB", "GB", "TB", "PB" };
	double v = (double)n;
	size_t u = 0;

	if (n < 1024) {
		snprintf(buf, len, "%" PRIu64 " bytes", n);
		return;
	}
	v /= 1024;
	while (v >= 1024 && u + 1 < ARRAY_SIZE(unit)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, unit[u]);
}

/* fio's line: reads/writes of each figure, then the shared ones. */
static void print_dev(FILE *out, const struct diskstat_set *s, size_t i)
{
	const struct diskstat *d = &s->dev[i];
	int depth = 0;

	for (int up = d->slave_of; up >= 0 && depth < 8;
	     up = s->dev[up].slave_of)
		depth++;
	fprintf(out,
		"  %*s%s: ios=%" PRIu64 "/%" PRIu64 ", sectors=%" PRIu64
		"/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64
		"/%" PRIu64 ", in_queue=%" PRIu64 ", util=%.2f%%\n",
		2 * depth, "", d->name, d->d.rd_ios, d->d.wr_ios,
		d->d.rd_sectors, d->d.wr_sectors, d->d.rd_merges,
		d->d.wr_merges, d->d.rd_ticks, d->d.wr_ticks, d->d.in_queue,
		diskstat_util(d));
}

/* Whether fileset fs was said before device i's filesets. */
static bool said(const struct diskstat_set *s, size_t i, size_t k)
{
	const char *fs = s->dev[i].filesets[k];

	for (size_t j = 0; j <= i; j++)
		for (size_t m = 0; m < s->dev[j].nfilesets; m++) {
			if (j == i && m == k)
				return false;
			if (strcmp(s->dev[j].filesets[m], fs) == 0)
				return true;
		}
	return false;
}

/* "  fileset data: loop0", its devices in order. */
static void print_fileset(FILE *out, const struct diskstat_set *s,
			  const char *fs)
{
	const char *sep = "";

	fprintf(out, "  fileset %s:", fs);
	for (size_t j = 0; j < s->ndev; j++)
		for (size_t m = 0; m < s->dev[j].nfilesets; m++)
			if (strcmp(s->dev[j].filesets[m], fs) == 0) {
				fprintf(out, "%s %s", sep, s->dev[j].name);
				sep = ",";
				break;
			}
	fputc('\n', out);
}

void diskstat_print(FILE *out, const struct diskstat_set *s, bool mine,
		    uint64_t flowop_read_bytes, uint64_t flowop_write_bytes)
{
	uint64_t dev_rd, dev_wr;
	char a[32], b[32];

	if (!s || (!s->ndev && !s->nnone))
		return;
	fprintf(out, "\nDisk stats (read/write):\n");
	for (size_t i = 0; i < s->ndev; i++)
		print_dev(out, s, i);
	for (size_t i = 0; i < s->ndev; i++)
		for (size_t k = 0; k < s->dev[i].nfilesets; k++)
			if (!said(s, i, k))
				print_fileset(out, s, s->dev[i].filesets[k]);
	for (size_t i = 0; i < s->nnone; i++)
		fprintf(out, "  fileset %s: %s\n", s->none[i].fileset,
			s->none[i].why);
	if (!mine || !s->ndev)
		return;
	dev_rd = diskstat_read_bytes(s);
	dev_wr = diskstat_write_bytes(s);
	if (flowop_read_bytes && dev_rd < flowop_read_bytes / 10) {
		human(a, sizeof(a), flowop_read_bytes);
		human(b, sizeof(b), dev_rd);
		fprintf(out,
			"note: reads came mostly from the page cache: %s read "
			"by flowops, %s from the devices\n",
			a, b);
	}
	/* a journal and metadata add some; far more is someone else's */
	if (dev_wr > 2 * flowop_write_bytes + (16u << 20)) {
		human(a, sizeof(a), dev_wr);
		human(b, sizeof(b), flowop_write_bytes);
		fprintf(out,
			"note: the devices wrote %s, the flowops %s: the rest is "
			"not the flowops' (the file system's own writes, or "
			"other programs' on the same devices)\n",
			a, b);
	}
}

struct diskstat *diskstat_add(struct diskstat_set *s, const char *name)
{
	struct diskstat *d;

	s->dev = grow_array(s->dev, &s->cap_dev, s->ndev + 1, sizeof(*s->dev));
	d = &s->dev[s->ndev++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->slave_of = -1;
	return d;
}

void diskstat_add_fileset(struct diskstat *d, const char *fileset)
{
	for (size_t k = 0; k < d->nfilesets; k++)
		if (strcmp(d->filesets[k], fileset) == 0)
			return;
	d->filesets = xrealloc(d->filesets,
			       (d->nfilesets + 1) * sizeof(*d->filesets));
	d->filesets[d->nfilesets++] = xstrdup(fileset);
}

void diskstat_add_none(struct diskstat_set *s, const char *fileset,
		       const char *why)
{
	s->none = grow_array(s->none, &s->cap_none, s->nnone + 1,
			     sizeof(*s->none));
	s->none[s->nnone++] = (struct diskstat_none){ xstrdup(fileset),
						      xstrdup(why) };
}

struct diskstat_set *diskstat_dup(const struct diskstat_set *s)
{
	struct diskstat_set *c;

	if (!s)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	for (size_t i = 0; i < s->ndev; i++) {
		struct diskstat *d = diskstat_add(c, s->dev[i].name);
		char **fs = d->filesets;

		*d = s->dev[i];
		d->filesets = fs;
		d->nfilesets = 0;
		for (size_t k = 0; k < s->dev[i].nfilesets; k++)
			diskstat_add_fileset(d, s->dev[i].filesets[k]);
	}
	for (size_t i = 0; i < s->nnone; i++)
		diskstat_add_none(c, s->none[i].fileset, s->none[i].why);
	return c;
}

void diskstat_free(struct diskstat_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ndev; i++) {
		for (size_t k = 0; k < s->dev[i].nfilesets; k++)
			free(s->dev[i].filesets[k]);
		free(s->dev[i].filesets);
	}
	for (size_t i = 0; i < s->nnone; i++) {
		free(s->none[i].fileset);
		free(s->none[i].why);
	}
	free(s->dev);
	free(s->none);
	free(s);
}
