/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The compiled workload: typed, validated and resolved.  Plain data that
 * the engine reads; nothing here points back into the AST except source
 * locations kept for runtime messages.
 */
#ifndef FBRUN_IR_H
#define FBRUN_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/datapat.h"
#include "lang/flowop.h"
#include "lang/rand.h"
#include "util/source.h"

enum ir_vkind {
	IRV_NONE, /* not given */
	IRV_INT,
	IRV_DOUBLE,
	IRV_BOOL,
	IRV_STR,
	IRV_RAND, /* sampled from workload->randvars[rv] at each use */
};

struct ir_value {
	enum ir_vkind kind;
	int64_t i; /* IRV_INT, IRV_BOOL */
	double d; /* IRV_DOUBLE */
	char *s; /* IRV_STR, owned */
	int rv; /* IRV_RAND */
	struct loc loc;
};

/* A name that refers to another entity, resolved by compile. */
struct ir_ref {
	char *name; /* NULL if not given */
	struct loc loc;
	int index; /* fileset index, or flowop id; -1 if not given */
};

struct ir_randvar {
	char *name; /* without '$' */
	struct loc loc;
	struct rv_spec spec;
};

struct ir_fileset {
	char *name;
	struct loc loc;
	bool is_file; /* define file */
	char *path;
	/*
	 * The path as the script gave it, where rank_dirs put a rank-N
	 * below it (NULL otherwise): a block device there is one for all
	 * ranks, used as it is (engine_device_of).
	 */
	char *path_given;
	int64_t entries;
	struct ir_value size; /* per-file size, may be random */
	bool size_set; /* size= was given (a block device's own size else) */
	struct ir_value dirwidth; /* mean files per directory */
	int64_t dirgamma; /* shape x 1000 of dir widths/depths; 0 = fixed */
	struct ir_value dirdepth; /* dirdepthrv */
	int64_t leafdirs;
	int64_t prealloc; /* percent of entries created before the run */
	bool paralloc, reuse, trusttree, readonly, writeonly;
	bool removeafter; /* with reuse: removed after the run all the same */
	/*
	 * fbrun-mpi: one tree for all ranks, made by rank 0, with entries
	 * (and leafdirs) per rank: entry i is rank (i + rankshift) mod
	 * nranks's.
	 */
	bool shared;
	int64_t rankshift;
	bool verify; /* stamp written blocks, check the reads (engine/verify.h) */
	struct datapat data; /* DATA_DEFAULT if not given */
};

struct trace;

/*
 * A `define trace`: the file, read and checked by the compiler; the
 * trace (trace/trace.h) is the workload's, freed with it.
 */
struct ir_trace {
	char *name;
	struct loc loc;
	char *path;
	char *format; /* the format= word, NULL if not given */
	struct trace *trace;
};

/*
 * An open loop (rate=, arrivals=, backlog= on a thread, a process or a
 * flowop): arrivals at intended times that do not depend on when earlier
 * ones completed, each a pass of the thread's flowops (or one op of the
 * flowop); doc/running.md, "Open loop".
 */
enum { IR_ARRIVALS_FIXED, IR_ARRIVALS_POISSON };
struct ir_rate {
	double per_sec; /* arrivals per second; 0: a closed loop */
	bool per_job; /* rate=N/job: N for the whole job, split over ranks */
	int64_t arrivals; /* arrivals=: IR_ARRIVALS_* */
	int64_t backlog; /* arrivals that may wait; later ones are dropped */
	struct loc loc; /* of rate=, LOC_NONE if not given */
};

/* The most and the least arrivals per second a rate= may ask of a source. */
#define MAX_RATE 10000000
#define MIN_RATE 0.000001
/*
 * The most arrivals a backlog= may hold waiting (8 bytes each, in each
 * thread that falls that far behind).
 */
#define MAX_BACKLOG 100000000

/* flowop replay's streams= (the words of its attribute, in order) */
enum { IR_STREAMS_SEQUENCE, IR_STREAMS_PARALLEL };
/* flowop replay's calls= (likewise) */
enum { IR_CALLS_RECORDED, IR_CALLS_DBENCH };

struct ir_flowop {
	/* first, in one cache line: what the run reads at every op */
	enum flowop_type type;
	int id; /* index in workload->flowops */
	int64_t fd; /* -1 if not given */
	int64_t iters;
	int64_t stride, startrecord; /* sequential records; 0: not given */
	bool random, dsync, directio, opennext, noreadahead, blocking, fsync;
	bool del; /* delete= */
	struct ir_value iosize;
	char *name; /* as written; composite children are "parent.child" */
	struct loc loc;
	struct ir_ref fileset;
	int64_t srcfd; /* -1 if not given */
	struct ir_value workingset, value, indexed, entries, filesize;
	int64_t highwater, dirs;
	int64_t iodepth; /* 0 if not given */
	int64_t depth; /* queuetake: the most items its queue holds */
	struct datapat data; /* DATA_DEFAULT if not given */
	struct ir_ref target;
	/*
	 * replay: trace= resolved (index in workload->traces), and for each
	 * operation type of the trace (enum trace_op_type) the id of the row
	 * its ops are counted in, -1 where the trace has none of them.  A
	 * row is a flowop of type FO_REPLAY too, named "<replay>.<type>",
	 * with replay_row set and replay_op its type; rows never run.
	 */
	struct ir_ref trace;
	double pace; /* pace=: 0 if not given (as fast as the calls go) */
	int64_t streams; /* streams=: IR_STREAMS_* */
	int64_t calls; /* calls=: IR_CALLS_* */
	struct ir_rate rate; /* each op of it an arrival; per_sec 0: none */
	int *replay_rows;
	bool replay_row;
	int replay_op;
	/* FO_COMPOSITE: the flowops of the `define flowop`, run in order */
	char *composite;
	struct ir_flowop **children;
	size_t nchildren;
	int thread; /* index in workload->threads */
	/* 1 + the flowops of the same name before it in its thread */
	int nth;
	/*
	 * The name in reports: "thread/name" when flowops of other threads
	 * have the name too, with "#nth" after the nth flowop of a name in
	 * its thread; set once the whole script is compiled.
	 */
	char *label;
};

