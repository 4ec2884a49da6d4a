/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A run's results collected: the workers' counters merged once, after
 * the run, into the results model (results/results.h) that the printers
 * (report/) and fbrun bonnie only read.
 */
#ifndef FBRUN_ENGINE_RESULTS_H
#define FBRUN_ENGINE_RESULTS_H

#include "engine/run.h"
#include "results/results.h"

struct results *results_collect(const struct run *run);

#endif
