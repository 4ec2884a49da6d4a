/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * bonnie++'s figures and layouts: the text table of 2.00a (its I/O rates
 * in k, m and g) or of 1.96/1.97 (K/sec), and the CSV line of format 1.96
 * (48 fields) or 1.98 (50 fields).  Every figure is
 * computed as bonnie++ computes it: KiB/s from the configured size (not
 * bytes moved), %CP = int(CPU / elapsed x 100), "+++++" for a phase under
 * half a second, blank for a phase not run.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bonnie/bonnie.h"

#define MIN_TIME 0.5 /* bonnie++'s MinTime: below it, no figure */

/* What a test did: KiB, seeks or files; per second gives the figure. */
static double work(const struct bon_config *c, enum bon_test t)
{
	switch (t) {
	case BT_PUTC:
	case BT_GETC:
		return (double)c->byte_mib * 1024.0;
	case BT_PUT_BLOCK:
	case BT_REWRITE:
	case BT_GET_BLOCK:
		return (double)c->size_mib * 1024.0;
	case BT_SEEKS:
		return (double)c->seeks;
	default:
		return (double)c->files * 1024.0;
	}
}

/*
 * An I/O rate of KiB/s as 2.00a's table prints it, in four places and a
 * unit: KiB below 10000, else MiB (a decimal below 100), else GiB.
 */
static void scaled(double kib, char *buf, size_t len)
{
	double mib = kib / 1024;

	if (kib < 10000)
		snprintf(buf, len, "%4dk", (int)kib);
	else if (mib < 100)
		snprintf(buf, len, "%4.1fm", mib);
	else if (mib < 1000)
		snprintf(buf, len, "%4dm", (int)lround(mib));
	else
		snprintf(buf, len, "%4.1fg", mib / 1024);
}

/*
 * The rate and %CP cells: numbers, "+++++"/"+++", or empty; with units,
 * an I/O rate as 2.00a's table has it.
 */
static void cells(const struct bon_config *c, const struct bon_result *r,
		  enum bon_test t, bool units, char *rate, char *cpu,
		  size_t len)
{
	const struct bon_figure *f = &r->t[t];
	double v;

	rate[0] = cpu[0] = '\0';
	if (!f->ran || f->elapsed <= 0)
		return;
	if (f->elapsed < MIN_TIME) {
		snprintf(rate, len, "+++++");
		snprintf(cpu, len, "+++");
		return;
	}
	v = work(c, t) / f->elapsed;
	if (t == BT_SEEKS)
		snprintf(rate, len, v < 1000 ? "%.1f" : "%.0f", v);
	else if (units && t < BT_SEEKS)
		scaled(v, rate, len);
	else
		snprintf(rate, len, "%" PRIu64, (uint64_t)v);
	snprintf(cpu, len, "%d", (int)(f->cpu / f->elapsed * 100.0));
}

/* The slowest operation: us up to 0.1 s, ms up to 100 s, then s. */
static void latency(const struct bon_figure *f, char *buf, size_t len)
{
	/* whole microseconds (the figure came from nanoseconds) */
	uint64_t us = (uint64_t)llround(f->max_lat * 1e6);

	buf[0] = '\0';
	if (!f->ran || us == 0)
		return;
	if (us < 100000)
		snprintf(buf, len, "%" PRIu64 "us", us);
	else if (us < 100000000)
		snprintf(buf, len, "%" PRIu64 "ms", us / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "s", us / 1000000);
}

static void size_str(const struct bon_config *c, char *buf, size_t len)
{
	if (c->size_mib == 0)
		buf[0] = '\0';
	else if (c->size_mib % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "G", c->size_mib / 1024);
	else
		snprintf(buf, len, "%" PRIu64 "M", c->size_mib);
}

/* The I/O block size when it is not the default 8 KiB. */
static void chunk_str(const struct bon_config *c, char *buf, size_t len)
{
	if (c->chunk == 8192)
		buf[0] = '\0';
	else if (c->chunk % 1024 == 0)
		snprintf(buf, len, "%uk", c->chunk / 1024);
	else
		snprintf(buf, len, "%u", c->chunk);
}

