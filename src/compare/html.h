/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The --html page of fbrun compare: one self-contained file (inline CSS
 * and SVG, no JavaScript, nothing fetched) drawn from compare's model.
 */
#ifndef FBRUN_COMPARE_HTML_H
#define FBRUN_COMPARE_HTML_H

#include <stdio.h>

#include "compare/model.h"
#include "results/curve.h"

/* The page, on out (one run: that run's page, fbrun report). */
void html_page(FILE *out, const struct cmp *c);
/*
 * The page of n load curves (fbrun curve --html, fbrun compare of curve
 * files): response time against throughput, labels[k] naming curve k.
 */
void html_curve_page(FILE *out, struct curve *const *curves,
		     const char *const *labels, size_t n);
/* Write the page to path; 0, or -1 after saying why. */
int html_write(const char *path, const struct cmp *c);

#endif
