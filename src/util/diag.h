/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Diagnostics: every error and warning about a script goes through here so
 * all of them look alike:
 *
 *   file.f:11:12: error: unknown flowop 'raedwholefile'; did you mean 'readwholefile'?
 *       flowop raedwholefile name=readfile2,fd=1
 *              ^~~~~~~~~~~~~
 */
#ifndef FBRUN_DIAG_H
#define FBRUN_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "util/source.h"

struct diag;

/* Messages go to out; after max_errors errors further ones are dropped. */
struct diag *diag_new(FILE *out, int max_errors);
void diag_free(struct diag *d);

void diag_error(struct diag *d, const struct source *src, struct loc loc,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_warning(struct diag *d, const struct source *src, struct loc loc,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A note belongs to the error or warning just before it. */
void diag_note(struct diag *d, const struct source *src, struct loc loc,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

int diag_error_count(const struct diag *d);
int diag_warning_count(const struct diag *d);
/* True once the error cap was reached: callers may stop early. */
bool diag_full(const struct diag *d);
/* Print "N errors" style summary if any error was dropped. */
void diag_finish(struct diag *d);

#endif
