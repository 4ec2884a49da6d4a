/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * AST -> IR.  Walks the statements in script order with a variable
 * environment (so each use sees the value set before it, and `set` after
 * `define` still counts, as in filebench), checks every attribute against
 * its table and resolves every reference.  All errors are reported, up to
 * the diag cap; nothing touches the file system.
 */
#ifndef FBRUN_COMPILE_H
#define FBRUN_COMPILE_H

#include "lang/ast.h"
#include "lang/ir.h"
#include "util/diag.h"

/*
 * The longest time a script or -t may ask for (100 years): so many
 * seconds still fit in a 64-bit count of nanoseconds.
 */
#define MAX_SECONDS ((int64_t)100 * 365 * 24 * 3600)

/* A -D NAME=VALUE from the command line. */
struct cli_define {
	const char *name;
	const char *value;
};

struct compile_opts {
	const struct cli_define *defines;
	size_t ndefines;
	/* a -D the script never uses: a warning, not an error */
	bool define_unused_warn;
	const char *tmpdir; /* value of the predefined $tmpdir */
	const struct source *cli_src; /* text of the -D options, for notes */
	const struct loc *define_locs; /* location of each -D in cli_src */
	/*
	 * A job of many processes (fbrun-mpi): this one's rank and their
	 * number, the values of $rank and $nranks (0 and 1 alone); with
	 * rank_dirs, a fileset that is not shared gets a tree per rank,
	 * under <path>/rank-N.
	 */
	int64_t rank, nranks;
	bool rank_dirs;
	/* --seed: a randvar expanded into a string is drawn from it */
	uint64_t seed;
};

/*
 * Compile prog (from src).  Returns the workload, or NULL if any error
 * was reported.  The workload keeps a pointer to src but owns everything
 * else; free it with workload_free.
 */
struct workload *compile_workload(const struct ast_stmt *prog,
				  const struct source *src,
				  const struct compile_opts *opts,
				  struct diag *d);

#endif
