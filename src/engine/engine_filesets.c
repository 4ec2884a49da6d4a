/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The filesets' lifetime for the engine's statements: their paths checked,
 * their trees laid out, created before a run and removed after it.
 */
#include "engine/engine_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/io/blockdev.h"
#include "engine/fileset/fileset.h"
#include "engine/run/ivlog.h"
#include "engine/sys/progress.h"
#include "engine/sys/timeline.h"
#include "trace/trace.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/paths.h"
#include "util/util.h"

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
 * symlink, "/tmp/none/../.." where none does not exist: fileset_new
 * resolves ".." by name, as here), where an empty /mnt or /srv would be
 * adopted and filled.
 */
int engine_check_roots(const struct workload *w)
{
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct ir_fileset *def = &w->filesets[i];
		char *real;

		if (!def->name || !def->path)
			continue;
		if (!def->name[0] || !strcmp(def->name, ".") ||
		    !strcmp(def->name, "..") || strchr(def->name, '/')) {
			fb_error("fileset '%s': a fileset name must be one "
				 "directory name (not '.', '..' or containing "
				 "'/'); refusing to run",
				 def->name);
			return FB_EXIT_USAGE;
		}
		real = path_lexical(def->path);
		if (strcmp(real, "/") != 0) {
			char *lex = real;

			real = path_real(lex);
			free(lex);
		}
		if (real && strcmp(real, "/") == 0) {
			fb_error("fileset '%s': path '%s' is the root "
				 "directory; refusing to create or remove '/%s' "
				 "there",
				 def->name, def->path, def->name);
			free(real);
			return FB_EXIT_USAGE;
		}
		free(real);
	}
	return 0;
}

/*
 * Why output p would replace a file the run reads (the script, a trace),
 * malloc'd; NULL if it would not.
 */
static char *replaces_input(const struct engine *e, const char *p)
{
	if (e->o->script_file && outfile_same(p, e->o->script_file))
		return xasprintf("is the script the run reads");
	for (size_t i = 0; i < e->w->ntraces; i++) {
		const struct ir_trace *t = &e->w->traces[i];

		if (t->path && outfile_same(p, t->path))
			return xasprintf("is the file of trace '%s', which the "
					 "run reads",
					 t->name);
	}
	return NULL;
}

/*
 * -o and --interval-log, checked before anything runs (exit 2) rather
 * than found wanting after the run: not the script or a trace (an output
 * never replaces an input), not inside a fileset's tree, which is
 * removed after the run (or reused), and a regular file that can be
 * written, or none, in a directory that exists (util/outfile).
 */
static int check_output(const struct engine *e, const char *opt,
			const char *p)
{
	char *real, *why = NULL;
	int rc;

	if (!p)
		return 0;
	real = path_real(p);
	why = replaces_input(e, p);
	for (size_t i = 0; !why && real && i < e->w->nfilesets; i++) {
		const struct ir_fileset *def = &e->w->filesets[i];
		char *root, *rroot;

		if (!def->name || !def->path)
			continue;
		root = xasprintf("%s/%s", def->path, def->name);
		rroot = path_real(root);
		if (rroot && path_within(real, rroot))
			why = xasprintf("is inside fileset %s's tree '%s', which "
					"fbrun removes or reuses",
					def->name, rroot);
		free(root);
		free(rroot);
	}
	if (!why)
		why = outfile_unusable(p);
	if (why)
		fb_error("%s '%s' %s; refusing to run", opt, p, why);
	rc = why ? FB_EXIT_USAGE : 0;
	free(real);
	free(why);
	return rc;
}

int engine_check_output(const struct engine *e)
{
	return check_output(e, "-o", e->o->output) ||
	       check_output(e, "--interval-log",
			    e->o->ivlog ? ivlog_path(e->o->ivlog) : NULL) ?
		       FB_EXIT_USAGE :
		       0;
}

