/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun record [-o NAME] [--] COMMAND [ARGS...]: the command run under
 * strace, in this directory, with its standard streams; strace's output
 * kept as NAME.trace and a workload that replays it as NAME.f
 * (record_script.c).  strace writes into a file fbrun made new in a
 * directory of its own (0700), never to a name the user gave: its -o
 * would follow a link there.  The targets get fbrun's copies, written
 * beside them and renamed over them (util/outfile).  The recording is
 * read back with the trace reader before NAME.f is written, so that a
 * trace fbrun cannot replay is said at once, located.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/record.h"
#include "cli/record_int.h"
#include "cli/recordopts.h"
#include "trace/trace.h"
#include "util/msg.h"
#include "util/optable.h"
#include "util/outfile.h"
#include "util/paths.h"
#include "util/spawn.h"
#include "util/util.h"


#define DEFAULT_NAME "fbrun-record"

/* a TERM or HUP fbrun got while the command ran, to pass on to it */
static volatile sig_atomic_t got_signal;

/* Returns -1 to exit 2, 1 to exit 0 (--help), 0 to go on. */
static int parse(int argc, char **argv, struct record *r)
{
	const char *name = DEFAULT_NAME;
	int ch;

	optind = 1;
	while ((ch = optable_next(&cli_recordopts, argc, argv)) >= 0)
		if (ch == RECORD_OPT_OUTPUT)
			name = optarg;
		else if (ch == RECORD_OPT_MODEL)
			r->model = true;
	if (ch != OPTABLE_END)
		return ch == OPTABLE_HELP ? 1 : -1;
	if (optind >= argc) {
		fb_error("no command given: fbrun record [-o NAME] [--] "
			 "COMMAND [ARGS...]");
		optable_usage(stderr, &cli_recordopts);
		return -1;
	}
	if (!name[0])
		return fb_error("-o needs a name for the recording's files");
	r->trace_name = xasprintf("%s.trace", name);
	r->script_name = xasprintf("%s.f", name);
	r->argv = argv + optind;
	r->argc = argc - optind;
	return 0;
}

/* Both targets can be written: before anything runs. */
static int check_outputs(const struct record *r)
{
	const char *names[] = { r->trace_name, r->script_name };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *why = outfile_unusable(names[i]);

		if (why) {
			fb_error("cannot write '%s': it %s", names[i], why);
			free(why);
			return -1;
		}
	}
	return 0;
}

static bool runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

/* The program as execvp would find it: its path, malloc'd, or NULL. */
static char *find_program(const char *prog)
{
	const char *path = getenv("PATH"), *p, *colon;

	if (strchr(prog, '/'))
		return runnable(prog) ? xstrdup(prog) : NULL;
	p = path ? path : "/usr/bin:/bin";
	for (; p; p = colon ? colon + 1 : NULL) {
		char *cand;
		size_t n;

		colon = strchr(p, ':');
		n = colon ? (size_t)(colon - p) : strlen(p);
		cand = n ? xasprintf("%.*s/%s", (int)n, p, prog)
			 : xasprintf("./%s", prog);
		if (runnable(cand))
			return cand;
		free(cand);
	}
	return NULL;
}

/* A directory of fbrun's own (0700) and in it the file strace fills. */
static int make_temp(struct record *r)
{
	const char *tmp = getenv("TMPDIR");

	r->tmpdir = xasprintf("%s/fbrun-record-XXXXXX",
			      tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(r->tmpdir)) {
		fb_error("cannot make a directory for the recording like "
			 "'%s': %s",
			 r->tmpdir, strerror(errno));
		free(r->tmpdir);
		r->tmpdir = NULL;
		return -1;
	}
	r->tmpfile = xasprintf("%s/strace.out", r->tmpdir);
	r->fd = open(r->tmpfile,
		     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (r->fd < 0)
		return fb_error("cannot make '%s': %s", r->tmpfile,
				strerror(errno));
	return 0;
}

static void remove_temp(struct record *r)
{
	if (r->fd >= 0)
		close(r->fd);
	if (r->tmpfile)
		unlink(r->tmpfile);
	if (r->tmpdir)
		rmdir(r->tmpdir);
	free(r->tmpfile);
	free(r->tmpdir);
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

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * sig to the command: strace's children (strace itself ignores TERM and
 * HUP while its command runs, so that the command gets them).  Whether
 * there was one to send it to (not yet, before strace has started it).
 */
static bool pass_on(pid_t strace, int sig)
{
	bool sent = false;
	char path[64], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)strace,
		 (int)strace);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (char *p = buf, *end; *p; p = end) {
		long child = strtol(p, &end, 10);

		if (end == p)
			break;
		if (child > 0 && kill((pid_t)child, sig) == 0)
			sent = true;
	}
	return sent;
}

