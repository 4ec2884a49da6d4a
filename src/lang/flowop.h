/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The flowop table: every flowop's name, flags, the attributes that mean
 * something to it and what compile checks, built from the one list in
 * flowop_list.h.  The compiler, the engine and the printers read it.
 */
#ifndef FBRUN_FLOWOP_H
#define FBRUN_FLOWOP_H

#include <stdbool.h>
#include <stdint.h>

/* Flowop attribute ids, the order of attr_flowop.specs. */
enum flowop_attr {
	FA_NAME,
	FA_FILESET,
	FA_FD,
	FA_SRCFD,
	FA_IOSIZE,
	FA_WORKINGSET,
	FA_RANDOM,
	FA_DSYNC,
	FA_DIRECTIO,
	FA_OPENNEXT,
	FA_NOREADAHEAD,
	FA_INDEXED,
	FA_ITERS,
	FA_VALUE,
	FA_TARGET,
	FA_BLOCKING,
	FA_HIGHWATER,
	FA_DATA,
	FA_COMPRESS,
	FA_ROTATEFD,
	FA_ENTRIES,
	FA_DIRS,
	FA_FILESIZE,
	FA_FSYNC,
	FA_DELETE,
	FA_IODEPTH,
	FA_STRIDE,
	FA_STARTRECORD,
	FA_TRACE,
	FA_PACE,
	FA_STREAMS,
	FA_CALLS,
	FA_RATE,
	FA_ARRIVALS,
	FA_BACKLOG,
	FA_DEPTH,
	FA_COUNT,
};
#define FA(x) (UINT64_C(1) << FA_##x)
/* What every flowop takes, whatever it does: its name and repetition, and
   the open loop's attributes (each op an arrival) */
#define FA_OPEN_LOOP (FA(RATE) | FA(ARRIVALS) | FA(BACKLOG))
#define FA_EVERY (FA(NAME) | FA(ITERS) | FA_OPEN_LOOP)

/* What a flowop counts as, what the run gives it, how it is reported. */
enum {
	FF_IO = 1 << 0, /* a file operation: counted in the IO Summary */
	/*
	 * reads or writes file data, or waits for writes (aiowait): iopslimit
	 * counts it and may name it, its iosize is the part of the memsize
	 * buffer it uses, and given a fileset it opens its fd itself
	 */
	FF_MOVES_DATA = 1 << 1,
	FF_READ = 1 << 2, /* its bytes are read bytes, its ops read ops */
	FF_WRITE = 1 << 3, /* its bytes are written bytes (aiowrite too) */
	/* reads the run's I/O totals (every op keeps them), or its target's */
	FF_TOTALS = 1 << 4,
	FF_SYNC_POINT = 1 << 5, /* waits at its own point in each worker */
	/* its byte counter holds the sum of the values it sampled: the
	   report prints their mean */
	FF_MEAN = 1 << 6,
	/* changes the file without FF_WRITE's bytes (ftruncate, seekrw's
	   write-backs): on a block device, refused as a write is */
	FF_ALTERS = 1 << 7,
	/* makes, removes or lists names in the fileset's tree: a fileset
	   that is a block device has none */
	FF_NAMES = 1 << 8,
	/*
	 * Makes or removes names of its own numbering, not the fileset's
	 * entries (createnext, deletenext): each process would number alike,
	 * so not in a fileset that fbrun-mpi's ranks share.
	 */
	FF_SERIAL = 1 << 9,
	/*
	 * Does to a fileset's files what verify cannot follow (cuts them,
	 * gives them another entry's name, writes other bytes, reads without
	 * a check, or works on bonnie++'s names): refused on a fileset with
	 * verify (doc/language.md, "Data verification").
	 */
	FF_UNVERIFIED = 1 << 10,
	/* makes written data durable (fsync, sync): compare's verdict puts
	   its latency with the writes' */
	FF_FLUSH = 1 << 11,
	/*
	 * What the engine does for a flowop before the run, by these
	 * (engine_filesets.c, engine_devices.c, engine_nofile.c): works on
	 * createnext's numbered names, so its fileset's marker says they may
	 * be there (createnext, statnext, deletenext)
	 */
	FF_NEXT = 1 << 12,
	/* makes hard links, or symbolic links, to its fileset's files */
	FF_LINKS = 1 << 13,
	FF_SYMLINKS = 1 << 14,
	/* goes through the async I/O queue: every fileset's files it may use
	   are opened blocking (io_uring fails a read that would block) */
	FF_ASYNC = 1 << 15,
	/* removes its fileset's entries: the tree is not kept whole */
	FF_REMOVES = 1 << 16,
	/* replays a trace in trees of its own (its rows have not this flag) */
	FF_TRACE = 1 << 17,
};

/* What compile checks of a flowop. */
enum {
	NEED_FILE = 1 << 0,
	NEED_FILESET = 1 << 1,
	NEED_FD = 1 << 2,
	NEED_IOSIZE = 1 << 3,
	NEED_LEAFDIRS = 1 << 4,
	NEED_TARGET = 1 << 5,
	NEED_VALUE = 1 << 6,
	OPENS = 1 << 7,
	NEED_RANDVAR = 1 << 8, /* value must be a random variable */
	VALUE_STRING = 1 << 9, /* value may be a string (else a number) */
	NEED_EVENTGEN = 1 << 10, /* does nothing without one: a warning */
	/* what target= must name, when given */
	TARGET_BLOCK = 1 << 11,
	TARGET_SEMBLOCK = 1 << 12,
	TARGET_MOVES_DATA = 1 << 13,
	TARGET_QUEUE = 1 << 14,
};

enum flowop_type {
#define FLOWOP(id, name, fn, flags, uses, needs, prepare, release, help) FO_##id,
#include "lang/flowop_list.h"
#undef FLOWOP
	FO_NTYPES,
	FO_COMPOSITE = FO_NTYPES, /* a `define flowop` instance */
};

struct flowop_info {
	const char *name;
	unsigned flags; /* FF_* bits */
	uint64_t uses; /* FA_* bits */
	unsigned needs; /* NEED_* bits */
	const char *help;
};

extern const struct flowop_info flowop_info[FO_NTYPES];

/* Flowop type by name, or -1. */
int flowop_lookup(const char *name);

/* The FF_* flags of a flowop type; a composite has none. */
static inline unsigned flowop_flags(int type)
{
	return type >= 0 && type < FO_NTYPES ? flowop_info[type].flags : 0;
}

/*
 * Whether a flowop of type `type` may name one of type `target` in
 * target=: NULL if so, else what it must name ("a block flowop").
 */
const char *flowop_target_unfit(int type, int target);

#endif