/* Whether a flowop with the flag ff works in fileset i; any if i < 0. */
static bool uses_flag(const struct workload *w, int i, unsigned ff)
{
	for (size_t f = 0; f < w->nflowops; f++) {
		const struct ir_flowop *fo = w->flowops[f];

		if ((ir_flowop_flags(fo) & ff) &&
		    (i < 0 || fo->fileset.index == i))
			return true;
	}
	return false;
}

/* What fileset i's files go through (fileset_set_uses). */
static unsigned uses_of(const struct workload *w, int i)
{
	unsigned u = 0;

	if (uses_flag(w, i, FF_LINKS))
		u |= FS_USES_LINKS;
	if (uses_flag(w, i, FF_SYMLINKS))
		u |= FS_USES_SYMLINKS;
	/* an aio flowop's fd may be any fileset's (openfile's slot) */
	if (uses_flag(w, -1, FF_ASYNC))
		u |= FS_USES_AIO;
	return u;
}

/* Where a progress line goes while filesets are made or removed, if anywhere. */
static FILE *tty(const struct engine *e)
{
	return !e->o->quiet && isatty(STDERR_FILENO) ? stderr : NULL;
}

/*
 * Whether fileset i's layout comes from --seed: not with seed 0, the
 * default, nor for a reuse fileset, laid out as without --seed so that
 * one kept tree serves runs of every seed.
 */
static bool seeded(const struct engine *e, size_t i)
{
	return e->o->seed && !e->w->filesets[i].reuse;
}

/* Whether a reuse fileset is defined before i (laid out after it). */
static bool reuse_before(const struct workload *w, size_t i)
{
	while (i-- > 0)
		if (w->filesets[i].reuse)
			return true;
	return false;
}

/*
 * Fileset i laid out from stream with the run's seed or none (which files
 * are preallocated, and what filebench does not draw from its one stream,
 * see fileset_new, come from the name's hash and that seed).  Every rank
 * of a job lays out the same (not its rank's).
 */
static struct fileset *lay_out_one(struct engine *e, size_t i, uint64_t seed,
				   struct fs_stream *stream)
{
	const char *name = e->w->filesets[i].name;
	struct fileset *fs;
	char err[512];

	fs = fileset_new(e->w, (int)i, rv_seed_with(str_hash(name), seed),
			 stream, err, sizeof(err));
	if (!fs)
		snprintf(e->error, sizeof(e->error), "fileset %s: %s", name,
			 err);
	return fs;
}

/*
 * Every fileset's tree, laid out in memory before any is created, as
 * filebench does it: from one random stream, the last defined first.
 * With --seed the stream starts elsewhere, and each fileset's own
 * numbers move with it, except a reuse fileset's: it draws from
 * filebench's stream where it would without --seed, so a fileset laid
 * out before it from the seed is also laid out as without it, to move
 * that stream on as far.  Returns an array of w->nfilesets, or NULL with
 * the error in e->error.
 */
static struct fileset **lay_out(struct engine *e)
{
	const struct workload *w = e->w;
	struct fileset **fs = xcalloc(w->nfilesets ? w->nfilesets : 1,
				      sizeof(*fs));
	struct fs_stream plain = FS_STREAM_INIT;
	struct fs_stream stream = fs_stream_of(e->o->seed);

	for (size_t i = w->nfilesets; i-- > 0;) {
		bool own = seeded(e, i);

		if (own && reuse_before(w, i)) {
			struct fileset *moved = lay_out_one(e, i, 0, &plain);

			if (!moved)
				goto fail;
			fileset_free(moved);
		}
		fs[i] = own ? lay_out_one(e, i, e->o->seed, &stream) :
			      lay_out_one(e, i, 0, &plain);
		if (!fs[i])
			goto fail;
	}
	return fs;
fail:
	for (size_t k = 0; k < w->nfilesets; k++)
		fileset_free(fs[k]);
	free(fs);
	return NULL;
}

/*
 * After "written": the line filebench prints, with the width and depth
 * its layout aims for, then the tree's own figures, named apart.
 */
