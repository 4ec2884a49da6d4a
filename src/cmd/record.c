/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun record [-o NAME] [--] COMMAND [ARGS...]: the command run under
 * strace, in this directory, with its standard streams; strace's output
 * kept as NAME.trace and a workload that replays it as NAME.f
 * (record_script.c).  strace writes into a FIFO fbrun made in a
 * directory of its own (0700), never to a name the user gave: its -o
 * would follow a link there (record_run.c runs it).  The targets get fbrun's copies, written
 * beside them and renamed over them (util/outfile).  The recording is
 * read back with the trace reader before NAME.f is written, so that a
 * trace fbrun cannot replay is said at once, located.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/record.h"
#include "cmd/record_int.h"
#include "cmd/recordopts.h"
#include "trace/trace.h"
#include "util/msg.h"
#include "util/optable.h"
#include "util/outfile.h"
#include "util/paths.h"
#include "util/spawn.h"
#include "util/util.h"


#define DEFAULT_NAME "fbrun-record"

struct record_args {
	struct record *r;
	const char *name; /* -o */
};

/* An option of recordopts into arg's (optable_take). */
static int take(void *arg, int row, char *v)
{
	struct record_args *a = arg;

	if (row == RECORD_OPT_OUTPUT)
		a->name = v;
	else if (row == RECORD_OPT_MODEL)
		a->r->model = true;
	return 0;
}

/* Returns -1 to exit 2, 1 to exit 0 (--help), 0 to go on. */
static int parse(int argc, char **argv, struct record *r)
{
	struct record_args a = { r, DEFAULT_NAME };
	int rc = optable_parse(&recordopts, argc, argv, take, &a);

	if (rc)
		return rc;
	if (optind >= argc) {
		fb_error("no command given: fbrun record [-o NAME] [--] "
			 "COMMAND [ARGS...]");
		optable_usage(stderr, &recordopts);
		return -1;
	}
	if (!a.name[0])
		return fb_error("-o needs a name for the recording's files");
	r->trace_name = xasprintf("%s.trace", a.name);
	r->script_name = xasprintf("%s.f", a.name);
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

/*
 * A directory of fbrun's own (0700) and in it the FIFO strace writes
 * into, its reading end open: the text is kept in fbrun's memory, so a
 * TMPDIR with no room left does not cut the recording short.
 */
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
	if (mkfifo(r->tmpfile, 0600) < 0) {
		int err = errno;

		free(r->tmpfile);
		r->tmpfile = NULL;
		return fb_error("cannot make a FIFO in '%s' for the "
				"recording: %s",
				r->tmpdir, strerror(err));
	}
	r->fd = open(r->tmpfile, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0)
		return fb_error("cannot open '%s': %s", r->tmpfile,
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
 * strace marks a call it let go of mid-way " <detached ...>"; the trace
 * keeps it as strace marks a call it set aside, " <unfinished ...>", which
 * the reader takes as a call whose result the recording never saw.
 */
static void mark_detached(struct record *r)
{
	static const char from[] = " <detached ...>\n",
			  to[] = " <unfinished ...>\n";
	size_t nf = sizeof(from) - 1, nt = sizeof(to) - 1, n = 0, len = 0;
	const char *p = r->text, *q;
	char *out;

	for (q = strstr(p, from); q; q = strstr(q + nf, from))
		n++;
	if (!n)
		return;
	out = xmalloc(r->len + n * (nt - nf) + 1);
	for (q = strstr(p, from); q; p = q + nf, q = strstr(p, from)) {
		memcpy(out + len, p, (size_t)(q - p));
		len += (size_t)(q - p);
		memcpy(out + len, to, nt);
		len += nt;
	}
	memcpy(out + len, p, (size_t)(r->text + r->len - p));
	len += (size_t)(r->text + r->len - p);
	out[len] = '\0';
	free(r->text);
	r->text = out;
	r->len = len;
	r->detached = n;
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
	if (record_run(r) < 0)
		return FB_EXIT_RUN;
	if (r->len == 0) {
		fb_error("strace recorded nothing ('%s' %s; strace's "
			 "message, if any, is above)",
			 r->argv[0], record_status_text(r));
		return FB_EXIT_RUN;
	}
	mark_detached(r);
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
	return !r->running && !r->stop_signal && WIFEXITED(r->status) &&
			       WEXITSTATUS(r->status) == 0 ?
		       FB_EXIT_OK :
		       FB_EXIT_RUN;
}

int record_main(int argc, char **argv)
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
