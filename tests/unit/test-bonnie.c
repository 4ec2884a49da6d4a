/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* fbrun bonnie's figures and layouts: the CSV fields and the text table. */
#include <stdlib.h>
#include <string.h>

#include "bonnie/bonnie.h"
#include "tap.h"

static char *capture(void (*fn)(FILE *, const struct bon_config *,
				const struct bon_result *),
		     const struct bon_config *c, const struct bon_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, c, r);
	fclose(f);
	return buf;
}

static void header(FILE *f, const struct bon_config *c,
		   const struct bon_result *r)
{
	(void)r;
	bonnie_csv_header(f, c);
}

/* Field i (1-based) of a CSV line, in a static buffer. */
static const char *field(const char *line, int i)
{
	static char buf[64];
	const char *p = line, *e;

	while (--i > 0 && p)
		p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
	if (!p)
		return "(none)";
	e = p + strcspn(p, ",\n");
	snprintf(buf, sizeof(buf), "%.*s", (int)(e - p), p);
	return buf;
}

static int nfields(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ',';
	return n;
}

/* A phase that ran `secs` with `cpu` of CPU and a slowest op of lat. */
static struct bon_figure fig(double secs, double cpu, double lat)
{
	return (struct bon_figure){ true, secs, cpu, lat };
}

static struct bon_config config(void)
{
	struct bon_config c = { .concurrency = 1, .seed = 1346540534,
				.size_mib = 16384, .chunk = 8192,
				.seeks = 8192, .seekers = 5, .byte_mib = 3,
				.files = 16, .file_chunk = 8192,
				.csv_layout = 196, .text_layout = 196 };

	strcpy(c.machine, "server");
	return c;
}

