/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Cross-references and the checks that need the whole workload. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "util/util.h"

/* ------------------------------------------------------------ checks */

void compile_resolve_fileset(struct compiler *c, struct ir_flowop *f)
{
	struct workload *w = c->w;
	const char *hint;

	if (!f->fileset.name)
		return;
	f->fileset.index = compile_find_fileset(c, f->fileset.name);
	if (f->fileset.index >= 0)
		return;
	if (strmap_get(c->bad_fileset_names, f->fileset.name))
		return; /* its define was reported already */
	hint = w->nfilesets ? did_you_mean(f->fileset.name,
					   &w->filesets[0].name, w->nfilesets,
					   sizeof(w->filesets[0])) :
			      NULL;
	if (hint)
		diag_error(c->d, c->src, f->fileset.loc,
			   "no fileset named '%s'; did you mean '%s'?",
			   f->fileset.name, hint);
	else
		diag_error(c->d, c->src, f->fileset.loc,
			   "no fileset named '%s'", f->fileset.name);
}

/* target=: the same thread first (mine), then anywhere (all). */
void compile_resolve_target(struct compiler *c, struct ir_flowop *f,
			    const struct strmap *mine, const struct strmap *all)
{
	struct ir_flowop *t;
	const char *want;

	if (!f->target.name)
		return;
	t = strmap_get(mine, f->target.name);
	if (!t)
		t = strmap_get(all, f->target.name);
	if (!t) {
		diag_error(c->d, c->src, f->target.loc,
			   "no flowop named '%s'", f->target.name);
		return;
	}
	f->target.index = t->id;
	want = flowop_target_unfit(f->type, t->type);
	if (want) {
		diag_error(c->d, c->src, f->target.loc,
			   "target of '%s' must be %s; '%s' is %s",
			   flowop_info[f->type].name, want, t->name,
			   t->type < FO_NTYPES ? flowop_info[t->type].name :
						 "a composite flowop");
		diag_note(c->d, c->src, t->loc, "'%s' is defined here",
			  t->name);
	}
}

/*
 * startrecord= with a fixed iosize: a first record that would end past
 * the largest file offset fails on every run (the engine refuses it
 * rather than wrap round to the start of the file).
 */
static void check_startrecord(struct compiler *c, const struct ir_flowop *f)
{
	int64_t end;

	if (!f->startrecord || f->iosize.kind != IRV_INT || f->iosize.i <= 0)
		return;
	if (__builtin_mul_overflow(f->startrecord, f->iosize.i, &end) ||
	    __builtin_add_overflow(end, f->iosize.i, &end))
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s): record %" PRId64 " of iosize %"
			   PRId64 " would end past the largest file offset, "
			   "2^63 - 1 (startrecord counts records, not bytes)",
			   f->name, flowop_info[f->type].name, f->startrecord,
			   f->iosize.i);
}

/*
 * A queue's bounds: a take or a put of more items than the queue holds
 * would wait for ever (until the run ends, the accelerator idle).  A
 * queueput feeds the queue of its own process instance, so its target
 * must be in its process.
 */
static void check_queue(struct compiler *c, const struct ir_flowop *f,
			const struct ir_thread *t)
{
	const struct workload *w = c->w;
	const struct ir_flowop *q = f;

	if (f->type == FO_QUEUEPUT) {
		if (f->target.index < 0 ||
		    w->flowops[f->target.index]->type != FO_QUEUETAKE)
			return; /* reported by compile_resolve_target */
		q = w->flowops[f->target.index];
		if (w->threads[q->thread].process != t->process) {
			diag_error(c->d, c->src, f->target.loc,
				   "queueput '%s' is in process '%s' but its "
				   "queue '%s' is in process '%s': a queue "
				   "is fed within its own process instance",
				   f->name, w->processes[t->process].name,
				   q->name,
				   w->processes[w->threads[q->thread].process]
					   .name);
			return;
		}
	} else if (f->type != FO_QUEUETAKE) {
		return;
	}
	if (f->value.kind == IRV_INT && f->value.i > q->depth)
		diag_error(c->d, c->src, f->value.loc,
			   "%s '%s' moves %" PRId64 " items at a time but "
			   "queue '%s' holds at most %" PRId64 " (depth=): "
			   "it would wait for ever",
			   flowop_info[f->type].name, f->name, f->value.i,
			   q->name, q->depth);
}

struct slot {
	bool opened;
	int fileset; /* of openfile/createfile; -1 none, -2 they disagree */
	bool verify; /* one of them has verify */
};

/*
 * A flowop verify cannot follow (FF_UNVERIFIED) on a fileset with verify:
 * refused rather than leave a file unchecked, or fail a check on fbrun's
 * own doing.
 */
