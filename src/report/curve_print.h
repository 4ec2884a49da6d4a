/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A load curve printed (results/curve.h): the table fbrun curve shows and
 * fbrun report shows again, and its CSV, one row per level.
 */
#ifndef FBRUN_REPORT_CURVE_PRINT_H
#define FBRUN_REPORT_CURVE_PRINT_H

#include <stdio.h>

#include "results/curve.h"

void curve_print_text(FILE *out, const struct curve *c);
void curve_print_csv(FILE *out, const struct curve *c);

#endif
