/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * strace's output as `strace -f -ttt -T -y -o FILE` writes it: per line
 * a pid (with -f), the time in seconds since the epoch (-ttt), the call
 * with its arguments, " = " and the result (with -y, descriptors carry
 * their path: 3</a/b>), then how long it took (-T: <0.000012>).  A call
 * another process interrupts is split in two lines, "<unfinished ...>"
 * and "<... NAME resumed>", joined here before the call is read.
 * "+++ exited" and "--- SIGNAL" lines say nothing about files.
 */
#include "trace/strace_int.h"

#include <stdlib.h>
#include <string.h>

static struct st_pid *get_pid(struct trace_reader *r, struct st_state *st,
			      int64_t pid)
{
	char key[16];
	struct st_pid *p;

	snprintf(key, sizeof(key), "%lld", (long long)pid);
	p = strmap_get(st->pids, key);
	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	memcpy(p->key, key, sizeof(key));
	{
		char *name = xasprintf("pid %s", key);

		p->stream = trace_add_stream(r->t, name);
		free(name);
	}
	strmap_add(st->pids, p->key, p);
	st->all = grow_array(st->all, &st->cap, st->npids + 1,
			     sizeof(*st->all));
	st->all[st->npids++] = p;
	return p;
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "[pid 12] ", "12 " or nothing; then "1796317320.340405 " or nothing */
static int prefix(struct trace_reader *r, const char **pp, int64_t *pid,
		  int64_t *time, struct field *time_at)
{
	const char *p = *pp, *end = r->buf + r->len, *s;
	struct field f;

	*pid = 0;
	*time = TRACE_NO_TIME;
	if (end - p > 5 && memcmp(p, "[pid", 4) == 0) {
		for (p += 4; p < end && *p == ' '; p++)
			;
		for (s = p; p < end && digit(*p); p++)
			;
		if (p == s || p == end || *p != ']')
			return trace_rd_error(r, s, 1,
					      "expected the pid in '[pid N]'");
		f = (struct field){ s, (size_t)(p - s) };
		if (trace_rd_count(r, f, "pid", pid) < 0)
			return -1;
		p++;
	}
	while (p < end && *p == ' ')
		p++;
	for (int i = 0; i < 2; i++) {
		for (s = p; p < end && (digit(*p) || *p == '.'); p++)
			;
		if (p == s || p == end || *p != ' ') {
			if (p < end && *p == ':')
				return trace_rd_error(
					r, s, (size_t)(p - s) + 1,
					"a clock time: record with strace -ttt (seconds since the epoch)");
			p = s;
			break;
		}
		f = (struct field){ s, (size_t)(p - s) };
		if (memchr(s, '.', f.n)) {
			if (trace_rd_seconds(r, f, time) < 0)
				return -1;
			*time_at = f;
		} else if (i == 0 && trace_rd_count(r, f, "pid", pid) < 0) {
			return -1;
		}
		while (p < end && *p == ' ')
			p++;
	}
	*pp = p;
	return 0;
}

/* past a quoted string, an annotation <...> or a comment */
static const char *skip_token(const char *p, const char *end)
{
	if (*p == '"') {
		for (p++; p < end && *p != '"'; p++)
			if (*p == '\\')
				p++;
		return p < end ? p + 1 : end;
	}
	if (*p == '/' && p + 1 < end && p[1] == '*') {
		const char *q = p + 2;

		while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
			q++;
		return q + 1 < end ? q + 2 : end;
	}
	return p + 1;
}

/* an annotation starts after a descriptor: 3<...> or AT_FDCWD<...> */
static bool annotation_at(const char *start, const char *p)
{
	return *p == '<' && p > start && (digit(p[-1]) || p[-1] == 'D');
}

static const char *skip_annotation(const char *p, const char *end)
{
	for (p++; p < end && *p != '>'; p++)
		if (*p == '\\')
			p++;
	return p < end ? p + 1 : end;
}

static int split_args(struct trace_reader *r, const char *p,
		      struct trace_st_call *c, const char **after)
{
	const char *end = r->buf + r->len, *arg = p;
	int depth = 0;

	c->nargs = 0;
	while (p < end) {
		if (*p == '"' || (*p == '/' && p + 1 < end && p[1] == '*')) {
			p = skip_token(p, end);
			continue;
		}
		if (annotation_at(arg, p)) {
			p = skip_annotation(p, end);
			continue;
		}
		if (*p == '(' || *p == '{' || *p == '[') {
			depth++;
		} else if ((*p == ')' || *p == '}' || *p == ']') && depth > 0) {
			depth--;
		} else if (depth == 0 && (*p == ',' || *p == ')')) {
			while (arg < p && *arg == ' ')
				arg++;
			if (p > arg || c->nargs > 0 || *p == ',') {
				if (c->nargs < STRACE_MAX_ARGS)
					c->arg[c->nargs] =
						(struct field){ arg, (size_t)(p - arg) };
				c->nargs++;
			}
			if (*p == ')') {
				*after = p + 1;
				return 0;
			}
			arg = p + 1;
		}
		p++;
	}
	return trace_rd_error(
		r, end, 0, "truncated line: the arguments of '%.*s' do not end",
		(int)c->name.n, c->name.s);
}

static int result(struct trace_reader *r, const char *p,
		  struct trace_st_call *c)
{
	const char *end = r->buf + r->len, *s;

	while (p < end && *p == ' ')
		p++;
	if (p == end || *p != '=')
		return trace_rd_error(
			r, p, 0, "truncated line: no result after the call");
	for (p++; p < end && *p == ' '; p++)
		;
	for (s = p; p < end && *p != ' ' && *p != '<'; p++)
		;
	c->ret = (struct field){ s, (size_t)(p - s) };
	c->ret_known = false;
	if (c->ret.n == 0)
		return trace_rd_error(r, s, 0,
				      "truncated line: no result after '='");
	if (!(c->ret.n == 1 && *s == '?')) {
		bool neg = *s == '-';
		struct field v = { s + neg, c->ret.n - neg };
		int64_t n;

		if (v.n > 2 && v.s[0] == '0' && v.s[1] == 'x') {
			c->retval = 0; /* an address: mmap and the like */
		} else {
			if (trace_rd_count(r, v, "result", &n) < 0)
				return -1;
			c->retval = neg ? -n : n;
		}
		c->ret_known = true;
	}
	c->ann = (struct field){ NULL, 0 };
	if (p < end && *p == '<') { /* -y: the descriptor's path */
		s = skip_annotation(p, end);
		c->ann = (struct field){ p + 1, (size_t)(s - p - 2) };
		p = s;
	}
	while (p < end && *p == ' ')
		p++;
	c->errname = (struct field){ p, 0 };
	if (c->ret_known && c->retval < 0) {
		while (p < end && ((*p >= 'A' && *p <= 'Z') || digit(*p)))
			p++;
		c->errname.n = (size_t)(p - c->errname.s);
		if (c->errname.n == 0)
			return trace_rd_error(
				r, c->errname.s, 0,
				"expected the error's name (such as ENOENT) after -1");
	}
	return 0;
}

/* -T's "<0.000012>" at the end of the line */
static int duration(struct trace_reader *r, int64_t *dur)
{
	const char *end = r->buf + r->len, *s = end;
	struct field f;

	*dur = TRACE_NO_TIME;
	if (r->len < 3 || end[-1] != '>')
		return 0;
	for (s = end - 2; s > r->buf && (digit(*s) || *s == '.'); s--)
		;
	if (*s != '<' || s == end - 2 || (s > r->buf && s[-1] != ' '))
		return 0;
	f = (struct field){ s + 1, (size_t)(end - s - 2) };
	return trace_rd_seconds(r, f, dur);
}

static int call_name(struct trace_reader *r, const char *p,
		     struct trace_st_call *c)
{
	const char *end = r->buf + r->len, *s = p;

	while (p < end && (*p == '_' || digit(*p) || (*p >= 'a' && *p <= 'z')))
		p++;
	if (p == s || p == end || *p != '(')
		return trace_rd_error(
			r, s, p < end ? (size_t)(p - s) + 1 : 0,
			"expected a system call such as 'read(...)'");
	c->name = (struct field){ s, (size_t)(p - s) };
	return 0;
}

/* whether the n bytes at p end with mark (a string literal) */
#define ENDS_WITH(p, n, mark)                 \
	((n) >= sizeof(mark) - 1 &&            \
	 memcmp((p) + (n) - (sizeof(mark) - 1), mark, sizeof(mark) - 1) == 0)

/*
 * "read(3</a>, " then "<unfinished ...>": kept until it resumes.  strace
 * ends a call it let go of mid-way (-D, a detach) with "<detached ...>":
 * one that never resumes, as an unfinished call of a killed process.
 */
static bool unfinished(struct trace_reader *r, struct st_pid *pid,
		       const char *p, int64_t time)
{
	size_t k, n = (size_t)(r->buf + r->len - p);

	if (ENDS_WITH(p, n, " <unfinished ...>"))
		k = sizeof(" <unfinished ...>") - 1;
	else if (ENDS_WITH(p, n, " <detached ...>"))
		k = sizeof(" <detached ...>") - 1;
	else
		return false;
	free(pid->pending);
	pid->pending = xstrndup(p, n - k);
	pid->npending = n - k;
	pid->pending_off = r->off_a + (int)(p - r->buf);
	pid->pending_line = r->line;
	pid->pending_time = time;
	return true;
}

/* "<... read resumed>rest": the reader's line becomes the whole call */
static int resumed(struct trace_reader *r, struct st_pid *pid, const char **pp,
		   char **joined, int64_t *time)
{
	const char *p = *pp, *end = r->buf + r->len;
	const char *gt = memchr(p, '>', (size_t)(end - p));
	int off_b;

	if (!gt || (size_t)(gt - p) < 12 ||
	    memcmp(gt - 8, " resumed", 8) != 0)
		return trace_rd_error(r, p, 4, "expected '<... NAME resumed>'");
	if (!pid->pending)
		return trace_rd_error(
			r, p, (size_t)(gt - p) + 1,
			"a resumed call that no unfinished call began");
	off_b = r->off_a + (int)(gt + 1 - r->buf);
	*joined = xmalloc(pid->npending + (size_t)(end - gt));
	memcpy(*joined, pid->pending, pid->npending);
	memcpy(*joined + pid->npending, gt + 1, (size_t)(end - gt - 1));
	r->buf = *joined;
	r->len = pid->npending + (size_t)(end - gt - 1);
	r->split = pid->npending;
	r->off_a = pid->pending_off;
	r->off_b = off_b;
	*time = pid->pending_time;
	free(pid->pending);
	pid->pending = NULL;
	*pp = r->buf;
	return 0;
}

/* "M ... M": strace's own news of a process (M is "+++" or "---") */
static bool marker(const char *p, const char *end, const char *m)
{
	size_t n = (size_t)(end - p);

	return n >= 8 && memcmp(p, m, 3) == 0 && p[3] == ' ' &&
	       end[-4] == ' ' && memcmp(end - 3, m, 3) == 0;
}

static int st_line(struct trace_reader *r, struct st_state *st)
{
	const char *p = r->buf;
	int64_t pidn, time, dur;
	struct field time_at = {0};
	struct st_pid *pid;
	struct trace_st_call c;
	char *joined = NULL;
	struct trace_op op;
	int rc;

	if (r->len == 0)
		return 0;
	if (prefix(r, &p, &pidn, &time, &time_at) < 0)
		return -1;
	pid = get_pid(r, st, pidn);
	if (time != TRACE_NO_TIME && !st->have_base) {
		st->base = time;
		st->have_base = true;
	}
	/* strace's -ttt times only go forward: an earlier one is not its */
	if (time != TRACE_NO_TIME && time < st->base)
		return trace_rd_error(
			r, time_at.s, time_at.n,
			"a time before the trace's first line's: not in the order strace writes");
	if (marker(p, r->buf + r->len, "+++") ||
	    marker(p, r->buf + r->len, "---"))
		return 0; /* "+++ exited with 0 +++", "--- SIGCHLD {...} ---" */
	if (unfinished(r, pid, p, time))
		return 0;
	if (r->buf + r->len - p > 4 && memcmp(p, "<...", 4) == 0 &&
	    resumed(r, pid, &p, &joined, &time) < 0)
		return -1;
	rc = call_name(r, p, &c);
	if (rc == 0)
		rc = split_args(r, p + c.name.n + 1, &c, &p);
	if (rc == 0)
		rc = result(r, p, &c);
	if (rc == 0)
		rc = duration(r, &dur);
	if (rc == 0) {
		op = (struct trace_op){
			.handle = -1, .path = -1, .path2 = -1,
			.time_ns = time == TRACE_NO_TIME ? time : time - st->base,
			.dur_ns = dur, .line = r->line,
		};
		rc = trace_st_call(r, st, pid, &c, &op);
	}
	free(joined);
	return rc;
}

/* strace lines start with a pid, a time or a call: NAME( or [pid */
enum trace_looks trace_looks_strace(const char *s, size_t n)
{
	size_t i = 0;

	if (trace_rd_starts(s, n, "[pid "))
		return TRACE_LOOKS_YES;
	for (int field = 0; field < 2; field++) {
		size_t j = i;

		while (j < n && (digit(s[j]) || s[j] == '.' || s[j] == ':'))
			j++;
		if (j == i || j >= n || s[j] != ' ')
			break;
		i = j;
		while (i < n && s[i] == ' ')
			i++;
	}
	if (trace_rd_starts(s + i, n - i, "+++ ") ||
	    trace_rd_starts(s + i, n - i, "--- ") ||
	    trace_rd_starts(s + i, n - i, "<... "))
		return TRACE_LOOKS_YES; /* +++ exited, --- SIGCHLD, <... resumed> */
	while (i < n && (s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
			 digit(s[i])))
		i++;
	return i < n && s[i] == '(' ? TRACE_LOOKS_YES : TRACE_LOOKS_NO;
}

int trace_read_strace(struct trace_reader *r)
{
	struct st_state st = { .pids = strmap_new() };
	int rc = 0;

	for (int line = 1; rc == 0 && line <= r->nlines; line++) {
		trace_rd_line(r, line);
		rc = st_line(r, &st);
	}
	for (size_t i = 0; i < st.npids; i++) {
		struct st_pid *p = st.all[i];

		/* a process killed inside a call never finishes it */
		if (p->pending)
			trace_ignore(r->t, "unfinished", 1);
		free(p->fdkey);
		free(p->fdval);
		free(p->refs);
		free(p->cwd);
		free(p->pending);
		free(p);
	}
	free(st.all);
	strmap_free(st.pids);
	return rc;
}
