/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The trace model (trace.h): its paths, streams, handles and ops, the
 * calls it ignored, errno names, and its ops in time order.  The readers
 * fill it (trace_load.c hands a file to one); the engine and fbrun model read it.
 */
#include "trace/trace_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[] = {
#define TRACE_OP_NAME(id, name) name,
	TRACE_OPS(TRACE_OP_NAME)
#undef TRACE_OP_NAME
};

const char *trace_op_name(enum trace_op_type type)
{
	return (unsigned)type < TOP_COUNT ? op_names[type] : "?";
}

static const char *const format_names[TRACE_NFORMATS] = {
	[TRACE_AUTO] = "auto",
#define TRACE_FORMAT(id, name, read, looks) [TRACE_##id] = name,
#include "trace/format_list.h"
#undef TRACE_FORMAT
};

int trace_format_parse(const char *word, enum trace_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (strcmp(word, format_names[i]) == 0) {
			*out = (enum trace_format)i;
			return 0;
		}
	}
	return -1;
}

const char *trace_format_name(enum trace_format f)
{
	return (unsigned)f < ARRAY_SIZE(format_names) ? format_names[f] : "?";
}

const char *trace_format_words(char *buf, size_t size)
{
	size_t n = ARRAY_SIZE(format_names), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i == 0 ? "" : i + 1 < n ? ", " : " or ",
					format_names[i]);
	return buf;
}

enum trace_format trace_format(const struct trace *t)
{
	return t->format;
}

struct trace *trace_new(void)
{
	struct trace *t = xcalloc(1, sizeof(*t));

	t->pathmap = strmap_new();
	t->ignmap = strmap_new();
	return t;
}

void trace_free(struct trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->npaths; i++)
		free(t->paths[i]);
	free(t->paths);
	strmap_free(t->pathmap);
	for (size_t i = 0; i < t->nstreams; i++) {
		free(t->streams[i].name);
		free(t->streams[i].ops);
		free(t->streams[i].handles);
	}
	free(t->streams);
	for (size_t i = 0; i < t->nign; i++)
		free(t->ign[i].name);
	free(t->ign);
	strmap_free(t->ignmap);
	free(t->initial);
	free(t);
}

size_t trace_npaths(const struct trace *t)
{
	return t->npaths;
}

const char *trace_path(const struct trace *t, int idx)
{
	return idx >= 0 && (size_t)idx < t->npaths ? t->paths[idx] : NULL;
}

int trace_intern(struct trace *t, const char *path)
{
	void *v = strmap_get(t->pathmap, path);

	if (v)
		return (int)((uintptr_t)v - 1);
	t->paths = grow_array(t->paths, &t->cap_paths, t->npaths + 1,
			      sizeof(*t->paths));
	t->paths[t->npaths] = xstrdup(path);
	strmap_add(t->pathmap, t->paths[t->npaths],
		   (void *)(uintptr_t)(t->npaths + 1));
	return (int)t->npaths++;
}

size_t trace_nstreams(const struct trace *t)
{
	return t->nstreams;
}

const char *trace_stream_name(const struct trace *t, size_t s)
{
	return t->streams[s].name;
}

size_t trace_stream_nops(const struct trace *t, size_t s)
{
	return t->streams[s].nops;
}

const struct trace_op *trace_stream_ops(const struct trace *t, size_t s)
{
	return t->streams[s].ops;
}

size_t trace_stream_nhandles(const struct trace *t, size_t s)
{
	return t->streams[s].nhandles;
}

const struct trace_handle *trace_stream_handle(const struct trace *t,
					       size_t s, int h)
{
	const struct trace_stream *st = &t->streams[s];

	return h >= 0 && (size_t)h < st->nhandles ? &st->handles[h] : NULL;
}

size_t trace_add_stream(struct trace *t, const char *name)
{
	t->streams = grow_array(t->streams, &t->cap_streams, t->nstreams + 1,
				sizeof(*t->streams));
	memset(&t->streams[t->nstreams], 0, sizeof(*t->streams));
	t->streams[t->nstreams].name = xstrdup(name);
	return t->nstreams++;
}

int trace_add_handle(struct trace *t, size_t s, int path, unsigned flags,
		     bool inherited)
{
	struct trace_stream *st = &t->streams[s];

	st->handles = grow_array(st->handles, &st->cap_handles,
				 st->nhandles + 1, sizeof(*st->handles));
	st->handles[st->nhandles] = (struct trace_handle){
		.path = path, .flags = flags, .inherited = inherited
	};
	return (int)st->nhandles++;
}

void trace_add_op(struct trace *t, size_t s, const struct trace_op *op)
{
	struct trace_stream *st = &t->streams[s];

	/*
	 * A handle open before the stream began (strace's inherited stdout)
	 * is opened for what the stream does with it: written to, it is
	 * opened for writing.
	 */
	if (op->handle >= 0 && (size_t)op->handle < st->nhandles &&
	    st->handles[op->handle].inherited) {
		struct trace_handle *h = &st->handles[op->handle];

		if (op->type == TOP_READ)
			h->flags |= TRACE_O_READ;
		else if (op->type == TOP_WRITE || op->type == TOP_FTRUNCATE ||
			 op->type == TOP_TRIM)
			h->flags |= TRACE_O_WRITE;
	}
	st->ops = grow_array(st->ops, &st->cap_ops, st->nops + 1,
			     sizeof(*st->ops));
	st->ops[st->nops++] = *op;
	t->initial_done = false;
}

