/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of the engine, shared by engine.c (the statements) and
 * engine_filesets.c (the filesets' lifetime).
 */
#ifndef FBRUN_ENGINE_INT_H
#define FBRUN_ENGINE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

struct cachelimit;
struct fileset;

struct engine {
	const struct workload *w;
	const struct engine_opts *o;
	uint64_t t0; /* program start, for log stamps */
	struct fileset **filesets; /* NULL until created */
	bool created;
	bool reported; /* the run reported its results */
	char error[1024]; /* why the run could not start, for the report */
	int debug;
	/* the job's other processes; peers_solo alone, never NULL */
	const struct engine_peers *peers;
	bool lead; /* alone, or rank 0 of a job: says what the job does */
	struct cachelimit *cl; /* --cache-limit's cgroup, or NULL */
};

/*
 * The job's status at a step: the worst of every process's rc (a signal
 * received counts as 1).  Collective.
 */
int engine_settle(struct engine *e, int rc);

/* A log line on stdout, stamped with the seconds since start (not -q). */
void engine_log(struct engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The limit of open files raised to the hard limit when the replays
 * need more than the soft one; -1 after a message when even the hard
 * limit is short (engine_nofile.c).
 */
int engine_raise_nofile(struct engine *e);

/*
 * Refuse (FB_EXIT_USAGE, after a message) fileset names and paths that
 * would put a root elsewhere than one new directory below the path.
 */
int engine_check_roots(const struct workload *w);
/*
 * Refuse (FB_EXIT_USAGE, after errors at the script's lines) what a
 * fileset that is a block device must not do: be a `define fileset`,
 * have its names made, removed or listed, be written without
 * --allow-device-writes; and a device that is mounted or in use, or that
 * holds a file system and would be written (without --force-device).
 * In a job every rank checks its own host's view, one rank at a time,
 * and all return the agreed status; rank 0 prints the errors, each once:
 * call it on every rank.
 */
int engine_check_devices(const struct engine *e);
/*
 * In a job, refuse (FB_EXIT_USAGE, rank 0 saying which rank and which
 * attribute) a shared fileset that the ranks compiled differently: each
 * rank lays out the tree rank 0 makes from its own script.  Collective:
 * call it on every rank; alone it returns 0.
 */
int engine_check_shared(const struct engine *e);
/*
 * The block device fileset def is (the path as the script gave it: a
 * job's ranks share a device, no rank-N below it), malloc'd, or NULL.
 */
char *engine_device_of(const struct ir_fileset *def);
/*
 * Whether the run writes fileset i (a write flowop names it, or works on
 * an fd its thread opens there).
 */
bool engine_writes_fileset(const struct workload *w, int i);
/* Whether a deletefile of the run may delete files of fileset i. */
bool engine_deletes_files(const struct workload *w, int i);
/* Refuse an -o that cannot be written or lies in a fileset's tree. */
int engine_check_output(const struct engine *e);
/*
 * Lay out and create every fileset, once; 0, or the exit status after a
 * message (the error also in e->error).
 */
int engine_create_filesets(struct engine *e);
/* Remove what was created (unless kept); 0, or 1 after a message. */
int engine_remove_filesets(struct engine *e, bool failed);

#endif
