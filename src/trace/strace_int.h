/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of the strace reader: a line taken apart (strace.c), the
 * calls it models (strace_calls.c).
 */
#ifndef FBRUN_STRACE_INT_H
#define FBRUN_STRACE_INT_H

#include "trace/trace_int.h"

#define STRACE_MAX_ARGS 8

/* One recorded process or thread. */
struct st_pid {
	char key[16]; /* the pid as text: the map's key */
	size_t stream;
	/*
	 * fd -> the stream's handle: open addressing, fdkey -1 for a free
	 * slot, so that a descriptor of 2^30 costs a slot, not 4 GiB
	 */
	int *fdkey, *fdval;
	size_t fdcap, nfd;
	/* handle -> how many descriptors name it (a close of one of two) */
	unsigned *refs;
	size_t nrefs;
	char *cwd; /* absolute, from AT_FDCWD's annotation; NULL: the root */
	char *pending; /* an unfinished call's text */
	size_t npending;
	int pending_off, pending_line;
	int64_t pending_time;
};

struct st_state {
	struct strmap *pids;
	struct st_pid **all;
	size_t npids, cap;
	int64_t base; /* the first time seen, ns since the epoch */
	bool have_base;
};

/* A call taken apart: pointers into the reader's line. */
struct trace_st_call {
	struct field name;
	struct field arg[STRACE_MAX_ARGS];
	int nargs;
	struct field ret; /* the result's first token: "3", "-1", "?" */
	struct field ann; /* the result's <annotation>, inside the <> */
	struct field errname; /* "ENOENT" when ret is -1 */
	int64_t retval;
	bool ret_known; /* ret was a number */
};

typedef int (*call_fn)(struct trace_reader *r, struct st_pid *p,
		       const struct trace_st_call *c, struct trace_op *op);

/* strace_calls.c: descriptors and paths of a call's arguments */
bool trace_st_field_is(struct field f, const char *w);
bool trace_st_field_has(struct field f, const char *w);
/* under /proc, /sys or /dev: not a file fbrun replays */
bool trace_st_pseudo(const char *abs);
/* count the call as ignored; returns 1 */
int trace_st_ignore(struct trace_reader *r, const struct trace_st_call *c);
/* -1: the call's located error, that it has too few arguments */
int trace_st_too_few(struct trace_reader *r, const struct trace_st_call *c);
/* "3", "3</a/b>", "AT_FDCWD" (-100), "AT_FDCWD</a>": the fd, its path */
int trace_st_fd_arg(struct trace_reader *r, struct field f, int *fd,
		    char **ann);
void trace_st_set_fd(struct st_pid *p, int fd, int h);
/* The handle behind fd, -1 for none. */
int trace_st_get_fd(const struct st_pid *p, int fd);
/* the handle behind descriptor argument i; 1 when it is not a file */
int trace_st_handle_arg(struct trace_reader *r, struct st_pid *p,
			const struct trace_st_call *c, int i, int *h);
/*
 * The path argument i from directory argument d (-1: none) interned;
 * 1 when it is under /proc, /sys or /dev.
 */
int trace_st_path_arg(struct trace_reader *r, struct st_pid *p,
		      const struct trace_st_call *c, int d, int i, int *idx);

/* the calls on descriptors (strace_calls.c) */
int trace_st_c_open(struct trace_reader *r, struct st_pid *p,
		    const struct trace_st_call *c, struct trace_op *op);
int trace_st_c_close(struct trace_reader *r, struct st_pid *p,
		     const struct trace_st_call *c, struct trace_op *op);
int trace_st_c_rw(struct trace_reader *r, struct st_pid *p,
		  const struct trace_st_call *c, struct trace_op *op);
int trace_st_c_lseek(struct trace_reader *r, struct st_pid *p,
		     const struct trace_st_call *c, struct trace_op *op);
int trace_st_c_fd(struct trace_reader *r, struct st_pid *p,
		  const struct trace_st_call *c, struct trace_op *op);
int trace_st_c_copy(struct trace_reader *r, struct st_pid *p,
		    const struct trace_st_call *c, struct trace_op *op);

/* Model one complete call of pid p; 0 also when it was ignored. */
int trace_st_call(struct trace_reader *r, struct st_state *st, struct st_pid *p,
		  const struct trace_st_call *c, struct trace_op *op);

#endif
