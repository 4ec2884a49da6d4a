/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* fbrun record COMMAND: a command's file I/O recorded, and its replay. */
#ifndef FBRUN_CMD_RECORD_H
#define FBRUN_CMD_RECORD_H

/* argv[0] is "record"; returns the exit code (cmd/recordopts.c says). */
int record_main(int argc, char **argv);

#endif
