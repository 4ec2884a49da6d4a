/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun bonnie: bonnie++'s tests as built-in workloads (the phase scripts
 * in workloads/bonnie/), its options, figures, table and CSV line.
 */
#ifndef FBRUN_BONNIE_H
#define FBRUN_BONNIE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct optable;

/* The twelve figures, in bonnie++'s column order. */
enum bon_test {
	BT_PUTC,
	BT_PUT_BLOCK,
	BT_REWRITE,
	BT_GETC,
	BT_GET_BLOCK,
	BT_SEEKS,
	BT_SEQ_CREATE,
	BT_SEQ_STAT,
	BT_SEQ_DEL,
	BT_RAN_CREATE,
	BT_RAN_STAT,
	BT_RAN_DEL,
	BT_COUNT,
};

struct bon_config {
	char machine[256];
	unsigned concurrency; /* -c: recorded only, as bonnie++ 1.96-2.00 */
	uint64_t seed; /* -z, or pid ^ time */
	uint64_t size_mib; /* -s; 0: no I/O tests */
	unsigned chunk; /* I/O block size in bytes */
	unsigned seeks, seekers;
	unsigned byte_mib; /* per-character test size; 0: skipped (-f) */
	unsigned files; /* -n, in units of 1024 files; 0: no file tests */
	uint64_t max_size, min_size; /* bytes per file */
	unsigned dirs;
	unsigned file_chunk;
	uint64_t ram_mib; /* -r, or detected */
	bool fsync_each; /* -b */
	bool direct; /* -D */
	bool random_data; /* --random-data */
	int csv_layout; /* 196 (48 fields) or 198 (50 fields) */
	int text_layout; /* 200 (2.00a's k/m/g cells) or 196 (K/sec) */
};

struct bon_figure {
	bool ran;
	double elapsed; /* seconds */
	double cpu; /* seconds of user + system CPU */
	double max_lat; /* seconds, the slowest single operation */
};

struct bon_result {
	struct bon_figure t[BT_COUNT];
};

struct engine_peers;

/*
 * `fbrun bonnie ...`: argv[0] is "bonnie".  With peers (fbrun-mpi), every
 * rank runs the tests at once in <dir>/rank-N and rank 0 prints the job's
 * figures, then each rank's.  Returns the exit status.
 */
int bonnie_main(int argc, char **argv, const struct engine_peers *peers);

/* its options (bonnie/option_list.h), for fbrun's man page and completion */
extern const struct optable bonnie_options;

/* The text table in bonnie++ 1.96's layout. */
void bonnie_text(FILE *out, const struct bon_config *c, const struct bon_result *r);
/* The header line (-x) and one result line of the CSV. */
void bonnie_csv_header(FILE *out, const struct bon_config *c);
void bonnie_csv(FILE *out, const struct bon_config *c, const struct bon_result *r);

#endif