static void check_verify(struct compiler *c, const struct ir_flowop *f,
			 const struct slot *sl)
{
	const struct workload *w = c->w;
	const char *op = flowop_info[f->type].name;
	/* a slot nothing opens names no fileset (its fileset is 0, not -1) */
	int i = f->fileset.index >= 0 ? f->fileset.index :
		sl->opened	      ? sl->fileset :
					-1;

	if (!(flowop_flags(f->type) & FF_UNVERIFIED) ||
	    !(i >= 0 ? w->filesets[i].verify : sl->verify))
		return;
	if (i >= 0)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) cannot work on fileset '%s', "
			   "which has verify: verify does not follow what %s "
			   "does to its files",
			   f->name, op, w->filesets[i].name, op);
	else
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) cannot work on the files of fd "
			   "%" PRId64 ", of a fileset with verify: verify does "
			   "not follow what %s does to its files",
			   f->name, op, f->fd >= 0 ? f->fd : 0, op);
}

static void check_flowop(struct compiler *c, struct ir_flowop *f,
			 const struct ir_thread *t, struct slot *slots,
			 bool slot0_rotates)
{
	struct workload *w = c->w;
	const struct flowop_info *fi = &flowop_info[f->type];
	int64_t slot = f->fd >= 0 ? f->fd : 0;
	bool has_slot = slots[slot].opened || (f->fd < 0 && slot0_rotates);
	const struct ir_fileset *fs =
		f->fileset.index >= 0 ? &w->filesets[f->fileset.index] : NULL;

	if ((fi->needs & NEED_FILESET) && !f->fileset.name)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs filesetname=", f->name,
			   fi->name);
	if ((fi->needs & NEED_FD) && !has_slot) {
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) uses fd %" PRId64
			   ", which no openfile or createfile in thread '%s' "
			   "opens",
			   f->name, fi->name, slot, t->name);
	}
	if ((fi->needs & NEED_FILE) && !f->fileset.name && !has_slot)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) has no file: give filesetname= "
			   "or an fd that openfile or createfile opens in "
			   "thread '%s'",
			   f->name, fi->name, t->name);
	if ((fi->needs & NEED_FILE) && fs && f->fd >= 0 &&
	    slots[slot].opened && slots[slot].fileset >= 0 &&
	    slots[slot].fileset != f->fileset.index)
		diag_error(c->d, c->src, f->fileset.loc,
			   "flowop '%s' names fileset '%s' but fd %" PRId64
			   " holds files of fileset '%s'",
			   f->name, fs->name, slot,
			   w->filesets[slots[slot].fileset].name);
	if (f->srcfd >= 0 && !slots[f->srcfd].opened)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' uses srcfd %" PRId64
			   ", which no openfile or createfile in thread '%s' "
			   "opens",
			   f->name, f->srcfd, t->name);
	if ((fi->needs & NEED_IOSIZE) && f->iosize.kind == IRV_NONE)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs iosize=", f->name,
			   fi->name);
	else if ((fi->needs & NEED_IOSIZE) && f->iosize.kind == IRV_INT &&
		 f->iosize.i == 0)
		diag_error(c->d, c->src, f->iosize.loc,
			   "iosize of flowop '%s' must be greater than 0",
			   f->name);
	if (t->memsize > 0 && f->iosize.kind == IRV_INT &&
	    f->iosize.i > t->memsize)
		diag_error(c->d, c->src, f->iosize.loc,
			   "iosize %" PRId64 " of flowop '%s' is larger than "
			   "thread '%s' memsize %" PRId64,
			   f->iosize.i, f->name, t->name, t->memsize);
	if ((fi->needs & NEED_LEAFDIRS) && fs && fs->leafdirs == 0)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs a fileset with leafdirs=N; "
			   "fileset '%s' has none",
			   f->name, fi->name, fs->name);
	if ((fi->needs & NEED_TARGET) && !f->target.name)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs target=", f->name, fi->name);
	if ((fi->needs & NEED_VALUE) && f->value.kind == IRV_NONE)
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) needs value=", f->name, fi->name);
	else if ((fi->needs & NEED_RANDVAR) && f->value.kind != IRV_RAND)
		diag_error(c->d, c->src, f->value.loc,
			   "value of testrandvar must be a random variable");
	else if (!(fi->needs & VALUE_STRING) && f->value.kind == IRV_STR)
		diag_error(c->d, c->src, f->value.loc,
			   "value of flowop '%s' must be an integer, got '%s'",
			   f->name, f->value.s);
	if (f->random && (f->stride || f->startrecord))
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) is random: stride and startrecord "
			   "place sequential I/O",
			   f->name, fi->name);
	check_startrecord(c, f);
	if (fs && fs->shared && c->opts->rank_dirs && (fi->flags & FF_SERIAL))
		diag_error(c->d, c->src, f->loc,
			   "flowop '%s' (%s) names files by a count of its "
			   "own, which every rank would repeat in fileset '%s' "
			   "that the ranks share (without 'shared' each rank "
			   "has a tree of its own)",
			   f->name, fi->name, fs->name);
	if (w->eventgen_rate == 0 && (fi->needs & NEED_EVENTGEN))
		diag_warning(c->d, c->src, f->loc,
			     "flowop '%s' (%s) does nothing without "
			     "'eventgen rate=N'",
			     f->name, fi->name);
	check_verify(c, f, &slots[slot]);
	check_queue(c, f, t);
}

