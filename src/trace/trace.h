/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A recorded application's file I/O, in memory (doc/trace-format.md).
 *
 * A trace is read from one of the formats of trace/format_list.h:
 * strace's output (-f -ttt -T -y), a dbench NBENCH loadfile, a fio iolog
 * (v2 or v3), or fbrun's own text format, which trace_write also writes.
 * It holds streams (one per recorded process or thread; one for a
 * loadfile or an iolog), each an ordered list of operations on file
 * handles and paths.  Handles belong to their stream; paths are interned
 * once per trace, relative to the trace root and never above it.  A bad
 * trace is refused whole with one located error (TRACE:line:col, the
 * line and a caret), before anything is made.
 *
 * Replaying: for each stream in order, each op is one call.  A handle
 * with `inherited` set was open before the stream's first op (an fd from
 * the parent or from before the recording): open it at the stream's
 * start.  trace_initial() says what must exist before any stream starts.
 */
#ifndef FBRUN_TRACE_H
#define FBRUN_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum trace_format {
	TRACE_AUTO, /* told from the trace's first line */
#define TRACE_FORMAT(id, name, read, looks) TRACE_##id,
#include "trace/format_list.h"
#undef TRACE_FORMAT
	TRACE_NFORMATS
};

/* The operation types: the report's rows, in this order. */
#define TRACE_OPS(X)                                                           \
	X(OPEN, "open")                                                        \
	X(CLOSE, "close") X(READ, "read") X(WRITE, "write") X(SEEK, "seek") X( \
		FSYNC, "fsync") X(FDATASYNC, "fdatasync") X(STAT,              \
							    "stat") X(LSTAT,   \
								      "lstat") \
		X(FSTAT, "fstat") X(UNLINK, "unlink") X(RENAME, "rename") X(   \
			LINK, "link") X(SYMLINK, "symlink") X(MKDIR, "mkdir")  \
			X(RMDIR, "rmdir") X(READDIR, "readdir") X(             \
				TRUNCATE, "truncate") X(FTRUNCATE,             \
							"ftruncate")           \
				X(SETATTR, "setattr") X(STATFS, "statfs")      \
					X(LOCK, "lock") X(UNLOCK, "unlock")    \
						X(DELTREE, "deltree")          \
							X(TRIM, "trim")

enum trace_op_type {
#define TRACE_OP_ENUM(id, name) TOP_##id,
	TRACE_OPS(TRACE_OP_ENUM)
#undef TRACE_OP_ENUM
	TOP_COUNT
};

/* Open flags, fbrun's own bits (not the platform's O_*). */
enum {
	TRACE_O_READ = 1 << 0,
	TRACE_O_WRITE = 1 << 1,
	TRACE_O_CREAT = 1 << 2,
	TRACE_O_EXCL = 1 << 3,
	TRACE_O_TRUNC = 1 << 4,
	TRACE_O_APPEND = 1 << 5,
	TRACE_O_DIRECTORY = 1 << 6,
	TRACE_O_SYNC = 1 << 7,
	TRACE_O_DSYNC = 1 << 8,
	TRACE_O_DIRECT = 1 << 9,
	TRACE_O_NOFOLLOW = 1 << 10,
	TRACE_O_PATH = 1 << 11,
};

/* Offsets and lengths beyond this are refused: 1 PiB. */
#define TRACE_MAX_OFFSET ((int64_t)1 << 50)

/* No time recorded. */
#define TRACE_NO_TIME INT64_MIN

struct trace_op {
	enum trace_op_type type;
	int handle; /* the stream's handle, -1 for none */
	/*
	 * trace_path() indexes, -1 for none; path2: the new name of rename
	 * and link; symlink: path is the link made, path2 where it points
	 * (-1: outside the trace root, or not recorded)
	 */
	int path, path2;
	unsigned flags; /* open: TRACE_O_*; truncate etc.: 0 */
	unsigned mode; /* open with create, mkdir: permission bits */
	int64_t offset; /* read, write, lock, trim; -1: the handle's offset; seek: where to */
	int64_t length; /* bytes asked (read, write, lock, trim, truncate) */
	int64_t result; /* on success: bytes done (read, write, readdir), else 0 */
	int err; /* 0: the recording succeeded; else the errno it failed with */
	int64_t time_ns; /* since the trace's first op, or TRACE_NO_TIME */
	int64_t dur_ns; /* how long the call took, or TRACE_NO_TIME */
	int line; /* the line of the trace it came from */
};

