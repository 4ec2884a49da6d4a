/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* What compare/read.c shares with read_disks.c. */
#ifndef FBRUN_COMPARE_READ_INT_H
#define FBRUN_COMPARE_READ_INT_H

#include <jansson.h>
#include <stddef.h>

#include "compare/model.h"

/*
 * The run's "disk_stats" and "disk_stats_none" into r->disks; left NULL
 * for a file without them (read_disks.c).
 */
void read_disks(struct cmp_run *r, const json_t *root);

#endif
