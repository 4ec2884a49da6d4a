/* The flowop table and lookups in it (flowop.h). */
#include "lang/flowop.h"

#include <string.h>

const struct flowop_info flowop_info[FO_NTYPES] = {
#define FLOWOP(id, nm, fn, cls, uses, needs, help)                                 \
	[FO_##id] = { nm, cls, (uses) | FA(NAME) | FA(ITERS), needs, help },
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

bool flowop_class_is_io(enum flowop_class c)
{
	return c == FC_IO || c == FC_READ || c == FC_WRITE || c == FC_AIO;
}
