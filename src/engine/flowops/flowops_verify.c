/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What the flowops of a verified fileset keep of its files while the run
 * goes on (flowops_int.h): the data a read finds checked, a file's length
 * as fbrun wrote it, the holes it left.  The stamps a write puts in its
 * data are flowops.c's (op_verify_data), with the thread's buffer.
 */
#include "engine/flowops/flowops_int.h"

#include "engine/io/verify.h"

int64_t op_verify_check(struct worker *wk, const struct slot *s,
			const char *buf, uint64_t off, uint64_t n)
{
	const struct fileset *fs = fs_of(wk, s->fileset);
	const struct vfy_files *t = fileset_vfy(fs);
	uint64_t id = fileset_file_id(fs, s->entry), lo, hi, skip;
	int64_t bad = vfy_check(buf, id, off, (size_t)n, 0, 0);

	if (bad < 0 || !t)
		return bad;
	/* zeros where fbrun may have left a hole: looked at after the read */
	vfy_files_zeros(t, (uint64_t)s->entry, &lo, &hi);
	if (lo >= hi || (uint64_t)bad >= hi)
		return bad;
	skip = (uint64_t)bad - off;
	return vfy_check(buf + skip, id, (uint64_t)bad, (size_t)(n - skip), lo,
			 hi);
}

void op_verify_opened(struct worker *wk, struct slot *s)
{
	const struct vfy_files *t;

	s->vlen = 0;
	s->vshared = false;
	if (!slot_verify(wk, s) || !(t = fileset_vfy(fs_of(wk, s->fileset))))
		return;
	/* the entry is busy while it is opened: no deletefile meanwhile */
	s->vshared = vfy_files_len(t, (uint64_t)s->entry, &s->vlen);
	if (!s->vshared)
		s->vlen = 0;
}

uint64_t op_verify_len(struct worker *wk, const struct slot *s)
{
	const struct vfy_files *t = fileset_vfy(fs_of(wk, s->fileset));
	uint64_t len = s->vlen, shared;

	/* the file made before the run: the entry's length, even once gone */
	if (s->vshared && t) {
		vfy_files_len(t, (uint64_t)s->entry, &shared);
		if (shared > len)
			len = shared;
	}
	return len;
}

void op_verify_hole(struct worker *wk, const struct slot *s, uint64_t len,
		    uint64_t hi)
{
	struct vfy_files *t = fileset_vfy(fs_of(wk, s->fileset));

	if (t && hi > len)
		vfy_files_hole(t, (uint64_t)s->entry, len, hi);
}

void op_verify_grew(struct worker *wk, struct slot *s, uint64_t end)
{
	struct vfy_files *t = fileset_vfy(fs_of(wk, s->fileset));

	if (end > s->vlen)
		s->vlen = end;
	if (s->vshared && t)
		vfy_files_grew(t, (uint64_t)s->entry, end);
}
