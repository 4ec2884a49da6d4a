/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A script run with fbrun's options: read (in a job, rank 0 reads it
 * for all), parsed, compiled with the -D values, then dumped or run,
 * once or --repeat times, with --interval-log around the runs.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "cli/run.h"
#include "engine/engine.h"
#include "engine/run/ivlog.h"
#include "engine/sys/timeline.h"
#include "lang/ast.h"
#include "lang/compile.h"
#include "lang/datapat.h"
#include "lang/ir.h"
#include "lang/script.h"
#include "mpi/job.h"
#include "report/repeat.h"
#include "report/report.h"
#include "util/diag.h"
#include "util/msg.h"
#include "util/source.h"
#include "util/util.h"

#define MAX_ERRORS 20

/* The -D options as a source, so notes can point at them. */
static struct source *defines_source(const struct cli_options *o,
				     struct loc **locs)
{
	char *text = xstrdup(""), *next;
	struct source *src;

	*locs = xcalloc(o->ndefines ? o->ndefines : 1, sizeof(**locs));
	for (size_t i = 0; i < o->ndefines; i++) {
		int start = (int)strlen(text) + 3;

		(*locs)[i] = (struct loc){ start,
					   start + (int)strlen(o->defines[i].name) };
		next = xasprintf("%s-D %s=%s\n", text, o->defines[i].name,
				 o->defines[i].value);
		free(text);
		text = next;
	}
	src = source_from_string("<command line>", text, strlen(text));
	free(text);
	return src;
}

/*
 * The script: read here, or in a job, read by rank 0 and its text sent
 * to every rank, so only the launching node needs the file.
 */
static struct script *load_script(const struct cli_options *o)
{
	struct script *sc = NULL;
	const struct source *src;
	char *text;
	size_t len = 0;

	if (o->script_text)
		return script_from_text(o->script, o->script_text,
					strlen(o->script_text));
	if (!o->peers || job_rank(o->peers) == 0)
		sc = script_new(o->script);
	if (!o->peers)
		return sc;
	src = sc ? script_source(sc) : NULL;
	text = job_share(o->peers, src ? source_text(src) : NULL,
			   src ? source_len(src) : 0, &len);
	if (text && job_rank(o->peers) != 0)
		sc = script_from_text(o->script, text, len);
	free(text);
	return sc;
}

/*
 * --repeat N: the workload run N times, its filesets made once (the runs
 * are a series, as fbrun bonnie's phases) unless --fresh; a failed or
 * interrupted run ends the series, and what was measured is summarised.
 */
static int run_repeated(const struct cli_options *o, const struct workload *w,
			struct engine_opts *eo, const struct report_dest *dest)
{
	struct repeat *rp = repeat_new(dest, (size_t)o->repeat);
	int rc = FB_EXIT_OK;

	eo->deliver = repeat_deliver;
	eo->deliver_arg = rp;
	for (uint64_t i = 0; i < o->repeat; i++) {
		eo->series = eo->series_reuse = !o->fresh;
		eo->series_last = i + 1 == o->repeat;
		rc = engine_run(w, eo);
		/* in a job the agreed status says it, signals included */
		if (rc != FB_EXIT_OK || (!o->peers && timeline_signalled))
			break;
	}
	/* in a job, rank 0 keeps the runs and says what they were */
	if (o->peers && job_rank(o->peers) != 0) {
		repeat_free(rp);
		return rc;
	}
	if (repeat_count(rp) < o->repeat)
		fb_warning("%zu of %" PRIu64 " runs done; their statistics "
			   "follow",
			   repeat_count(rp), o->repeat);
	if (repeat_finish(rp) < 0 && rc == FB_EXIT_OK)
		rc = FB_EXIT_RUN;
	repeat_free(rp);
	return rc;
}

/*
 * The run with --interval-log: the log is rank 0's to write, as -o is,
 * and closed after every run of --repeat; a log that could not be
 * written fails the run (exit 1), as -o does.
 */
