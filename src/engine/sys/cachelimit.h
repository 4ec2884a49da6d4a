/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * --cache-limit: the run's process in a memory cgroup of its own, so the
 * page cache its reads fill is bounded and file data beyond the bound is
 * read from the devices.  cgroup v2's memory.max where the unified
 * hierarchy has the memory controller, else cgroup v1's
 * memory.limit_in_bytes.
 */
#ifndef FBRUN_ENGINE_SYS_CACHELIMIT_H
#define FBRUN_ENGINE_SYS_CACHELIMIT_H

#include <stddef.h>
#include <stdint.h>

struct cachelimit;

/*
 * A cgroup made for this process, its memory bounded to bytes, not yet
 * entered; NULL with the reason in err (no memory controller mounted,
 * not permitted).
 */
struct cachelimit *cachelimit_new(uint64_t bytes, char *err, size_t errlen);
/* Move this process (every thread of it) in: 0, or -1 with err. */
int cachelimit_enter(struct cachelimit *c, char *err, size_t errlen);
/*
 * Back where the process was (the top if that went away): what it
 * touches next, the next run's buffers, is not charged to the bound.
 */
void cachelimit_leave(struct cachelimit *c);
/* "v2" or "v1". */
const char *cachelimit_kind(const struct cachelimit *c);
/* The cgroup's directory, for messages. */
const char *cachelimit_path(const struct cachelimit *c);
/* The process moved back where it was, the cgroup removed; NULL is ok. */
void cachelimit_free(struct cachelimit *c);

#endif
