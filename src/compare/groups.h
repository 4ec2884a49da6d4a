/*
 * fbrun compare with groups of runs ("A1.json A2.json -- B1.json", or
 * files written with --repeat): per flowop the mean and 95% interval of
 * each group, the ratio of the means with its interval and Welch's
 * t-test, as a text table and optionally a page (doc/compare.md).
 */
#ifndef FBRUN_COMPARE_GROUPS_H
#define FBRUN_COMPARE_GROUPS_H

#include <stddef.h>
#include <stdio.h>

#include "compare/model.h"

/* A group: its runs, read from its files (each may hold repeats). */
struct cmp_group {
	const char *label;
	const char **paths;
	size_t npaths;
	struct cmp_run *runs;
	size_t nruns;
};

/* Read every group's files; 0, or -1 after saying why. */
int groups_read(struct cmp_group *g, size_t ng);
void groups_free(struct cmp_group *g, size_t ng);
/*
 * The table of two groups, the second against the first, on out; and the
 * page at html if not NULL.  0, or -1 after saying why.
 */
int groups_compare(FILE *out, const struct cmp_group *g, size_t ng,
		   const char *html);

#endif
