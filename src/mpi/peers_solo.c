/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun alone: no other process (peers.h).  peers_new returns NULL, so
 * none of the other calls is ever made with a job.
 */
#include "mpi/peers.h"

struct peers *peers_new(int *argc, char ***argv)
{
	return NULL;
}

void peers_free(struct peers *p)
{
}

unsigned peers_rank(const struct peers *p)
{
	return 0;
}

unsigned peers_size(const struct peers *p)
{
	return 1;
}

unsigned peers_hosts(const struct peers *p)
{
	return 1;
}

char *peers_share(struct peers *p, const char *text, size_t len,
		  size_t *out_len)
{
	return NULL;
}

int peers_agree(struct peers *p, int mine)
{
	return mine;
}

const char *peers_library(void)
{
	return NULL;
}

const struct engine_peers *peers_engine(struct peers *p, bool stonewall)
{
	return NULL;
}