struct trace_op *trace_last_op(struct trace *t, size_t s)
{
	struct trace_stream *st = &t->streams[s];

	return st->nops ? &st->ops[st->nops - 1] : NULL;
}

size_t trace_nignored(const struct trace *t)
{
	return t->nign;
}

void trace_ignored(const struct trace *t, size_t i, const char **name,
		   uint64_t *count)
{
	*name = t->ign[i].name;
	*count = t->ign[i].count;
}

void trace_ignore(struct trace *t, const char *name, uint64_t n)
{
	void *v = strmap_get(t->ignmap, name);

	if (v) {
		uint64_t *count = &t->ign[(uintptr_t)v - 1].count;

		*count = n > UINT64_MAX - *count ? UINT64_MAX : *count + n;
		return;
	}
	t->ign = grow_array(t->ign, &t->cap_ign, t->nign + 1, sizeof(*t->ign));
	t->ign[t->nign] = (struct trace_ignored){xstrdup(name), n};
	strmap_add(t->ignmap, t->ign[t->nign].name,
		   (void *)(uintptr_t)(t->nign + 1));
	t->nign++;
}

/* The errnos the formats name; the rest are refused as unknown. */
static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "EPERM", EPERM },	{ "ENOENT", ENOENT },	{ "EINTR", EINTR },
	{ "EIO", EIO },		{ "ENXIO", ENXIO },	{ "EBADF", EBADF },
	{ "EAGAIN", EAGAIN },	{ "ENOMEM", ENOMEM },	{ "EACCES", EACCES },
	{ "EFAULT", EFAULT },	{ "EBUSY", EBUSY },	{ "EEXIST", EEXIST },
	{ "EXDEV", EXDEV },	{ "ENODEV", ENODEV },	{ "ENOTDIR", ENOTDIR },
	{ "EISDIR", EISDIR },	{ "EINVAL", EINVAL },	{ "ENFILE", ENFILE },
	{ "EMFILE", EMFILE },	{ "ENOTTY", ENOTTY },	{ "ETXTBSY", ETXTBSY },
	{ "EFBIG", EFBIG },	{ "ENOSPC", ENOSPC },	{ "ESPIPE", ESPIPE },
	{ "EROFS", EROFS },	{ "EMLINK", EMLINK },	{ "ERANGE", ERANGE },
	{ "EDEADLK", EDEADLK }, { "ENAMETOOLONG", ENAMETOOLONG },
	{ "ENOLCK", ENOLCK },	{ "ENOSYS", ENOSYS },	{ "ENOTEMPTY", ENOTEMPTY },
	{ "ELOOP", ELOOP },	{ "ENODATA", ENODATA }, { "EOVERFLOW", EOVERFLOW },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "ESTALE", ESTALE },
	{ "EDQUOT", EDQUOT },	{ "ECHILD", ECHILD },	{ "E2BIG", E2BIG },
};

const char *trace_errno_name(int err)
{
	for (size_t i = 0; i < ARRAY_SIZE(errnos); i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	return NULL;
}

int trace_errno_parse(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(errnos); i++)
		if (strlen(errnos[i].name) == len &&
		    memcmp(errnos[i].name, name, len) == 0)
			return errnos[i].err;
	/* EWOULDBLOCK and ENOTSUP are other names of EAGAIN and EOPNOTSUPP */
	if (len == 11 && memcmp(name, "EWOULDBLOCK", 11) == 0)
		return EAGAIN;
	if (len == 7 && memcmp(name, "ENOTSUP", 7) == 0)
		return EOPNOTSUPP;
	return 0;
}

struct keyed {
	int64_t when;
	struct trace_step step;
};

static int by_when(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	if (x->step.stream != y->step.stream)
		return x->step.stream < y->step.stream ? -1 : 1;
	return x->step.op < y->step.op ? -1 : x->step.op > y->step.op;
}

struct trace_step *trace_order(const struct trace *t, size_t *n)
{
	struct trace_step *order;
	struct keyed *key;
	size_t k = 0;

	*n = 0;
	for (size_t s = 0; s < t->nstreams; s++)
		*n += t->streams[s].nops;
	key = xcalloc(*n ? *n : 1, sizeof(*key));
	for (size_t s = 0; s < t->nstreams; s++) {
		int64_t last = INT64_MIN;

		for (size_t i = 0; i < t->streams[s].nops; i++, k++) {
			int64_t tm = t->streams[s].ops[i].time_ns;

			if (tm != TRACE_NO_TIME && tm > last)
				last = tm;
			key[k] = (struct keyed){ last,
						 { (uint32_t)s, (uint32_t)i } };
		}
	}
	qsort(key, *n, sizeof(*key), by_when);
	order = xcalloc(*n ? *n : 1, sizeof(*order));
	for (k = 0; k < *n; k++)
		order[k] = key[k].step;
	free(key);
	return order;
}
