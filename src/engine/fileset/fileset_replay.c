/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The replays' trees in a fileset's root: replay-ID-M, made by the replay
 * flowop whose id is ID (flowops_replay.c), one per thread instance M,
 * all they hold fbrun's.  The ids are this run's replays' and those the
 * marker lists ("replay: ID ..."), so a run without a replay meeting the
 * trees of a killed run that had one knows them as fbrun's.
 */
#include "engine/fileset/fileset_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* "replay-ID-M": ID into *id; false if name is not of that form. */
static bool parse_name(const char *s, unsigned *id)
{
	unsigned long v;
	size_t n;

	if (strncmp(s, "replay-", 7) != 0)
		return false;
	s += 7;
	n = strspn(s, "0123456789");
	if (n == 0 || n > 9 || s[n] != '-')
		return false;
	v = strtoul(s, NULL, 10);
	s += n + 1;
	n = strspn(s, "0123456789");
	if (n == 0 || s[n] != '\0')
		return false;
	*id = (unsigned)v;
	return true;
}

bool fs_replay_tree(const struct fileset *fs, const char *name)
{
	unsigned id;

	if (!fs->nreplay || !parse_name(name, &id))
		return false;
	for (size_t i = 0; i < fs->nreplay; i++)
		if (fs->replay[i] == id)
			return true;
	return false;
}

void fileset_add_replay(struct fileset *fs, unsigned id)
{
	for (size_t i = 0; i < fs->nreplay; i++)
		if (fs->replay[i] == id)
			return;
	fs->replay = xrealloc(fs->replay, (fs->nreplay + 1) * sizeof(unsigned));
	fs->replay[fs->nreplay++] = id;
}

char *fs_replay_line(const struct fileset *fs)
{
	size_t len = 16 + fs->nreplay * 11, at;
	char *s;

	if (!fs->nreplay)
		return xstrdup("");
	s = xmalloc(len);
	at = (size_t)snprintf(s, len, "replay:");
	for (size_t i = 0; i < fs->nreplay; i++)
		at += (size_t)snprintf(s + at, len - at, " %u", fs->replay[i]);
	snprintf(s + at, len - at, "\n");
	return s;
}

bool fs_replay_parse(const char *ids, struct marker *m)
{
	const char *p = ids;

	while (*p == ' ') {
		size_t n = strspn(++p, "0123456789");

		if (n == 0 || n > 9)
			return false;
		m->replay = xrealloc(m->replay,
				     (m->nreplay + 1) * sizeof(unsigned));
		m->replay[m->nreplay++] = (unsigned)strtoul(p, NULL, 10);
		p += n;
	}
	return *p == '\0';
}

void fs_replay_inherit(struct fileset *fs, const struct marker *m)
{
	for (size_t i = 0; i < m->nreplay; i++)
		fileset_add_replay(fs, m->replay[i]);
}
