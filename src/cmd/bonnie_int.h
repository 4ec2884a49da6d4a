/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The inside of fbrun bonnie: its command line (bonnie_options.c) read
 * for its flow (bonnie.c) into bonnie/'s struct bonnie.
 */
#ifndef FBRUN_CMD_BONNIE_INT_H
#define FBRUN_CMD_BONNIE_INT_H

#include "bonnie/bonnie.h"

/* bonnie++'s defaults, the machine's RAM and name. */
void bonnie_defaults(struct bonnie *b);
/* Read argv into b: 0, -1 (usage error, said) or 1 (--help done). */
int bonnie_parse(struct bonnie *b, int argc, char **argv);
/* bonnie++'s size rules, on the options as parsed: 0, or -1 (said). */
int bonnie_check_sizes(struct bonnie *b);
/* -u user[:group] / -g group: only root switches, and only when asked. */
int bonnie_switch_user(struct bonnie *b);

#endif
