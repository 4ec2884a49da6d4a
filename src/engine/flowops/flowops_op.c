/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The helpers every family of flowops uses (flowops_int.h): values,
 * counts, failures, buffers, data, picking and opening a fileset's files.
 * The bottom of the folder: they call no flowop.
 */
#include "engine/flowops/flowops.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/io/datagen.h"
#include "engine/flowops/flowops_int.h"
#include "engine/io/verify.h"
#include "util/msg.h"
#include "util/util.h"

/* ------------------------------------------------------------ helpers */

int64_t op_value(struct worker *wk, const struct ir_value *v)
{
	double d;

	switch (v->kind) {
	case IRV_INT:
	case IRV_BOOL:
		return v->i;
	case IRV_RAND:
		d = rv_sample(&wk->w->randvars[v->rv].spec, &wk->rng);
		/* 2^63 itself does not fit: compare against it, not INT64_MAX */
		return d >= 0x1p63 ? INT64_MAX : (int64_t)d;
	default:
		return 0;
	}
}

/* op_done's slow part: the totals other threads' limits read. */
void op_totals(struct worker *wk, const struct ir_flowop *f, uint64_t bytes)
{
	op_totals_many(wk, f, 1, bytes);
}

void op_totals_many(struct worker *wk, const struct ir_flowop *f, uint64_t n,
		    uint64_t bytes)
{
	unsigned ff = ir_flowop_flags(f);

	if (!(ff & FF_IO))
		return;
	atomic_store_explicit(&wk->io_ops,
			      atomic_load_explicit(&wk->io_ops,
						   memory_order_relaxed) + n,
			      memory_order_relaxed);
	atomic_store_explicit(&wk->io_bytes,
			      atomic_load_explicit(&wk->io_bytes,
						   memory_order_relaxed) + bytes,
			      memory_order_relaxed);
	if (ff & FF_MOVES_DATA)
		atomic_store_explicit(
			&wk->rw_ops,
			atomic_load_explicit(&wk->rw_ops, memory_order_relaxed) + n,
			memory_order_relaxed);
}

/*
 * Out of line: one op in a thousand or so.  The CPU clock reads stay in
 * the window, so a preemption they bring on is in the latency; what they
 * cost when nothing preempts them (worker_calibrate) is taken off the
 * latency and the CPU time, so sampled ops read as the others do.
 */
void op_done_sampled(struct worker *wk, const struct ir_flowop *f,
		     uint64_t t0, uint64_t bytes)
{
	struct fstats *s = &wk->stats[f->id];
	uint64_t cpu = thread_cpu_ns() - wk->cpu0, t1 = now_ns();
	uint64_t lat = t1 - t0;
	uint64_t off = lat > wk->probe_wall ? wk->probe_wall : lat;

	wk->sampling = false;
	s->cpu_ns += cpu > wk->probe_cpu ? cpu - wk->probe_cpu : 0;
	s->cpu_samples++;
	wk->probe_total += off;
	fstats_add(s, lat - off, bytes);
	if (wk->rated)
		fstats_resp(s, lat - off + wk->lag_ns);
	if (wk->need_totals)
		op_totals(wk, f, bytes);
}

/* Count a failed op against its flowop and remember the first failure. */
enum fo_result op_fail(struct worker *wk, const struct ir_flowop *f,
			   int err, const char *fmt, ...)
{
	va_list ap;

	fstats_error(&wk->stats[f->id], err);
	if (wk->err_flowop < 0) {
		wk->err_flowop = f->id;
		wk->err_no = err;
		va_start(ap, fmt);
		if (vasprintf(&wk->err_what, fmt, ap) < 0)
			wk->err_what = NULL; /* the report says it is lost */
		va_end(ap);
	}
	return FO_ERROR;
}

/* The thread ends saying why (finished: its work is done, not short). */
static enum fo_result ends(struct worker *wk, bool finished, const char *fmt,
			   va_list ap)
{
	/* nothing found once the run is stopping (a wait cut short): stopped */
	if (timeline_flag_set(wk->stop))
		return FO_OK;
	vsnprintf(wk->norsc_why, sizeof(wk->norsc_why), fmt, ap);
	wk->finished = wk->finished || finished;
	return FO_NORSC;
}

enum fo_result op_norsc(struct worker *wk, const char *fmt, ...)
{
	va_list ap;
	enum fo_result r;

