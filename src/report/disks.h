/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The filesets' block devices in a run's report: fio's "Disk stats"
 * block in the text table, "disk_stats" in the JSON (doc/running.md,
 * "Disk stats").
 */
#ifndef FBRUN_REPORT_DISKS_H
#define FBRUN_REPORT_DISKS_H

#include <stdio.h>

#include "engine/results.h"
#include "util/jsonw.h"

/* The block and its page cache note; nothing for a run without filesets. */
void disks_text(FILE *out, const struct results *r);
/* "disk_stats": [...] and "disk_stats_none": [...], when r has them. */
void disks_json(struct json *j, const struct results *r);

#endif
