/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A child process started as fbrun's commands want it: the `system`
 * statement's shell and fbrun record's strace.
 */
#ifndef FBRUN_UTIL_SPAWN_H
#define FBRUN_UTIL_SPAWN_H

#include <sys/types.h>

/*
 * posix_spawn of path with argv and fbrun's environment, the signals
 * fbrun catches or ignores (INT, TERM, HUP, QUIT, PIPE) back at their
 * defaults and none blocked, so that the child behaves as it would from
 * a shell; standard output and error are flushed first, so nothing
 * buffered is written twice or out of order.  0, or the error number.
 */
int spawn_child(pid_t *pid, const char *path, char *const argv[]);

#endif