	va_start(ap, fmt);
	r = ends(wk, false, fmt, ap);
	va_end(ap);
	return r;
}

enum fo_result op_finished(struct worker *wk, const char *fmt, ...)
{
	va_list ap;
	enum fo_result r;

	va_start(ap, fmt);
	r = ends(wk, true, fmt, ap);
	va_end(ap);
	return r;
}

/*
 * A buffer of n bytes: the start of the memsize buffer, or one grown on
 * demand.  Always the same place, so the copy to or from user space stays
 * in the CPU cache and the time measured is the file system's, not the
 * memory bus's (filebench spreads I/O over memsize at random).
 */
char *op_buffer(struct worker *wk, uint64_t n)
{
	if (wk->buf_fixed)
		return n > wk->bufsize ? NULL : wk->buf;
	if (n > wk->bufsize) {
		void *q;

		free(wk->buf);
		wk->buf = NULL;
		wk->bufsize = 0;
		if (posix_memalign(&q, 4096, n))
			return NULL;
		memset(q, 0xa5, n);
		wk->buf = q;
		wk->bufsize = n;
	}
	return wk->buf;
}

/* op_buffer(), failing the flowop when n does not fit the memsize buffer. */
char *op_buffer_grow(struct worker *wk, const struct ir_flowop *f, uint64_t n)
{
	char *buf = op_buffer(wk, n);

	if (!buf)
		op_fail(wk, f, ENOMEM,
		     "iosize %" PRIu64 " does not fit the thread's memsize",
		     n);
	return buf;
}

/* Random data differs per thread instance and flowop: from its seed. */
uint64_t op_seed_of(const struct worker *wk, const struct ir_flowop *f)
{
	return rv_mix64(wk->seed ^ (uint64_t)f->id * 0x9e3779b97f4a7c15ULL);
}

/*
 * The data for a write of n bytes by f to the file in slot s, in the
 * pattern of f, else of the file's fileset, else --data; with none of
 * them, the thread's buffer as it is.
 */
const char *op_write_data(struct worker *wk, const struct ir_flowop *f,
			  const struct slot *s, uint64_t n)
{
	const struct datapat none = { DATA_DEFAULT, 0 };
	struct datapat p = datapat_pick(
		f->data, s->fileset >= 0 ? wk->w->filesets[s->fileset].data : none,
		wk->run->opts->data);
	struct datagen **g = &wk->gens[f->id];
	const char *data;

	if (p.kind == DATA_DEFAULT)
		return buffer_for(wk, f, n);
	if (wk->buf_fixed && n > wk->bufsize) {
		op_fail(wk, f, ENOMEM,
			"iosize %" PRIu64 " does not fit the thread's memsize", n);
		return NULL;
	}
	/* an fd slot may hold files of filesets with other patterns */
	if (*g && !datapat_equal(datagen_pattern(*g), p)) {
		datagen_free(*g);
		*g = NULL;
	}
	if (!*g)
		*g = datagen_new(p, op_seed_of(wk, f));
	data = n <= SIZE_MAX ? datagen_next(*g, (size_t)n) : NULL;
	if (!data)
		op_fail(wk, f, ENOMEM, "no memory for %" PRIu64 " bytes of data",
			n);
	return data;
}

const char *op_verify_data(struct worker *wk, const struct ir_flowop *f,
			   const struct slot *s, uint64_t off, uint64_t n)
{
	char *buf = buffer_for(wk, f, n);
	/* which write stamped a block: the instance, then its own count */
	uint64_t gen = (uint64_t)wk->instance << 48 |
		       (++wk->vfy_writes & ((1ULL << 48) - 1));

	if (buf)
		vfy_fill(buf, fileset_file_id(fs_of(wk, s->fileset), s->entry),
			 off, (size_t)n, gen);
	return buf;
}

int64_t op_verify_offset(struct worker *wk, const struct ir_flowop *f,
			 const struct slot *s, int whence)
{
	off_t o = lseek(s->fd, 0, whence);

	if (o < 0)
		op_fail_slot(wk, f, errno, "seek in", s);
	return (int64_t)o;
}

static int64_t index_of(struct worker *wk, const struct ir_flowop *f)
{
	return f->indexed.kind == IRV_NONE ? -1 : op_value(wk, &f->indexed);
}

