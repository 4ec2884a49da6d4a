/*
 * The flowops.  Each one does its setup (picking and opening files,
 * finding a buffer) outside the timed window, then times exactly the
 * syscalls filebench times, and records the result in the worker's own
 * statistics.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/datagen.h"
#include "engine/flowops_int.h"
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

static struct fstats *st(struct worker *wk, const struct ir_flowop *f)
{
	return &wk->stats[f->id];
}

static bool is_io(const struct ir_flowop *f)
{
	return flowop_class_is_io(flowop_info[f->type].cls);
}

/* op_done's slow part: the totals other threads' limits read. */
void op_totals(struct worker *wk, const struct ir_flowop *f, uint64_t bytes)
{
	enum flowop_class cls = flowop_info[f->type].cls;

	if (!is_io(f))
		return;
	atomic_store_explicit(&wk->io_ops,
			      atomic_load_explicit(&wk->io_ops,
						   memory_order_relaxed) + 1,
			      memory_order_relaxed);
	atomic_store_explicit(&wk->io_bytes,
			      atomic_load_explicit(&wk->io_bytes,
						   memory_order_relaxed) + bytes,
			      memory_order_relaxed);
	if (cls == FC_READ || cls == FC_WRITE || cls == FC_AIO)
		atomic_store_explicit(
			&wk->rw_ops,
			atomic_load_explicit(&wk->rw_ops, memory_order_relaxed) + 1,
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
	struct fstats *s = st(wk, f);
	uint64_t cpu = thread_cpu_ns() - wk->cpu0, t1 = now_ns();
	uint64_t lat = t1 - t0;
	uint64_t off = lat > wk->probe_wall ? wk->probe_wall : lat;

	wk->sampling = false;
	s->cpu_ns += cpu > wk->probe_cpu ? cpu - wk->probe_cpu : 0;
	s->cpu_samples++;
	wk->probe_total += off;
	fstats_add(s, lat - off, bytes);
	if (wk->need_totals)
		op_totals(wk, f, bytes);
}

/*
 * The first read is where the scheduler finds out that the time slice is
 * over, and the thread is switched out on its way back: the CPU time is
 * counted from the second, so it does not hold the switch.
 */
void op_cpu_start(struct worker *wk)
{
	thread_cpu_ns();
	wk->cpu0 = thread_cpu_ns();
}

void worker_calibrate(struct worker *wk)
{
	uint64_t wall = UINT64_MAX, bare = UINT64_MAX, cpu = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t t0 = now_ns(), c0, c1, t1, t2;

		op_cpu_start(wk); /* the reads of a sampled op, back to back */
		c0 = wk->cpu0;
		c1 = thread_cpu_ns();
		t1 = now_ns();
		t2 = now_ns();

		if (t1 - t0 < wall)
			wall = t1 - t0;
		if (t2 - t1 < bare)
			bare = t2 - t1;
		if (c1 - c0 < cpu)
			cpu = c1 - c0;
	}
	/* an unsampled window holds one clock read's worth too: not that */
	wk->probe_wall = wall > bare ? wall - bare : 0;
	wk->probe_cpu = cpu;
}

