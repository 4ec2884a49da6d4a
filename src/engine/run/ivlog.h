/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * --interval-log FILE: each --interval line also appended to FILE as a
 * CSV row while the run goes, flushed, so `tail -f FILE` follows it
 * (doc/running.md).  The file is made at the first interval (outfile_live:
 * a new file of fbrun's, renamed over what was there), its header first;
 * the runs of --repeat follow one another in it.
 */
#ifndef FBRUN_IVLOG_H
#define FBRUN_IVLOG_H

#include <stdbool.h>

struct ivlog;
struct monitor;

struct ivlog *ivlog_new(const char *path);
const char *ivlog_path(const struct ivlog *l);
/* A run starts: its rows are numbered in the `run` column. */
void ivlog_next_run(struct ivlog *l);
/*
 * The interval the monitor just took, as a row (and its flowops' ops/s
 * with flowops).  A failure is said once; the run goes on without log.
 */
void ivlog_sample(struct ivlog *l, const struct monitor *m, bool flowops);
/* Close the file: 0, or -1 if a row could not be written (said). */
int ivlog_close(struct ivlog *l);
void ivlog_free(struct ivlog *l);

#endif
