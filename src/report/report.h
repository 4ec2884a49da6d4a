/*
 * The printers of a run's results: text (the seed's layout), CSV and
 * JSON.  They only format: every figure is computed once, in
 * results_collect (engine/results.h).
 */
#ifndef FBRUN_REPORT_H
#define FBRUN_REPORT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "engine/results.h"
#include "lang/datapat.h"

enum report_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CSV,
};

/*
 * Where a run's results go: standard output in one format, and -o if
 * given, in the format its name ends with (.json, .csv, else text).
 */
struct report_dest {
	enum report_format format;
	const char *output;
	const char *script;
	struct datapat data; /* --data */
};

/*
 * Print r as dest (a struct report_dest) says: engine_opts' deliver
 * hook.  Returns 0, or -1 after a message if -o could not be written.
 */
int report_deliver(const struct results *r, void *dest);

struct report_meta {
	const char *script;
	time_t started;
	const char *version;
	struct datapat data; /* --data */
};

/* Per-flowop lines, the IO Summary and the latency table (seed layout). */
void report_text(FILE *out, const struct results *r);
void report_json(FILE *out, const struct results *r,
		 const struct report_meta *m);
/* A header row, a row per flowop, an IO Summary row (doc/running.md). */
void report_csv(FILE *out, const struct results *r);

#endif
