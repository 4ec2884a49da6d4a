/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The output formats' words and suffixes (format.h). */
#include "util/format.h"

#include <stdio.h>
#include <string.h>

#include "util/msg.h"

static const struct {
	const char *word, *suffix;
	unsigned commands;
} rows[FORMAT_COUNT] = {
#define FORMAT(id, word, suffix, commands) \
	[FORMAT_##id] = { word, suffix, commands },
#include "util/format_list.h"
#undef FORMAT
};

int format_parse(const char *word, enum format_for cmd, enum format *out)
{
	char list[128] = "";
	size_t n = 0, k = 0, len;

	for (int f = 0; f < FORMAT_COUNT; f++) {
		if (!(rows[f].commands & cmd))
			continue;
		if (!strcmp(word, rows[f].word)) {
			*out = (enum format)f;
			return 0;
		}
		n++;
	}
	/* "text, json or csv": the words cmd takes, in the list's order */
	for (int f = 0; f < FORMAT_COUNT; f++) {
		if (!(rows[f].commands & cmd))
			continue;
		len = strlen(list);
		k++;
		snprintf(list + len, sizeof(list) - len, "%s%s",
			 k == 1 ? "" : k == n ? " or " : ", ", rows[f].word);
	}
	return fb_error("--format expects %s, got '%s'", list, word);
}

enum format format_of_path(const char *path, enum format_for cmd)
{
	size_t n = path ? strlen(path) : 0;

	for (int f = 0; f < FORMAT_COUNT; f++) {
		const char *s = rows[f].suffix;

		if (s && (rows[f].commands & cmd) && n > strlen(s) &&
		    !strcmp(path + n - strlen(s), s))
			return (enum format)f;
	}
	return FORMAT_TEXT;
}
