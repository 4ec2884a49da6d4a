#include "catalog.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

#ifndef FBRUN_WORKLOAD_DIR
#define FBRUN_WORKLOAD_DIR "/usr/local/share/fbrun/workloads"
#endif

static bool is_dir(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *catalog_dir(void)
{
	const char *env = getenv("FBRUN_WORKLOADS");

	if (env && is_dir(env))
		return env;
	if (is_dir("workloads"))
		return "workloads";
	if (is_dir("../workloads"))
		return "../workloads";
	if (is_dir(FBRUN_WORKLOAD_DIR))
		return FBRUN_WORKLOAD_DIR;
#ifdef FBRUN_SOURCE_WORKLOADS
	/* an uninstalled build finds the source tree's */
	if (is_dir(FBRUN_SOURCE_WORKLOADS))
		return FBRUN_SOURCE_WORKLOADS;
#endif
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The header's first sentence, after "# name.f --" if it starts so. */
static void summary(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t n = 0;

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f) && line[0] == '#' &&
	       n + 1 < len) {
		char *p = line + 1, *dash = strstr(p, " -- "), *dot;

		p += strspn(p, " ");
		if (dash)
			p = dash + 4;
		p[strcspn(p, "\n")] = '\0';
		if (!*p)
			break;
		dot = strstr(p, ". ");
		if (!dot && p[strlen(p) - 1] == '.')
			dot = p + strlen(p) - 1;
		if (dot)
			dot[1] = '\0';
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", p);
		if (dot || n >= len)
			break;
	}
	if (f)
		fclose(f);
}

int catalog_list(FILE *out)
{
	const char *dir = catalog_dir();
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	DIR *d;

	if (!dir || !(d = opendir(dir))) {
		fprintf(stderr, "fbrun: error: no workload directory found "
				"(set FBRUN_WORKLOADS)\n");
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 2 && strcmp(de->d_name + l - 2, ".f") == 0) {
			names = grow_array(names, &cap, n + 1, sizeof(*names));
			names[n++] = xstrndup(de->d_name, l - 2);
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s.f", dir, names[i]), what[120];

		summary(path, what, sizeof(what));
		fprintf(out, "%-30s %s\n", names[i], what);
		free(path);
		free(names[i]);
	}
	free(names);
	return 0;
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
		fprintf(stderr, "fbrun: error: no workload '%s' (see "
				"--list-workloads)\n",
			name);
		free(path);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, out);
	fclose(f);
	free(path);
	return 0;
}
