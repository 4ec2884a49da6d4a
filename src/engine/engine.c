/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
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

#include "engine/diskstats.h"
#include "engine/engine_int.h"
#include "engine/ivlog.h"
#include "engine/results.h"
#include "engine/run.h"
#include "results/gather.h"
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

int engine_settle(struct engine *e, int rc)
{
	const struct engine_peers *p = e->o->peers;

	if (!p)
		return rc;
	return p->agree(p->arg, rc ? rc : timeline_signalled ? 1 : 0);
}

/*
 * Whether to go no further.  In a job only the agreed status counts (a
 * signal is in it): a process that looked at its own signals here could
 * take another path than the others.
 */
static bool halted(const struct engine *e, int rc)
{
	return e->o->peers ? rc != 0 : rc || timeline_signalled;
}

/*
 * Hand the results on: alone, as they are; in a job, every process's to
 * rank 0, which hands on the job's (merged) and, if say_error, says the
 * job's first failure.  Returns what deliver did.
 */
static int deliver(struct engine *e, struct results *r, bool say_error)
{
	const struct engine_peers *p = e->o->peers;
	struct results *job;
	char **texts, *mine, err[128];
	size_t len = 0;
	int rc;

	if (!p)
		return e->o->deliver(r, e->o->deliver_arg);
	mine = results_serialise(r, p->host, &len);
	texts = p->gather(p->arg, mine ? mine : "", mine ? len : 0);
	free(mine);
	if (!texts)
		return 0; /* not rank 0: it reports for the job */
	job = results_merge_texts(r, texts, p->nranks, err, sizeof(err));
	for (unsigned i = 0; i < p->nranks; i++)
		free(texts[i]);
	free(texts);
	if (!job) {
		fb_error("%s", err);
		return -1;
	}
	rc = e->o->deliver(job, e->o->deliver_arg);
	/* the job's first failure, with its rank (do_run prints none) */
	if (job->error[0] && say_error)
		fb_error("%s", job->error);
	results_free(job);
	return rc;
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
			       .lines = e->o->data_on_stdout ? stderr : stdout,
			       .ivlog = e->o->ivlog,
			       .peers = e->o->peers };
	struct run run = { .w = e->w, .opts = &ro };
	struct results *r;
	time_t started = time(NULL);
	uint64_t nthreads = workload_nworkers(e->w);
	int rc;

	rc = engine_settle(e, engine_create_filesets(e));
	if (halted(e, rc))
		return rc; /* engine_run reports what there is */
	e->reported = true;
	run.filesets = e->filesets;
	run.disks = disks_new(e->w, e->filesets);
	ro.progress = !ro.quiet && !ro.interval_ns && !e->o->peers &&
		      isatty(STDERR_FILENO);
	if (e->o->peers)
		engine_log(e, "Starting %" PRIu64 " thread%s in %zu process%s "
			   "on each of %u ranks", nthreads,
			   nthreads == 1 ? "" : "s", e->w->nprocesses,
			   e->w->nprocesses == 1 ? "" : "es", e->o->peers->nranks);
	else
		engine_log(e, "Starting %" PRIu64 " thread%s in %zu process%s",
			   nthreads, nthreads == 1 ? "" : "s", e->w->nprocesses,
			   e->w->nprocesses == 1 ? "" : "es");
	if (e->o->warmup_s)
		engine_log(e, "Warming up for %" PRIu64 " seconds, not measured",
			   e->o->warmup_s);
	engine_log(e, "Running for %" PRIu64 " seconds...",
	      e->o->runtime_s ? e->o->runtime_s : (uint64_t)st->n);
	ivlog_next_run(e->o->ivlog);
	rc = run_workload(&run, st) < 0 ? 1 : 0;
	r = results_collect(&run);
	engine_log(e, "Run took %.1f seconds", r->secs);
	if (!e->lead)
		; /* rank 0 speaks for the job */
	else if (r->steady.tol > 0 && !r->steady.judged)
		fb_warning("steady state not judged: %zu intervals in the last "
			   "third of the run, 2 or more needed (a shorter "
			   "--interval or a longer run)",
			   r->steady.n);
	else if (r->steady.tol > 0 && !r->steady.steady)
		fb_warning("the run did not reach a steady state: the last "
			   "third's ops/s are up to %.1f%% off their mean "
			   "(tolerance %g%%)",
			   r->steady.dev * 100, r->steady.tol * 100);
	if (e->o->warmup_s && !r->warm_done && e->lead)
		fb_warning("the run ended during its warm-up: the results are "
			   "of the warm-up");
	if (!e->lead)
		; /* rank 0 speaks for the job */
	else if (r->reason == RESULTS_END_SIGNAL)
		fb_warning("interrupted by %s after %.1f s; results so far",
			   timeline_signal_name(timeline_signalled), r->secs);
	else if (r->note[0] && r->reason == RESULTS_END_DONE &&
		 e->w->quit == QUIT_TIMEOUT)
		fb_warning("run ended early after %.1f s: %s", r->secs,
			   r->note);
	else if (r->note[0] && r->reason == RESULTS_END_DONE)
		engine_log(e, "Run done after %.1f s: %s", r->secs, r->note);
	fflush(stdout);
	r->started = started;
	if (deliver(e, r, true) < 0 && !rc)
		rc = 1;
	if (r->error[0]) {
		if (!e->o->peers) /* else deliver said the job's */
			fb_error("%s", r->error);
		rc = 1;
	}
	results_free(r);
	run_release(&run);
	disks_free(run.disks);
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
	struct run_opts ro = { .seed = e->o->seed };
	struct run run = { .w = e->w, .opts = &ro };
	struct results *r;
	int rc = 0;

	run.ctl = timeline_new(0);
	timeline_stop(run.ctl, timeline_signalled ? STOP_SIGNAL : STOP_ERROR);
	run.start_ns = run.end_ns = now_ns();
	r = results_collect(&run);
	if (e->error[0])
		snprintf(r->error, sizeof(r->error), "%s", e->error);
	else if (timeline_signalled && e->lead)
		fb_warning("interrupted by %s before the run; nothing was "
			   "measured",
			   timeline_signal_name(timeline_signalled));
	r->started = time(NULL);
	/* each process said why it could not start */
	if (deliver(e, r, false) < 0)
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
	struct engine e = { .w = w, .o = o, .t0 = now_ns(),
			    .lead = !o->peers || o->peers->rank == 0 };
	struct ir_stmt implicit = { .kind = IS_RUN, .n = 60 };
	int rc = 0;
	bool stop = false;

	timeline_catch_signals();
	/* the seed said first: --seed N draws the same numbers again */
	engine_log(&e, "fbrun %s: %s, seed %" PRIu64, PACKAGE_VERSION,
		   o->script, o->seed);
	/* on every rank of a job: its checks are collective */
	rc = engine_check_shared(w, o);
	rc = engine_check_devices(w, o) || rc;
	rc = engine_settle(&e, rc || engine_check_roots(w) ||
					       engine_check_output(&e) ?
				       2 :
				       0);
	if (rc == 2)
		return 2; /* before any statement runs */
	/*
	 * Interrupted between two runs of a series: take the filesets the
	 * last run kept, so they are removed below.  In a job every rank
	 * does, as agreed (creating filesets is collective there).
	 */
	if (o->series && (o->peers ? rc != 0 : timeline_signalled)) {
		engine_create_filesets(&e);
		rc = 1;
	} else {
		rc = 0;
	}
	for (size_t i = 0; i < w->nstmts; i++) {
		const struct ir_stmt *st = &w->stmts[i];

		/* a job's processes go on together or stop together */
		rc = engine_settle(&e, rc);
		if (halted(&e, rc)) {
			stop = true;
			break;
		}
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
			rc = engine_settle(&e, rc);
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
	if (!stop)
		rc = engine_settle(&e, rc);
	if (!halted(&e, rc) && !w->has_run && w->nprocesses > 0) {
		engine_log(&e, "The script has no 'run'; running for 60 seconds");
		rc = engine_settle(&e, do_run(&e, &implicit));
	}
out:
	/* stopped before the run: its (empty) results, unless refused */
	if (!e.reported && rc != 2 && halted(&e, rc) &&
	    (w->has_run || w->nprocesses > 0) && report_unrun(&e) && !rc)
		rc = 1;
	if (engine_remove_filesets(&e, rc != 0 || timeline_signalled) && !rc)
		rc = 1;
	if (timeline_signalled && !rc)
		rc = 1;
	return engine_settle(&e, rc);
}
