/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Attribute tables: one per entity (fileset, file, process, thread,
 * flowop, randvar, cvar, eventgen).  A row says the attribute's type,
 * where compile stores it in the IR struct, its range, its default and its
 * help text; the same rows drive checking, --list-flowops and the docs.
 */
#ifndef FBRUN_ATTR_H
#define FBRUN_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lang/flowop.h"

enum attr_type {
	AT_INT, /* int64_t; a constant */
	AT_BOOL, /* bool; bare attribute = true */
	AT_STR, /* char *; word or expanded quoted string */
	AT_VALUE, /* struct ir_value: constant or (with A_RANDOM) randvar */
	AT_PCT, /* int64_t 0..100; bare = 100 */
	AT_ENUM, /* int64_t index into words[] */
	AT_REF, /* struct ir_ref: the name of another entity */
	AT_LIST, /* randtable rows; handled by the randvar compiler */
	AT_OBSOLETE, /* old spelling: compile warns, help says what to write */
	AT_DATA, /* struct datapat: a pattern word (words set) or compress=N */
	AT_REAL, /* double, a constant greater than 0 up to max; bare = 1 */
	AT_RATE, /* struct ir_rate's per_sec and per_job: N or N/job */
};

enum {
	A_REQUIRED = 1 << 0,
	A_RANDOM = 1 << 1, /* a random variable is sampled at each use */
	A_SIZE = 1 << 2, /* a byte count (docs print it as such) */
	A_STRING = 1 << 3, /* AT_VALUE may also hold a string */
	A_FILE = 1 << 4, /* fileset row also valid for `define file` */
	A_ONCE = 1 << 5, /* sampled once when the thread starts */
};

struct attr_spec {
	const char *name;
	const char *alias; /* second spelling (filename, filesize) */
	enum attr_type type;
	size_t off; /* offset of the field in the IR struct */
	int64_t min, max; /* AT_INT/AT_VALUE/AT_PCT range */
	int64_t def; /* default for AT_INT/AT_PCT/AT_ENUM/AT_VALUE */
	unsigned flags;
	/*
	 * AT_ENUM's choices, NULL-terminated; AT_STR's, when its user checks
	 * them (define trace's format): --list-attributes lists them after
	 * the help, which names the others ("HELP, a, b or c")
	 */
	const char *const *words;
	const char *help;
};

struct attr_table {
	const char *entity; /* "fileset", "flowop", ... for messages */
	const struct attr_spec *specs;
	size_t n;
};

/* Rows of attr_randvar and attr_cvar: bits of what compile_apply_attrs saw. */
enum randvar_attr {
	RVA_TYPE,
	RVA_RANDSRC,
	RVA_SEED,
	RVA_GAMMA,
	RVA_MEAN,
	RVA_MIN,
	RVA_ROUND,
	RVA_RANDTABLE,
	RVA_NAME,
	RVA_COUNT,
};
enum cvar_attr {
	CVA_TYPE,
	CVA_PARAMETERS,
	CVA_MIN,
	CVA_MAX,
	CVA_ROUND,
	CVA_COUNT,
};

/* What randvar(...), cvar(...) and eventgen are compiled into first. */
struct rv_form {
	int64_t type, randsrc, seed, gamma, mean, min, round;
	char *name; /* old `define randvar name=$x` form */
};
struct cvar_form {
	char *type, *parameters;
	int64_t min, max, round;
};
struct eventgen_form {
	int64_t rate;
};

extern const struct attr_table attr_fileset;
extern const struct attr_table attr_trace;
extern const struct attr_table attr_process;
extern const struct attr_table attr_thread;
extern const struct attr_table attr_flowop;
extern const struct attr_table attr_composite;
extern const struct attr_table attr_randvar;
extern const struct attr_table attr_cvar;
extern const struct attr_table attr_eventgen;

/* Row for name (or its alias) in t, or NULL. */
const struct attr_spec *attr_lookup(const struct attr_table *t,
				    const char *name);
/* Closest attribute name in t for a "did you mean", or NULL. */
const char *attr_suggest(const struct attr_table *t, const char *name);

#endif