static void log_populated(struct engine *e, const struct fileset *fs)
{
	const char *name = fileset_name(fs);

	engine_log(e,
	      "%s populated: %" PRIu64 " files, avg. dir. width = %.0f, "
	      "avg. dir. depth = %.1f, %" PRIu64 " leafdirs, %.3fMB "
	      "total size",
	      name, fileset_nfiles(fs), fileset_nominal_width(fs),
	      fileset_nominal_depth(fs), fileset_nleafdirs(fs), total_mb(fs));
	if (fileset_device(fs))
		return; /* no tree */
	engine_log(e, "%s tree as made: %" PRIu64 " directories, mean width "
	      "%.1f, mean depth %.1f (the avg. above: filebench's aim)",
	      name, fileset_ndirs(fs),
	      fileset_mean_width(fs), fileset_mean_depth(fs));
}

/* A device's size, and what of it the runs' random offsets use. */
static void log_device(struct engine *e, const struct ir_fileset *def,
		       const struct fileset *fs)
{
	uint64_t used = fileset_entry_size(fs, 0);

	if (def->size_set && def->size.kind == IRV_INT &&
	    (uint64_t)def->size.i > used)
		engine_log(e, "%s: size %" PRId64 " is more than the device "
			   "has: using its %" PRIu64 " bytes", def->name,
			   def->size.i, used);
	else
		engine_log(e, "%s: %" PRIu64 " bytes of the device", def->name,
			   used);
}

/* The replays that make their trees in fileset i: fs's, by their ids. */
static void add_replay_ids(const struct workload *w, size_t i,
			   struct fileset *fs)
{
	for (size_t f = 0; f < w->nflowops; f++)
		if ((ir_flowop_flags(w->flowops[f]) & FF_TRACE) &&
		    w->flowops[f]->fileset.index == (int)i)
			fileset_add_replay(fs, (unsigned)w->flowops[f]->id);
}

/*
 * What each replay will make in its fileset before the run, for the
 * check of free space: a tree per thread instance, each the trace's
 * initial state (its "." is the tree itself).
 */
static void add_replays(const struct workload *w, struct fileset **fs)
{
	for (size_t k = 0; k < w->nflowops; k++) {
		const struct ir_flowop *f = w->flowops[k];
		const struct ir_thread *t = &w->threads[f->thread];
		const struct trace_entry *ent;
		uint64_t ndirs = 1, copies;
		int64_t *sizes;
		size_t n, nf = 0;

		if (!(ir_flowop_flags(f) & FF_TRACE) ||
		    f->fileset.index < 0 || !fs[f->fileset.index])
			continue;
		n = trace_initial(w->traces[f->trace.index].trace, &ent);
		sizes = xcalloc(n ? n : 1, sizeof(*sizes));
		for (size_t i = 0; i < n; i++) {
			if (strcmp(trace_path(w->traces[f->trace.index].trace,
					      ent[i].path), ".") == 0)
				continue;
			if (ent[i].dir)
				ndirs++;
			else
				sizes[nf++] = ent[i].size;
		}
		copies = (uint64_t)t->instances *
			 (uint64_t)w->processes[t->process].instances;
		fileset_add_extra(fs[f->fileset.index], f->label, sizes, nf,
				  ndirs, copies);
		free(sizes);
	}
}

