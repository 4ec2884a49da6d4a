/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* What results/read.c shares with read_shown.c. */
#ifndef FBRUN_RESULTS_READ_INT_H
#define FBRUN_RESULTS_READ_INT_H

#include <jansson.h>
#include <stddef.h>

#include "results/shown.h"

/*
 * What the parsed file at root shows of its run (shown.h), for a model
 * of nfo flowops and nvars variables read from it.
 */
struct results_shown *results_read_shown(const json_t *root, size_t nfo,
					 size_t nvars);

#endif
