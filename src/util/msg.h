/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Runtime messages, all alike: "fbrun: error: " then the object and the
 * reason, lowercase, names quoted, no full stop (git's rules).  Errors in
 * a script, which have a location, go through util/diag instead.  And the
 * one list of exit codes.
 */
#ifndef FBRUN_MSG_H
#define FBRUN_MSG_H

#include <stdbool.h>

enum fb_exit {
	FB_EXIT_OK = 0,
	FB_EXIT_RUN = 1, /* the run failed or was interrupted */
	FB_EXIT_USAGE = 2, /* bad options or script; nothing was run */
};

/* The name messages start with: "fbrun" unless a subcommand says. */
void msg_program(const char *name);
/*
 * Say nothing while muted: fbrun-mpi's ranks other than 0 check the same
 * options and script as rank 0, which alone tells what is wrong.
 */
void msg_mute(bool mute);

/* "PROG: error: ..." on stderr; returns -1 for `return fb_error(...)`. */
int fb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fb_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fb_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * getopt_long returned ':' or '?' (with opterr = 0) for argv[optind-1]:
 * says the option needs a value, or is unknown.  Returns -1.
 */
int msg_bad_option(int c, char *const argv[], int optind);

#endif
