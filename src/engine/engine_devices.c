/*
 * Filesets that are block devices, checked before any statement runs:
 * errors at the script's lines, every one reported, exit 2 (see
 * doc/language.md, "Block devices").
 */
#include "engine/engine_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "engine/blockdev.h"
#include "lang/diag.h"
#include "lang/flowop.h"
#include "util/msg.h"

#define MAX_ERRORS 20

/* Whether f works on fileset i: names it, or uses an fd opened there. */
static bool touches(const struct workload *w, const struct ir_flowop *f,
		    int i)
{
	const struct ir_thread *t;
	int64_t slot = f->fd >= 0 ? f->fd : 0;

	if (f->type == FO_COMPOSITE)
		return false;
	if (f->fileset.index >= 0)
		return f->fileset.index == i;
	if (f->thread < 0 || (size_t)f->thread >= w->nthreads)
		return false;
	t = &w->threads[f->thread];
	for (size_t k = t->flowop_first; k < t->flowop_end; k++) {
		const struct ir_flowop *o = w->flowops[k];

		if (o->type != FO_COMPOSITE &&
		    (flowop_info[o->type].needs & OPENS) &&
		    (o->fd >= 0 ? o->fd : 0) == slot && o->fileset.index == i)
			return true;
	}
	return false;
}

static bool writes(const struct ir_flowop *f)
{
	return flowop_flags(f->type) & (FF_WRITE | FF_ALTERS);
}

bool engine_writes_fileset(const struct workload *w, int i)
{
	for (size_t k = 0; k < w->nflowops; k++)
		if (writes(w->flowops[k]) && touches(w, w->flowops[k], i))
			return true;
	return false;
}

/* The flowops that must not work on fileset i, device dev. */
static void check_flowops(struct diag *d, const struct workload *w, int i,
			  const char *dev, bool allow_writes)
{
	const char *name = w->filesets[i].name;

	for (size_t k = 0; k < w->nflowops; k++) {
		const struct ir_flowop *f = w->flowops[k];
		const char *op = f->type < FO_NTYPES ?
					 flowop_info[f->type].name : "";

		if (!touches(w, f, i))
			continue;
		if (flowop_flags(f->type) & FF_NAMES)
			diag_error(d, w->src, f->loc,
				   "flowop '%s' (%s) makes, removes or lists "
				   "names, and fileset '%s' is the block device "
				   "'%s', which has none",
				   f->name, op, name, dev);
		else if (writes(f) && !allow_writes)
			diag_error(d, w->src, f->loc,
				   "flowop '%s' (%s) would write fileset '%s', "
				   "the block device '%s'; refusing without "
				   "--allow-device-writes",
				   f->name, op, name, dev);
	}
}

int engine_check_devices(const struct workload *w,
			 const struct engine_opts *o)
{
	struct diag *d = NULL;
	int rc = 0;

	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct ir_fileset *def = &w->filesets[i];
		char *dev, *why;

		if (!def->name || !def->path ||
		    !(dev = blockdev_of(def->path, def->name)))
			continue;
		if (!d)
			d = diag_new(stderr, MAX_ERRORS);
		if (!def->is_file) {
			diag_error(d, w->src, def->loc,
				   "fileset '%s' names the block device '%s'; "
				   "only 'define file' may be a device",
				   def->name, dev);
		} else {
			bool wr = o->allow_device_writes &&
				  engine_writes_fileset(w, (int)i);

			check_flowops(d, w, (int)i, dev, o->allow_device_writes);
			why = blockdev_refusal(dev, wr, o->force_device);
			if (why)
				diag_error(d, w->src, def->loc,
					   "file '%s' is the block device '%s' "
					   "and %s; refusing to use it",
					   def->name, dev, why);
			free(why);
		}
		free(dev);
	}
	if (d) {
		diag_finish(d);
		rc = diag_error_count(d) ? FB_EXIT_USAGE : 0;
		diag_free(d);
	}
	return rc;
}
