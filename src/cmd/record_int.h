/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of fbrun record: one recording (record.c runs it, and
 * record_script.c writes its workload and its summary).
 */
#ifndef FBRUN_CMD_RECORD_INT_H
#define FBRUN_CMD_RECORD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

struct trace;

struct record {
	char *trace_name, *script_name; /* NAME.trace, NAME.f */
	char **argv; /* the command and its arguments */
	int argc;
	char *strace; /* strace's path */
	char *tmpdir, *tmpfile; /* fbrun's 0700 directory, strace's FIFO in it */
	int fd; /* the FIFO's end fbrun reads, opened when fbrun made it */
	char *cwd; /* where the command ran */
	time_t when; /* when it started */
	pid_t cmd; /* the command: fbrun's child (strace traces it detached) */
	int status; /* the command's (waitpid), unless still running */
	bool running; /* it outlived the recording (a signal cut it short) */
	int stop_signal; /* the signal that cut the recording short, or 0 */
	size_t left; /* processes the command left running, let go untraced */
	size_t detached; /* calls strace was inside when it let go of them */
	char *text; /* what strace wrote */
	size_t len;
	struct trace *trace; /* text, read */
	bool model; /* --model: NAME.f fitted to the trace (trace/model) */
};

/*
 * "exited with status 0", "was killed by signal 9 (Killed)", "is still
 * running (pid 42), no longer traced".
 */
const char *record_status_text(const struct record *r);

/*
 * The command run under strace to its end, or to a signal fbrun got
 * (record_run.c): r->status, the text strace wrote in r->text.  0, or -1
 * after saying why.
 */
int record_run(struct record *r);

/* NAME.f written (util/outfile); 0 or -1 after saying why. */
int record_write_script(const struct record *r);

/* NAME.f fitted to the trace (--model); 0 or -1 after saying why. */
int record_write_model(const struct record *r);

/* What was recorded and what the trace holds, for the user. */
void record_summary(const struct record *r, FILE *out);

#endif