/* Create fileset i (laid out) on disk: 0, or the exit status after a message. */
static int create_one(struct engine *e, size_t i, struct fileset *fs)
{
	const struct ir_fileset *def = &e->w->filesets[i];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct progress *bar;
	char err[512], *label;
	int rc;

	fileset_set_createnext(fs, uses_flag(e->w, (int)i, FF_NEXT));
	add_replay_ids(e->w, i, fs);
	fileset_set_keeps_whole(fs, !engine_deletes_files(e->w, (int)i));
	if (fileset_device(fs))
		engine_log(e, "Using block device %s as file %s",
			   fileset_device(fs), def->name);
	else
		engine_log(e, "Creating fileset %s under %s", def->name,
			   fileset_root(fs));
	label = xasprintf("Creating %s", def->name);
	bar = progress_start(tty(e), label, fileset_create_total(fs),
			     fileset_done, fs);
	rc = fileset_create(fs, def->paralloc ? (unsigned)(ncpu * 4) : 1, err,
			    sizeof(err));
	progress_stop(bar);
	free(label);
	/* what was written so far, whatever happens next */
	if (!fileset_device(fs))
		engine_log(e, "%s: %.3fMB written", def->name,
			   (double)fileset_prealloc_bytes(fs) / 1048576.0);
	if (rc < 0) {
		snprintf(e->error, sizeof(e->error), "fileset %s: %s",
			 def->name, err);
		fb_error("%s", e->error);
		return rc == -2 ? 2 : 1;
	}
	if (fileset_device(fs))
		log_device(e, def, fs);
	log_populated(e, fs);
	return timeline_signalled ? 1 : 0;
}

/*
 * A job's shared filesets: rank 0 makes them first, then every rank
 * (rank 0 included) learns whether that worked, and the others use the
 * trees rank 0 made.  Collective when the script has a shared fileset.
 */
static int share_filesets(struct engine *e, struct fileset **laid, int rc)
{
	const struct engine_peers *p = e->peers;
	const struct workload *w = e->w;
	bool any = false;
	char err[512];

	for (size_t i = 0; i < w->nfilesets; i++)
		any |= w->filesets[i].shared;
	if (p->alone || !any)
		return rc; /* made in turn with the others */
	for (size_t i = 0; i < w->nfilesets && !rc && p->rank == 0; i++)
		if (w->filesets[i].shared) {
			e->filesets[i] = laid[i];
			laid[i] = NULL;
			rc = create_one(e, i, e->filesets[i]);
		}
	rc = p->agree(p->arg, rc);
	for (size_t i = 0; i < w->nfilesets && !rc && p->rank != 0; i++) {
		if (!w->filesets[i].shared)
			continue;
		if (fileset_attach(laid[i], err, sizeof(err)) < 0) {
			snprintf(e->error, sizeof(e->error), "fileset %s: %s",
				 w->filesets[i].name, err);
			fb_error("%s", e->error);
			rc = 1;
			break;
		}
		e->filesets[i] = laid[i];
		laid[i] = NULL;
	}
	return rc;
}

/*
 * Lay out every fileset (in memory), then check that preallocation fits
 * (unless --force), then create them in turn.  Only created ones go in
 * e->filesets, which are the ones removed at the end.  In a job, rank 0
 * makes the shared filesets and the other ranks use them
 * (share_filesets).
 */
