/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun bonnie: its options read (bonnie_options.c) and the directory
 * checked, then bonnie++'s tests run as the phase series of bonnie/ and
 * their figures printed in bonnie++'s table and CSV line, a job's as a
 * whole and per rank.
 */
#include "cmd/bonnie.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bonnie/bonnie.h"
#include "cmd/bonnie_int.h"
#include "engine/engine.h"
#include "util/msg.h"
#include "util/util.h"

/*
 * A job's figures: all ranks' work over the job's time (the sizes and
 * counts times the ranks, the machine named with their number), then
 * each rank's own, as bonnie++ run by many processes prints each one's.
 */
static void print_job(FILE *out, const struct bonnie *b,
		      const struct bon_result *res, bool csv)
{
	unsigned n = b->peers->nranks;
	struct bon_config c = b->c;

	snprintf(c.machine, sizeof(c.machine), "%.200s*%u", b->c.machine, n);
	c.size_mib *= n;
	c.seeks *= n;
	c.files *= n;
	if (csv)
		bonnie_csv(out, &c, res);
	else
		bonnie_text(out, &c, res);
	for (unsigned k = 0; k < n; k++) {
		c = b->c;
		snprintf(c.machine, sizeof(c.machine), "rank-%u", k);
		if (csv)
			bonnie_csv(out, &c, &b->per_rank[k]);
		else
			bonnie_text(out, &c, &b->per_rank[k]);
	}
}

/* The options and the directory: 0 to run, 1 done (--help), 2 usage. */
static int check(struct bonnie *b, int argc, char **argv)
{
	struct stat st;
	int rc = bonnie_parse(b, argc, argv);

	if (rc)
		return rc > 0 ? 1 : 2;
	if (!b->c.seed)
		b->c.seed = (uint64_t)((unsigned)getpid() ^ (unsigned)time(NULL));
	if (bonnie_check_sizes(b) < 0 || bonnie_switch_user(b) < 0)
		return 2;
	if (stat(b->dir, &st) == 0 && !S_ISDIR(st.st_mode))
		return fb_error("-d '%s' is not a directory", b->dir), 2;
	if (access(b->dir, W_OK | X_OK) < 0)
		return fb_error("cannot use directory '%s': %s", b->dir,
				strerror(errno)),
		       2;
	return 0;
}

int bonnie_main(int argc, char **argv, const struct engine_peers *peers)
{
	struct bonnie b;
	int rc;

	msg_program(peers ? "fbrun-mpi bonnie" : "fbrun bonnie");
	bonnie_defaults(&b);
	b.peers = peers;
	/* a job: rank 0 says what is wrong; all stop if any rank cannot go */
	msg_mute(peers && peers->rank != 0);
	rc = check(&b, argc, argv);
	msg_mute(false);
	if (peers)
		rc = peers->agree(peers->arg, rc);
	if (rc)
		return rc == 1 ? FB_EXIT_OK : FB_EXIT_USAGE;
	if (peers && peers->rank != 0)
		b.quiet = true; /* rank 0 tells the progress */
	snprintf(b.name, sizeof(b.name), "Bonnie.%d", (int)getpid());
	snprintf(b.ioname, sizeof(b.ioname), "Bonnie.%d.io", (int)getpid());
	if (b.dry_run) {
		bonnie_print_plan(&b);
		return FB_EXIT_OK;
	}
	if ((rc = bonnie_check_phases(&b)) != 0)
		return rc;
	if (!b.quiet)
		fprintf(stderr, "Using uid:%d, gid:%d.\n", (int)geteuid(),
			(int)getegid());
	if (b.iterations_given && b.iterations > 1)
		bonnie_csv_header(stdout, &b.c);
	for (unsigned i = 0; i < b.iterations && rc == 0; i++) {
		struct bon_result res = { 0 };

		if (peers)
			b.per_rank = xcalloc(peers->nranks, sizeof(*b.per_rank));
		rc = bonnie_run_all(&b, &res);
		if (peers && peers->rank != 0) {
			; /* rank 0 prints the job's */
		} else if (peers) {
			if (!b.iterations_given)
				print_job(b.quiet ? stderr : stdout, &b, &res,
					  false);
			print_job(stdout, &b, &res, true);
		} else {
			if (!b.iterations_given)
				bonnie_text(b.quiet ? stderr : stdout, &b.c, &res);
			bonnie_csv(stdout, &b.c, &res);
		}
		fflush(stdout);
		free(b.per_rank);
		b.per_rank = NULL;
	}
	return rc;
}
