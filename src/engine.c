#include "engine.h"

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileset.h"
#include "progress.h"
#include "report.h"
#include "runner.h"
#include "util.h"

struct engine {
	const struct workload *w;
	const struct engine_opts *o;
	uint64_t t0; /* program start, for log stamps */
	struct fileset **filesets; /* NULL until created */
	bool created;
	int debug;
};

static void logf_(struct engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Log lines carry seconds since start, as filebench's do. */
static void logf_(struct engine *e, const char *fmt, ...)
{
	va_list ap;

	if (e->o->quiet)
		return;
	printf("%.3f: ", (double)(now_ns() - e->t0) / 1e9);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void on_signal(int sig)
{
	(void)sig;
	runctl_signalled = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/*
 * Which files are preallocated, and what filebench does not draw from its
 * one stream (see fileset_new), come from this seed: the same fileset
 * gets the same tree every run, which reuse relies on.
 */
static uint64_t seed_of(const char *name)
{
	uint64_t h = 1469598103934665603ULL;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 1099511628211ULL;
	return h;
}

static double total_mb(const struct fileset *fs)
{
	double sum = 0;

	for (uint64_t i = 0; i < fileset_nfiles(fs); i++)
		sum += (double)fileset_entry_size(fs, (int64_t)i);
	return sum / 1048576.0;
}

/*
 * A root is <path>/<name>, one new directory below path.  Refuse (exit 2,
 * before anything is created) what would put it elsewhere: a name that is
 * not one directory name ("..", "a/b" could name another tree of ours and
 * empty it), and a path that is "/" however spelt ("//", "/tmp/..", a
 * symlink), where an empty /mnt or /srv would be adopted and filled.
 */
static int check_roots(const struct workload *w)
{
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct ir_fileset *def = &w->filesets[i];
		char *real;

		if (!def->name || !def->path)
			continue;
		if (!def->name[0] || !strcmp(def->name, ".") ||
		    !strcmp(def->name, "..") || strchr(def->name, '/')) {
			fprintf(stderr,
				"fbrun: error: fileset '%s': a fileset name "
				"must be one directory name (not '.', '..' "
				"or containing '/'); refusing to run\n",
				def->name);
			return 2;
		}
		real = realpath(def->path, NULL);
		if (real && strcmp(real, "/") == 0) {
			fprintf(stderr,
				"fbrun: error: fileset %s: path '%s' is the "
				"root directory; refusing to create or remove "
				"'/%s' there\n",
				def->name, def->path, def->name);
			free(real);
			return 2;
		}
		free(real);
	}
	return 0;
}

/* Where a progress line goes while filesets are made or removed, if anywhere. */
static FILE *tty(const struct engine *e)
{
	return !e->o->quiet && isatty(STDERR_FILENO) ? stderr : NULL;
}

/*
 * Every fileset's tree, laid out in memory before any is created, as
 * filebench does it: from one random stream, the last defined first.
 * Returns an array of w->nfilesets, or NULL after printing the error.
 */
static struct fileset **lay_out(const struct workload *w)
{
	struct fileset **fs = xcalloc(w->nfilesets ? w->nfilesets : 1,
				      sizeof(*fs));
	struct fs_stream stream = FS_STREAM_INIT;
	char err[512];

	for (size_t i = w->nfilesets; i-- > 0;) {
		const char *name = w->filesets[i].name;

		fs[i] = fileset_new(w, (int)i, seed_of(name), &stream, err,
				    sizeof(err));
		if (!fs[i]) {
			fprintf(stderr, "fbrun: error: fileset %s: %s\n", name,
				err);
			for (size_t k = i + 1; k < w->nfilesets; k++)
				fileset_free(fs[k]);
			free(fs);
			return NULL;
		}
	}
	return fs;
}

/* The lines filebench prints, then the tree's own figures. */
static void log_populated(struct engine *e, const struct fileset *fs)
{
	const char *name = fileset_name(fs);

	logf_(e, "%s: %.3fMB written", name,
	      (double)fileset_prealloc_bytes(fs) / 1048576.0);
	logf_(e,
	      "%s populated: %" PRIu64 " files, avg. dir. width = %.0f, "
	      "avg. dir. depth = %.1f, %" PRIu64 " leafdirs, %.3fMB "
	      "total size",
	      name, fileset_nfiles(fs), fileset_nominal_width(fs),
	      fileset_nominal_depth(fs), fileset_nleafdirs(fs), total_mb(fs));
	logf_(e, "%s tree: %" PRIu64 " directories, mean width %.1f, "
	      "mean depth %.1f", name, fileset_ndirs(fs),
	      fileset_mean_width(fs), fileset_mean_depth(fs));
}

/*
 * Lay out every fileset (in memory), then check that preallocation fits
 * (unless --force), then create them in turn.  Only created ones go in
 * e->filesets, which are the ones removed at the end.
 */
static int create_filesets(struct engine *e)
{
	const struct workload *w = e->w;
	char err[512];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = w->nfilesets;
	struct fileset **laid;
	int rc = 0;

	if (e->created)
		return 0;
	/* again here: a system statement may have changed the paths */
	if (check_roots(w))
		return 2;
	e->created = true;
	if (!(laid = lay_out(w)))
		return 1;
	e->filesets = xcalloc(n ? n : 1, sizeof(*e->filesets));
	for (size_t i = 0; i < n; i++)
		fileset_set_data(laid[i], datapat_pick(w->filesets[i].data,
						       e->o->data,
						       w->filesets[i].data));
	if (!e->o->force && fileset_check_space(laid, n, err, sizeof(err)) < 0) {
		fprintf(stderr, "fbrun: error: %s\n", err);
		rc = 1;
	}
	/* a fileset is the engine's to remove once creating it has begun */
	for (size_t i = 0; i < n && !rc; i++) {
		const struct ir_fileset *def = &w->filesets[i];
		struct fileset *fs = e->filesets[i] = laid[i];
		struct progress *bar;
		char *label;

		laid[i] = NULL;
		logf_(e, "Creating fileset %s under %s", def->name,
		      fileset_root(fs));
		label = xasprintf("Creating %s", def->name);
		bar = progress_start(tty(e), label, fileset_create_total(fs),
				     fileset_done, fs);
		rc = fileset_create(fs, def->paralloc ? (unsigned)(ncpu * 4) : 1,
				    err, sizeof(err));
		progress_stop(bar);
		free(label);
		if (rc < 0) {
			fprintf(stderr, "fbrun: error: fileset %s: %s\n",
				def->name, err);
			rc = rc == -2 ? 2 : 1;
			break;
		}
		log_populated(e, fs);
		if (runctl_signalled)
			rc = 1;
	}
	for (size_t i = 0; i < n; i++)
		fileset_free(laid[i]);
	free(laid);
	return rc;
}

/* Remove what we created, unless asked to keep it or it is reused. */
static int remove_filesets(struct engine *e, bool failed)
{
	bool scratch = e->o->series && (failed || e->o->series_last);
	char err[512];
	int rc = 0;

	if (!e->filesets)
		return 0;
	for (size_t i = 0; i < e->w->nfilesets; i++) {
		struct fileset *fs = e->filesets[i];

		if (!fs)
			continue;
		if (!e->o->keep && (!e->w->filesets[i].reuse || scratch)) {
			char *label = xasprintf("Removing %s", fileset_name(fs));
			struct progress *bar;

			logf_(e, "Removing %s tree", fileset_name(fs));
			bar = progress_start(tty(e), label,
					     fileset_remove_total(fs),
					     fileset_done, fs);
			if (fileset_remove(fs, err, sizeof(err)) < 0) {
				fprintf(stderr,
					"fbrun: error: %s; leaving the rest "
					"of '%s' in place\n",
					err, fileset_root(fs));
				rc = 1;
			}
			progress_stop(bar);
			free(label);
		} else if (fileset_on_disk(fs)) {
			logf_(e, "Keeping %s tree at %s (%s)", fileset_name(fs),
			      fileset_root(fs), e->o->keep ? "--keep" : "reuse");
		}
		fileset_free(fs);
	}
	free(e->filesets);
	e->filesets = NULL;
	return rc;
}

static enum report_format format_of(const char *path)
{
	size_t n = strlen(path);

	if (n > 5 && strcmp(path + n - 5, ".json") == 0)
		return FORMAT_JSON;
	if (n > 4 && strcmp(path + n - 4, ".csv") == 0)
		return FORMAT_CSV;
	return FORMAT_TEXT;
}

static void report(FILE *out, enum report_format fmt, const struct results *r,
		   const struct report_meta *m)
{
	if (fmt == FORMAT_JSON)
		report_json(out, r, m);
	else if (fmt == FORMAT_CSV)
		report_csv(out, r);
	else
		report_text(out, r);
}

static int write_output(struct engine *e, const struct results *r,
			time_t started)
{
	struct report_meta m = { e->o->script, started, PACKAGE_VERSION,
				 e->o->data };
	const char *p = e->o->output;
	FILE *f;

	report(stdout, e->o->format, r, &m);
	if (!p)
		return 0;
	f = fopen(p, "w");
	if (!f) {
		fprintf(stderr, "fbrun: error: cannot write '%s': %s\n", p,
			strerror(errno));
		return 1;
	}
	report(f, format_of(p), r, &m);
	if (fclose(f) != 0) {
		fprintf(stderr, "fbrun: error: cannot write '%s': %s\n", p,
			strerror(errno));
		return 1;
	}
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
			       .interval_flowops = e->o->interval_flowops,
			       /* JSON or CSV on stdout must stay parseable */
			       .lines = e->o->format == FORMAT_TEXT ? stdout :
								     stderr };
	struct run run = { .w = e->w, .opts = &ro };
	struct results *r;
	time_t started = time(NULL);
	uint64_t nthreads = workload_nworkers(e->w);
	int rc;

	rc = create_filesets(e);
	if (rc)
		return rc;
	run.filesets = e->filesets;
	ro.progress = !ro.quiet && !ro.interval_ns && isatty(STDERR_FILENO);
	logf_(e, "Starting %" PRIu64 " thread%s in %zu process%s", nthreads,
	      nthreads == 1 ? "" : "s", e->w->nprocesses,
	      e->w->nprocesses == 1 ? "" : "es");
	logf_(e, "Running for %" PRIu64 " seconds...",
	      e->o->runtime_s ? e->o->runtime_s : (uint64_t)st->n);
	rc = run_workload(&run, st) < 0 ? 1 : 0;
	r = results_collect(&run);
	logf_(e, "Run took %.1f seconds", r->secs);
	if (r->reason == STOP_SIGNAL)
		fprintf(stderr, "fbrun: warning: interrupted after %.1f s; "
				"results so far\n",
			r->secs);
	else if (r->note[0] && r->reason == STOP_DONE &&
		 e->w->quit == QUIT_TIMEOUT)
		fprintf(stderr, "fbrun: warning: run ended early after %.1f s: "
				"%s\n",
			r->secs, r->note);
	else if (r->note[0] && r->reason == STOP_DONE)
		logf_(e, "Run done after %.1f s: %s", r->secs, r->note);
	fflush(stdout);
	if (e->o->collect)
		e->o->collect(r, e->o->collect_arg);
	else if (write_output(e, r, started) && !rc)
		rc = 1;
	if (r->error[0]) {
		fprintf(stderr, "fbrun: error: %s\n", r->error);
		rc = 1;
	}
	results_free(r);
	run_release(&run);
	return rc;
}

static void list(struct engine *e, const char *what)
{
	const struct workload *w = e->w;

	if (!strcmp(what, "flowop") || !strcmp(what, "flowops")) {
		for (size_t i = 0; i < w->nflowops; i++)
			logf_(e, "flowop %s (%s) in thread %s", w->flowops[i]->name,
			      w->flowops[i]->type < FO_NTYPES ?
				      flowop_info[w->flowops[i]->type].name :
				      w->flowops[i]->composite,
			      w->threads[w->flowops[i]->thread].name);
		return;
	}
	for (size_t i = 0; i < w->nfilesets; i++)
		logf_(e, "fileset %s: %" PRId64 " entries under %s",
		      w->filesets[i].name, w->filesets[i].entries,
		      w->filesets[i].path);
}

int engine_run(const struct workload *w, const struct engine_opts *o)
{
	struct engine e = { .w = w, .o = o, .t0 = now_ns() };
	struct ir_stmt implicit = { .kind = IS_RUN, .n = 60 };
	int rc = 0;

	catch_signals();
	logf_(&e, "fbrun %s: %s", PACKAGE_VERSION, o->script);
	if (check_roots(w))
		return 2; /* before any statement runs */
	/*
	 * Interrupted between two runs of a series: take the filesets the
	 * last run kept, so they are removed below.
	 */
	if (o->series && runctl_signalled) {
		create_filesets(&e);
		rc = 1;
	}
	for (size_t i = 0; i < w->nstmts && !rc && !runctl_signalled; i++) {
		const struct ir_stmt *st = &w->stmts[i];

		switch (st->kind) {
		case IS_ECHO:
			logf_(&e, "%s", st->text);
			break;
		case IS_SYSTEM: {
			int status;

			fflush(stdout);
			status = system(st->text);
			if (status != 0)
				fprintf(stderr,
					"fbrun: warning: system \"%s\" exited "
					"with status %d\n",
					st->text, status);
			break;
		}
		case IS_SLEEP: {
			struct runctl *ctl = runctl_new(0);

			/* sliced, so SIGINT is seen within a second */
			for (int64_t s = 0; s < st->n * 10 && !runctl_signalled;
			     s++)
				runctl_sleep(ctl, 100000000u);
			runctl_free(ctl);
			break;
		}
		case IS_CREATE_FILES:
			rc = create_filesets(&e);
			break;
		case IS_RUN:
			rc = do_run(&e, st);
			goto out;
		case IS_DEBUG:
			e.debug = (int)st->n;
			break;
		case IS_VERSION:
			logf_(&e, "fbrun %s", PACKAGE_VERSION);
			break;
		case IS_LIST:
			list(&e, st->text);
			break;
		}
	}
	if (!rc && !runctl_signalled && !w->has_run && w->nprocesses > 0) {
		logf_(&e, "The script has no 'run'; running for 60 seconds");
		rc = do_run(&e, &implicit);
	}
out:
	if (remove_filesets(&e, rc != 0 || runctl_signalled) && !rc)
		rc = 1;
	if (runctl_signalled && !rc)
		rc = 1;
	return rc;
}
