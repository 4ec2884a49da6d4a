/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Where a run was measured: kernel, CPUs, memory, the test directory's
 * mount (sysinfo.h).
 */
#include "report/sysinfo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/util.h"

void sysinfo_get(struct sysinfo_snap *s)
{
	struct utsname u;
	struct sysinfo si;

	memset(s, 0, sizeof(*s));
	if (uname(&u) == 0) {
		snprintf(s->kernel, sizeof(s->kernel), "%s %s", u.sysname,
			 u.release);
		snprintf(s->machine, sizeof(s->machine), "%s", u.machine);
	}
	s->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (sysinfo(&si) == 0)
		s->memory = (uint64_t)si.totalram * si.mem_unit;
}

/* mountinfo escapes blanks as \040 and so on: undo that in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static bool under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return true;
	return strncmp(path, mnt, n) == 0 && (path[n] == '/' || !path[n]);
}

/* Whether the comma-separated list has the option opt. */
static bool has_option(const char *list, const char *opt, size_t len)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");

		if (n == len && strncmp(p, opt, len) == 0)
			return true;
		p += n + (p[n] != '\0');
	}
	return false;
}

/*
 * The mount's options, then the super block's that it does not already
 * say: both lists often hold rw, which printed twice reads as a bug.
 */
static void join_options(char *out, size_t size, const char *mnt,
			 const char *super)
{
	size_t n = (size_t)snprintf(out, size, "%s", mnt);

	for (const char *p = super; p && *p && n < size;) {
		size_t len = strcspn(p, ",");

		if (len && !has_option(mnt, p, len))
			n += (size_t)snprintf(out + n, size - n, "%s%.*s",
					      n ? "," : "", (int)len, p);
		p += len + (p[len] != '\0');
	}
}

int fsinfo_get(const char *path, struct fsinfo *fi)
{
	char real[PATH_MAX], probe[PATH_MAX], line[4096];
	size_t best = 0;
	FILE *f;

	memset(fi, 0, sizeof(*fi));
	snprintf(fi->type, sizeof(fi->type), "unknown");
	/* the tree may not exist yet: walk up to a parent that does */
	snprintf(probe, sizeof(probe), "%s", path);
	while (!realpath(probe, real)) {
		char *slash = strrchr(probe, '/');

		if (!slash || slash == probe) {
			snprintf(real, sizeof(real), "/");
			break;
		}
		*slash = '\0';
	}
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return -1;
	/* id parent maj:min root mountpoint options [optional...] - type source super */
	while (fgets(line, sizeof(line), f)) {
		char *field[12] = { 0 }, *save = NULL, *tok, *sep;
		int n = 0;

		line[strcspn(line, "\n")] = '\0';
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 6;
		     tok = strtok_r(NULL, " ", &save))
			field[n++] = tok;
		if (n < 6)
			continue;
		unescape(field[4]);
		if (!under(real, field[4]) || strlen(field[4]) < best)
			continue;
		best = strlen(field[4]);
		snprintf(fi->mountpoint, sizeof(fi->mountpoint), "%s", field[4]);
		n = 0;
		save = NULL;
		for (tok = strtok_r(sep + 3, " ", &save); tok && n < 3;
		     tok = strtok_r(NULL, " ", &save))
			field[6 + n++] = tok;
		snprintf(fi->type, sizeof(fi->type), "%s",
			 n > 0 ? field[6] : "unknown");
		snprintf(fi->source, sizeof(fi->source), "%s",
			 n > 1 ? field[7] : "");
		join_options(fi->options, sizeof(fi->options), field[5],
			     n > 2 ? field[8] : NULL);
	}
	fclose(f);
	return best ? 0 : -1;
}
