/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun record's command under strace, to the command's end (record_int.h).
 *
 * strace runs detached (-DD: a grandchild in a process group of its own),
 * so the command is fbrun's own child: fbrun waits for it, not for
 * strace, which with -f would wait for every process the command left
 * behind (a daemon: forever).  Once the command has exited, the
 * processes still traced are counted and strace is told to let them go
 * (SIGTERM; -I2 lets it take one), and it ends.  strace writes into a
 * FIFO fbrun made in its own directory and fbrun keeps the text in
 * memory: nothing goes to TMPDIR's disk, which cannot fill up under it.
 *
 * A signal fbrun gets (INT, TERM, HUP) cuts the recording short: TERM
 * and HUP are passed on to the command (the terminal's ^C reaches it
 * without fbrun), which has a moment to end, recorded; then strace lets
 * go of everything and the text recorded so far is what fbrun writes.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/record_int.h"
#include "trace/trace.h"
#include "util/msg.h"
#include "util/spawn.h"
#include "util/util.h"

/* how long (ms) the command has to end after a signal, before strace lets go */
#define GRACE_MS 500
/* how long (ms) strace has to end once told, before it is killed */
#define DETACH_MS 2000
#define CHUNK 65536

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * strace's -e trace=: the calls the reader models, and file calls it
 * does not, so that the summary names them as not replayed; "?" for a
 * name another arch lacks
 */
static char *trace_calls(void)
{
	static const char *const extra[] = {
		"execve", "mmap", "msync", "readlink", "readlinkat", "openat2",
		"flock", "fallocate", "access", "faccessat", "faccessat2",
		"mknod", "mknodat", "sync", "syncfs", "sync_file_range",
		"fadvise64", "splice", "getxattr", "lgetxattr", "fgetxattr",
		"setxattr", "lsetxattr", "fsetxattr", "listxattr", "llistxattr",
		"flistxattr", "removexattr", "lremovexattr", "fremovexattr",
	};
	size_t n = trace_strace_ncalls();
	char *s = xstrdup("trace="), *t;

	for (size_t i = 0; i < n + ARRAY_SIZE(extra); i++) {
		t = xasprintf("%s%s?%s", s, i ? "," : "",
			      i < n ? trace_strace_call(i) : extra[i - n]);
		free(s);
		s = t;
	}
	return s;
}

/* A field of /proc/PID/status ("TracerPid"), -1 if it cannot be read. */
static long status_field(const char *pid, const char *field)
{
	char path[64], line[256];
	size_t n = strlen(field);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", atol(pid));
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* Whether process pid has the FIFO open (for writing: only strace does). */
static bool holds(const char *pid, const struct stat *fifo)
{
	char dir[64];
	struct dirent *d;
	struct stat st;
	bool found = false;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%ld/fd", atol(pid));
	if (!(fds = opendir(dir)))
		return false;
	while (!found && (d = readdir(fds)))
		found = d->d_name[0] != '.' &&
			fstatat(dirfd(fds), d->d_name, &st, 0) == 0 &&
			st.st_dev == fifo->st_dev && st.st_ino == fifo->st_ino;
	closedir(fds);
	return found;
}

/* Every process: f(pid's name, arg) for each; how many f said yes to. */
static size_t each_process(bool (*f)(const char *, const void *),
			   const void *arg, pid_t *first)
{
	struct dirent *d;
	size_t n = 0;
	DIR *proc = opendir("/proc");

	if (!proc)
		return 0;
	while ((d = readdir(proc)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9' &&
		    f(d->d_name, arg) && n++ == 0 && first)
			*first = (pid_t)atol(d->d_name);
	closedir(proc);
	return n;
}

/* What is_tracer looks for. */
struct tracer_of {
	pid_t cmd;
	struct stat fifo;
};

/*
 * The tracer: not traced itself, not the command, the FIFO open (and
 * not fbrun, which reads it).
 */
static bool is_tracer(const char *pid, const void *arg)
{
	const struct tracer_of *t = arg;

	return atol(pid) != (long)t->cmd && atol(pid) != (long)getpid() &&
	       status_field(pid, "TracerPid") == 0 && holds(pid, &t->fifo);
}

static bool traced_by(const char *pid, const void *arg)
{
	return status_field(pid, "TracerPid") == (long)*(const pid_t *)arg;
}

/* Whether pid is gone, or a zombie its parent has yet to reap. */
static bool gone(pid_t pid)
{
	char path[64], line[128];
	bool z = true;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return true;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "State:", 6)) {
			z = strchr(line, 'Z') != NULL;
			break;
		}
	fclose(f);
	return z;
}

/* What strace wrote since last time, into r->text. 1 at its end, 0, -1. */
static int take(struct record *r, size_t *cap)
{
	for (;;) {
		ssize_t k;

		if (r->len + CHUNK + 1 > *cap) {
			*cap = (r->len + CHUNK + 1) * 2;
			r->text = xrealloc(r->text, *cap);
		}
		k = read(r->fd, r->text + r->len, CHUNK);
		if (k > 0) {
			r->len += (size_t)k;
			continue;
		}
		if (k == 0)
			return 1;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)
			return 0;
		return fb_error("cannot read strace's output: %s",
				strerror(errno));
	}
}