/* Count a failed op against its flowop and remember the first failure. */
enum fo_result op_fail(struct worker *wk, const struct ir_flowop *f,
			   int err, const char *fmt, ...)
{
	va_list ap;

	fstats_error(st(wk, f), err);
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

enum fo_result op_norsc(struct worker *wk, const char *fmt, ...)
{
	va_list ap;

	/* nothing found once the run is stopping (a wait cut short): stopped */
	if (timeline_flag_set(wk->stop))
		return FO_OK;
	va_start(ap, fmt);
	vsnprintf(wk->norsc_why, sizeof(wk->norsc_why), fmt, ap);
	va_end(ap);
	return FO_NORSC;
}

/*
 * A buffer of n bytes: the start of the memsize buffer, or one grown on
 * demand.  Always the same place, so the copy to or from user space stays
 * in the CPU cache and the time measured is the file system's, not the
 * memory bus's (filebench spreads I/O over memsize at random).
 */
char *buffer(struct worker *wk, uint64_t n)
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

/* buffer(), failing the flowop when n does not fit the memsize buffer. */
char *buffer_grow(struct worker *wk, const struct ir_flowop *f, uint64_t n)
{
	char *buf = buffer(wk, n);

	if (!buf)
		op_fail(wk, f, ENOMEM,
		     "iosize %" PRIu64 " does not fit the thread's memsize",
		     n);
	return buf;
}

/* Random data differs per thread instance and flowop. */
static uint64_t seed_of(const struct worker *wk, const struct ir_flowop *f)
{
	return ((uint64_t)wk->instance << 32 | (uint64_t)f->id) *
	       0x9e3779b97f4a7c15ULL;
}

/*
 * The data for a write of n bytes by f to the file in slot s, in the
 * pattern of f, else of the file's fileset, else --data; with none of
 * them, the thread's buffer as it is.
 */
const char *write_data(struct worker *wk, const struct ir_flowop *f,
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
		*g = datagen_new(p, seed_of(wk, f));
	data = n <= SIZE_MAX ? datagen_next(*g, (size_t)n) : NULL;
	if (!data)
		op_fail(wk, f, ENOMEM, "no memory for %" PRIu64 " bytes of data",
			n);
	return data;
}

void worker_prepare_data(struct worker *wk)
{
	const struct workload *w = wk->w;
	const struct datapat none = { DATA_DEFAULT, 0 };

	for (size_t i = 0; i < w->nflowops; i++) {
		const struct ir_flowop *f = w->flowops[i];
		struct datapat p;

		if (f->thread != wk->thread_index || f->type == FO_COMPOSITE ||
		    !(flowop_info[f->type].uses & FA(DATA)))
			continue;
		p = datapat_pick(f->data,
				 f->fileset.index >= 0 ?
					 w->filesets[f->fileset.index].data :
					 none,
				 wk->run->opts->data);
		/* only the pools cost more than an allocation */
		if (p.kind != DATA_RANDOM && p.kind != DATA_COMPRESS)
			continue;
		wk->gens[f->id] = datagen_new(p, seed_of(wk, f));
		datagen_next(wk->gens[f->id],
			     f->iosize.kind == IRV_INT && f->iosize.i > 0 &&
					     (uint64_t)f->iosize.i <= SIZE_MAX ?
				     (size_t)f->iosize.i :
				     1);
	}
}

static struct fileset *fs_of(struct worker *wk, int idx)
{
	return wk->run->filesets[idx];
}

static int open_flags(const struct worker *wk, const struct ir_flowop *f,
		      int fileset)
{
	const struct ir_fileset *def = &wk->w->filesets[fileset];
	int fl = def->readonly ? O_RDONLY : def->writeonly ? O_WRONLY : O_RDWR;

	if (f->dsync)
		fl |= O_SYNC;
	if (f->directio)
		fl |= O_DIRECT;
	return fl;
}

static struct slot *slot_of(struct worker *wk, const struct ir_flowop *f)
{
	return &wk->slots[f->fd >= 0 ? f->fd : 0];
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
static const char *lookup_hint(int err)
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
op_fail_slot(struct worker *wk, const struct ir_flowop *f, int err,
	     const char *verb, const struct slot *s)
{
	char path[FULL_PATH_MAX];

	if (s->fileset >= 0)
		path_of(wk, s->fileset, FS_FILE_EXISTING, s->entry, path,
			sizeof(path));
	else
		snprintf(path, sizeof(path), "(fd)");
	return op_fail(wk, f, err, "cannot %s '%s'", verb, path);
}

__attribute__((noinline, cold)) enum fo_result
op_fail_entry(struct worker *wk, const struct ir_flowop *f, int err,
	      const char *verb, int fsi, enum fs_pick kind, int64_t e,
	      bool beneath)
{
	char path[FULL_PATH_MAX];

	path_of(wk, fsi, kind, e, path, sizeof(path));
	return op_fail(wk, f, err, "cannot %s '%s'%s", verb, path,
		       beneath ? lookup_hint(err) : "");
}

/* local_of's first use of fileset i: make the state, or fail f. */
static __attribute__((noinline)) struct fs_local *
local_new(struct worker *wk, const struct ir_flowop *f, int i)
{
	if (!(wk->locals[i] = fs_local_new()))
		op_fail(wk, f, ENOMEM, "no memory for the thread's state in "
				       "fileset %s",
			fileset_name(fs_of(wk, i)));
	return wk->locals[i];
}

/* The thread's own state in fileset i, or NULL after failing f. */
static inline struct fs_local *local_of(struct worker *wk,
					const struct ir_flowop *f, int i)
{
	struct fs_local *l = wk->locals[i];

	return __builtin_expect(l != NULL, 1) ? l : local_new(wk, f, i);
}

/* What blocking for an entry cost f: counted against it. */
static void add_waits(struct worker *wk, const struct ir_flowop *f,
		      const struct fs_waits *w)
{
	st(wk, f)->waits += w->n;
	st(wk, f)->wait_ns += w->ns;
}

/*
 * pick's other cases: indexed=, and no entry free in the wanted state
 * right now.  While some entry is busy, another thread may give one back
 * in that state: the thread sleeps until then (fileset_pick_wait), and
 * only a fileset with none in the wanted state and none busy has nothing
 * to pick.
 */
static __attribute__((noinline)) int64_t
pick_slow(struct worker *wk, const struct ir_flowop *f, struct fileset *fs,
	  struct fs_local *l, enum fs_pick kind)
{
	struct fs_waits w = { 0, 0 };
	int64_t e = fileset_pick_wait(fs, kind, l, f->opennext,
				      index_of(wk, f), wk->stop, &w);

	if (w.n)
		add_waits(wk, f, &w);
	return e;
}

/* An entry for f: in turn (opennext: its own), or indexed=; -1 if none. */
static inline int64_t pick(struct worker *wk, const struct ir_flowop *f,
			   struct fileset *fs, struct fs_local *l,
			   enum fs_pick kind)
{
	int64_t e;

	if (__builtin_expect(f->indexed.kind == IRV_NONE, 1) &&
	    (e = fileset_pick(fs, kind, l, f->opennext)) >= 0)
		return e;
	return pick_slow(wk, f, fs, l, kind);
}

/*
 * Open an existing file of f's fileset into slot s.  timed: openfile,
 * where the open is the operation; else the open is setup.
 */
static enum fo_result open_into(struct worker *wk, const struct ir_flowop *f,
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
	fileset_unbusy(fs, FS_FILE_EXISTING, e, true);
	if (f->noreadahead)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	s->fd = fd;
	s->fileset = f->fileset.index;
	s->entry = e;
	s->size = fileset_entry_size(fs, e);
	return FO_OK;
}

/* The file an I/O flowop works on: its slot, opened first if needed. */
enum fo_result io_file(struct worker *wk, const struct ir_flowop *f,
			      struct slot **out)
{
	struct slot *s = slot_of(wk, f);
	enum fo_result r;

	*out = s;
	if (s->fd >= 0)
		return FO_OK;
	if (f->fileset.index < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open",
			    f->fd >= 0 ? f->fd : 0);
	r = open_into(wk, f, s, false);
	return r;
}

uint64_t wss_of(struct worker *wk, const struct ir_flowop *f,
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


/* ------------------------------------------------------------ data I/O */

/* Inlined into fo_read and fo_write: the per-op path has no call to spare. */
static inline __attribute__((always_inline)) enum fo_result
do_rw(struct worker *wk, const struct ir_flowop *f, bool is_write)
{
	struct slot *s = slot_of(wk, f);
	enum fo_result r = s->fd >= 0 ? FO_OK : io_file(wk, f, &s);
	int64_t iosize = op_int(wk, &f->iosize);
	char *rbuf = NULL;
	const char *wbuf = NULL;
	uint64_t t0, off = 0;
	ssize_t n;

	if (r != FO_OK)
		return r;
	if (iosize <= 0)
		iosize = 1;
	if (is_write)
		wbuf = write_data(wk, f, s, (uint64_t)iosize);
	else
		rbuf = buffer_for(wk, f, (uint64_t)iosize);
	if (!wbuf && !rbuf)
		return FO_ERROR;
	if (f->random) {
		off = random_offset(wk, f, s, (uint64_t)iosize);
		t0 = op_start(wk);
		n = is_write ? pwrite(s->fd, wbuf, (size_t)iosize, (off_t)off) :
			       pread(s->fd, rbuf, (size_t)iosize, (off_t)off);
	} else {
		t0 = op_start(wk);
		n = is_write ? write(s->fd, wbuf, (size_t)iosize) :
			       read(s->fd, rbuf, (size_t)iosize);
	}
	if (n < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, is_write ? "write" : "read",
				    s);
	}
	op_done(wk, f, t0, (uint64_t)n);
	if (!is_write && !f->random && n == 0)
		lseek(s->fd, 0, SEEK_SET); /* sequential reads wrap at EOF */
	return FO_OK;
}

enum fo_result fo_read(struct worker *wk, const struct ir_flowop *f)
{
	return do_rw(wk, f, false);
}

enum fo_result fo_write(struct worker *wk, const struct ir_flowop *f)
{
	return do_rw(wk, f, true);
}

static enum fo_result append(struct worker *wk, const struct ir_flowop *f,
			     uint64_t n)
{
	struct slot *s;
	enum fo_result r = io_file(wk, f, &s);
	const char *buf;
	uint64_t t0;
	ssize_t got = 0;

	if (r != FO_OK)
		return r;
	buf = write_data(wk, f, s, n ? n : 1);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	if (n > 0) {
		if (lseek(s->fd, 0, SEEK_END) < 0 ||
		    (got = write(s->fd, buf, (size_t)n)) < 0) {
			int err = errno;

			return op_fail_slot(wk, f, err, "append to", s);
		}
	}
	op_done(wk, f, t0, (uint64_t)got);
	return FO_OK;
}

enum fo_result fo_appendfile(struct worker *wk,
				    const struct ir_flowop *f)
{
	int64_t n = op_value(wk, &f->iosize);

	return append(wk, f, n > 0 ? (uint64_t)n : 0);
}

/* Uniform 0..iosize-1 bytes: the mean append is iosize/2. */
enum fo_result fo_appendfilerand(struct worker *wk,
					const struct ir_flowop *f)
{
	int64_t n = op_value(wk, &f->iosize);

	return append(wk, f, n > 0 ? rv_below(&wk->rng, (uint64_t)n) : 0);
}

enum fo_result fo_readwholefile(struct worker *wk,
				       const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = io_file(wk, f, &s);
	int64_t iosize;
	uint64_t t0, total = 0;
	char *buf;
	ssize_t n;

	if (r != FO_OK)
		return r;
	iosize = op_value(wk, &f->iosize);
	if (iosize <= 0)
		iosize = (int64_t)wss_of(wk, f, s);
	if (iosize <= 0)
		iosize = 1;
	buf = buffer_for(wk, f, (uint64_t)iosize);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	if (lseek(s->fd, 0, SEEK_SET) < 0)
		goto err;
	/* a small iosize makes a long op: the end of the run cuts it short */
	while ((n = read(s->fd, buf, (size_t)iosize)) > 0) {
		total += (uint64_t)n;
		if (timeline_flag_set(wk->stop))
			return FO_OK; /* cut short: not recorded */
	}
	if (n < 0)
		goto err;
	op_done(wk, f, t0, total);
	return FO_OK;
err:
	return op_fail_slot(wk, f, errno, "read", s);
}

enum fo_result fo_writewholefile(struct worker *wk,
					const struct ir_flowop *f)
{
	struct slot *s, *src = f->srcfd >= 0 ? &wk->slots[f->srcfd] : NULL;
	enum fo_result r = io_file(wk, f, &s);
	uint64_t size, t0, left;
	int64_t iosize;
	const char *buf;
	ssize_t n;

	if (r != FO_OK)
		return r;
	if (src && src->fd < 0)
		return op_fail(wk, f, EBADF, "srcfd %" PRId64 " is not open",
			    f->srcfd);
	size = src ? wss_of(wk, f, src) : wss_of(wk, f, s);
	iosize = op_value(wk, &f->iosize);
	if (iosize <= 0 || (uint64_t)iosize > size)
		iosize = size > 0 ? (int64_t)size : 1;
	buf = write_data(wk, f, s, (uint64_t)iosize);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	for (left = size; left > 0; left -= (uint64_t)n) {
		size_t chunk = left < (uint64_t)iosize ? left : (size_t)iosize;

		/* a pattern changes per write (bonnie's counter, stamps) */
		if (left < size && wk->gens[f->id] &&
		    !(buf = write_data(wk, f, s, chunk)))
			return FO_ERROR;
		n = write(s->fd, buf, chunk);
		if (n < 0) {
			int err = errno;

			return op_fail_slot(wk, f, err, "write", s);
		}
		if (timeline_flag_set(wk->stop))
			return FO_OK; /* cut short: not recorded */
	}
	op_done(wk, f, t0, size);
	return FO_OK;
}

/* ------------------------------------------------------------ files */

enum fo_result fo_createfile(struct worker *wk,
				    const struct ir_flowop *f)
{
	struct slot *s = slot_of(wk, f);
	struct fileset *fs = fs_of(wk, f->fileset.index);
	struct fs_local *l;
	const char *rel;
	int64_t e;
	uint64_t t0;
	int fd;

	if (s->fd >= 0)
		return op_fail(wk, f, EBUSY, "fd %" PRId64 " is already open",
			    f->fd >= 0 ? f->fd : 0);
	if (!(l = local_of(wk, f, f->fileset.index)))
		return FO_ERROR;
	e = pick(wk, f, fs, l, FS_FILE_ABSENT);
	if (e < 0)
		return op_norsc(wk,
			     "flowop %s found no file left to create in "
			     "fileset %s",
			     f->name, fileset_name(fs));
	rel = fileset_path(fs, FS_FILE_ABSENT, e, l);
	t0 = op_start(wk);
	fd = fileset_openat(fs, rel,
			    open_flags(wk, f, f->fileset.index) | O_CREAT,
			    0644);
	if (fd < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_ABSENT, e, false);
		return op_fail_entry(wk, f, err, "create", f->fileset.index,
				     FS_FILE_ABSENT, e, true);
	}
	op_done(wk, f, t0, 0);
	fileset_unbusy(fs, FS_FILE_ABSENT, e, true);
	s->fd = fd;
	s->fileset = f->fileset.index;
	s->entry = e;
	s->size = fileset_entry_size(fs, e);
	return FO_OK;
}

enum fo_result fo_openfile(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s = slot_of(wk, f);

	if (s->fd >= 0)
		return op_fail(wk, f, EBUSY,
			    "fd %" PRId64 " is already open: close it first",
			    f->fd >= 0 ? f->fd : 0);
	return open_into(wk, f, s, true);
}

enum fo_result fo_closefile(struct worker *wk,
				   const struct ir_flowop *f)
{
	struct slot *s = slot_of(wk, f);
	uint64_t t0;
	int rc;

	if (s->fd < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open",
			    f->fd >= 0 ? f->fd : 0);
	/*
	 * Writes still queued on the fd first (untimed; aiowait reports their
	 * errors): closing under them lost them, or sent them to whatever
	 * file reused the number.
	 */
	if (wk->aioq)
		aioq_drain(wk->aioq);
	t0 = op_start(wk);
	rc = close(s->fd);
	s->fd = -1;
	if (rc < 0)
		return op_fail(wk, f, errno, "close failed");
	op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_deletefile(struct worker *wk,
				    const struct ir_flowop *f)
{
	struct slot *s = f->fd >= 0 ? slot_of(wk, f) : NULL;
	int fsi = s && s->fd >= 0 ? s->fileset : f->fileset.index;
	struct fileset *fs;
	struct fs_local *l;
	const char *name;
	int64_t e;
	uint64_t t0;
	int dfd;

	if (fsi < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open", f->fd);
	fs = fs_of(wk, fsi);
	if (!(l = local_of(wk, f, fsi)))
		return FO_ERROR;
	/* The file open in fd, if any, else one picked in turn. */
	if (s && s->fd >= 0) {
		struct fs_waits w = { 0, 0 };

		/*
		 * Another thread may have it busy for a moment (a stat, an
		 * open): wait for it.  Only an entry given back deleted was
		 * deleted by someone else, and then there is nothing to do.
		 */
		e = fileset_claim_wait(fs, FS_FILE_EXISTING, s->entry, wk->stop,
				       &w);
		if (w.n)
			add_waits(wk, f, &w);
		if (e < 0)
			return FO_OK;
	} else {
		e = pick(wk, f, fs, l, FS_FILE_EXISTING);
	}
	if (e < 0)
		return op_norsc(wk, "flowop %s found no file to delete in "
				 "fileset %s",
			     f->name, fileset_name(fs));
	/*
	 * unlinkat would follow a symlink planted on the way: the name is
	 * removed from its directory, opened beneath the root beforehand.
	 */
	dfd = fileset_parent(fs, FS_FILE_EXISTING, e, l, &name);
	t0 = op_start(wk);
	if (dfd < 0 || unlinkat(dfd, name, 0) < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_EXISTING, e, err != ENOENT);
		return op_fail_entry(wk, f, err, "delete", fsi,
				     FS_FILE_EXISTING, e, true);
	}
	op_done(wk, f, t0, 0);
	fileset_unbusy(fs, FS_FILE_EXISTING, e, false);
	return FO_OK;
}

enum fo_result remove_closed(struct worker *wk, const struct ir_flowop *f,
			     const struct slot *s)
{
	struct fileset *fs;
	struct fs_local *l;
	const char *name;
	int64_t e;
	int dfd;

	if (s->fileset < 0)
		return FO_OK; /* not a fileset's file: nothing of ours */
	fs = fs_of(wk, s->fileset);
	if (!(l = local_of(wk, f, s->fileset)))
		return FO_ERROR;
	/* busy or gone: another thread is removing it, or has */
	e = fileset_pick_at(fs, FS_FILE_EXISTING, s->entry);
	if (e != s->entry) {
		if (e >= 0)
			fileset_unbusy(fs, FS_FILE_EXISTING, e, true);
		return FO_OK;
	}
	dfd = fileset_parent(fs, FS_FILE_EXISTING, e, l, &name);
	if (dfd < 0 || unlinkat(dfd, name, 0) < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_EXISTING, e, err != ENOENT);
		/* gone already, as bonnie++'s seekers take it */
		return err == ENOENT ? FO_OK :
				       op_fail_entry(wk, f, err, "delete",
						     s->fileset,
						     FS_FILE_EXISTING, e, true);
	}
	fileset_unbusy(fs, FS_FILE_EXISTING, e, false);
	return FO_OK;
}

enum fo_result fo_statfile(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s = f->fd >= 0 ? slot_of(wk, f) : NULL;
	struct fileset *fs;
	struct fs_local *l;
	const char *rel;
	struct stat sb;
	int64_t e;
	uint64_t t0;

	if (s && s->fd >= 0) {
		t0 = op_start(wk);
		if (fstat(s->fd, &sb) < 0)
			return op_fail(wk, f, errno, "cannot fstat fd %" PRId64,
				    f->fd);
		op_done(wk, f, t0, 0);
		return FO_OK;
	}
	if (f->fileset.index < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open", f->fd);
	fs = fs_of(wk, f->fileset.index);
	if (!(l = local_of(wk, f, f->fileset.index)))
		return FO_ERROR;
	e = pick(wk, f, fs, l, FS_FILE_EXISTING);
	if (e < 0)
		return op_norsc(wk, "flowop %s found no file to stat in fileset %s",
			     f->name, fileset_name(fs));
	rel = fileset_path(fs, FS_FILE_EXISTING, e, l);
	t0 = op_start(wk);
	if (fstatat(fileset_rootfd(fs), rel, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
		int err = errno;

		fileset_unbusy(fs, FS_FILE_EXISTING, e, err != ENOENT);
		return op_fail_entry(wk, f, err, "stat", f->fileset.index,
				     FS_FILE_EXISTING, e, false);
	}
	op_done(wk, f, t0, 0);
	fileset_unbusy(fs, FS_FILE_EXISTING, e, true);
	return FO_OK;
}

enum fo_result fo_fsync(struct worker *wk, const struct ir_flowop *f)
{
	struct slot *s = slot_of(wk, f);
	uint64_t t0;

	if (s->fd < 0)
		return op_fail(wk, f, EBADF, "fd %" PRId64 " is not open",
			    f->fd >= 0 ? f->fd : 0);
	t0 = op_start(wk);
	if (fsync(s->fd) < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "fsync", s);
	}
	op_done(wk, f, t0, 0);
	return FO_OK;
}

enum fo_result fo_fsyncset(struct worker *wk, const struct ir_flowop *f)
{
	for (int64_t i = 0; i < wk->nslots; i++) {
		struct slot *s = &wk->slots[i];
		uint64_t t0;

		if (s->fd < 0 || s->fileset != f->fileset.index)
			continue;
		t0 = op_start(wk);
		if (fsync(s->fd) < 0)
			return op_fail(wk, f, errno, "cannot fsync fd %" PRId64, i);
		op_done(wk, f, t0, 0);
	}
	return FO_OK;
}

static enum fo_result leafdir(struct worker *wk, const struct ir_flowop *f,
			      bool make)
{
	struct fileset *fs = fs_of(wk, f->fileset.index);
	struct fs_local *l = local_of(wk, f, f->fileset.index);
	enum fs_pick kind = make ? FS_LEAF_ABSENT : FS_LEAF_EXISTING;
	const char *name;
	int64_t e;
	uint64_t t0;
	int dfd, rc;

	if (!l)
		return FO_ERROR;
	e = pick(wk, f, fs, l, kind);
	if (e < 0)
		return op_norsc(wk, "flowop %s found no leaf directory to %s in "
				 "fileset %s",
			     f->name, make ? "make" : "remove",
			     fileset_name(fs));
	/* in its directory, opened beneath the root: as deletefile */
	dfd = fileset_parent(fs, kind, e, l, &name);
	t0 = op_start(wk);
	rc = dfd < 0 ? -1 :
	     make    ? mkdirat(dfd, name, 0755) :
		       unlinkat(dfd, name, AT_REMOVEDIR);
	if (rc < 0) {
		int err = errno;

		fileset_unbusy(fs, kind, e, !make);
		return op_fail_entry(wk, f, err,
				     make ? "make directory" :
					    "remove directory",
				     f->fileset.index, kind, e, true);
	}
	op_done(wk, f, t0, 0);
	fileset_unbusy(fs, kind, e, make);
	return FO_OK;
}

enum fo_result fo_makedir(struct worker *wk, const struct ir_flowop *f)
{
	return leafdir(wk, f, true);
}

enum fo_result fo_removedir(struct worker *wk,
				   const struct ir_flowop *f)
{
	return leafdir(wk, f, false);
}

enum fo_result fo_listdir(struct worker *wk, const struct ir_flowop *f)
{
	struct fileset *fs = fs_of(wk, f->fileset.index);
	struct fs_local *l = local_of(wk, f, f->fileset.index);
	char rel[PATH_MAX];
	struct dirent *de;
	uint64_t t0, bytes = 0;
	DIR *dir;
	int64_t d;
	int fd;

	if (!l)
		return FO_ERROR;
	d = fileset_pick_dir(fs, l, f->opennext);
	fileset_dirpath(fs, d, rel, sizeof(rel)); /* fits: fileset_new */
	t0 = op_start(wk);
	fd = fileset_openat(fs, rel, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		return op_fail(wk, f, err, "cannot list '%s/%s'%s",
			    fileset_root(fs), rel, lookup_hint(err));
	}
	while ((de = readdir(dir)) && !timeline_flag_set(wk->stop))
		bytes += strlen(de->d_name) + sizeof(*de);
	closedir(dir);
	if (de)
		return FO_OK; /* a huge directory, cut short: not recorded */
	op_done(wk, f, t0, bytes);
	return FO_OK;
}

/* ------------------------------------------------------------ dispatch */

const flowop_fn flowop_dispatch[FO_NTYPES] = {
#define FLOWOP(id, name, fn, cls, uses, needs, help) [FO_##id] = fn,
#include "lang/flowop_list.h"
#undef FLOWOP
};

static int prepare_list(struct worker *wk, struct ir_flowop *const *fl,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ir_flowop *f = fl[i];

		if (f->type == FO_COMPOSITE) {
			if (prepare_list(wk, f->children, f->nchildren) < 0)
				return -1;
		} else if ((f->type == FO_CREATENEXT ||
			    f->type == FO_STATNEXT ||
			    f->type == FO_DELETENEXT) &&
			   !wk->fostate[f->id] &&
			   flowop_names_prepare(wk, f) < 0) {
			return -1;
		}
	}
	return 0;
}

int worker_prepare(struct worker *wk)
{
	return prepare_list(wk, wk->thread->flowops, wk->thread->nflowops);
}

void worker_release_state(struct worker *wk)
{
	for (size_t i = 0; wk->fostate && i < wk->w->nflowops; i++)
		if (wk->fostate[i])
			flowop_names_free(wk->fostate[i]);
	free(wk->fostate);
	wk->fostate = NULL;
}

/* Each fileset's state of the thread, with the directory fd it holds. */
static void drop_locals(struct worker *wk)
{
	for (size_t i = 0; wk->locals && i < wk->w->nfilesets; i++) {
		fs_local_free(wk->locals[i]);
		wk->locals[i] = NULL;
	}
}

void worker_close_slots(struct worker *wk)
{
	/* writes still in flight first: they need their fds */
	aioq_free(wk->aioq);
	wk->aioq = NULL;
	for (int64_t i = 0; i < wk->nslots; i++)
		if (wk->slots[i].fd >= 0) {
			close(wk->slots[i].fd);
			wk->slots[i].fd = -1;
		}
	drop_locals(wk);
}

void worker_free_locals(struct worker *wk)
{
	drop_locals(wk);
	free(wk->locals);
	wk->locals = NULL;
}
