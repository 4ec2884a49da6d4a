/*
 * The --html page of fbrun compare: one self-contained file (inline CSS
 * and SVG, no JavaScript, nothing fetched) drawn from compare's model.
 */
#ifndef FBRUN_COMPARE_HTML_H
#define FBRUN_COMPARE_HTML_H

#include "compare/model.h"

/* Write the page to path; 0, or -1 after saying why. */
int html_write(const char *path, const struct cmp *c);

#endif
