/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* A child process started with fbrun's signals undone (spawn.h). */
#include "util/spawn.h"

#include <signal.h>
#include <spawn.h>
#include <stdio.h>

extern char **environ;

int spawn_child(pid_t *pid, const char *path, char *const argv[])
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	posix_spawnattr_t at;
	sigset_t def, none;
	int rc;

	sigemptyset(&none);
	sigemptyset(&def);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&def, sigs[i]);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF |
					      POSIX_SPAWN_SETSIGMASK);
	fflush(stdout);
	fflush(stderr);
	rc = posix_spawn(pid, path, NULL, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	return rc;
}
