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

/* The page, on out (one run: that run's page, fbrun report). */
void html_page(FILE *out, const struct cmp *c);
/* Write the page to path; 0, or -1 after saying why. */
int html_write(const char *path, const struct cmp *c);

#endif
