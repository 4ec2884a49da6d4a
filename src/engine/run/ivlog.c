/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The --interval series written as CSV while the run goes (ivlog.h). */
#include "engine/run/ivlog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/run/monitor.h"
#include "util/msg.h"
#include "util/outfile.h"
#include "util/util.h"

struct ivlog {
	char *path;
	FILE *f; /* NULL until the first interval */
	unsigned run; /* the run under way, from 1 */
	bool failed; /* said; no more rows */
};

struct ivlog *ivlog_new(const char *path)
{
	struct ivlog *l = xcalloc(1, sizeof(*l));

	l->path = xstrdup(path);
	return l;
}

const char *ivlog_path(const struct ivlog *l)
{
	return l->path;
}

void ivlog_next_run(struct ivlog *l)
{
	if (l)
		l->run++;
}

static void fail(struct ivlog *l, int err)
{
	fb_error("cannot write --interval-log '%s': %s", l->path,
		 strerror(err ? err : EIO));
	l->failed = true;
}

void ivlog_sample(struct ivlog *l, const struct monitor *m, bool flowops)
{
	if (!l || l->failed)
		return;
	if (!l->f) {
		if (!(l->f = outfile_live(l->path))) {
			l->failed = true;
			return;
		}
		monitor_csv_head(m, l->f, flowops);
	}
	errno = 0;
	monitor_csv_row(m, l->f, flowops, l->run);
	/* a whole row at a time: a reader never waits on half of one */
	if (fflush(l->f) != 0 || ferror(l->f))
		fail(l, errno);
}

int ivlog_close(struct ivlog *l)
{
	int rc = 0;

	if (!l || !l->f)
		return l && l->failed ? -1 : 0;
	/* EINVAL: a file system that has nothing to sync */
	if (!l->failed && ((fflush(l->f) != 0 || ferror(l->f)) ||
			   (fsync(fileno(l->f)) != 0 && errno != EINVAL)))
		fail(l, errno);
	if (fclose(l->f) != 0 && !l->failed)
		fail(l, errno);
	l->f = NULL;
	if (l->failed)
		rc = -1;
	return rc;
}

void ivlog_free(struct ivlog *l)
{
	if (!l)
		return;
	if (l->f)
		fclose(l->f);
	free(l->path);
	free(l);
}