struct trace_handle {
	int path; /* what it was opened as */
	unsigned flags; /* TRACE_O_* of its open */
	bool inherited; /* open before the stream's first op */
};

/* One entry of the state the trace expects at its start. */
struct trace_entry {
	int path;
	bool dir;
	int64_t size; /* files: at least this many bytes */
};

struct trace;

struct trace_opts {
	enum trace_format format; /* TRACE_AUTO: from the first line */
	/*
	 * Absolute directory the recording ran in: absolute paths beneath it
	 * become relative to the trace root.  NULL: strace's first AT_FDCWD
	 * annotation says, the other formats have none (see mapping rules).
	 */
	const char *root;
	FILE *err; /* where the located error goes (stderr if NULL) */
};

/*
 * Read a trace file.  NULL when it cannot be read or is bad: the error
 * (located, or "fbrun: error: ..." for the file itself) was printed.
 */
struct trace *trace_load(const char *path, const struct trace_opts *opts);
/* The same from text in memory, under a display name. */
struct trace *trace_parse(const char *name, const char *text, size_t len,
			  const struct trace_opts *opts);

struct trace *trace_new(void);
void trace_free(struct trace *t);

/* A format's name (trace/format_list.h) or "auto"; -1 for another word. */
int trace_format_parse(const char *word, enum trace_format *out);
const char *trace_format_name(enum trace_format f);
/* The words trace_format_parse takes, "auto, strace, ... or fbrun", in buf. */
const char *trace_format_words(char *buf, size_t size);
enum trace_format trace_format(const struct trace *t);
const char *trace_op_name(enum trace_op_type type);

/* Paths: relative, lexical, no "..", "." for the root itself. */
size_t trace_npaths(const struct trace *t);
const char *trace_path(const struct trace *t, int idx);
/* The index of path (interned); path must already be normalised. */
int trace_intern(struct trace *t, const char *path);

size_t trace_nstreams(const struct trace *t);
/* What the recording called it: "pid 1234", "client", the iolog's name. */
const char *trace_stream_name(const struct trace *t, size_t s);
size_t trace_stream_nops(const struct trace *t, size_t s);
const struct trace_op *trace_stream_ops(const struct trace *t, size_t s);
size_t trace_stream_nhandles(const struct trace *t, size_t s);
const struct trace_handle *trace_stream_handle(const struct trace *t,
					       size_t s, int h);

/* An op's place: its stream and its index in the stream's ops. */
struct trace_step {
	uint32_t stream, op;
};

/*
 * Every op of t in the order the recording made them: by time across
 * streams, each stream's own order kept (its times taken as never going
 * back, an op without a time with the one before it), ties in stream
 * order, so stream after stream when there are no times.  The replay,
 * the initial state and the model all walk this order.  *n set; free().
 */
struct trace_step *trace_order(const struct trace *t, size_t *n);

/* Building a trace (the readers, and tests). */
size_t trace_add_stream(struct trace *t, const char *name);
int trace_add_handle(struct trace *t, size_t s, int path, unsigned flags,
		     bool inherited);
void trace_add_op(struct trace *t, size_t s, const struct trace_op *op);

/*
 * Calls the recording made that fbrun does not replay (strace: mmap,
 * execve, I/O on pipes, sockets and /proc ...), by name: how many.
 */
size_t trace_nignored(const struct trace *t);
void trace_ignored(const struct trace *t, size_t i, const char **name,
		   uint64_t *count);
void trace_ignore(struct trace *t, const char *name, uint64_t n);

/*
 * The system calls the strace reader models or follows (open, read,
 * dup, chdir ...), by name, so that a recording can ask strace for them
 * and no more (fbrun record): i from 0 to trace_strace_ncalls() - 1.
 */
size_t trace_strace_ncalls(void);
const char *trace_strace_call(size_t i);

/*
 * The files and directories the trace expects before its first op (it
 * reads, stats, opens or removes them before making them), sorted by
 * path, parents before children.  Computed on first call.
 */
size_t trace_initial(struct trace *t, const struct trace_entry **entries);

/*
 * The most descriptors a replay of t holds open at once, one op's own
 * passing one included: in the recorded order, or with every stream
 * running at once (parallel).
 */
size_t trace_max_open(const struct trace *t, bool parallel);

/* fbrun's own format, version 1 (doc/trace-format.md).  0 or -1 (errno). */
int trace_write(const struct trace *t, FILE *out);

/* "ENOENT" for ENOENT; NULL for an errno the trace formats do not name. */
const char *trace_errno_name(int err);
/* The errno named, or 0. */
int trace_errno_parse(const char *name, size_t len);

#endif
