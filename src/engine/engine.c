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
#include <limits.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/fileset/fileset.h"
#include "engine/run/diskstats.h"
#include "engine/engine_int.h"
#include "engine/run/ivlog.h"
#include "engine/results.h"
#include "engine/run/run.h"
#include "engine/sys/cachelimit.h"
#include "results/gather.h"
#include "util/msg.h"
#include "util/util.h"

int engine_settle(struct engine *e, int rc)
{
	const struct engine_peers *p = e->peers;

	return p->agree(p->arg, rc ? rc : timeline_signalled ? 1 : 0);
}


/*
 * Hand the results on: alone, as they are; in a job, every process's to
 * rank 0, which hands on the job's (merged) and, if say_error, says the
 * job's first failure.  Returns what deliver did.
 */
static int deliver(struct engine *e, struct results *r, bool say_error)
{
	const struct engine_peers *p = e->peers;
	struct results *job;
	char **texts, *mine, err[128];
	size_t len = 0;
	int rc;

	if (p->alone)
		return e->o->deliver(r, e->o->deliver_arg);
	mine = results_gather_text(r, p->host, &len);
	texts = p->gather(p->arg, mine ? mine : "", mine ? len : 0);
	free(mine);
	if (!texts)
		return 0; /* not rank 0: it reports for the job */
	job = results_gather_merge(r, texts, p->nranks, err, sizeof(err));
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

/* What the run is about to do, in the log. */
/*
 * The passes of a trace the run's replays make, when they all say the
 * same fixed number (value=, 0: as many as the time allows); -1 for a
 * run without replays, or whose replays differ.
 */
static int64_t replay_passes(const struct workload *w)
{
	int64_t n = -1;

	for (size_t i = 0; i < w->nflowops; i++) {
		const struct ir_flowop *f = w->flowops[i];
		int64_t v;

		if (f->type != FO_REPLAY || f->replay_row)
			continue;
		if (f->value.kind == IRV_NONE)
			v = 0;
		else if (f->value.kind == IRV_INT)
			v = f->value.i > 0 ? f->value.i : 0;
		else
			return -1;
		if (n >= 0 && v != n)
			return -1;
		n = v;
	}
	return n;
}

static void say_start(struct engine *e, const struct ir_stmt *st)
{
	uint64_t nthreads = workload_nworkers(e->w), secs;
	size_t np = e->w->nprocesses;
	char ranks[64] = "";
	int64_t passes;

	if (!e->peers->alone)
		snprintf(ranks, sizeof(ranks), " on each of %u ranks",
			 e->peers->nranks);
	engine_log(e, "Starting %" PRIu64 " thread%s in %zu process%s%s",
		   nthreads, nthreads == 1 ? "" : "s", np, np == 1 ? "" : "es",
		   ranks);
	if (e->o->warmup_s)
		engine_log(e, "Warming up for %" PRIu64 " seconds, not measured",
			   e->o->warmup_s);
	secs = e->o->runtime_s ? e->o->runtime_s : (uint64_t)st->n;
	/* a replay ends with its passes: the time is only their limit */
	if ((passes = replay_passes(e->w)) > 0)
		engine_log(e,
			   "Running for at most %" PRIu64 " seconds: until the "
			   "trace is replayed %" PRId64 " time%s...",
			   secs, passes, passes == 1 ? "" : "s");
	else if (passes == 0)
		engine_log(e,
			   "Running for %" PRIu64 " seconds, the trace replayed "
			   "over and over...",
			   secs);
	else
		engine_log(e, "Running for %" PRIu64 " seconds...", secs);
}

/* How the run ended, when it is worth a word (rank 0 speaks for a job). */
static void say_end(struct engine *e, const struct results *r)
{
	engine_log(e, "Run took %.1f seconds", r->secs);
	if (!e->lead)
		return;
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
	if (r->reason == RESULTS_END_SIGNAL)
		fb_warning("interrupted by %s after %.1f s; results so far",
			   timeline_signal_name(timeline_signalled), r->secs);
	else if (r->note[0] && r->reason == RESULTS_END_DONE &&
		 e->w->quit == QUIT_TIMEOUT && !r->note_done)
		fb_warning("run ended early after %.1f s: %s", r->secs,
			   r->note);
	else if (r->note[0] && r->reason == RESULTS_END_DONE)
		engine_log(e, "Run done after %.1f s: %s", r->secs, r->note);
}

/* --cache-limit's cgroup made, not entered: 0, or 1 after a message. */
static int cache_setup(struct engine *e)
{
	char err[PATH_MAX + 256];

	if ((e->cl = cachelimit_new(e->o->cache_limit, err, sizeof(err))))
		return 0;
	snprintf(e->error, sizeof(e->error), "--cache-limit: %.900s", err);
	fb_error("%s", e->error);
	return 1;
}

/* What the run's at_ready hook needs: --cache-limit's cgroup entered. */
struct cache_entry {
	struct engine *e;
	uint64_t dropped; /* files written back and dropped */
};

/*
 * Into --cache-limit's cgroup once the filesets are made and the threads
 * have touched their buffers (the run's at_ready: neither is charged to
 * it, so the bound is the page cache the run reads and writes through),
 * then the filesets written back and dropped from the page cache, so the
 * bound holds from the first read.  0, or -1 with err set.
 */
static int cache_enter(void *arg, char *err, size_t errlen)
{
	struct cache_entry *c = arg;
	struct engine *e = c->e;
	char why[PATH_MAX + 256], size[32];

	if (cachelimit_enter(e->cl, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "--cache-limit: %s", why);
		return -1;
	}
	for (size_t i = 0; i < e->w->nfilesets; i++) {
		if (!e->filesets[i] ||
		    fileset_drop_cache(e->filesets[i], &c->dropped) == 0)
			continue;
		snprintf(err, errlen,
			 "--cache-limit: cannot write back fileset %s: %s",
			 fileset_name(e->filesets[i]), strerror(errno));
		return -1;
	}
	format_size(size, sizeof(size), (int64_t)e->o->cache_limit);
	engine_log(e,
		   "Page cache limited to %s (memory cgroup %s, %s); %" PRIu64
		   " files written back and dropped from it",
		   size, cachelimit_kind(e->cl), cachelimit_path(e->cl),
		   c->dropped);
	return 0;
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
			       .peers = e->peers,
			       .load = e->o->load };
	struct run run = { .w = e->w, .opts = &ro };
	struct cache_entry ce = { .e = e };
	struct results *r;
	time_t started = time(NULL);
	int rc;

	/* only the agreed status counts (a signal is in it) */
	rc = engine_settle(e, engine_create_filesets(e));
	if (e->cl) {
		ro.at_ready = cache_enter;
		ro.at_ready_arg = &ce;
	}
	if (rc)
		return rc; /* engine_run reports what there is */
	e->reported = true;
	run.filesets = e->filesets;
	run.disks = diskstats_new(e->w, e->filesets);
	ro.progress = !ro.quiet && !ro.interval_ns && e->peers->alone &&
		      isatty(STDERR_FILENO);
	say_start(e, st);
	ivlog_next_run(e->o->ivlog);
	rc = run_workload(&run, st) < 0 ? 1 : 0;
	if (e->cl) /* the next run's threads touch their buffers outside */
		cachelimit_leave(e->cl);
	r = results_collect(&run);
	if (e->cl) {
		r->cache_limit = e->o->cache_limit;
		r->cache_files = ce.dropped;
		snprintf(r->cache_cgroup, sizeof(r->cache_cgroup), "%s",
			 cachelimit_kind(e->cl));
	}
	say_end(e, r);
	fflush(stdout);
	r->started = started;
	if (deliver(e, r, true) < 0 && !rc)
		rc = 1;
	if (r->error[0]) {
		if (e->peers->alone) /* else deliver said the job's */
			fb_error("%s", r->error);
		rc = 1;
	}
	results_free(r);
	run_release(&run);
	diskstats_free(run.disks);
	return rc;
}

