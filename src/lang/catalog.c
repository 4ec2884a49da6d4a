/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The shipped workloads: finding, listing and describing them (catalog.h). */
#include "lang/catalog.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/msg.h"
#include "util/util.h"

#ifndef FBRUN_WORKLOAD_DIR
#define FBRUN_WORKLOAD_DIR "/usr/local/share/fbrun/workloads"
#endif

static bool is_dir(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * A script at its top: what `make uninstall` leaves is the directories
 * alone, and an empty one must not hide a build tree's.
 */
static bool holds_workloads(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;

	while (d && !found && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		found = l > 2 && strcmp(de->d_name + l - 2, ".f") == 0;
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * The directory this binary is in, from /proc/self/exe ("" for "/"),
 * or NULL; *up is its parent.  Both malloc'd.
 */
static char *exe_dir(char **up)
{
	char buf[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0 || n == (ssize_t)sizeof(buf) - 1) /* none, or cut short */
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	slash = strrchr(buf, '/');
	*up = xstrndup(buf, slash ? (size_t)(slash - buf) : 0);
	return xstrdup(buf);
}

/*
 * The first candidate that holds workloads, looked for once.  No source
 * or build directory is compiled in: the binary finds the tree it is in.
 */
static char *find_dir(void)
{
	char *up = NULL, *dir = exe_dir(&up), *cand[3] = { NULL };
	char *found = NULL;

	if (dir) {
		/* an install, wherever its prefix was moved to */
		cand[0] = xasprintf("%s/share/fbrun/workloads", up);
		/* a build in the source tree, or in build/ inside it */
		cand[1] = xasprintf("%s/workloads", dir);
		cand[2] = xasprintf("%s/workloads", up);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cand); i++) {
		if (!found && cand[i] && holds_workloads(cand[i]))
			found = cand[i];
		else
			free(cand[i]);
	}
	if (!found && holds_workloads(FBRUN_WORKLOAD_DIR))
		found = xstrdup(FBRUN_WORKLOAD_DIR);
	free(dir);
	free(up);
	return found;
}

const char *catalog_dir(void)
{
	static char *dir;
	static bool looked;
	const char *env = getenv("FBRUN_WORKLOADS");

	if (env && is_dir(env))
		return env;
	if (!looked) {
		dir = find_dir();
		looked = true;
	}
	return dir;
}

/* The top level's names first, then each subdirectory's. */
static int by_name(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	bool xsub = strchr(x, '/') != NULL, ysub = strchr(y, '/') != NULL;

	return xsub != ysub ? xsub - ysub : strcmp(x, y);
}

/* Add the scripts of dir/sub ("" for dir itself) to names, as sub/name. */
static void add_names(const char *dir, const char *sub, char ***names,
		      size_t *n, size_t *cap)
{
	char *path = xasprintf("%s%s%s", dir, *sub ? "/" : "", sub);
	DIR *d = opendir(path);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 2 && strcmp(de->d_name + l - 2, ".f") == 0) {
			*names = grow_array(*names, cap, *n + 1, sizeof(**names));
			(*names)[(*n)++] = xasprintf("%s%s%.*s", sub,
						     *sub ? "/" : "",
						     (int)(l - 2), de->d_name);
		} else if (!*sub && de->d_name[0] != '.') {
			char *subdir = xasprintf("%s/%s", dir, de->d_name);

			if (is_dir(subdir))
				add_names(dir, de->d_name, names, n, cap);
			free(subdir);
		}
	}
	if (d)
		closedir(d);
	free(path);
}