static void path_of(struct worker *wk, int fileset, enum fs_pick kind,
		    int64_t e, char *buf, size_t len)
{
	char rel[PATH_MAX];

	if (fileset_relpath(fs_of(wk, fileset), kind, e, rel, sizeof(rel)) < 0)
		snprintf(rel, sizeof(rel), "#%" PRId64, e);
	snprintf(buf, len, "%s/%s", fileset_root(fs_of(wk, fileset)), rel);
}

/*
 * What a failed name lookup inside a fileset most likely met: paths are
 * resolved beneath the root without symlinks, so a symlink (or a file)
 * planted for a directory gives ELOOP or ENOTDIR, a way out EXDEV.
 */
const char *op_lookup_hint(int err)
{
	switch (err) {
	case ELOOP:
	case ENOTDIR:
		return " (a symlink or a non-directory on its path: "
		       "not followed)";
	case EXDEV:
		return " (its path leads out of the fileset root or across "
		       "a mount point)";
	default:
		return "";
	}
}

/* A fileset's root and a path below it: each shorter than PATH_MAX. */
#define FULL_PATH_MAX (2 * PATH_MAX)

__attribute__((noinline, cold)) enum fo_result
op_fail_slot_why(struct worker *wk, const struct ir_flowop *f, int err,
		 const char *verb, const struct slot *s, const char *why)
{
	char path[FULL_PATH_MAX];

	if (s->fileset >= 0)
		path_of(wk, s->fileset, FS_FILE_EXISTING, s->entry, path,
			sizeof(path));
	else
		snprintf(path, sizeof(path), "(fd)");
	return op_fail(wk, f, err, "cannot %s '%s'%s", verb, path, why);
}

__attribute__((noinline, cold)) enum fo_result
op_fail_slot(struct worker *wk, const struct ir_flowop *f, int err,
	     const char *verb, const struct slot *s)
{
	return op_fail_slot_why(wk, f, err, verb, s, "");
}

__attribute__((noinline, cold)) enum fo_result
op_fail_entry(struct worker *wk, const struct ir_flowop *f, int err,
	      const char *verb, int fsi, enum fs_pick kind, int64_t e,
	      bool beneath)
{
	char path[FULL_PATH_MAX];

	/* a device node, FIFO or foreign hard link at the name: say which */
	const char *why = err == EPERM || err == EMLINK ? fileset_refusal() :
							  NULL;

	path_of(wk, fsi, kind, e, path, sizeof(path));
	if (why)
		return op_fail(wk, f, err, "cannot %s '%s', %s", verb, path,
			       why);
	return op_fail(wk, f, err, "cannot %s '%s'%s", verb, path,
		       beneath ? op_lookup_hint(err) : "");
}

/*
 * A verify error of f at offset at of slot s's file: counted, said once
 * per file ("flowop F " then said), and the run's failure ("at offset N "
 * then why) if it is the first.
 */
static enum fo_result verify_error(struct worker *wk, const struct ir_flowop *f,
				   const struct slot *s, int64_t at,
				   const char *said, const char *why)
{
	char path[FULL_PATH_MAX];

	wk->stats[f->id].verify_errors++;
	path_of(wk, s->fileset, FS_FILE_EXISTING, s->entry, path, sizeof(path));
	if (vfy_log_first(wk->run->vlog, path))
		fb_error("verify: '%s' at offset %" PRId64 ": flowop %s %s",
			 path, at, f->label, said);
	if (wk->err_flowop < 0) {
		wk->err_flowop = f->id;
		wk->err_no = EBADMSG;
		if (asprintf(&wk->err_what,
			     "verify: '%s' at offset %" PRId64 " %s", path, at,
			     why) < 0)
			wk->err_what = NULL; /* the report says it is lost */
	}
	return FO_ERROR;
}

__attribute__((noinline, cold)) enum fo_result
op_verify_fail(struct worker *wk, const struct ir_flowop *f, const struct slot *s,
	       int64_t bad)
{
	return verify_error(wk, f, s, bad, "read data fbrun did not write there",
			    "holds data fbrun did not write there");
}

