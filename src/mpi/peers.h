/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The processes of a job that runs one workload on many clients at once,
 * as the command line sees them.  fbrun links peers_solo.c (one process:
 * peers_new returns NULL); fbrun-mpi links peers_mpi.c (MPI ranks).  The
 * rest of the program knows them only through these calls and the
 * engine's hooks (engine/peers.h).
 */
#ifndef FBRUN_MPI_PEERS_H
#define FBRUN_MPI_PEERS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/peers.h"

struct peers;

/* Join the job (MPI_Init): NULL when this program runs alone. */
struct peers *peers_new(int *argc, char ***argv);
/* Leave it (MPI_Finalize); NULL is fine. */
void peers_free(struct peers *p);

unsigned peers_rank(const struct peers *p);
unsigned peers_size(const struct peers *p);
/* The number of distinct hosts the ranks run on. */
unsigned peers_hosts(const struct peers *p);

/*
 * Rank 0's text (text, len there; ignored elsewhere) to every rank: a
 * malloc'd copy with its length in *len, or NULL everywhere if rank 0
 * passed NULL (it could not read it).
 */
char *peers_share(struct peers *p, const char *text, size_t len,
		  size_t *out_len);
/* The largest of every rank's value: a status that all then act on. */
int peers_agree(struct peers *p, int mine);
/*
 * The MPI library the program runs with (MPI_Get_library_version's text,
 * which may be asked before joining), or NULL in fbrun.
 */
const char *peers_library(void);
/* The engine's hooks for this job (stonewall: see engine/peers.h). */
const struct engine_peers *peers_engine(struct peers *p, bool stonewall);

#endif
