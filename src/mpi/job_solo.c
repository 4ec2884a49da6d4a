/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun alone: no other process (job.h).  job_new returns NULL, so
 * none of the other calls is ever made with a job.
 */
#include "mpi/job.h"

struct job *job_new(int *argc, char ***argv)
{
	return NULL;
}

void job_free(struct job *p)
{
}

unsigned job_rank(const struct job *p)
{
	return 0;
}

unsigned job_size(const struct job *p)
{
	return 1;
}

unsigned job_hosts(const struct job *p)
{
	return 1;
}

char *job_share(struct job *p, const char *text, size_t len,
		size_t *out_len)
{
	return NULL;
}

int job_agree(struct job *p, int mine)
{
	return mine;
}

const char *job_library(void)
{
	return NULL;
}

const struct engine_peers *job_engine(struct job *p, bool stonewall)
{
	return NULL;
}