__attribute__((noinline, cold)) enum fo_result
op_verify_cut(struct worker *wk, const struct ir_flowop *f, const struct slot *s,
	      uint64_t at, uint64_t len)
{
	char said[128], why[128];

	snprintf(said, sizeof(said),
		 "found the end of the file there; fbrun wrote %" PRIu64
		 " bytes",
		 len);
	snprintf(why, sizeof(why),
		 "is the end of the file; fbrun wrote %" PRIu64 " bytes", len);
	return verify_error(wk, f, s, (int64_t)at, said, why);
}

/* local_of's first use of fileset i: make the state, or fail f. */
__attribute__((noinline)) struct fs_local *
op_local_new(struct worker *wk, const struct ir_flowop *f, int i)
{
	if (!(wk->locals[i] = fs_local_new()))
		op_fail(wk, f, ENOMEM, "no memory for the thread's state in "
				       "fileset %s",
			fileset_name(fs_of(wk, i)));
	return wk->locals[i];
}

/*
 * pick's other cases: indexed=, and no entry free in the wanted state
 * right now.  While some entry is busy, another thread may give one back
 * in that state: the thread sleeps until then (fileset_pick_wait), and
 * only a fileset with none in the wanted state and none busy has nothing
 * to pick.
 */
__attribute__((noinline)) int64_t
op_pick_slow(struct worker *wk, const struct ir_flowop *f, struct fileset *fs,
	     struct fs_local *l, enum fs_pick kind)
{
	struct fs_waits w = { 0, 0 };
	int64_t e = fileset_pick_wait(fs, kind, l, f->opennext,
				      index_of(wk, f), wk->stop, &w);

	if (w.n)
		add_waits(wk, f, &w);
	return e;
}

/*
 * Open an existing file of f's fileset into slot s.  timed: openfile,
 * where the open is the operation; else the open is setup.
 */
enum fo_result op_open_into(struct worker *wk, const struct ir_flowop *f,
				struct slot *s, bool timed)
{
	struct fileset *fs = fs_of(wk, f->fileset.index);
	struct fs_local *l = local_of(wk, f, f->fileset.index);
	const char *rel;
	int64_t e;
	uint64_t t0;
	int fd;

	if (!l)
		return FO_ERROR;
	e = pick(wk, f, fs, l, FS_FILE_EXISTING);
	if (e < 0)
		return op_norsc(wk, "flowop %s found no existing file in fileset %s",
			     f->name, fileset_name(fs));
	rel = fileset_path(fs, FS_FILE_EXISTING, e, l);
	/* an I/O flowop's open is setup: no CPU clock read around it */
	t0 = timed ? op_start(wk) : 0;
	fd = fileset_openat(fs, rel, open_flags(wk, f, f->fileset.index), 0);
	if (fd < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_EXISTING, e, err != ENOENT);
		return op_fail_entry(wk, f, err, "open", f->fileset.index,
				     FS_FILE_EXISTING, e, true);
	}
	if (timed)
		op_done(wk, f, t0, 0);
	s->fd = fd;
	slot_opened(s);
	slot_set_fileset(wk, s, f->fileset.index);
	s->entry = e;
	s->size = fileset_entry_size(fs, e);
	if (slot_verify(wk, s))
		op_verify_opened(wk, s); /* while the entry is still busy */
	fileset_unbusy(fs, FS_FILE_EXISTING, e, true);
	if (f->noreadahead)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return FO_OK;
}

/*
 * The position the slot kept given back to the kernel, if an op moved it:
 * one lseek where the flowops that keep it give way to another.  It
 * cannot fail on an open file at an offset those ops reached.
 */
__attribute__((noinline, cold)) void op_slot_return(struct slot *s)
{
	if (s->pos_moved)
		(void)lseek(s->fd, (off_t)s->pos, SEEK_SET);
	s->pos_held = false;
	s->pos_moved = false;
}

/* The file an I/O flowop works on: its slot, opened first if needed. */
enum fo_result op_io_open(struct worker *wk, const struct ir_flowop *f,
			  struct slot *s)
{
	if (f->fileset.index < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open",
			    f->fd >= 0 ? f->fd : 0);
	return op_open_into(wk, f, s, false);
}

uint64_t op_wss_of(struct worker *wk, const struct ir_flowop *f,
		   const struct slot *s)
{
	struct stat sb;

	if (f->workingset.kind != IRV_NONE) {
		int64_t v = op_value(wk, &f->workingset);

		if (v > 0)
			return (uint64_t)v;
	}
	if (s->size > 0)
		return s->size;
	return fstat(s->fd, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}