/*
 * An accelerator is busy only while a compute flowop runs: one without
 * any would report 0% whatever the storage does.  (compute in another
 * thread is a data loader's preprocessing: no utilisation of its own.)
 */
static void check_accelerator(struct compiler *c, const struct ir_thread *t)
{
	const struct workload *w = c->w;
	bool computes = false;

	for (size_t i = t->flowop_first; i < t->flowop_end; i++)
		if (w->flowops[i]->type == FO_COMPUTE)
			computes = true;
	if (t->accelerator && !computes)
		diag_error(c->d, c->src, t->loc,
			   "thread '%s' is an accelerator but has no compute "
			   "flowop: it would never be busy",
			   t->name);
}

void compile_check_thread(struct compiler *c, int tidx)
{
	struct workload *w = c->w;
	struct ir_thread *t = &w->threads[tidx];
	struct slot *slots;
	struct strmap *names;
	int *seen;
	bool slot0_rotates = false;
	int64_t nslots = 1;

	for (size_t i = t->flowop_first; i < t->flowop_end; i++) {
		const struct ir_flowop *f = w->flowops[i];

		if (f->fd + 1 > nslots)
			nslots = f->fd + 1;
		if (f->srcfd + 1 > nslots)
			nslots = f->srcfd + 1;
	}
	t->nslots = nslots;
	slots = xcalloc((size_t)nslots, sizeof(*slots));
	for (size_t i = t->flowop_first; i < t->flowop_end; i++) {
		const struct ir_flowop *f = w->flowops[i];
		struct slot *sl;

		/* data flowops open their file themselves when the slot is empty */
		if (f->type == FO_COMPOSITE ||
		    !((flowop_info[f->type].needs & OPENS) ||
		      ((flowop_flags(f->type) & FF_MOVES_DATA) &&
		       f->fileset.name)))
			continue;
		if (f->fd < 0 && f->opennext)
			slot0_rotates = true;
		sl = &slots[f->fd >= 0 ? f->fd : 0];
		if (!sl->opened)
			sl->fileset = -1;
		sl->opened = true;
		if (!(flowop_info[f->type].needs & OPENS))
			continue;
		if (sl->fileset == -1)
			sl->fileset = f->fileset.index;
		else if (sl->fileset != f->fileset.index)
			sl->fileset = -2;
		if (f->fileset.index >= 0 && w->filesets[f->fileset.index].verify)
			sl->verify = true;
	}
	check_accelerator(c, t);
	for (size_t i = t->flowop_first; i < t->flowop_end; i++) {
		struct ir_flowop *f = w->flowops[i];

		/* a replay's rows only count its ops */
		if (f->type != FO_COMPOSITE && !f->replay_row)
			check_flowop(c, f, t, slots, slot0_rotates);
	}
	/*
	 * filebench runs two flowops of one name in a thread (its tpcso.f has
	 * them); their results are kept apart as name#2, name#3...
	 */
	names = strmap_new();
	seen = xcalloc(t->flowop_end - t->flowop_first + 1, sizeof(*seen));
	for (size_t i = t->flowop_first; i < t->flowop_end; i++) {
		struct ir_flowop *f = w->flowops[i], *first;

		if (!(first = strmap_add(names, f->name, f))) {
			f->nth = seen[i - t->flowop_first] = 1;
			continue;
		}
		f->nth = ++seen[(size_t)first->id - t->flowop_first];
		/* a repeated composite's children: the use has the warning */
		if (f->loc.start == first->loc.start)
			continue;
		diag_warning(c->d, c->src, f->loc,
			     "flowop name '%s' is already used in thread '%s'; "
			     "its results are reported as '%s#%d'",
			     f->name, t->name, f->name, f->nth);
		diag_note(c->d, c->src, first->loc, "first used here");
	}
	free(seen);
	strmap_free(names);
	free(slots);
}
