/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* jansson's parse errors in fbrun's words and places, for compare/read. */
#ifndef FBRUN_COMPARE_READ_INT_H
#define FBRUN_COMPARE_READ_INT_H

#include <jansson.h>
#include <stddef.h>

#include "compare/model.h"

/*
 * "name:line:col: message" in err for the error jansson reported in e
 * while parsing text[0..len), placed where the offending token starts.
 */
void read_explain(const char *text, size_t len, const json_error_t *e,
		  const char *name, char *err, size_t errlen);

/*
 * The run's "disk_stats" and "disk_stats_none" into r->disks; left NULL
 * for a file without them (read_disks.c).
 */
void read_disks(struct cmp_run *r, const json_t *root);

#endif
