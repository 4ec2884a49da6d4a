/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Filesets that are block devices, checked before any statement runs:
 * errors at the script's lines, every one reported, exit 2 (see
 * doc/language.md, "Block devices").
 */
#include "engine/engine_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/io/blockdev.h"
#include "engine/sys/peers.h"
#include "lang/flowop.h"
#include "util/diag.h"
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

bool engine_deletes_files(const struct workload *w, int i)
{
	for (size_t k = 0; k < w->nflowops; k++)
		if ((ir_flowop_flags(w->flowops[k]) & FF_REMOVES) &&
		    touches(w, w->flowops[k], i))
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

char *engine_device_of(const struct ir_fileset *def)
{
	if (!def->name || !def->path)
		return NULL;
	return blockdev_of(def->path_given ? def->path_given : def->path,
			   def->name);
}

/* This process's checks, errors into d. */
static void check_here(struct diag *d, const struct workload *w,
		       const struct engine_opts *o)
{
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct ir_fileset *def = &w->filesets[i];
		char *dev, *why;

		if (!(dev = engine_device_of(def)))
			continue;
		if (!def->is_file) {
			diag_error(d, w->src, def->loc,
				   "fileset '%s' names the block device '%s'; "
				   "only 'define file' may be a device",
				   def->name, dev);
		} else {
			bool wr = o->allow_device_writes &&
				  engine_writes_fileset(w, (int)i);

			check_flowops(d, w, (int)i, dev, o->allow_device_writes);
			why = blockdev_refusal(dev, wr, o->force_device, true);
			if (why)
				diag_error(d, w->src, def->loc,
					   "file '%s' is the block device '%s' "
					   "and %s; refusing to use it",
					   def->name, dev, why);
			free(why);
		}
		free(dev);
	}
}

/*
 * At rank 0, the job's errors, each rank's printed once: rank 0's as
 * they are, another's where it differs (its host sees the device
 * otherwise), after the rank and host.  Every text is "host\nerrors".
 */
static void say_once(const struct engine_peers *p, const char *text,
		     size_t len)
{
	char **all = p->gather(p->arg, text, len);

	for (unsigned r = 0; all && r < p->nranks; r++) {
		const char *errs = all[r] ? strchr(all[r], '\n') : NULL;
		bool seen = !errs || !errs[1];

		for (unsigned k = 0; k < r && !seen; k++)
			seen = all[k] && strchr(all[k], '\n') &&
			       strcmp(strchr(all[k], '\n'), errs) == 0;
		if (seen)
			continue;
		if (r > 0)
			fb_note("rank %u, on host '%.*s', refuses a block "
				"device:",
				r, (int)(errs - all[r]), all[r]);
		fputs(errs + 1, stderr);
	}
	for (unsigned r = 0; all && r < p->nranks; r++)
		free(all[r]);
	free(all);
}

/* Whether this host sees a device among the filesets (no probe). */
static bool has_device(const struct workload *w)
{
	for (size_t i = 0; i < w->nfilesets; i++) {
		char *dev = engine_device_of(&w->filesets[i]);
		bool is = dev != NULL;

		free(dev);
		if (is)
			return true;
	}
	return false;
}

/* The errors' count into a status, d freed. */
static int finish(struct diag *d)
{
	int rc;

	diag_finish(d);
	rc = diag_error_count(d) ? FB_EXIT_USAGE : 0;
	diag_free(d);
	return rc;
}

/* A job's checks: each rank's own, the agreed status. */
static int check_job(const struct engine_peers *p, const struct workload *w,
		     const struct engine_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (!p->agree(p->arg, has_device(w) ? 1 : 0))
		return 0; /* no rank sees one: nothing more to agree on */
	if ((mem = open_memstream(&text, &len)))
		fprintf(mem, "%s\n", p->host);
	/* one rank at a time: O_EXCL probes on one host would collide */
	rc = 0;
	for (unsigned r = 0; r < p->nranks; r++) {
		if (r == p->rank) {
			struct diag *d = diag_new(mem ? mem : stderr,
						  MAX_ERRORS);

			check_here(d, w, o);
			rc = finish(d);
		}
		p->agree(p->arg, 0);
	}
	if (mem && fclose(mem) != 0) {
		free(text);
		text = NULL;
	}
	if ((rc = p->agree(p->arg, rc)) != 0)
		say_once(p, text ? text : "", text ? strlen(text) : 0);
	free(text);
	return rc;
}

int engine_check_devices(const struct engine *e)
{
	const struct workload *w = e->w;
	const struct engine_opts *o = e->o;
	struct diag *d;

	/* alone, the errors as they come, warnings too */
	if (!e->peers->alone)
		return check_job(e->peers, w, o);
	d = diag_new(stderr, MAX_ERRORS);
	check_here(d, w, o);
	return finish(d);
}