/* The shipped workloads' names (bonnie/putc for a subdirectory's), sorted. */
static char **workload_names(const char *dir, size_t *n)
{
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	add_names(dir, "", &names, n, &cap);
	if (*n)
		qsort(names, *n, sizeof(*names), by_name);
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* A line of the license header every shipped file starts with. */
static bool license_line(const char *p)
{
	return strncmp(p, "SPDX-License-Identifier:", 24) == 0 ||
	       strncmp(p, "Copyright ", 10) == 0;
}

/*
 * The header's first sentence, after "# name.f --" if it starts so,
 * whole: it may run over several comment lines.  The license lines
 * before it, and the blank comment line after them, are not part of it.
 */
static char *summary(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *buf = xstrdup("");
	size_t cap = 0;

	while (f && getline(&line, &cap, f) > 0 && line[0] == '#') {
		char *p = line + 1, *dash = strstr(p, " -- "), *dot, *joined;

		p += strspn(p, " ");
		if (dash)
			p = dash + 4;
		p[strcspn(p, "\n")] = '\0';
		if (!*buf && (!*p || license_line(p)))
			continue;
		if (!*p)
			break;
		dot = strstr(p, ". ");
		if (!dot && p[strlen(p) - 1] == '.')
			dot = p + strlen(p) - 1;
		if (dot)
			dot[1] = '\0';
		joined = xasprintf("%s%s%s", buf, *buf ? " " : "", p);
		free(buf);
		buf = joined;
		if (dot)
			break;
	}
	free(line);
	if (f)
		fclose(f);
	return buf;
}

/* Words of text from column indent, broken before column width. */
static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
	int col = indent;

	while (*text) {
		int len = (int)strcspn(text, " ");

		if (col > indent && col + 1 + len > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", len, text);
		col += len;
		text += len;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

int catalog_list(FILE *out)
{
	const char *dir = catalog_dir();
	int col = 0; /* the names' column */
	size_t n;
	char **names;

	if (!dir) {
		return fb_error("no workload directory found (set "
				"FBRUN_WORKLOADS)");
	}
	names = workload_names(dir, &n);
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(names[i]) > col)
			col = (int)strlen(names[i]);
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s.f", dir, names[i]);
		char *what = summary(path);

		fprintf(out, "%-*s ", col, names[i]);
		print_wrapped(out, what, col + 1, 79);
		free(what);
		free(path);
	}
	free_names(names, n);
	return 0;
}

char *catalog_suggest(const char *name)
{
	const char *dir = catalog_dir(), *hint;
	char *want, *found = NULL;
	size_t n, l = strlen(name);
	char **names;

	if (!dir || name[0] == '/' || name[0] == '.')
		return NULL;
	want = xstrndup(name, l > 2 && !strcmp(name + l - 2, ".f") ? l - 2 : l);
	names = workload_names(dir, &n);
	hint = did_you_mean(want, names, n, sizeof(*names));
	if (!hint) {
		/* "rewrite" for bonnie/rewrite: the name without its folder */
		const char **base = xmalloc((n ? n : 1) * sizeof(*base));

		for (size_t i = 0; i < n; i++) {
			const char *slash = strrchr(names[i], '/');

			base[i] = slash ? slash + 1 : names[i];
		}
		hint = did_you_mean(want, base, n, sizeof(*base));
		for (size_t i = 0; hint && i < n; i++)
			if (base[i] == hint)
				hint = names[i];
		free(base);
	}
	if (hint)
		found = xstrdup(hint);
	free_names(names, n);
	free(want);
	return found;
}

char *catalog_resolve(const char *name)
{
	struct stat st;
	const char *dir;
	char *path;

	/* a path as given; "bonnie/putc" is a shipped one when no file */
	if (strcmp(name, "-") == 0 || stat(name, &st) == 0 ||
	    name[0] == '/' || name[0] == '.')
		return xstrdup(name);
	dir = catalog_dir();
	if (!dir)
		return xstrdup(name);
	path = xasprintf("%s/%s%s", dir, name,
			 strlen(name) > 2 && !strcmp(name + strlen(name) - 2, ".f") ?
				 "" :
				 ".f");
	if (stat(path, &st) == 0)
		return path;
	free(path);
	return xstrdup(name);
}

int catalog_show(FILE *out, const char *name)
{
	char *path = catalog_resolve(name), buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		char *hint = catalog_suggest(name);

		fb_error("no workload '%s'%s%s%s (see --list-workloads)", name,
			 hint ? "; did you mean '" : "", hint ? hint : "",
			 hint ? "'?" : "");
		free(hint);
		free(path);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, out);
	fclose(f);
	free(path);
	return 0;
}