int engine_create_filesets(struct engine *e)
{
	const struct workload *w = e->w;
	const struct engine_peers *p = e->peers;
	char err[512];
	size_t n = w->nfilesets;
	struct fileset **laid, **writes;
	int rc = 0;

	if (e->created)
		return 0;
	/* again here: a system statement may have changed the paths */
	rc = engine_check_devices(e); /* on every rank of a job */
	if (engine_check_roots(w) || rc)
		return 2;
	e->created = true;
	if (!(laid = lay_out(e))) {
		fb_error("%s", e->error);
		return share_filesets(e, NULL, FB_EXIT_RUN);
	}
	e->filesets = xcalloc(n ? n : 1, sizeof(*e->filesets));
	writes = xcalloc(n ? n : 1, sizeof(*writes));
	for (size_t i = 0; i < n; i++) {
		const struct ir_fileset *def = &w->filesets[i];
		char *dev = engine_device_of(def);

		fileset_set_data(laid[i], datapat_pick(def->data, e->o->data,
						       def->data));
		if (dev)
			fileset_set_device(laid[i], dev,
					   e->o->allow_device_writes &&
						   engine_writes_fileset(w, (int)i),
					   e->o->force_device, def->size_set,
					   p->alone);
		free(dev);
		if (e->o->series && e->o->series_reuse)
			fileset_set_reuse(laid[i]);
		fileset_set_uses(laid[i], uses_of(w, (int)i));
		/* a shared tree's entries are split among the ranks */
		if (!p->alone && def->shared && !def->is_file &&
		    fileset_partition(laid[i],
				      (unsigned)((p->rank + (uint64_t)def->rankshift) %
						 p->nranks),
				      p->nranks) < 0) {
			snprintf(e->error, sizeof(e->error),
				 "fileset %s: out of memory", def->name);
			fb_error("%s", e->error);
			rc = 1;
		}
		/* what this process will write: a shared tree is rank 0's */
		if (!def->shared || p->rank == 0)
			writes[i] = laid[i];
	}
	add_replays(w, writes);
	if (!rc && engine_raise_nofile(e) < 0)
		rc = 1;
	if (!e->o->force &&
	    fileset_check_space(writes, n, err, sizeof(err)) < 0) {
		snprintf(e->error, sizeof(e->error), "%s", err);
		fb_error("%s", e->error);
		rc = 1;
	}
	free(writes);
	rc = share_filesets(e, laid, rc);
	/* a fileset is the engine's to remove once creating it has begun */
	for (size_t i = 0; i < n && !rc; i++) {
		if (!laid[i])
			continue; /* shared, done above */
		e->filesets[i] = laid[i];
		laid[i] = NULL;
		rc = create_one(e, i, e->filesets[i]);
	}
	for (size_t i = 0; i < n; i++)
		fileset_free(laid[i]);
	free(laid);
	return rc;
}

/*
 * Remove what we created, unless asked to keep it or it is reused; then
 * the directories the filesets' paths needed, once every tree under them
 * is gone.  A signal meanwhile does not stop it.
 */
int engine_remove_filesets(struct engine *e, bool failed)
{
	const struct engine_peers *p = e->peers;
	bool scratch = e->o->series && (failed || e->o->series_last);
	char err[512];
	int rc = 0;

	for (size_t i = 0; e->filesets && i < e->w->nfilesets; i++) {
		struct fileset *fs = e->filesets[i];

		if (!fs)
			continue;
		bool reuse = (e->w->filesets[i].reuse &&
			      !e->w->filesets[i].removeafter) ||
			     (e->o->series && e->o->series_reuse);

		if (fileset_device(fs)) {
			fileset_remove(fs, err, sizeof(err)); /* its claim only */
		} else if (!e->o->keep && (!reuse || scratch)) {
			char *label = xasprintf("Removing %s", fileset_name(fs));
			struct progress *bar;

			engine_log(e, "Removing %s tree", fileset_name(fs));
			bar = progress_start(tty(e), label,
					     fileset_remove_total(fs),
					     fileset_done, fs);
			if (fileset_remove(fs, err, sizeof(err)) < 0) {
				fb_error("%s", err);
				rc = 1;
			} else {
				engine_log(e, "Removed %s tree", fileset_name(fs));
			}
			progress_stop(bar);
			free(label);
		} else if (fileset_on_disk(fs)) {
			engine_log(e, "Keeping %s tree at %s (%s)", fileset_name(fs),
			      fileset_root(fs), e->o->keep ? "--keep" : "reuse");
		}
	}
	/*
	 * In a job the rank that made a directory of the path (<path> of
	 * <path>/rank-N) may be done before another rank's tree under it is
	 * gone: every rank's trees go first (every rank comes here once).
	 */
	(void)p->agree(p->arg, 0);
	if (!e->filesets)
		return rc;
	for (size_t i = e->w->nfilesets; i-- > 0;)
		if (e->filesets[i])
			fileset_remove_made(e->filesets[i]);
	for (size_t i = 0; i < e->w->nfilesets; i++)
		fileset_free(e->filesets[i]);
	free(e->filesets);
	e->filesets = NULL;
	return rc;
}
