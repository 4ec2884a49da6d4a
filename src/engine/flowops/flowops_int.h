/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The flowops' inside: shared by the flowops*.c files only. */
#ifndef FBRUN_FLOWOPS_INT_H
#define FBRUN_FLOWOPS_INT_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/fileset/fileset.h"
#include "engine/flowops/flowops.h"
#include "engine/worker/run_state.h"
#include "engine/worker/worker.h"
#include "trace/trace.h"
#include "util/sanitizer.h"

#define NS_PER_SEC 1000000000ull

/* Every flowop's function, from the one list. */
#define FLOWOP(id, name, fn, flags, uses, needs, prepare, release, help)        \
	enum fo_result fn(struct worker *wk, const struct ir_flowop *f);
#include "lang/flowop_list.h"
#undef FLOWOP

/* A value as an integer now: constants as they are, randvars sampled. */
int64_t op_value(struct worker *wk, const struct ir_value *v);

/* op_value with the constant case inline, for the per-op paths. */
static inline int64_t op_int(struct worker *wk, const struct ir_value *v)
{
	return v->kind == IRV_INT ? v->i : op_value(wk, v);
}

/*
 * read(), write(), pread(), pwrite(), openat() and close() for the per-op
 * paths: the same system calls without glibc's wrappers, which in a process
 * with threads mark every call a cancellation point with two atomic
 * updates around it (fbrun cancels no thread).  Errors set errno as the
 * wrappers do.  Where a long is narrower than an offset (32-bit systems)
 * the wrappers are used: they pass the offset in two halves as the kernel
 * wants it there; and under a sanitizer, whose own wrappers check the
 * buffers and follow the descriptors.
 */
#if __SIZEOF_LONG__ == 8 && !defined(FBRUN_ASAN) && !defined(FBRUN_TSAN)
#define SYS_RW(call, ...) syscall(SYS_##call, __VA_ARGS__)
#define SYS_PRW(call, ...) syscall(SYS_##call##64, __VA_ARGS__)
#else
#define SYS_RW(call, ...) call(__VA_ARGS__)
#define SYS_PRW(call, ...) call(__VA_ARGS__)
#endif

static inline ssize_t sys_read(int fd, void *buf, size_t n)
{
	return SYS_RW(read, fd, buf, n);
}

static inline ssize_t sys_write(int fd, const void *buf, size_t n)
{
	return SYS_RW(write, fd, buf, n);
}

static inline ssize_t sys_pread(int fd, void *buf, size_t n, off_t off)
{
	return SYS_PRW(pread, fd, buf, n, off);
}

static inline ssize_t sys_pwrite(int fd, const void *buf, size_t n,
				 off_t off)
{
	return SYS_PRW(pwrite, fd, buf, n, off);
}

static inline int sys_openat(int dfd, const char *name, int flags, mode_t mode)
{
	return (int)SYS_RW(openat, dfd, name, flags, mode);
}

static inline int sys_close(int fd)
{
	return (int)SYS_RW(close, fd);
}

/* op_done's part for runs whose finish/limit flowops read I/O totals. */
void op_totals(struct worker *wk, const struct ir_flowop *f, uint64_t bytes);

/*
 * Open an op's timed window: its start time.  An op the run samples
 * for CPU time reads the thread's CPU clock here and in op_done, inside
 * the window, so a wait for a CPU that the read brings on is in the op's
 * latency (doc/running.md, "What ms/op includes").
 */
static inline uint64_t op_start(struct worker *wk)
{
	uint64_t t0 = now_ns();

	if (__builtin_expect(wk->sampling, 0))
		worker_cpu_start(wk);
	return t0;
}

/* op_done of a sampled op: the CPU time too, the reads' own cost taken off. */
void op_done_sampled(struct worker *wk, const struct ir_flowop *f,
		     uint64_t t0, uint64_t bytes);

/*
 * Record a completed op that started at t0 (op_start) and moved bytes.
 * Inline: it runs once per operation, right after the second clock read.
 */
