/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What fbrun record writes besides the trace: NAME.f, a workload of the
 * same shape as fbrun replay's script (cmd/replay.c) with a header that
 * says what was recorded, and the summary printed after the recording.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cmd/record_int.h"
#include "trace/model.h"
#include "trace/trace.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/paths.h"
#include "util/util.h"

const char *record_status_text(const struct record *r)
{
	static char buf[96];
	int status = r->status;

	if (r->running)
		snprintf(buf, sizeof(buf), "is still running (pid %d), no "
					   "longer traced",
			 (int)r->cmd);
	else if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "exited with status %d",
			 WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, sizeof(buf), "ended with wait status %#x",
			 (unsigned)status);
	return buf;
}

/*
 * A word for a comment line, as a shell would take it back: bare when
 * it is plain, else in single quotes.  No byte below space ends up in
 * the script: a newline would end the comment and start a statement.
 */
static void comment_word(FILE *out, const char *w)
{
	bool plain = w[0] != '\0';

	for (const char *p = w; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
			    "VWXYZ0123456789_./:=@%+,-",
			    *p))
			plain = false;
	if (plain) {
		fputs(w, out);
		return;
	}
	fputc('\'', out);
	for (const unsigned char *p = (const unsigned char *)w; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", out);
		else if (*p < 0x20 || *p == 0x7f)
			fputc('?', out);
		else
			fputc(*p, out);
	}
	fputc('\'', out);
}

/* A string of the language: "...", with its escapes */
static void string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || *s == '$')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else if (*s == '\t')
			fputs("\\t", out);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

struct script_arg {
	const struct record *r;
	char *trace_abs; /* the trace's absolute path */
};

static void fill_script(FILE *out, const void *arg)
{
	const struct script_arg *a = arg;
	const struct record *r = a->r;
	char when[64];
	struct tm tm;

	gmtime_r(&r->when, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("# fbrun record: a workload that replays what a command did\n"
	      "# command:  ",
	      out);
	for (int i = 0; i < r->argc; i++) {
		if (i)
			fputc(' ', out);
		comment_word(out, r->argv[i]);
	}
	fputs("\n# in:       ", out);
	comment_word(out, r->cwd);
	fprintf(out, "\n# recorded: %s; the command %s\n", when,
		record_status_text(r));
	fputs("# trace:    ", out);
	comment_word(out, a->trace_abs);
	fprintf(out,
		" (strace -f -ttt -T -y: %zu process(es))\n"
		"# run it:   fbrun ",
		trace_nstreams(r->trace));
	comment_word(out, r->script_name);
	fputs("\n"
	      "#   -D dir=DIR replays in DIR (default $tmpdir/fbrun-record),\n"
	      "#   -D clients=N replays it N times at once, each in a tree "
	      "of its own,\n"
	      "#   -D passes=N has each client replay it N times (0: until "
	      "-t ends the run),\n"
	      "#   -D trace=FILE reads the trace from FILE if it has moved.\n"
	      "# Its rows: replay.open, replay.read, ... (doc/running.md, "
	      "\"Recording a\n"
	      "# command\").\n"
	      "set $trace=",
	      out);
	string(out, a->trace_abs);
	fputs("\n"
	      "set $dir=\"$tmpdir/fbrun-record\"\n"
	      "set $clients=1\n"
	      "set $passes=1\n"
	      "set $runtime=86400\n"
	      "set mode quit alldone\n"
	      "define fileset name=record,path=$dir,entries=0,dirwidth=1\n"
	      "define trace name=trace,path=$trace,format=strace\n"
	      "define process name=record {\n"
	      "  thread name=client,instances=$clients {\n"
	      "    flowop replay name=replay,trace=trace,filesetname=record,"
	      "value=$passes\n"
	      "  }\n"
	      "}\n"
	      "run $runtime\n",
	      out);
}

int record_write_script(const struct record *r)
{
	struct script_arg a = { .r = r };
	char *joined;
	int rc;

	joined = r->trace_name[0] == '/'
			 ? xstrdup(r->trace_name)
			 : xasprintf("%s/%s", r->cwd, r->trace_name);
	a.trace_abs = path_lexical(joined);
	free(joined);
	rc = outfile_write(r->script_name, fill_script, &a);
	free(a.trace_abs);
	return rc;
}

/* The model's text, made in memory first: nothing to model writes nothing. */
struct model_text {
	char *buf;
	size_t len;
};

static void fill_model(FILE *out, const void *arg)
{
	const struct model_text *m = arg;

	fwrite(m->buf, 1, m->len, out);
}

int record_write_model(const struct record *r)
{
	struct model_text m = { NULL, 0 };
	FILE *mem = open_memstream(&m.buf, &m.len);
	int rc;

	if (!mem)
		return fb_error("cannot fit the model: %s", strerror(errno));
	rc = model_write(r->trace, r->trace_name, mem);
	if (fclose(mem) != 0 || rc < 0) {
		free(m.buf);
		return rc < 0 ? -1
			      : fb_error("cannot fit the model: %s",
					 strerror(errno));
	}
	rc = outfile_write(r->script_name, fill_model, &m);
	free(m.buf);
	return rc;
}

/* The recording's operations per type: how many, failed, bytes. */
struct tally {
	uint64_t n[TOP_COUNT], failed[TOP_COUNT], bytes[TOP_COUNT], all;
};

static void count(const struct trace *t, struct tally *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t s = 0; s < trace_nstreams(t); s++) {
		const struct trace_op *op = trace_stream_ops(t, s);

		for (size_t i = 0; i < trace_stream_nops(t, s); i++) {
			c->n[op[i].type]++;
			c->all++;
			if (op[i].err)
				c->failed[op[i].type]++;
			else if (op[i].type == TOP_READ ||
				 op[i].type == TOP_WRITE)
				c->bytes[op[i].type] += (uint64_t)op[i].result;
		}
	}
}