int main(void)
{
	struct bon_config c = config();
	struct bon_result r = { 0 };
	char *s;

	/* the seed's line: 1.96,1.96,server,1,1346540534,16G,,179,99,6704,1,... */
	r.t[BT_PUTC] = fig(3.0 * 1024 / 179.5, 3.0 * 1024 / 179.5 * 0.995, 0.119);
	r.t[BT_PUT_BLOCK] = fig(16384.0 * 1024 / 6704.2, 25.0, 18.383);
	r.t[BT_REWRITE] = fig(16384.0 * 1024 / 4855.5, 1.0, 13.060);
	r.t[BT_GETC] = fig(3.0 * 1024 / 503.5, 3.0 * 1024 / 503.5 * 0.995, 0.021398);
	r.t[BT_GET_BLOCK] = fig(16384.0 * 1024 / 195540.5, 10.0, 1.266);
	r.t[BT_SEEKS] = fig(8192 / 61.1, 4.6, 0.834);
	r.t[BT_SEQ_CREATE] = fig(16384 / 29630.5, 0.49, 0.016551);
	r.t[BT_SEQ_STAT] = fig(0.3, 0.3, 0.181); /* under 0.5 s */
	r.t[BT_SEQ_DEL] = fig(16384 / 27077.5, 0.59, 0.000452);
	r.t[BT_RAN_CREATE] = fig(16384 / 21939.5, 0.71, 0.018512);
	r.t[BT_RAN_STAT] = fig(16384 / 23913.5, 0.68, 0.000159);
	r.t[BT_RAN_DEL] = fig(16384 / 9379.5, 1.72, 0.000392);
	s = capture(bonnie_csv, &c, &r);
	is_int(nfields(s), 48, "1.96 layout: 48 fields");
	is_str(field(s, 1), "1.96", "format_version");
	is_str(field(s, 2), "fbrun", "bonnie_version names fbrun");
	is_str(field(s, 3), "server", "name");
	is_str(field(s, 5), "1346540534", "seed");
	is_str(field(s, 6), "16G", "file_size in G");
	is_str(field(s, 7), "", "io_chunk_size empty at 8k");
	is_str(field(s, 8), "179", "putc K/s from the per-char size");
	is_str(field(s, 9), "99", "CPU percent truncated");
	is_str(field(s, 10), "6704", "put_block K/s");
	is_str(field(s, 12), "4855", "rewrite");
	is_str(field(s, 16), "195540", "get_block");
	is_str(field(s, 18), "61.1", "seeks under 1000 keep a decimal");
	is_str(field(s, 20), "16", "num_files");
	is_str(field(s, 21), "", "max_size empty when 0");
	is_str(field(s, 24), "", "dirs empty when not used");
	is_str(field(s, 25), "29630", "seq_create files/s");
	is_str(field(s, 27), "+++++", "a phase under 0.5 s: +++++");
	is_str(field(s, 28), "+++", "and +++ for its CPU");
	is_str(field(s, 29), "27077", "seq_del");
	is_str(field(s, 37), "119ms", "latency >= 0.1 s in ms");
	is_str(field(s, 38), "18383ms", "latency under 100 s in ms");
	is_str(field(s, 40), "21398us", "latency under 0.1 s in us");
	is_str(field(s, 44), "181ms", "a +++++ phase keeps its latency");
	is_str(field(s, 48), "392us", "ran_del_latency last");
	free(s);

	c.csv_layout = 198;
	s = capture(bonnie_csv, &c, &r);
	is_int(nfields(s), 50, "1.98 layout: 50 fields");
	is_str(field(s, 1), "1.98", "format_version 1.98");
	is_str(field(s, 8), "8192", "seeks after io_chunk_size");
	is_str(field(s, 9), "5", "seek_procs");
	is_str(field(s, 10), "179", "putc shifted by two");
	is_str(field(s, 50), "392us", "ran_del_latency last");
	free(s);
	s = capture(header, &c, &r);
	is_int(nfields(s), 50, "1.98 header names all 50 fields");
	is_str(field(s, 8), "seeks", "header: seeks");
	is_str(field(s, 26), "file_chunk_size", "header: field 26 as bonnie++ names it");
	free(s);

	/* skipped phases are blank; -s 0 empties the I/O fields */
	c.size_mib = 0;
	c.files = 4;
	c.max_size = 4096;
	c.dirs = 4;
	memset(&r.t[BT_PUTC], 0, sizeof(r.t[0]) * 6);
	s = capture(bonnie_csv, &c, &r);
	is_int(nfields(s), 50, "-s 0: still 50 fields");
	is_str(field(s, 6), "", "-s 0: no file_size");
	is_str(field(s, 10), "", "-s 0: putc blank");
	is_str(field(s, 20), "", "-s 0: seeks blank");
	is_str(field(s, 22), "4", "num_files");
	is_str(field(s, 23), "4096", "max_size");
	is_str(field(s, 25), "", "the always-empty slot");
	is_str(field(s, 26), "4", "num_dirs where bonnie++ writes it");
	is_str(field(s, 39), "", "a skipped phase has no latency");
	free(s);

	/* the text table: 1.96's layout */
	c = config();
	c.size_mib = 1024;
	c.chunk = 4096;
	strcpy(c.machine, "vm-196");
	r.t[BT_PUTC] = fig(3.0 * 1024 / 623.5, 3.0 * 1024 / 623.5 * 0.995, 0.024978);
	r.t[BT_PUT_BLOCK] = fig(0.2, 0.1, 0.002886);
	r.t[BT_REWRITE] = fig(0.0, 0.0, 0);
	r.t[BT_REWRITE].ran = false;
	r.t[BT_GETC] = fig(3.0 * 1024 / 548.5, 3.0 * 1024 / 548.5 * 0.875, 0.038625);
	r.t[BT_GET_BLOCK] = fig(0.3, 0.1, 0.000384);
	r.t[BT_SEEKS] = fig(8192 / 14616.4, 8192 / 14616.4 * 0.795, 0.028228);
	s = capture(bonnie_text, &c, &r);
	ok(strstr(s, "Version fbrun       ------Sequential Output------ "
		     "--Sequential Input- --Random-\n") == s,
	   "table line 1");
	ok(strstr(s, "\nConcurrency   1     -Per Chr- --Block-- -Rewrite- "
		     "-Per Chr- --Block-- --Seeks--\n") != NULL,
	   "table line 2: Concurrency");
	ok(strstr(s, "\nMachine   Size:chnk K/sec %CP K/sec %CP K/sec %CP "
		     "K/sec %CP K/sec %CP  /sec %CP\n") != NULL,
	   "table line 3 with a chunk size");
	ok(strstr(s, "\nvm-196        1G:4k   623  99 +++++ +++           "
		     "  548  87 +++++ +++ 14616  79\n") != NULL,
	   "figures: %%5d, +++++, blank for a phase not run");
	ok(strstr(s, "\nLatency             24978us    2886us             "
		     "38625us     384us   28228us\n") != NULL,
	   "latency row");
	ok(strstr(s, "\n              files  /sec %CP  /sec %CP  /sec %CP  "
		     "/sec %CP  /sec %CP  /sec %CP\n") != NULL,
	   "file table header");
	ok(strstr(s, "\n                 16 29630  88 +++++ +++ 27077  97 "
		     "21939  95 23913  99  9379  98\n") != NULL,
	   "file figures: correct files/s");
	free(s);
	c.max_size = 4096;
	c.dirs = 4;
	s = capture(bonnie_text, &c, &r);
	ok(strstr(s, "\nfiles:max            /sec") != NULL, "files:max header");
	ok(strstr(s, "\n        16:4096:0/4 29630") != NULL,
	   "num:max:min/dirs cell");
	free(s);

	/*
	 * 2.00a's table, as Debian's bonnie++ prints it: no Concurrency
	 * line, "Name:Size etc", the I/O rates in k, m or g in 4 places
	 */
	c = config();
	c.text_layout = 200;
	c.size_mib = 1024;
	c.files = 0;
	strcpy(c.machine, "vm-run2");
	r = (struct bon_result){ 0 };
	r.t[BT_PUTC] = fig(3.0 * 1024 / 418.9, 1, 0.074931); /* 418k */
	r.t[BT_PUT_BLOCK] = fig(1024.0 / 379.4, 1, 0.011173); /* 379m */
	r.t[BT_REWRITE] = fig(1024.0 / 65.43, 1, 0.003572); /* 65.4m */
	r.t[BT_GETC] = fig(3.0 * 1024 / 5000.5, 0.3, 0.044430); /* 5000k */
	r.t[BT_GET_BLOCK] = fig(1024.0 / 1331.2, 0.4, 0.004836); /* 1.3g */
	r.t[BT_SEEKS] = fig(8192 / 15763.0, 0.1, 0.016281);
	s = capture(bonnie_text, &c, &r);
	ok(strstr(s, "Version fbrun       ------Sequential Output------ "
		     "--Sequential Input- --Random-\n"
		     "                    -Per Chr- --Block-- -Rewrite- "
		     "-Per Chr- --Block-- --Seeks--\n"
		     "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  "
		     "/sec %CP  /sec %CP  /sec %CP\n") == s,
	   "2.00a: the three header lines");
	ok(strstr(s, "\nvm-run2          1G  418k  13  379m  37 65.4m   6 "
		     "5000k  48  1.3g  52 15763  19\n") != NULL,
	   "2.00a: k below 10000 KiB/s, m with a decimal below 100, whole "
	   "m below 1000, then g");
	ok(strstr(s, "\nLatency             74931us   11173us    3572us   "
		     "44430us    4836us   16281us\n\n") != NULL,
	   "2.00a: the latency row, then an empty line when no file tests ran");
	free(s);
	c.chunk = 4096;
	c.seeks = 32;
	c.seekers = 3;
	strcpy(c.machine, "name-that-is-long-x");
	s = capture(bonnie_text, &c, &r);
	ok(strstr(s, "\nname-th 1G:4k::32:3  418k") != NULL,
	   "2.00a: size:chunk:concurrency:seeks:seekers, the default ones "
	   "empty, the name cut before it");
	free(s);
	c.seekers = 5;
	c.concurrency = 2;
	s = capture(bonnie_text, &c, &r);
	ok(strstr(s, "\nname-tha 1G:4k:2:32  418k") != NULL,
	   "2.00a: trailing default items left out");
	free(s);
	c.chunk = 8192;
	c.concurrency = 1;
	c.seeks = 8192;
	s = capture(bonnie_text, &c, &r);
	ok(strstr(s, "\nname-that-is-lon 1G  418k") != NULL,
	   "2.00a: all defaults: the size alone");
	free(s);
	return tap_done();
}
