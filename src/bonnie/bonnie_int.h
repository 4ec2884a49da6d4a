/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of fbrun bonnie, shared by bonnie.c (the phase series) and
 * options.c (its command line).
 */
#ifndef FBRUN_BONNIE_INT_H
#define FBRUN_BONNIE_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "bonnie/bonnie.h"

struct phase;

struct bonnie {
	struct bon_config c;
	const char *dir;
	bool quiet, size_given, ram_given, iterations_given, dry_run;
	unsigned iterations;
	const char *user, *group;
	char ioname[64], name[64];
	/* the phase being collected */
	const struct phase *ph;
	struct bon_figure fig;
	uint64_t count;
	/* fbrun-mpi: the job's other ranks, and each rank's figures (rank 0) */
	const struct engine_peers *peers;
	struct bon_result *per_rank;
	char error[PATH_MAX + 600]; /* as results.error, and a phase name */
};

/* bonnie++'s defaults, the machine's RAM and name. */
void bonnie_defaults(struct bonnie *b);
/* Read argv into b: 0, -1 (usage error, said) or 1 (--help done). */
int bonnie_parse(struct bonnie *b, int argc, char **argv);
/* bonnie++'s size rules, on the options as parsed: 0, or -1 (said). */
int bonnie_check_sizes(struct bonnie *b);
/* -u user[:group] / -g group: only root switches, and only when asked. */
int bonnie_switch_user(struct bonnie *b);

#endif
