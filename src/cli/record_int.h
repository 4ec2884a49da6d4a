/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of fbrun record: one recording (record.c runs it, and
 * record_script.c writes its workload and its summary).
 */
#ifndef FBRUN_CLI_RECORD_INT_H
#define FBRUN_CLI_RECORD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct trace;

struct record {
	char *trace_name, *script_name; /* NAME.trace, NAME.f */
	char **argv; /* the command and its arguments */
	int argc;
	char *strace; /* strace's path */
	char *tmpdir, *tmpfile; /* fbrun's 0700 directory, strace's file in it */
	int fd; /* that file, opened when fbrun made it */
	char *cwd; /* where the command ran */
	time_t when; /* when it started */
	int status; /* strace's, which is the command's (waitpid) */
	char *text; /* what strace wrote */
	size_t len;
	struct trace *trace; /* text, read */
	bool model; /* --model: NAME.f fitted to the trace (trace/model) */
};

/* "exited with status 0", "was killed by signal 9 (Killed)" */
const char *record_status_text(int status);

/* NAME.f written (util/outfile); 0 or -1 after saying why. */
int record_write_script(const struct record *r);

/* NAME.f fitted to the trace (--model); 0 or -1 after saying why. */
int record_write_model(const struct record *r);

/* What was recorded and what the trace holds, for the user. */
void record_summary(const struct record *r, FILE *out);

#endif
