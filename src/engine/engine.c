/*
 * Running a compiled workload: its statements in order and each run's
 * results handed to the caller (engine.h); the filesets' lifetime is in
 * engine_filesets.c.
 */
#include "engine/engine.h"

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine_int.h"
#include "engine/results.h"
#include "engine/run.h"
#include "util/msg.h"
#include "util/util.h"

/* Log lines carry seconds since start, as filebench's do. */
void engine_log(struct engine *e, const char *fmt, ...)
{
	va_list ap;

	if (e->o->quiet)
		return;
	printf("%.3f: ", (double)(now_ns() - e->t0) / 1e9);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	/* nobody reads the lines any more: stop, as for SIGINT */
	if (fflush(stdout) == EOF && errno == EPIPE)
		timeline_interrupt(SIGPIPE);
}

static int do_run(struct engine *e, const struct ir_stmt *st)
{
	struct run_opts ro = { .runtime_ns = e->o->runtime_s * 1000000000u,
			       .continue_on_error = e->o->continue_on_error,
			       .quiet = e->o->quiet,
			       .seed = e->o->seed,
			       .data = e->o->data,
			       .interval_ns = e->o->interval_s * 1000000000u,
			       .warmup_ns = e->o->warmup_s * 1000000000u,
			       .steady_tol = e->o->steady_pct / 100,
			       .interval_flowops = e->o->interval_flowops,
			       /* JSON or CSV on stdout must stay parseable */
			       .lines = e->o->data_on_stdout ? stderr : stdout };
	struct run run = { .w = e->w, .opts = &ro };
	struct results *r;
	time_t started = time(NULL);
	uint64_t nthreads = workload_nworkers(e->w);
	int rc;

	rc = engine_create_filesets(e);
	if (rc || timeline_signalled)
		return rc; /* engine_run reports what there is */
	e->reported = true;
	run.filesets = e->filesets;
	ro.progress = !ro.quiet && !ro.interval_ns && isatty(STDERR_FILENO);
	engine_log(e, "Starting %" PRIu64 " thread%s in %zu process%s", nthreads,
	      nthreads == 1 ? "" : "s", e->w->nprocesses,
	      e->w->nprocesses == 1 ? "" : "es");
	if (e->o->warmup_s)
		engine_log(e, "Warming up for %" PRIu64 " seconds, not measured",
			   e->o->warmup_s);
	engine_log(e, "Running for %" PRIu64 " seconds...",
	      e->o->runtime_s ? e->o->runtime_s : (uint64_t)st->n);
	rc = run_workload(&run, st) < 0 ? 1 : 0;
	r = results_collect(&run);
	engine_log(e, "Run took %.1f seconds", r->secs);
	if (r->steady.tol > 0 && !r->steady.judged)
		fb_warning("steady state not judged: %zu intervals in the last "
			   "third of the run, 2 or more needed (a shorter "
			   "--interval or a longer run)",
			   r->steady.n);
	else if (r->steady.tol > 0 && !r->steady.steady)
		fb_warning("the run did not reach a steady state: the last "
			   "third's ops/s are up to %.1f%% off their mean "
			   "(tolerance %g%%)",
			   r->steady.dev * 100, r->steady.tol * 100);
	if (e->o->warmup_s && !r->warm_done)
		fb_warning("the run ended during its warm-up: the results are "
			   "of the warm-up");
	if (r->reason == STOP_SIGNAL)
		fb_warning("interrupted by %s after %.1f s; results so far",
			   timeline_signal_name(timeline_signalled), r->secs);
	else if (r->note[0] && r->reason == STOP_DONE &&
		 e->w->quit == QUIT_TIMEOUT)
		fb_warning("run ended early after %.1f s: %s", r->secs,
			   r->note);
	else if (r->note[0] && r->reason == STOP_DONE)
		engine_log(e, "Run done after %.1f s: %s", r->secs, r->note);
	fflush(stdout);
	r->started = started;
	if (e->o->deliver(r, e->o->deliver_arg) < 0 && !rc)
		rc = 1;
	if (r->error[0]) {
		fb_error("%s", r->error);
		rc = 1;
	}
	results_free(r);
	run_release(&run);
	return rc;
}

/*
 * The run did not start: a failure or a signal while the filesets were
 * made or before.  What there is is reported all the same (no operation,
 * ended_by "error" or "signal", the error), so -o always has its
 * results.  Returns 1 if they could not be written.
 */
