/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The printers of a run's results: text (the seed's layout), CSV and
 * JSON (through results/write.h).  They only format the results model
 * (results/results.h), a run's or one read back from its file (fbrun
 * report), and what describes the machine, found by report_meta_get
 * before printing.
 */
#ifndef FBRUN_REPORT_H
#define FBRUN_REPORT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "report/sysinfo.h"
#include "results/results.h"
#include "util/format.h"

/*
 * Where a run's results go: standard output in one format, and -o if
 * given, in the format its name ends with (util/format_list.h's suffixes
 * of the rows FOR_RUN prints, else text).
 */
struct report_dest {
	enum format format;
	const char *output;
	const char *script;
	char data[32]; /* --data, as lang/datapat.h's datapat_format says it */
};

/*
 * Print r as dest (a struct report_dest) says: engine_opts' deliver
 * hook.  Returns 0, or -1 after a message if -o could not be written.
 */
int report_deliver(const struct results *r, void *dest);

/*
 * What a JSON says besides the results: the run, the script and the
 * machine, found before printing (report_meta_get) so the printers only
 * format.
 */
struct report_meta {
	const char *script;
	time_t started;
	const char *version;
	const char *data; /* --data, as a report_dest has it */
	uint64_t peak_rss; /* bytes, the process's largest resident set */
	struct sysinfo_snap sys;
	struct fsinfo *fs; /* per IR fileset: the file system of its path */
};

/*
 * Fill m for r: the peak resident set now, uname and each fileset's
 * mount; report_meta_release frees what it holds.
 */
void report_meta_get(struct report_meta *m, const struct results *r,
		     const char *script, const char *data);
void report_meta_release(struct report_meta *m);

/* The IO Summary line alone, as the text table has it. */
void report_summary_line(FILE *out, const struct results *r);
/*
 * The filesets' block devices, fio's "Disk stats" block and its page
 * cache note (doc/running.md); nothing for a run without filesets.
 */
void report_disks_text(FILE *out, const struct results *r);
/* Per-flowop lines, the IO Summary and the latency table (seed layout). */
void report_text(FILE *out, const struct results *r);
void report_json(FILE *out, const struct results *r,
		 const struct report_meta *m);
/* A header row, a row per flowop, an IO Summary row (doc/running.md). */
void report_csv(FILE *out, const struct results *r);

#endif
