/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Paths resolved by their spelling before anything is made (paths.h). */
#include "util/paths.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

char *path_lexical(const char *p)
{
	size_t n = strlen(p), len = 0, keep = 0; /* keep: leading ".."s */
	bool abs = p[0] == '/';
	char *out = xmalloc(n + 2);

	if (abs)
		out[len++] = '/';
	while (*p) {
		const char *end = strchr(p, '/');
		size_t c = end ? (size_t)(end - p) : strlen(p);

		if (c == 0 || (c == 1 && p[0] == '.')) {
			/* nothing */
		} else if (c == 2 && p[0] == '.' && p[1] == '.') {
			if (len > (abs ? 1 : 0) + keep) {
				/* drop the last name and its slash */
				while (len > (abs ? 1 : 0) && out[len - 1] != '/')
					len--;
				if (len > (abs ? 1 : 0))
					len--;
			} else if (!abs) {
				/* nothing to take away: a relative path climbs */
				if (len)
					out[len++] = '/';
				memcpy(out + len, "..", 2);
				len += 2;
				keep = len;
			}
		} else {
			if (len && out[len - 1] != '/')
				out[len++] = '/';
			memcpy(out + len, p, c);
			len += c;
		}
		p += c;
		while (*p == '/')
			p++;
	}
	if (len == 0)
		out[len++] = '.';
	out[len] = '\0';
	return out;
}

char *path_real(const char *p)
{
	char *abs, *lex, *cut, *real;
	size_t n;

	if (p[0] == '/') {
		abs = xstrdup(p);
	} else {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			return NULL;
		abs = xasprintf("%s/%s", cwd, p);
		free(cwd);
	}
	lex = path_lexical(abs);
	free(abs);
	/* the longest prefix that exists, resolved; the rest as it is */
	n = strlen(lex);
	for (cut = lex + n;; cut--) {
		if (cut == lex || *cut == '/' || *cut == '\0') {
			char c = *cut;

			*cut = '\0';
			real = realpath(cut == lex ? "/" : lex, NULL);
			*cut = c;
			if (real || cut == lex)
				break;
		}
	}
	if (!real) {
		int e = errno;

		free(lex);
		errno = e;
		return NULL;
	}
	if (*cut) {
		char *both = xasprintf("%s%s", strcmp(real, "/") ? real : "",
				       cut);

		free(real);
		real = both;
	}
	free(lex);
	return real;
}

bool path_within(const char *a, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(a, dir, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

void path_mountinfo_unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}
