/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The files fbrun writes because it was asked to (-o, compare's --html):
 * checked before any work starts, and written whole or not at all.  The
 * text goes to a temporary file fbrun makes in the target's directory,
 * which is renamed over the target once complete, so a reader sees the
 * old file or the whole new one, and nothing but a regular file (or no
 * file) at the target is ever written or replaced: a device, a FIFO, a
 * socket, a directory or a symbolic link there is refused, never opened.
 */
#ifndef FBRUN_OUTFILE_H
#define FBRUN_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Why path cannot take an output, as words to follow the path in a
 * message ("is a FIFO, not a regular file"), malloc'd; NULL if it can:
 * a regular file that may be written, or no file, in a directory where
 * a new one can be made.
 */
char *outfile_unusable(const char *path);

/*
 * Whether writing out would replace in, a file fbrun reads: one file
 * now (the same device and inode, by whatever name, hard link or
 * symbolic link), or, when either is not there yet, one name once
 * resolved (path_real: "./x" is "x").  Checked before anything runs, so
 * an output never takes the place of the input it is made from.
 */
bool outfile_same(const char *out, const char *in);

/* What an output holds, printed by the caller on out. */
typedef void outfile_fill_fn(FILE *out, const void *arg);

/*
 * Write what fill prints to path, by way of a temporary file renamed
 * over it (see above); the temporary is gone whatever happens.  Returns
 * 0, or -1 after saying why (the path, the call that failed, errno's
 * text); path is then as it was.
 */
int outfile_write(const char *path, outfile_fill_fn *fill, const void *arg);

/*
 * An output written while fbrun works (--interval-log), which a reader
 * follows with tail -f: a new file made as above and renamed over path at
 * once, so what was there is replaced, never written into (a hard link
 * to another file keeps that file's bytes), and fbrun writes only the
 * file it made.  The stream, or NULL after saying why.
 */
FILE *outfile_live(const char *path);

#endif
