/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun compare of load curves (files fbrun curve -o wrote): their levels
 * matched by name, side by side, and the rates they met the objective up
 * to; as text, CSV or JSON, and a page of the curves together.
 */
#ifndef FBRUN_COMPARE_CURVES_H
#define FBRUN_COMPARE_CURVES_H

#include <stddef.h>

#include "results/curve.h"
#include "util/format.h"

/* 1 if every file holds a curve, 0 if one does not, -1 after saying why. */
int curves_all(char **paths, size_t n);
/*
 * The curves of the n files side by side, labels[k] naming file k, on
 * standard output in format (one compare prints); html: also the page
 * there, or NULL.  The exit code.
 */
int curves_compare(char **paths, size_t n, const char *const *labels,
		   enum format format, const char *html);

#endif