void record_summary(const struct record *r, FILE *out)
{
	struct tally c;
	uint64_t ignored = 0;

	count(r->trace, &c);
	fprintf(out, "recorded: ");
	for (int i = 0; i < r->argc; i++) {
		if (i)
			fputc(' ', out);
		comment_word(out, r->argv[i]);
	}
	fprintf(out, " (%s)\n", record_status_text(r));
	if (r->stop_signal)
		fprintf(out, "cut short by signal %d (%s): the trace holds what "
			     "was recorded until then\n",
			r->stop_signal, strsignal(r->stop_signal));
	if (r->left)
		fprintf(out, "the command left %zu process%s running, let go "
			     "untraced: %s later calls are not in the trace\n",
			r->left, r->left == 1 ? "" : "es",
			r->left == 1 ? "its" : "their");
	if (r->detached)
		fprintf(out, "%zu call%s under way when strace let go, kept as "
			     "unfinished\n",
			r->detached, r->detached == 1 ? "" : "s");
	fprintf(out, "wrote %s (strace's output) and %s (%s)\n",
		r->trace_name, r->script_name,
		r->model ? "a synthetic script fitted to it"
			 : "a workload that replays it");
	fprintf(out, "%zu process(es), %" PRIu64 " operations to replay:\n",
		trace_nstreams(r->trace), c.all);
	for (int k = 0; k < TOP_COUNT; k++) {
		if (!c.n[k])
			continue;
		fprintf(out, "  %-10s %10" PRIu64, trace_op_name(k), c.n[k]);
		if (k == TOP_READ || k == TOP_WRITE)
			fprintf(out, "  %" PRIu64 " bytes", c.bytes[k]);
		if (c.failed[k])
			fprintf(out, "  (%" PRIu64 " failed in the recording)",
				c.failed[k]);
		fputc('\n', out);
	}
	for (size_t i = 0; i < trace_nignored(r->trace); i++) {
		const char *name;
		uint64_t n;

		trace_ignored(r->trace, i, &name, &n);
		fprintf(out, "%s %s %" PRIu64, i ? "," : "not replayed (not on "
			"files, or not modelled):", name, n);
		ignored += n;
	}
	if (ignored)
		fputc('\n', out);
	fprintf(out, "%s: fbrun ", r->model ? "run the model" : "replay it");
	comment_word(out, r->script_name);
	fputc('\n', out);
}