/* The state of the watch over the command and strace. */
struct watch {
	bool done; /* the command has ended (r->status) */
	pid_t tracer; /* strace, once looked for; -1 none found */
	long long told; /* when strace was told to let go, 0 not yet */
	long long since; /* when the command ended or the signal came */
	bool killed; /* strace did not let go in time: killed */
};

/* strace, found by the FIFO it holds (it is no child of fbrun's). */
static pid_t tracer(struct record *r, struct watch *w)
{
	struct tracer_of of = { .cmd = r->cmd };
	pid_t t = -1;

	if (!w->tracer && fstat(r->fd, &of.fifo) == 0)
		each_process(is_tracer, &of, &t);
	if (!w->tracer)
		w->tracer = t;
	return w->tracer;
}

/* strace told to let every process go, as soon as the state asks it. */
static void steer(struct record *r, struct watch *w)
{
	long long now = now_ms();
	pid_t t;

	if (!w->done && !r->stop_signal)
		return;
	if (w->told) {
		if (!w->killed && now - w->told > DETACH_MS &&
		    (t = tracer(r, w)) > 0) {
			kill(t, SIGKILL);
			w->killed = true;
		}
		return;
	}
	/* after a signal, the command has a moment to end, recorded */
	if (!w->done && now - w->since < GRACE_MS)
		return;
	if ((t = tracer(r, w)) <= 0) {
		w->told = now;
		return;
	}
	if (w->done)
		r->left = each_process(traced_by, &t, NULL);
	/* a command that ended alone: strace ends by itself */
	if (!w->done || r->stop_signal || r->left)
		kill(t, SIGTERM);
	w->told = now;
}

/*
 * Watch the command and read strace's output until strace has ended:
 * the command's status into r, the text into r->text.  0, or -1.
 */
static int watch(struct record *r)
{
	struct watch w = { 0 };
	size_t cap = 0;
	int rc = 0;

	for (;;) {
		struct pollfd p = { .fd = r->fd, .events = POLLIN };
		int got = poll(&p, 1, 20);
		pid_t t;

		if (got > 0 && (rc = take(r, &cap)) != 0)
			break;
		if (got < 0 && errno != EINTR)
			return fb_error("cannot wait for strace: %s",
					strerror(errno));
		if (!w.done && waitpid(r->cmd, &r->status, WNOHANG) == r->cmd) {
			w.done = true;
			w.since = now_ms();
		}
		if (got_signal && !r->stop_signal) {
			r->stop_signal = got_signal;
			w.since = now_ms();
			if (!w.done && got_signal != SIGINT)
				kill(r->cmd, got_signal);
		}
		steer(r, &w);
		/* strace gone without closing (killed), or never found */
		if (w.told && ((t = tracer(r, &w)) <= 0 || gone(t))) {
			rc = take(r, &cap) < 0 ? -1 : 1;
			break;
		}
	}
	/* strace ended by itself: so did every process it traced */
	while (rc >= 0 && !w.done && !r->stop_signal) {
		pid_t p = waitpid(r->cmd, &r->status, 0);

		if (p == r->cmd)
			w.done = true;
		else if (p < 0 && errno != EINTR)
			break;
		else if (got_signal)
			r->stop_signal = got_signal;
	}
	if (!w.done)
		w.done = waitpid(r->cmd, &r->status, WNOHANG) == r->cmd;
	if (!r->text)
		r->text = xmalloc(1);
	r->text[r->len] = '\0';
	r->running = !w.done;
	return rc < 0 ? -1 : 0;
}

int record_run(struct record *r)
{
	const char *fixed[] = { "strace", "-f", "-DD", "-I2", "-ttt", "-T",
				"-y", "-qq", "-s", "0", "-e" };
	size_t nf = ARRAY_SIZE(fixed), n = 0;
	char **args = xcalloc(nf + 4 + (size_t)r->argc + 1, sizeof(*args));
	char *calls = trace_calls();
	struct sigaction ign = { .sa_handler = SIG_IGN },
			 catch = { .sa_handler = on_signal };
	struct sigaction old[4];
	static const int sigs[] = { SIGQUIT, SIGINT, SIGTERM, SIGHUP };
	int rc;

	for (size_t i = 0; i < nf; i++)
		args[n++] = (char *)fixed[i];
	args[n++] = calls;
	args[n++] = "-o";
	args[n++] = r->tmpfile;
	args[n++] = "--";
	for (int i = 0; i < r->argc; i++)
		args[n++] = r->argv[i];
	got_signal = 0;
	/* the terminal's ^\ is the command's; its ^C ends the recording too */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], i == 0 ? &ign : &catch, &old[i]);
	rc = spawn_child(&r->cmd, r->strace, args);
	if (rc == 0 && watch(r) < 0)
		rc = -1;
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
	free(calls);
	free(args);
	if (rc > 0)
		return fb_error("cannot run '%s': %s", r->strace, strerror(rc));
	return rc;
}
