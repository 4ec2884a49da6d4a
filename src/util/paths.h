/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Paths as names: "." and ".." resolved by their spelling before anything
 * is made, so a path whose directories do not exist yet cannot climb out
 * of where it says (fileset paths, -o).
 */
#ifndef FBRUN_PATHS_H
#define FBRUN_PATHS_H

#include <stdbool.h>

/*
 * p with "." and empty components dropped and each ".." taking the name
 * before it away ("/a/b/../c" is "/a/c", "/.." is "/"); a relative path
 * keeps the ".." it starts with.  "" becomes ".".  Malloc'd.
 */
char *path_lexical(const char *p);

/*
 * p made absolute (from the working directory) and lexical, then its
 * longest existing part resolved as the kernel would (symlinks), the rest
 * appended: what p names now, or would name once made.  Malloc'd; NULL
 * with errno if the working directory cannot be had.
 */
char *path_real(const char *p);

/* Whether path a is dir or lies beneath it, both as path_real gives them. */
bool path_within(const char *a, const char *dir);

/* A path from /proc/self/mountinfo with its octal escapes (\040) undone. */
void path_mountinfo_unescape(char *s);

#endif