/* strace's end, its status; a signal fbrun got meanwhile passed on */
static void wait_for(pid_t pid, int *status)
{
	unsigned nap = 1; /* ms, doubling to 50 */

	/* polled: a signal just before a blocking wait would not be seen */
	for (;;) {
		pid_t got = waitpid(pid, status, WNOHANG);
		struct timespec ts;

		if (got == pid || (got < 0 && errno != EINTR))
			break;
		if (got_signal && pass_on(pid, got_signal))
			got_signal = 0;
		ts = (struct timespec){ 0, (long)nap * 1000000 };
		nanosleep(&ts, NULL);
		if (nap < 50)
			nap *= 2;
	}
}

/*
 * strace and the command, to their end.  The terminal's ^C and ^\ reach
 * the command themselves (fbrun ignores them meanwhile, as system()
 * does); a TERM or HUP sent to fbrun is passed on to the command.  0
 * with r->status, or -1.
 */
static int run(struct record *r)
{
	const char *fixed[] = { "strace", "-f", "-ttt", "-T", "-y", "-qq",
				"-s", "0", "-e" };
	size_t nf = ARRAY_SIZE(fixed), n = 0;
	char **args = xcalloc(nf + 4 + (size_t)r->argc + 1, sizeof(*args));
	char *calls = trace_calls();
	struct sigaction ign = { .sa_handler = SIG_IGN },
			 fwd = { .sa_handler = on_signal };
	struct sigaction old[4];
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
	pid_t pid;
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
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], i < 2 ? &ign : &fwd, &old[i]);
	rc = spawn_child(&pid, r->strace, args);
	if (rc == 0)
		wait_for(pid, &r->status);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
	free(calls);
	free(args);
	if (rc != 0)
		return fb_error("cannot run '%s': %s", r->strace, strerror(rc));
	return 0;
}

/* What strace wrote, read through fbrun's own descriptor. */
static int slurp(struct record *r)
{
	struct stat st;
	size_t got = 0;

	if (fstat(r->fd, &st) < 0)
		return fb_error("cannot read '%s': %s", r->tmpfile,
				strerror(errno));
	r->len = (size_t)st.st_size;
	r->text = xmalloc(r->len + 1);
	while (got < r->len) {
		ssize_t k = pread(r->fd, r->text + got, r->len - got,
				  (off_t)got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return fb_error("cannot read '%s': %s", r->tmpfile,
					k < 0 ? strerror(errno) : "it shrank");
		got += (size_t)k;
	}
	r->text[r->len] = '\0';
	return 0;
}

static void fill_trace(FILE *out, const void *arg)
{
	const struct record *r = arg;

	fwrite(r->text, 1, r->len, out);
}

static int record(struct record *r)
{
	struct trace_opts opts = { .format = TRACE_STRACE };
	char *cmd;

	if (!(r->strace = find_program("strace")))
		return fb_error("strace is not installed: fbrun record runs "
				"the command under it (Debian's package "
				"strace)");
	cmd = find_program(r->argv[0]);
	if (!cmd)
		return fb_error("cannot run '%s': %s", r->argv[0],
				strchr(r->argv[0], '/')
					? "no such executable file"
					: "no such command on PATH");
	free(cmd);
	if (check_outputs(r) < 0 || make_temp(r) < 0)
		return -1;
	if (!(r->cwd = getcwd(NULL, 0)))
		return fb_error("cannot tell the current directory: %s",
				strerror(errno));
	r->when = time(NULL);
	if (run(r) < 0 || slurp(r) < 0)
		return FB_EXIT_RUN;
	if (r->len == 0) {
		fb_error("strace recorded nothing ('%s' %s; strace's "
			 "message, if any, is above)",
			 r->argv[0], record_status_text(r->status));
		return FB_EXIT_RUN;
	}
	if (outfile_write(r->trace_name, fill_trace, r) < 0)
		return FB_EXIT_RUN;
	r->trace = trace_parse(r->trace_name, r->text, r->len, &opts);
	if (!r->trace) {
		fb_error("'%s' was written, but fbrun cannot replay it "
			 "(the error above); '%s' was not written",
			 r->trace_name, r->script_name);
		return FB_EXIT_USAGE;
	}
	if ((r->model ? record_write_model(r) : record_write_script(r)) < 0)
		return FB_EXIT_RUN;
	record_summary(r, stdout);
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0
		       ? FB_EXIT_OK
		       : FB_EXIT_RUN;
}

int cli_record_main(int argc, char **argv)
{
	struct record r = { .fd = -1 };
	int rc = parse(argc, argv, &r);

	if (rc == 0) {
		rc = record(&r);
		rc = rc < 0 ? FB_EXIT_USAGE : rc;
	} else {
		rc = rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	}
	remove_temp(&r);
	trace_free(r.trace);
	free(r.text);
	free(r.cwd);
	free(r.strace);
	free(r.trace_name);
	free(r.script_name);
	return rc;
}
