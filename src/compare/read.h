/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Results files read into compare's model (compare/model.h), for fbrun
 * compare, fbrun report's JSON and HTML, and compare's fuzz harness: read
 * by the results model's reader (results/read.h), whose errors read
 * "name:line:col: message".
 */
#ifndef FBRUN_COMPARE_READ_H
#define FBRUN_COMPARE_READ_H

#include <stddef.h>

#include "compare/model.h"
#include "results/read.h"

/*
 * Fill r (zeroed, path set) from the file at r->path; 0, or -1 after
 * saying why with fb_error.  cmp_run_clear frees what it read either way.
 */
int cmp_read_file(struct cmp_run *r);
/*
 * cmp_read_file, and the file's bytes in *text (malloc'd, *len of them)
 * if it is read: fbrun report --format json prints them.
 */
int cmp_read_file_text(struct cmp_run *r, char **text, size_t *len);
/*
 * The runs of the file at path: those of its "repeats" (fbrun --repeat),
 * or the file's one run.  *runs (path set, label NULL) is the caller's to
 * free with cmp_run_clear on each; after -1 (said with fb_error) there
 * are none.
 */
int cmp_read_runs(const char *path, struct cmp_run **runs, size_t *nruns);
/*
 * The same from text[0..len), `name` naming it in errors; 0, or -1 with
 * the reason in err.
 */
int cmp_read_text(struct cmp_run *r, const char *name, const char *text,
		  size_t len, char *err, size_t errlen);

#endif
