/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The names fbrun makes in a fileset's tree, which removal may take as
 * its own (fileset_remove.c): the layout's serials ("%08u", from 1), and
 * where createnext works on the fileset, its directories ("%05u", from 0,
 * in the root) and files (ten hex digits with up to twelve letters or
 * digits before or after), and in the root the replays' trees the marker
 * lists (fileset_replay.c).
 */
#include "engine/fileset/fileset_int.h"

#include <stdbool.h>
#include <string.h>

static bool all_of(const char *s, size_t n, const char *set)
{
	return strspn(s, set) >= n;
}

#define DIGITS "0123456789"
#define HEX DIGITS "abcdef"
#define ALNUM DIGITS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/* A number as "%0*u" writes it with this width; from 1 unless zero_ok. */
static bool serial_name(const char *s, size_t width, bool zero_ok)
{
	size_t n = strlen(s);

	if (n < width || !all_of(s, n, DIGITS) || (n > width && s[0] == '0'))
		return false;
	return zero_ok || strspn(s, "0") < n;
}

bool fs_layout_name(const char *name)
{
	return serial_name(name, 8, false);
}

/* A createnext file: bonnie++'s names (flowops_namewise.c, make_name). */
static bool createnext_file(const char *s)
{
	size_t n = strlen(s);

	if (n < 10 || n > 22)
		return false;
	return (all_of(s, 10, HEX) && all_of(s + 10, n - 10, ALNUM)) ||
	       (all_of(s, n - 10, ALNUM) && all_of(s + n - 10, 10, HEX));
}

bool fs_name_ours(const struct fileset *fs, const char *name, bool top,
		  bool createnext)
{
	if (top && fs_replay_tree(fs, name))
		return true;
	if (serial_name(name, 8, false))
		return true;
	if (!createnext)
		return false;
	return createnext_file(name) || (top && serial_name(name, 5, true));
}
