/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The processes of a job that runs one workload on many clients at once,
 * as the command line sees them.  fbrun links job_solo.c (one process:
 * job_new returns NULL); fbrun-mpi links job_mpi.c (MPI ranks).  The
 * rest of the program knows them only through these calls and the
 * engine's hooks (engine/sys/peers.h).
 */
#ifndef FBRUN_MPI_JOB_H
#define FBRUN_MPI_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/sys/peers.h"

struct job;

/* Join the job (MPI_Init): NULL when this program runs alone. */
struct job *job_new(int *argc, char ***argv);
/* Leave it (MPI_Finalize); NULL is fine. */
void job_free(struct job *p);

unsigned job_rank(const struct job *p);
unsigned job_size(const struct job *p);
/* The number of distinct hosts the ranks run on. */
unsigned job_hosts(const struct job *p);

/*
 * Rank 0's text (text, len there; ignored elsewhere) to every rank: a
 * malloc'd copy with its length in *len, or NULL everywhere if rank 0
 * passed NULL (it could not read it).
 */
char *job_share(struct job *p, const char *text, size_t len,
		size_t *out_len);
/* The largest of every rank's value: a status that all then act on. */
int job_agree(struct job *p, int mine);
/*
 * The MPI library the program runs with (MPI_Get_library_version's text,
 * which may be asked before joining), or NULL in fbrun.
 */
const char *job_library(void);
/* The engine's hooks for this job (stonewall: see engine/sys/peers.h). */
const struct engine_peers *job_engine(struct job *p, bool stonewall);

#endif