/*
 * The run did not start: a failure or a signal while the filesets were
 * made or before.  What there is is reported all the same (no operation,
 * ended_by "error" or "signal", the error), so -o always has its
 * results.
 */
static void report_unrun(struct engine *e)
{
	struct run_opts ro = { .seed = e->o->seed, .peers = e->peers };
	struct run run = { .w = e->w, .opts = &ro };
	struct results *r;

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
	deliver(e, r, false);
	results_free(r);
	timeline_free(run.ctl);
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

/* A sleep statement, sliced so that a signal is seen within 0.1 s. */
static void sleep_for(int64_t secs)
{
	struct timeline *ctl = timeline_new(0);

	for (int64_t s = 0; s < secs * 10 && !timeline_signalled &&
			    !timeline_check_stdout();
	     s++)
		timeline_sleep(ctl, 100000000u);
	timeline_free(ctl);
}

/* A statement other than run: 0, or the status creating filesets had. */
static int statement(struct engine *e, const struct ir_stmt *st)
{
	switch (st->kind) {
	case IS_ECHO:
		engine_log(e, "%s", st->text);
		break;
	case IS_SYSTEM:
		run_system(st->text);
		break;
	case IS_SLEEP:
		sleep_for(st->n);
		break;
	case IS_CREATE_FILES:
		return engine_create_filesets(e);
	case IS_DEBUG:
		e->debug = (int)st->n;
		break;
	case IS_VERSION:
		engine_log(e, "fbrun %s", PACKAGE_VERSION);
		break;
	case IS_LIST:
		list(e, st->text);
		break;
	case IS_RUN:
		break; /* statements' */
	}
	return 0;
}

/*
 * The statements in order, up to the first run (or the implicit one of a
 * script without): the agreed status.  Every status is settled before it
 * is looked at, so a job's processes go on together or stop together.
 */
static int statements(struct engine *e, int rc)
{
	const struct workload *w = e->w;
	struct ir_stmt implicit = { .kind = IS_RUN, .n = 60 };

	for (size_t i = 0; i < w->nstmts; i++) {
		const struct ir_stmt *st = &w->stmts[i];

		if ((rc = engine_settle(e, rc)) != 0)
			return rc;
		if (st->kind == IS_RUN)
			return engine_settle(e, do_run(e, st));
		rc = statement(e, st);
	}
	rc = engine_settle(e, rc);
	if (!rc && !w->has_run && w->nprocesses > 0) {
		engine_log(e, "The script has no 'run'; running for 60 seconds");
		rc = engine_settle(e, do_run(e, &implicit));
	}
	return rc;
}

int engine_run(const struct workload *w, const struct engine_opts *o)
{
	struct engine e = { .w = w, .o = o, .t0 = now_ns(),
			    .peers = o->peers ? o->peers : &peers_solo };
	int rc, unset = 0; /* unset: --cache-limit's cgroup could not be made */

	e.lead = e.peers->rank == 0;
	timeline_catch_signals();
	/* the seed said first: --seed N draws the same numbers again */
	engine_log(&e, "fbrun %s: %s, seed %" PRIu64, PACKAGE_VERSION,
		   o->script, o->seed);
	/* on every rank of a job: its checks are collective */
	rc = engine_check_shared(&e);
	rc = engine_check_devices(&e) || rc;
	rc = engine_settle(&e, rc || engine_check_roots(w) ||
					       engine_check_output(&e) ?
				       2 :
				       0);
	if (rc == 2)
		return 2; /* before any statement runs */
	if (!rc && o->cache_limit && !o->series_end)
		unset = rc = engine_settle(&e, cache_setup(&e));
	if (o->series_end) {
		if (o->series && o->series_reuse && !rc)
			rc = engine_create_filesets(&e);
		if (engine_remove_filesets(&e, true) && !rc)
			rc = 1;
		return engine_settle(&e, rc);
	}
	/*
	 * Interrupted between two runs of a series (the settled status says
	 * so): take the filesets the last run kept, so they are removed
	 * below.  In a job every rank does, as agreed (creating filesets is
	 * collective there).
	 */
	if (o->series && rc != 0)
		engine_create_filesets(&e);
	rc = statements(&e, (rc != 0 && o->series) || unset ? 1 : 0);
	/*
	 * Stopped before the run: its (empty) results, unless refused (rc is
	 * already a failure, whether or not they could be written).
	 */
	if (!e.reported && rc != 2 && rc != 0 &&
	    (w->has_run || w->nprocesses > 0))
		report_unrun(&e);
	if (engine_remove_filesets(&e, rc != 0 || timeline_signalled) && !rc)
		rc = 1;
	if (timeline_signalled && !rc)
		rc = 1;
	cachelimit_free(e.cl); /* after the filesets' removal: its writes too */
	return engine_settle(&e, rc);
}
