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
 * The workload directory: $FBRUN_WORKLOADS if it is a directory, else
 * the first of these with a script in it: <bin>/../share/fbrun/workloads,
 * <bin>/workloads, <bin>/../workloads (<bin> the running binary's
 * directory: an install moved elsewhere, a build tree), the configured
 * install directory.  NULL if none.
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
