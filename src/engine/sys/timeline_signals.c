/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The signals that stop fbrun, a closed standard output, and the system
 * statement's command run with fbrun's handlers kept (timeline.h).  Apart
 * from the clock and the barrier: these concern the whole process, not a
 * run.
 */
#include "engine/sys/timeline.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/spawn.h"

volatile sig_atomic_t timeline_signalled;


static void on_signal(int sig)
{
	if (!timeline_signalled)
		timeline_signalled = sig;
}

void timeline_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waits see EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

void timeline_interrupt(int sig)
{
	if (!timeline_signalled)
		timeline_signalled = sig;
}

const char *timeline_signal_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGPIPE: return "a closed standard output";
	default: return "a signal";
	}
}

bool timeline_check_stdout(void)
{
	/* a pipe's writing end polls POLLERR once no reader is left */
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };

	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) {
		timeline_interrupt(SIGPIPE);
		return true;
	}
	return false;
}

int timeline_command(const char *cmd)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	int status = -1, rc, passed = 0;
	unsigned nap = 1; /* ms, doubling to 50 */
	pid_t pid;

	rc = spawn_child(&pid, "/bin/sh", argv);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	/*
	 * Polled rather than a blocking waitpid: a signal between a check
	 * and the wait would not be passed on until the command ended.
	 */
	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		struct timespec ts;

		if (got == pid || (got < 0 && errno != EINTR))
			break;
		if (timeline_signalled && !passed) {
			passed = timeline_signalled == SIGPIPE ? SIGTERM :
							     timeline_signalled;
			kill(pid, passed);
		}
		ts = (struct timespec){ 0, (long)nap * 1000000 };
		nanosleep(&ts, NULL);
		if (nap < 50)
			nap *= 2;
	}
	return status;
}