static void latency_row(FILE *out, const struct bon_result *r,
			enum bon_test first)
{
	char buf[32];

	fprintf(out, "Latency          ");
	for (int t = (int)first; t < (int)first + 6; t++) {
		latency(&r->t[t], buf, sizeof(buf));
		fprintf(out, " %9s", buf);
	}
	fputc('\n', out);
}

static void figures(FILE *out, const struct bon_config *c,
		    const struct bon_result *r, enum bon_test first)
{
	char rate[32], cpu[32];

	for (int t = (int)first; t < (int)first + 6; t++) {
		cells(c, r, (enum bon_test)t, c->text_layout == 200, rate, cpu,
		      sizeof(rate));
		fprintf(out, " %5s %3s", rate, cpu);
	}
	fputc('\n', out);
}

/*
 * 2.00a's "Name:Size etc" cell: size[:chunk[:concurrency[:seeks[:seekers]]]],
 * each item only when not the default, its trailing colons left out.
 */
static void name_cell(const struct bon_config *c, char *buf, size_t len)
{
	char part[5][32];
	int last = 0;
	size_t n = 0;

	size_str(c, part[0], sizeof(part[0]));
	chunk_str(c, part[1], sizeof(part[1]));
	part[2][0] = part[3][0] = part[4][0] = '\0';
	if (c->concurrency != 1)
		snprintf(part[2], sizeof(part[2]), "%u", c->concurrency);
	if (c->seeks != 8192)
		snprintf(part[3], sizeof(part[3]), "%u", c->seeks);
	if (c->seekers != 5)
		snprintf(part[4], sizeof(part[4]), "%u", c->seekers);
	for (int i = 1; i < 5; i++)
		if (part[i][0])
			last = i;
	buf[0] = '\0';
	for (int i = 0; i <= last && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ":" : "",
				      part[i]);
}

/* The name cut to fit before the cell, which ends in column 19. */
static void name_row(FILE *out, const struct bon_config *c, const char *cell)
{
	int namew = 18 - (int)strlen(cell);

	if (namew < 0)
		namew = 0;
	fprintf(out, "%-*.*s %s", namew, namew, c->machine, cell);
}

static void io_table_200(FILE *out, const struct bon_config *c,
			 const struct bon_result *r)
{
	char cell[160];

	name_cell(c, cell, sizeof(cell));
	fprintf(out, "Version %5s       ------Sequential Output------ "
		     "--Sequential Input- --Random-\n",
		"fbrun");
	fprintf(out, "                    -Per Chr- --Block-- -Rewrite- "
		     "-Per Chr- --Block-- --Seeks--\n");
	fprintf(out, "Name:Size etc        /sec %%CP  /sec %%CP  /sec %%CP  "
		     "/sec %%CP  /sec %%CP  /sec %%CP\n");
	name_row(out, c, cell);
	figures(out, c, r, BT_PUTC);
	latency_row(out, r, BT_PUTC);
	if (!c->files)
		fputc('\n', out); /* as 2.00a ends a table without files */
}

static void io_table(FILE *out, const struct bon_config *c,
		     const struct bon_result *r)
{
	char size[64], chunk[32], cell[96];

	size_str(c, size, sizeof(size));
	chunk_str(c, chunk, sizeof(chunk));
	snprintf(cell, sizeof(cell), "%s%s%s", size, chunk[0] ? ":" : "",
		 chunk);
	fprintf(out, "Version %5s       ------Sequential Output------ "
		     "--Sequential Input- --Random-\n",
		"fbrun");
	fprintf(out, "Concurrency %3u     -Per Chr- --Block-- -Rewrite- "
		     "-Per Chr- --Block-- --Seeks--\n",
		c->concurrency);
	fprintf(out, "%s K/sec %%CP K/sec %%CP K/sec %%CP K/sec %%CP K/sec "
		     "%%CP  /sec %%CP\n",
		chunk[0] ? "Machine   Size:chnk" : "Machine        Size");
	name_row(out, c, cell);
	figures(out, c, r, BT_PUTC);
	latency_row(out, r, BT_PUTC);
}

