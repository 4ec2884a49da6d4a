/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun and fbrun-mpi: join the job, do what the command line asks
 * (cmd/), check that the results reached standard output.  The only
 * file that exits; the exit codes are 0 ok, 1 run failure, 2 usage or
 * script error.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "mpi/job.h"
#include "report/build.h"
#include "util/msg.h"

/* Results that could not be written (a full disk, /dev/full) are a failure. */
static int check_stdout(int rc)
{
	if (fflush(stdout) != 0)
		fb_error("cannot write to standard output: %s",
			 strerror(errno));
	else if (ferror(stdout))
		fb_error("cannot write to standard output");
	else
		return rc;
	return rc == FB_EXIT_OK ? FB_EXIT_RUN : rc;
}

/*
 * fbrun-mpi: rank 0 prints for the job; the others print only what goes
 * wrong with them, their messages named by rank.
 */
static struct job *join_job(int *argc, char ***argv)
{
	static char name[48];
	struct job *peers = job_new(argc, argv);
	unsigned rank;

	if (!peers)
		return NULL;
	rank = job_rank(peers);
	if (rank == 0) {
		msg_program("fbrun-mpi");
		return peers;
	}
	snprintf(name, sizeof(name), "fbrun-mpi: rank %u", rank);
	msg_program(name);
	if (!freopen("/dev/null", "w", stdout))
		fclose(stdout);
	msg_mute(true); /* while the options are checked */
	return peers;
}

int main(int argc, char **argv)
{
	struct job *peers = join_job(&argc, &argv);
	int rc;

	build_set_mpi(job_library());
	rc = cmd_main(argc, argv, peers);
	job_free(peers);
	return check_stdout(rc);
}