static inline __attribute__((always_inline)) void
op_done(struct worker *wk, const struct ir_flowop *f, uint64_t t0,
	uint64_t bytes)
{
	uint64_t lat;

	if (__builtin_expect(wk->sampling, 0)) {
		op_done_sampled(wk, f, t0, bytes);
		return;
	}
	lat = now_ns() - t0;
	fstats_add(&wk->stats[f->id], lat, bytes);
	/* an open loop's: from when it was meant to start, too */
	if (__builtin_expect(wk->rated, 0))
		fstats_resp(&wk->stats[f->id], lat + wk->lag_ns);
	if (__builtin_expect(wk->need_totals, 0))
		op_totals(wk, f, bytes);
}

/* Count a failed op against f (errno err); the first one is remembered. */
enum fo_result op_fail(struct worker *wk, const struct ir_flowop *f, int err,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Nothing left to do (no file to pick): the thread is done. */
enum fo_result op_norsc(struct worker *wk, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The same for a finish condition met (finishoncount...): the work the
 * script asked for is done, a normal end rather than one cut short.
 */
enum fo_result op_finished(struct worker *wk, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The thread's I/O buffer for n bytes, or NULL. */
char *op_buffer(struct worker *wk, uint64_t n);
/* op_buffer(), failing f when n does not fit the memsize buffer. */
char *op_buffer_grow(struct worker *wk, const struct ir_flowop *f, uint64_t n);
/* The same with the case of every op but the first inline. */
static inline char *buffer_for(struct worker *wk, const struct ir_flowop *f,
			       uint64_t n)
{
	return __builtin_expect(wk->buf && n <= wk->bufsize, 1) ?
		       wk->buf :
		       op_buffer_grow(wk, f, n);
}

/* Random data differs per thread instance and flowop: from its seed. */
uint64_t op_seed_of(const struct worker *wk, const struct ir_flowop *f);
/*
 * What a write of n bytes by f to slot s writes: its data pattern, or the
 * thread's buffer; NULL after failing f.
 */
const char *op_write_data(struct worker *wk, const struct ir_flowop *f,
			  const struct slot *s, uint64_t n);

/* The file in slot s is of a fileset with verify (engine/verify.h). */
static inline bool slot_verify(const struct worker *wk, const struct slot *s)
{
	(void)wk;
	return s->verify;
}

/* Slot s now holds a file of fileset fs (an index, or -1). */
static inline void slot_set_fileset(const struct worker *wk, struct slot *s,
				    int fs)
{
	s->fileset = fs;
	s->verify = fs >= 0 && wk->w->filesets[fs].verify;
}

/*
 * verify's data for a write of n bytes at off to the file in slot s, in
 * the thread's buffer; NULL after failing f.
 */
const char *op_verify_data(struct worker *wk, const struct ir_flowop *f,
			   const struct slot *s, uint64_t off, uint64_t n);

/*
 * -1 if n bytes read at off from slot s's file are right, else where not:
 * zeros are right where fbrun may have left a hole (op_verify_hole).
 */
int64_t op_verify_check(struct worker *wk, const struct slot *s,
			const char *buf, uint64_t off, uint64_t n);

/* Slot s now holds its entry's file: what verify knows of its length. */
void op_verify_opened(struct worker *wk, struct slot *s);
/*
 * A length slot s's file has at least, as fbrun wrote it: taken before a
 * read, a read that ends short of it met a file cut by someone else.
 */
uint64_t op_verify_len(struct worker *wk, const struct slot *s);
/*
 * Before a write or fallocate up to hi in slot s's file, of which len
 * (op_verify_len) bytes were known: [len, hi) may stay a hole.
 */
void op_verify_hole(struct worker *wk, const struct slot *s, uint64_t len,
		    uint64_t hi);
/* After a write through slot s that reached end: the file is that long. */
void op_verify_grew(struct worker *wk, struct slot *s, uint64_t end);

/*
 * Count a verify error against f (the bytes at bad of slot s's file), say
 * so once per file, remember it as the run's failure if it is the first:
 * FO_ERROR, which --continue-on-error goes on after.
 */
enum fo_result op_verify_fail(struct worker *wk, const struct ir_flowop *f,
			      const struct slot *s, int64_t bad);

/*
 * A read of f found slot s's file ending at at, short of the len bytes
 * fbrun wrote: counted and said as op_verify_fail does; FO_ERROR.
 */
enum fo_result op_verify_cut(struct worker *wk, const struct ir_flowop *f,
			     const struct slot *s, uint64_t at, uint64_t len);

/* The read's check: FO_OK, or op_verify_fail's FO_ERROR. */
static inline enum fo_result verify_read(struct worker *wk,
					 const struct ir_flowop *f,
					 const struct slot *s, const char *buf,
					 uint64_t off, uint64_t n)
{
	int64_t bad = op_verify_check(wk, s, buf, off, n);

	return bad < 0 ? FO_OK : op_verify_fail(wk, f, s, bad);
}

/* The file offset of slot s (untimed, for verify), or -1 after failing f. */
int64_t op_verify_offset(struct worker *wk, const struct ir_flowop *f,
			 const struct slot *s, int whence);

/* op_io_file's part for a slot not open yet: open f's file into s. */
enum fo_result op_io_open(struct worker *wk, const struct ir_flowop *f,
			  struct slot *s);

/* Working-set size: workingset=, else the file's size. */
uint64_t op_wss_of(struct worker *wk, const struct ir_flowop *f,
		   const struct slot *s);

/* A uniform iosize-aligned offset inside the working set (0 if smaller). */
static inline uint64_t random_offset(struct worker *wk,
				     const struct ir_flowop *f,
				     const struct slot *s, uint64_t iosize)
{
	uint64_t ws = f->workingset.kind == IRV_NONE && s->size > 0 ?
			      s->size :
			      op_wss_of(wk, f, s);

	return ws >= iosize ? rv_below(&wk->rng, ws / iosize) * iosize : 0;
}

/*
 * Remove the file slot s held (closed by now) without recording an op,
 * unless another thread is removing or has removed it: FO_OK either way,
 * else f fails.
 */
enum fo_result op_remove_closed(struct worker *wk, const struct ir_flowop *f,
				const struct slot *s);

/* aioread/aiowrite's hook: the thread's queue, sized for its iodepths. */
int op_aio_prepare(struct worker *wk, const struct ir_flowop *f);

/* queuetake/queueput's hook: the queue of the process instance. */
int op_queue_prepare(struct worker *wk, const struct ir_flowop *f);

/* createnext/statnext/deletenext's hooks (flowops_namewise.c). */
int op_names_prepare(struct worker *wk, const struct ir_flowop *f);
void op_names_free(void *state);

/*
 * op_fail with the message "cannot VERB 'PATH'": the file open in slot s,
 * or entry e of the given kind of fileset fsi; beneath: its lookup was
 * beneath the root without symlinks, so ELOOP and ENOTDIR get a word on
 * why.  The path is built here, out of the per-op functions, whole
 * whatever its length.
 */
enum fo_result op_fail_slot(struct worker *wk, const struct ir_flowop *f,
			    int err, const char *verb, const struct slot *s);
/* op_fail_slot with why (" (...)" or ": ...") after the path. */
enum fo_result op_fail_slot_why(struct worker *wk, const struct ir_flowop *f,
				int err, const char *verb, const struct slot *s,
				const char *why);
enum fo_result op_fail_entry(struct worker *wk, const struct ir_flowop *f,
			     int err, const char *verb, int fsi,
			     enum fs_pick kind, int64_t e, bool beneath);

/* ------------------------------------------------------------ files */

static inline struct fileset *fs_of(struct worker *wk, int idx)
{
	return wk->run->filesets[idx];
}

/* The slot as it is, its position perhaps held (worker.h: pos_held). */
static inline struct slot *slot_raw(struct worker *wk,
				    const struct ir_flowop *f)
{
	return &wk->slots[f->fd >= 0 ? f->fd : 0];
}

void op_slot_return(struct slot *s);

/* The slot with the kernel's position its own again, for any other flowop. */
static inline struct slot *slot_of(struct worker *wk,
				   const struct ir_flowop *f)
{
	struct slot *s = slot_raw(wk, f);

	if (__builtin_expect(s->pos_held, 0))
		op_slot_return(s);
	return s;
}

/*
 * The file an I/O flowop works on: its slot, opened first if needed.
 * Inline: every op of a flowop on an open descriptor starts here.
 */
static inline enum fo_result op_io_file(struct worker *wk,
					const struct ir_flowop *f,
					struct slot **out)
{
	struct slot *s = slot_of(wk, f);

	*out = s;
	return __builtin_expect(s->fd >= 0, 1) ? FO_OK : op_io_open(wk, f, s);
}

/* A file just opened on s: its position is 0, kept in the slot. */
static inline void slot_opened(struct slot *s)
{
	s->pos = 0;
	s->pos_held = true;
	s->pos_moved = false;
}

/* An op that kept the position moved it to pos. */
static inline void slot_pos_moved(struct slot *s, int64_t pos)
{
	s->pos = pos;
	s->pos_moved = true;
}

/* open(2) flags for f on a file of the fileset: its access, dsync, directio. */
static inline int open_flags(const struct worker *wk,
			     const struct ir_flowop *f, int fileset)
{
	const struct ir_fileset *def = &wk->w->filesets[fileset];
	int fl = def->readonly ? O_RDONLY : def->writeonly ? O_WRONLY : O_RDWR;

	if (f->dsync)
		fl |= O_SYNC;
	if (f->directio)
		fl |= O_DIRECT;
	return fl;
}

/* local_of's first use of fileset i: make the state, or fail f. */
struct fs_local *op_local_new(struct worker *wk, const struct ir_flowop *f,
			      int i);

/* The thread's own state in fileset i, or NULL after failing f. */
static inline struct fs_local *local_of(struct worker *wk,
					const struct ir_flowop *f, int i)
{
	struct fs_local *l = wk->locals[i];

	return __builtin_expect(l != NULL, 1) ? l : op_local_new(wk, f, i);
}

/* What blocking for an entry cost f: counted against it. */
static inline void add_waits(struct worker *wk, const struct ir_flowop *f,
			     const struct fs_waits *w)
{
	wk->stats[f->id].waits += w->n;
	wk->stats[f->id].wait_ns += w->ns;
}

/*
 * pick's other cases: indexed=, and no entry free in the wanted state
 * right now (the thread waits while another may give one back).
 */
int64_t op_pick_slow(struct worker *wk, const struct ir_flowop *f,
		     struct fileset *fs, struct fs_local *l, enum fs_pick kind);

/* An entry for f: in turn (opennext: its own), or indexed=; -1 if none. */
static inline int64_t pick(struct worker *wk, const struct ir_flowop *f,
			   struct fileset *fs, struct fs_local *l,
			   enum fs_pick kind)
{
	int64_t e;

	if (__builtin_expect(f->indexed.kind == IRV_NONE, 1) &&
	    (e = fileset_pick(fs, kind, l, f->opennext)) >= 0)
		return e;
	return op_pick_slow(wk, f, fs, l, kind);
}

/*
 * Open an existing file of f's fileset into slot s.  timed: openfile,
 * where the open is the operation; else the open is setup.
 */
enum fo_result op_open_into(struct worker *wk, const struct ir_flowop *f,
			    struct slot *s, bool timed);

/* ------------------------------------------------------------ replay */

/*
 * One thread's replay of a trace (flowops_replay.c): its own directory
 * under the fileset's root, the fds of each stream's handles, a buffer
 * for the data, the parent directory of the last path (kept open for
 * the next op in it).
 */
struct replay {
	const struct trace *t;
	const struct ir_flowop *f;
	unsigned instance;
	int dirfd; /* the tree: replay-<flowop id>-<instance> in the root */
	int **fds; /* per stream, per handle: -1 when not open */
	char *buf;
	size_t buflen;
	char *pdir; /* the parent kept, relative to the tree, and its fd */
	int pfd;
	struct trace_step *order; /* every stream's ops, in replay order */
	size_t nsteps;
	uint64_t passes;
	/* ops that failed in the recording and succeeded here */
	uint64_t mismatches;
	char *mismatch; /* the first, said when the thread ends */
	/*
	 * streams=parallel: the renames and removals of every stream, so
	 * that a stream's kept parent is dropped when another's moved it
	 * (pgen: the count when it was kept); NULL in one sequence.
	 */
	_Atomic uint64_t *moves;
	uint64_t pgen;
	/* ops the recording made through a symlink out of its root: not followed */
	uint64_t outside;
	char *outside_first;
};

/*
 * What a symbolic link the replay makes holds where the recording's
 * pointed out of its root: a relative name in its own directory, not the
 * recording's target, so that the link leads nowhere outside the tree
 * whatever later follows it.
 */
#define REPLAY_SYMLINK_TARGET ".fbrun-replay-symlink"

/*
 * path, or a directory on its way, is a link the replay made where the
 * recording's led out of its root (dangling here).
 */
bool op_replay_leads_out(struct replay *rp, const char *path);
/*
 * A symlink the recording made, made at last in pfd
 * (flowops_replay_links.c): to where it pointed when that was beneath the trace root, else to
 * REPLAY_SYMLINK_TARGET beside itself.  0 or -1 with errno.
 */
int op_replay_symlink(struct replay *rp, const struct trace_op *op, int pfd,
		      const char *last);
/* Without openat2: path opened with its links followed beneath the tree. */
int op_replay_open_walk(struct replay *rp, const char *path, int fl, mode_t m);
/* A handle whose open led out of the tree: its ops fail with EXDEV. */
#define REPLAY_FD_OUT (-2)

/* Replay op of stream s: 0, or the errno its call failed with; bytes done. */
int op_replay_call(struct replay *rp, size_t s, const struct trace_op *op,
		   uint64_t *bytes);
/* Open path beneath the tree with a trace's flags: only files, dirs. */
int op_replay_open(struct replay *rp, const char *path, unsigned tflags,
		   unsigned mode);
/* Remove name in dfd and all beneath it (all the replay's): -1, errno. */
int op_replay_rmtree(struct replay *rp, int dfd, const char *name);
/*
 * The directory holding path (an fd beneath the tree, kept for the next
 * op in the same directory, or another) and its last component.  -1
 * with errno.  other: for the second path of a rename or link, opened
 * apart (*own set: the caller closes it).
 */
int op_replay_parent(struct replay *rp, const char *path, const char **last,
		     bool other, int *own);
/*
 * calls=dbench (flowops_replay_dbench.c): the name lookups dbench makes
 * before op, and its SET_FILE_INFORMATION on a handle (0 or the errno).
 */
void op_replay_dbench_lookup(struct replay *rp, const struct trace_op *op);
int op_replay_dbench_setattr(struct replay *rp, size_t s,
			     const struct trace_op *op);
/* Forget the parent directory kept (a rename or removal may move it). */
void op_replay_forget(struct replay *rp);
/* Close what stream s holds open (its process exited, or the pass ended). */
void op_replay_close_stream(struct replay *rp, size_t s);
/* Whether op's outcome, err (0: success), is the one recorded. */
bool op_replay_expected(const struct trace_op *op, int err);
/* An op that failed in the recording and succeeded: counted, the first said. */
void op_replay_mismatch(struct replay *rp, const struct trace_op *op);
/*
 * An op that succeeded in the recording failing with err here: true,
 * counted with the first said, when it went through a symbolic link out
 * of the tree (EXDEV), not followed.
 */
bool op_replay_outside(struct replay *rp, const struct trace_op *op, int err);
/* What the op was, for messages: "open 'a/b' (trace line 12)". */
char *op_replay_describe(const struct replay *rp, const struct trace_op *op);
/*
 * pace=: until op's time divided by pace after start (ns, the monotonic
 * clock), in naps short enough for a stop to end it soon after; false
 * if the run is stopping.
 */
bool op_replay_pace(const atomic_bool *stop, double pace,
		    const struct trace_op *op, uint64_t start);
/*
 * Stream s's handles that were open before it began, opened (at its
 * first op); 0, or the errno with *path the one that failed.
 */
int op_replay_inherit(struct replay *rp, size_t s, const char **path);
/*
 * streams=parallel: one pass, each stream in a thread of its own
 * (flowops_replay_par.c), started at tp; *stopped if a stop cut it.
 */
enum fo_result op_replay_parallel(struct worker *wk, struct replay *rp,
				  uint64_t tp, bool *stopped);
/* op_totals for n ops of f moving bytes in all. */
void op_totals_many(struct worker *wk, const struct ir_flowop *f, uint64_t n,
		    uint64_t bytes);
/* replay's hooks. */
int op_replay_prepare(struct worker *wk, const struct ir_flowop *f);
void op_replay_free(void *state);

/* What a failed lookup beneath a fileset's root most likely met, or "". */
const char *op_lookup_hint(int err);

#endif