static void file_table(FILE *out, const struct bon_config *c,
		       const struct bon_result *r)
{
	char num[96];
	int n;

	fprintf(out, "Version %5s       ------Sequential Create------ "
		     "--------Random Create--------\n",
		"fbrun");
	fprintf(out, "%-19.19s -Create-- --Read--- -Delete-- -Create-- "
		     "--Read--- -Delete--\n",
		c->machine);
	fprintf(out, "%s /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec "
		     "%%CP  /sec %%CP\n",
		c->min_size ? "files:max:min       " :
		c->max_size ? "files:max           " :
			      "              files ");
	n = snprintf(num, sizeof(num), "%u", c->files);
	if (c->max_size || c->min_size)
		n += snprintf(num + n, sizeof(num) - (size_t)n,
			      ":%" PRIu64 ":%" PRIu64, c->max_size,
			      c->min_size);
	if (c->dirs > 1)
		snprintf(num + n, sizeof(num) - (size_t)n, "/%u", c->dirs);
	fprintf(out, "%19s", num);
	figures(out, c, r, BT_SEQ_CREATE);
	latency_row(out, r, BT_SEQ_CREATE);
}

void bonnie_text(FILE *out, const struct bon_config *c, const struct bon_result *r)
{
	if (c->size_mib)
		(c->text_layout == 200 ? io_table_200 : io_table)(out, c, r);
	if (c->files)
		file_table(out, c, r);
}

void bonnie_csv_header(FILE *out, const struct bon_config *c)
{
	fprintf(out, "format_version,bonnie_version,name,concurrency,seed,"
		     "file_size,io_chunk_size,%s"
		     "putc,putc_cpu,put_block,put_block_cpu,rewrite,"
		     "rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,"
		     "seeks_cpu,num_files,max_size,min_size,num_dirs,"
		     "file_chunk_size,seq_create,seq_create_cpu,seq_stat,"
		     "seq_stat_cpu,seq_del,seq_del_cpu,ran_create,"
		     "ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,"
		     "putc_latency,put_block_latency,rewrite_latency,"
		     "getc_latency,get_block_latency,seeks_latency,"
		     "seq_create_latency,seq_stat_latency,seq_del_latency,"
		     "ran_create_latency,ran_stat_latency,ran_del_latency\n",
		c->csv_layout == 198 ? "seeks,seek_procs," : "");
}

static void put_num(FILE *out, uint64_t v)
{
	if (v)
		fprintf(out, ",%" PRIu64, v);
	else
		fputc(',', out);
}

void bonnie_csv(FILE *out, const struct bon_config *c, const struct bon_result *r)
{
	char a[64], b[64];

	size_str(c, a, sizeof(a));
	chunk_str(c, b, sizeof(b));
	fprintf(out, "%s,fbrun,%s,%u,%" PRIu64 ",%s,%s",
		c->csv_layout == 198 ? "1.98" : "1.96", c->machine,
		c->concurrency, c->seed, a, c->size_mib ? b : "");
	if (c->csv_layout == 198) {
		put_num(out, c->size_mib ? c->seeks : 0);
		put_num(out, c->size_mib ? c->seekers : 0);
	}
	for (int t = BT_PUTC; t <= BT_SEEKS; t++) {
		cells(c, r, (enum bon_test)t, false, a, b, sizeof(a));
		fprintf(out, ",%s,%s", a, b);
	}
	/*
	 * num_files, max, min, then an always-empty slot and the directory
	 * count: the positions bonnie++'s own writer emits (its header names
	 * them num_dirs, file_chunk_size), which the CSV tools read.
	 */
	put_num(out, c->files);
	put_num(out, c->files ? c->max_size : 0);
	put_num(out, c->files ? c->min_size : 0);
	fputc(',', out);
	put_num(out, c->files && c->dirs > 1 ? c->dirs : 0);
	for (int t = BT_SEQ_CREATE; t < BT_COUNT; t++) {
		cells(c, r, (enum bon_test)t, false, a, b, sizeof(a));
		fprintf(out, ",%s,%s", a, b);
	}
	for (int t = 0; t < BT_COUNT; t++) {
		latency(&r->t[t], a, sizeof(a));
		fprintf(out, ",%s", a);
	}
	fputc('\n', out);
}
