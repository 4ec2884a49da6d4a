/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun bonnie's work: bonnie++'s tests as built-in workloads (the phase
 * scripts in workloads/bonnie/), their figures, table and CSV line; the
 * command's options and flow are cmd/bonnie.c's.
 */
#ifndef FBRUN_BONNIE_H
#define FBRUN_BONNIE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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
struct phase;

/* A run of the tests: its options as read (cmd/bonnie_options.c), its state. */
struct bonnie {
	struct bon_config c;
	const char *dir;
	bool quiet, size_given, ram_given, iterations_given, dry_run;
	unsigned iterations;
	const char *user, *group;
	char ioname[64], name[64];
	/* the phase being collected */
	const struct phase *ph;
	struct bon_figure fig;
	uint64_t count;
	/* fbrun-mpi: the job's other ranks, and each rank's figures (rank 0) */
	const struct engine_peers *peers;
	struct bon_result *per_rank;
	char error[PATH_MAX + 600]; /* as results.error, and a phase name */
};

/* --dry-run: each phase as the fbrun command that runs it alone. */
void bonnie_print_plan(const struct bonnie *b);
/*
 * Every wanted phase's script compiles, before the first phase makes
 * anything (in a job, on every rank): a broken installation stops here,
 * not after the trees of the phases before it were made.  0, or the
 * exit code.
 */
int bonnie_check_phases(const struct bonnie *b);
/*
 * The wanted phases in bonnie++'s order, their figures into res, the
 * ranks of a job going on together.  0, or the exit code.
 */
int bonnie_run_all(struct bonnie *b, struct bon_result *res);

/* The text table in bonnie++ 1.96's layout. */
void bonnie_text(FILE *out, const struct bon_config *c, const struct bon_result *r);
/* The header line (-x) and one result line of the CSV. */
void bonnie_csv_header(FILE *out, const struct bon_config *c);
void bonnie_csv(FILE *out, const struct bon_config *c, const struct bon_result *r);

#endif
