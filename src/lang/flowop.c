/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The flowop table and lookups in it (flowop.h). */
#include "lang/flowop.h"

#include <stddef.h>
#include <string.h>

const struct flowop_info flowop_info[FO_NTYPES] = {
#define FLOWOP(id, nm, fn, flags, uses, needs, prepare, release, help)         \
	[FO_##id] = { nm, flags, (uses) | FA_EVERY, needs, help },
#include "lang/flowop_list.h"
#undef FLOWOP
};

int flowop_lookup(const char *name)
{
	for (int i = 0; i < FO_NTYPES; i++)
		if (strcmp(flowop_info[i].name, name) == 0)
			return i;
	return -1;
}

/* The kinds of flowop target= may have to name (TARGET_* in needs). */
static const struct {
	unsigned need;
	int type; /* the one type it must have, or -1 */
	unsigned flags; /* else flags it must have */
	const char *want;
} target_kinds[] = {
	{ TARGET_BLOCK, FO_BLOCK, 0, "a block flowop" },
	{ TARGET_SEMBLOCK, FO_SEMBLOCK, 0, "a semblock flowop" },
	{ TARGET_MOVES_DATA, -1, FF_MOVES_DATA, "a flowop that reads or writes" },
	{ TARGET_QUEUE, FO_QUEUETAKE, 0, "a queuetake flowop" },
};

const char *flowop_target_unfit(int type, int target)
{
	unsigned needs = type >= 0 && type < FO_NTYPES ? flowop_info[type].needs : 0;

	for (size_t i = 0; i < sizeof(target_kinds) / sizeof(target_kinds[0]); i++) {
		if (!(needs & target_kinds[i].need))
			continue;
		if (target_kinds[i].type >= 0 ? target != target_kinds[i].type :
		    (flowop_flags(target) & target_kinds[i].flags) !=
			    target_kinds[i].flags)
			return target_kinds[i].want;
	}
	return NULL;
}
