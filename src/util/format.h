/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The output formats of util/format_list.h: --format's word read and -o's
 * suffix told, for the command that asks (a FOR_* bit), so that each
 * command accepts the rows it prints and says which with one message.
 */
#ifndef FBRUN_FORMAT_H
#define FBRUN_FORMAT_H

/* The commands of the list's last column. */
enum format_for {
	FOR_RUN = 1 << 0, /* fbrun, fbrun curve */
	FOR_REPORT = 1 << 1, /* fbrun report */
	FOR_COMPARE = 1 << 2, /* fbrun compare */
};

enum format {
#define FORMAT(id, word, suffix, commands) FORMAT_##id,
#include "util/format_list.h"
#undef FORMAT
	FORMAT_COUNT
};

/*
 * --format's word among the rows cmd prints: 0, or -1 after saying
 * "--format expects text, json or csv, got 'xml'" (the rows it prints).
 */
int format_parse(const char *word, enum format_for cmd, enum format *out);
/*
 * The format -o's name asks for among the rows cmd prints: the row whose
 * suffix the name ends with (and is longer than), else FORMAT_TEXT, as
 * for no name (NULL).
 */
enum format format_of_path(const char *path, enum format_for cmd);

#endif
