/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun curve [options] SCRIPT: the script run at rising offered rates,
 * response time against throughput, and the most load that meets a
 * service level objective (doc/running.md, "Load curves").
 */
#ifndef FBRUN_CMD_CURVE_H
#define FBRUN_CMD_CURVE_H

/* The exit code: 0 ok, 1 a run failed or no rate met --slo, 2 usage. */
int curve_main(int argc, char **argv);

#endif