static int run_logged(const struct cli_options *o, const struct workload *w,
		      struct engine_opts *eo, const struct report_dest *dest)
{
	int rc;

	if (o->interval_log && (!o->peers || job_rank(o->peers) == 0))
		eo->ivlog = ivlog_new(o->interval_log);
	rc = o->repeat ? run_repeated(o, w, eo, dest) : engine_run(w, eo);
	if (ivlog_close(eo->ivlog) < 0 && rc == FB_EXIT_OK)
		rc = FB_EXIT_RUN;
	ivlog_free(eo->ivlog);
	eo->ivlog = NULL;
	return rc;
}

int cli_run(const struct cli_options *o)
{
	struct diag *d;
	struct script *sc = load_script(o);
	struct source *cli;
	const struct workload *w;
	struct compile_opts copts = { 0 };
	struct loc *locs = NULL;
	unsigned rank = o->peers ? job_rank(o->peers) : 0;
	/* rank 0 tells what is wrong with the script; the others agree */
	FILE *sink = rank != 0 ? fopen("/dev/null", "w") : NULL;
	int rc = FB_EXIT_USAGE;

	if (!sc) {
		if (sink)
			fclose(sink);
		return FB_EXIT_USAGE;
	}
	d = diag_new(sink ? sink : stderr, MAX_ERRORS);
	msg_mute(rank != 0);
	cli = defines_source(o, &locs);
	if (script_parse(sc, d) < 0) {
		/* the same text: every rank finds the same error */
		msg_mute(false);
		goto out;
	}
	if (o->action == ACT_DUMP_AST) {
		ast_dump(stdout, script_source(sc), script_ast(sc));
		rc = FB_EXIT_OK;
		goto out;
	}
	copts.defines = o->defines;
	copts.ndefines = o->ndefines;
	copts.define_unused_warn = o->define_unused_warn;
	copts.cli_src = cli;
	copts.define_locs = locs;
	copts.rank = rank;
	copts.nranks = o->peers ? job_size(o->peers) : 1;
	copts.rank_dirs = o->peers != NULL;
	copts.seed = o->run.seed;
	w = script_compile(sc, &copts, d);
	if (o->peers && job_agree(o->peers, w ? 0 : 1)) {
		msg_mute(false);
		if (w && rank == 0)
			fb_error("the script does not check on every rank (a "
				 "value that depends on $rank?); nothing was "
				 "run");
		w = NULL;
	}
	msg_mute(false);
	if (!w)
		goto out;
	rc = FB_EXIT_OK;
	if (o->action == ACT_DUMP_IR)
		workload_dump(stdout, w);
	else if (o->action == ACT_RUN) {
		struct engine_opts eo = o->run;
		struct report_dest dest = { o->format, o->run.output, NULL,
					    "" };

		datapat_format(dest.data, sizeof(dest.data), o->run.data);
		eo.script = dest.script = source_name(script_source(sc));
		if (!o->script_text && strcmp(o->script, "-") != 0)
			eo.script_file = o->script;
		/* JSON or CSV on stdout must stay parseable: no log lines */
		if (o->format != FORMAT_TEXT)
			eo.quiet = eo.data_on_stdout = true;
		eo.deliver = report_deliver;
		eo.deliver_arg = &dest;
		if (o->peers) {
			eo.peers = job_engine(o->peers, o->stonewall);
			/* rank 0 speaks for the job and writes its results */
			/* each rank draws its own numbers from the seed */
			if (rank != 0)
				eo.quiet = true, eo.output = NULL;
		}
		rc = o->runner ? o->runner(o, w, &eo, o->runner_arg) :
				 run_logged(o, w, &eo, &dest);
	}
out:
	diag_finish(d);
	if (diag_error_count(d) && rc == FB_EXIT_OK)
		rc = FB_EXIT_USAGE;
	script_free(sc);
	source_free(cli);
	free(locs);
	diag_free(d);
	if (sink)
		fclose(sink);
	return rc;
}
