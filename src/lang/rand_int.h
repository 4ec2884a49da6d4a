/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Shared by rand.c (the samplers) and rand_spec.c (the parameters). */
#ifndef FBRUN_LANG_RAND_INT_H
#define FBRUN_LANG_RAND_INT_H

#include "lang/rand.h"

/*
 * A table randvar's weighted mean of the bin midpoints; also its lowest
 * edge and, if total is not NULL, the sum of its percentages.
 */
double rv_table_stats(const struct rv_spec *s, double *tmin, double *total);

#endif
