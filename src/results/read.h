/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A results file read back into the model (results/results.h): the one
 * reader of what results/write.h writes, for fbrun report, a job's
 * gather and fbrun compare (which sets side by side what the file shows,
 * results/shown.h).  Parsed by jansson, strictly (RFC 8259, no duplicate
 * keys); members a file lacks are left 0, and a file with a newer major
 * schema_version than this fbrun's is refused.
 */
#ifndef FBRUN_RESULTS_READ_H
#define FBRUN_RESULTS_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"

/* Results files are tens of kilobytes; refuse anything absurd. */
#define RESULTS_READ_MAX_SIZE (256u << 20)

/*
 * The bytes of the file at path (malloc'd, *len of them), or NULL after
 * saying why with fb_error.
 */
char *results_read_file(const char *path, size_t *len);
/*
 * The model of text[0..len) (a byte order mark skipped), `name` naming
 * it in errors; NULL with the reason in err.  What describes the
 * flowops' kinds (io, reads, writes, composite) is not in the file: they
 * are left false.
 */
struct results *results_read(const char *text, size_t len, const char *name,
			     char *err, size_t errlen);
/*
 * The runs of text[0..len): each of its "repeats" (fbrun --repeat) read
 * as results_read reads a file, or the file's one run.  0 with *runs
 * (malloc'd, *nruns of them, each for results_free); -1 with the reason
 * in err, and nothing in *runs.
 */
int results_read_runs(const char *text, size_t len, const char *name,
		      struct results ***runs, size_t *nruns, char *err,
		      size_t errlen);
/*
 * A parsed file's "schema_version" (doc/compare.md, "Results files and
 * their versions"): every minor version of a major this fbrun knows is
 * read, the members it does not know ignored; a newer major may have
 * removed a member or changed what one means, so it is refused.  A file
 * without one is an older fbrun's, and read.  0, or -1 with the reason
 * in err.
 */
int results_read_version(const char *name, const json_t *root, char *err,
			  size_t errlen);
struct curve;
/*
 * A results file's load curve (fbrun curve -o; read_curve.c): NULL if it
 * has none, or with the reason in err if its curve is bad (*bad set).
 */
struct curve *results_read_curve(const char *text, size_t len, char *err,
				 size_t errlen, bool *bad);
/*
 * "name:line:col: message" in err for the error jansson reported in e
 * while parsing text[0..len), in fbrun's words, placed where the
 * offending token starts (read_errors.c).
 */
void results_read_explain(const char *text, size_t len, const json_error_t *e,
			  const char *name, char *err, size_t errlen);

#endif
