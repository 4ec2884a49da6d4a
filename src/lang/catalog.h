/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The shipped workloads: where they are, what they model, and running one
 * by name (`fbrun varmail`).
 */
#ifndef FBRUN_CATALOG_H
#define FBRUN_CATALOG_H

#include <stdio.h>

/*
 * The workload directory: $FBRUN_WORKLOADS, else ./workloads or
 * ../workloads (a source or build tree), else the installed one, else
 * the source tree this binary was built from.
 * NULL if none exists.
 */
const char *catalog_dir(void);

/*
 * Print each workload's name (bonnie/putc for those in a subdirectory)
 * and the first sentence of its header, wrapped.
 */
int catalog_list(FILE *out);

/*
 * A script path for name: name itself if it names a file, else
 * <dir>/<name>.f for a bare name.  Returns a malloc'd path or NULL.
 */
char *catalog_resolve(const char *name);

/* The shipped workload whose name is closest to name, or NULL (malloc'd). */
char *catalog_suggest(const char *name);

/* Print the shipped workload name (as catalog_resolve finds it). */
int catalog_show(FILE *out, const char *name);

#endif
