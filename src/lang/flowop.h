/*
 * The flowop table: every flowop's name, class, the attributes that mean
 * something to it and what compile checks, built from the one list in
 * flowop_list.h.  The compiler, the engine and the printers read it.
 */
#ifndef FBRUN_FLOWOP_H
#define FBRUN_FLOWOP_H

#include <stdbool.h>

/* Flowop attribute ids, the order of flowop_attrs.specs. */
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
	FA_COUNT,
};
#define FA(x) (1u << FA_##x)

enum flowop_class {
	FC_IO, /* file operation that moves no data */
	FC_READ,
	FC_WRITE,
	FC_AIO,
	FC_SYNC,
	FC_OTHER,
};

enum {
	NEED_FILE = 1 << 0,
	NEED_FILESET = 1 << 1,
	NEED_FD = 1 << 2,
	NEED_IOSIZE = 1 << 3,
	NEED_LEAFDIRS = 1 << 4,
	NEED_TARGET = 1 << 5,
	NEED_VALUE = 1 << 6,
	OPENS = 1 << 7,
};

enum flowop_type {
#define FLOWOP(id, name, fn, cls, uses, needs, help) FO_##id,
#include "lang/flowop_list.h"
#undef FLOWOP
	FO_NTYPES,
	FO_COMPOSITE = FO_NTYPES, /* a `define flowop` instance */
};

struct flowop_info {
	const char *name;
	enum flowop_class cls;
	unsigned uses; /* FA_* bits */
	unsigned needs; /* NEED_* bits */
	const char *help;
};

extern const struct flowop_info flowop_info[FO_NTYPES];

/* Flowop type by name, or -1. */
int flowop_lookup(const char *name);
/* Whether the class counts in the IO Summary, and as read or write. */
bool flowop_class_is_io(enum flowop_class c);

#endif