struct ir_thread {
	char *name;
	struct loc loc;
	int process; /* index in workload->processes */
	int64_t instances, memsize, ioprio;
	bool useism;
	/* an emulated accelerator's utilisation threshold, %; 0: not one */
	int64_t accelerator;
	struct ir_rate rate; /* each pass an arrival, per instance */
	struct ir_flowop **flowops; /* top level, in order */
	size_t nflowops;
	/* all its flowops, composite children too: workload->flowops[first, end) */
	size_t flowop_first, flowop_end;
	int64_t nslots; /* fd slots the thread needs (highest fd + 1) */
	bool broken; /* compile only: a flowop failed, skip its checks */
};

struct ir_process {
	char *name;
	struct loc loc;
	int64_t instances, nice;
	/* each pass of its threads an arrival, shared by an instance's threads */
	struct ir_rate rate;
	int first_thread, nthreads; /* range in workload->threads */
};

enum ir_stmt_kind {
	IS_ECHO, /* text */
	IS_SYSTEM, /* text: a shell command */
	IS_SLEEP, /* n seconds */
	IS_CREATE_FILES,
	IS_RUN, /* n seconds; n2 = psrun period (0 for run, < 0 resets) */
	IS_DEBUG, /* n */
	IS_VERSION,
	IS_LIST, /* text: what */
};

struct ir_stmt {
	enum ir_stmt_kind kind;
	struct loc loc;
	char *text;
	int64_t n, n2;
};

enum ir_quit {
	QUIT_TIMEOUT,
	QUIT_ALLDONE,
	QUIT_FIRSTDONE,
};

struct ir_var {
	char *name; /* without '$' */
	struct ir_value value; /* final value at the run point */
	bool from_cli; /* set by -D */
};

struct workload {
	const struct source *src; /* not owned */
	struct ir_fileset *filesets;
	size_t nfilesets;
	struct ir_process *processes;
	size_t nprocesses;
	struct ir_thread *threads;
	size_t nthreads;
	struct ir_flowop **flowops; /* every flowop, composite children too */
	size_t nflowops;
	struct ir_randvar *randvars;
	size_t nrandvars;
	struct ir_trace *traces;
	size_t ntraces;
	struct ir_var *vars;
	size_t nvars;
	struct ir_stmt *stmts; /* top-level actions in script order */
	size_t nstmts;
	enum ir_quit quit;
	bool nousestats, lathist;
	int64_t eventgen_rate; /* events per second; 0 = no eventgen */
	bool has_run; /* false: the script has no run (one is implied) */
};

/*
 * Threads a run may start in all: beyond this the per-thread state
 * (statistics for every flowop, a stack) is gigabytes, and Linux's default
 * pid_max (32768 on many systems) or threads-max would refuse most of them
 * anyway.  A fixed number, so a script compiles the same everywhere.
 */
#define MAX_WORKERS 100000

/*
 * How deep composite flowops may use one another.  Each level's flowops
 * are named after all the levels above, so names (and the report) grow
 * with the square of the depth; real scripts nest two or three deep.
 */
#define MAX_COMPOSITE_DEPTH 100

/*
 * Threads the run starts: the sum over processes of process instances x
 * thread instances.  Saturates at UINT64_MAX.
 */
uint64_t workload_nworkers(const struct workload *w);
/* The same, for process p alone. */
uint64_t ir_process_nworkers(const struct workload *w, size_t p);

void workload_free(struct workload *w);
/*
 * f appended to w's flowops, its id its index; *cap is the array's
 * capacity, kept by whoever builds w.
 */
void workload_add_flowop(struct workload *w, struct ir_flowop *f, size_t *cap);
/*
 * Take w back to `to`, a copy of *w made earlier: the entities added
 * since are freed and every count and setting is as it was then.
 */
void workload_truncate(struct workload *w, const struct workload *to);
/*
 * The FF_* flags f counts with: its type's, or for a replay's row its
 * operation type's (reads and writes move data, the rest are I/O).
 */
unsigned ir_flowop_flags(const struct ir_flowop *f);
/*
 * Whether f's time holds other flowops' (a composite's children, a
 * replay's rows): left out where the ops' times are summed.
 */
bool ir_flowop_holds_others(const struct ir_flowop *f);

/* Free one flowop (not its children, which the workload lists too). */
/* A zeroed flowop (ir_flowop_free frees it). */
struct ir_flowop *ir_flowop_new(void);
void ir_flowop_free(struct ir_flowop *f);

/* Readable dump for --dump-ir and the golden tests. */
void workload_dump(FILE *out, const struct workload *w);

/* Value as text, for messages and dumps ("128k", "$rv", "true"). */
void ir_value_format(char *buf, size_t len, const struct workload *w,
		     const struct ir_value *v);

const char *ir_quit_name(enum ir_quit q);

/* Give every flowop its label (ir_flowop.label), once nth is known. */
void workload_label_flowops(struct workload *w);

#endif