static int report_unrun(struct engine *e)
{
	struct run_opts ro = { 0 };
	struct run run = { .w = e->w, .opts = &ro };
	struct results *r;
	int rc = 0;

	run.ctl = timeline_new(0);
	timeline_stop(run.ctl, timeline_signalled ? STOP_SIGNAL : STOP_ERROR);
	run.start_ns = run.end_ns = now_ns();
	r = results_collect(&run);
	if (e->error[0])
		snprintf(r->error, sizeof(r->error), "%s", e->error);
	else if (timeline_signalled)
		fb_warning("interrupted by %s before the run; nothing was "
			   "measured",
			   timeline_signal_name(timeline_signalled));
	r->started = time(NULL);
	if (e->o->deliver(r, e->o->deliver_arg) < 0)
		rc = 1;
	results_free(r);
	timeline_free(run.ctl);
	return rc;
}

/*
 * A system statement.  A command killed by SIGINT or SIGQUIT is the
 * user's Ctrl-C (the terminal sends it to fbrun and the command alike,
 * and fbrun's own handler may not have run): fbrun stops, as sh and
 * make do.
 */
static void run_system(const char *cmd)
{
	int status = timeline_command(cmd);

	if (status < 0) {
		fb_warning("cannot run system \"%s\": %s", cmd,
			   strerror(errno));
	} else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		fb_warning("system \"%s\" exited with status %d", cmd,
			   WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		fb_warning("system \"%s\" was killed by signal %d (%s)", cmd,
			   sig, strsignal(sig));
		if (sig == SIGINT || sig == SIGQUIT)
			timeline_interrupt(SIGINT);
	}
}

static void list(struct engine *e, const char *what)
{
	const struct workload *w = e->w;

	if (!strcmp(what, "flowop") || !strcmp(what, "flowops")) {
		for (size_t i = 0; i < w->nflowops; i++)
			engine_log(e, "flowop %s (%s) in thread %s", w->flowops[i]->name,
			      w->flowops[i]->type < FO_NTYPES ?
				      flowop_info[w->flowops[i]->type].name :
				      w->flowops[i]->composite,
			      w->threads[w->flowops[i]->thread].name);
		return;
	}
	for (size_t i = 0; i < w->nfilesets; i++)
		engine_log(e, "fileset %s: %" PRId64 " entries under %s",
		      w->filesets[i].name, w->filesets[i].entries,
		      w->filesets[i].path);
}

int engine_run(const struct workload *w, const struct engine_opts *o)
{
	struct engine e = { .w = w, .o = o, .t0 = now_ns() };
	struct ir_stmt implicit = { .kind = IS_RUN, .n = 60 };
	int rc = 0;

	timeline_catch_signals();
	engine_log(&e, "fbrun %s: %s", PACKAGE_VERSION, o->script);
	if (engine_check_roots(w) || engine_check_output(&e))
		return 2; /* before any statement runs */
	/*
	 * Interrupted between two runs of a series: take the filesets the
	 * last run kept, so they are removed below.
	 */
	if (o->series && timeline_signalled) {
		engine_create_filesets(&e);
		rc = 1;
	}
	for (size_t i = 0; i < w->nstmts && !rc && !timeline_signalled; i++) {
		const struct ir_stmt *st = &w->stmts[i];

		switch (st->kind) {
		case IS_ECHO:
			engine_log(&e, "%s", st->text);
			break;
		case IS_SYSTEM:
			run_system(st->text);
			break;
		case IS_SLEEP: {
			struct timeline *ctl = timeline_new(0);

			/* sliced, so SIGINT is seen within a second */
			for (int64_t s = 0; s < st->n * 10 && !timeline_signalled &&
					    !timeline_check_stdout();
			     s++)
				timeline_sleep(ctl, 100000000u);
			timeline_free(ctl);
			break;
		}
		case IS_CREATE_FILES:
			rc = engine_create_filesets(&e);
			break;
		case IS_RUN:
			rc = do_run(&e, st);
			goto out;
		case IS_DEBUG:
			e.debug = (int)st->n;
			break;
		case IS_VERSION:
			engine_log(&e, "fbrun %s", PACKAGE_VERSION);
			break;
		case IS_LIST:
			list(&e, st->text);
			break;
		}
	}
	if (!rc && !timeline_signalled && !w->has_run && w->nprocesses > 0) {
		engine_log(&e, "The script has no 'run'; running for 60 seconds");
		rc = do_run(&e, &implicit);
	}
out:
	/* stopped before the run: its (empty) results, unless refused */
	if (!e.reported && rc != 2 && (rc || timeline_signalled) &&
	    (w->has_run || w->nprocesses > 0) && report_unrun(&e) && !rc)
		rc = 1;
	if (engine_remove_filesets(&e, rc != 0 || timeline_signalled) && !rc)
		rc = 1;
	if (timeline_signalled && !rc)
		rc = 1;
	return rc;
}
