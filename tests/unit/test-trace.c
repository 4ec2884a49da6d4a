/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The trace readers and model: each format's facts as the model holds
 * them (handles, offsets, errors, times, paths under the root), the
 * initial state, fbrun's own format written and read back, and bad
 * traces refused with a located error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#include "trace/trace.h"

static char errbuf[4096];

/* parse text; the error, if any, in errbuf */
static struct trace *parse(const char *text, enum trace_format f,
			   const char *root)
{
	FILE *err = fmemopen(errbuf, sizeof(errbuf), "w");
	struct trace_opts o = { .format = f, .root = root, .err = err };
	struct trace *t;

	memset(errbuf, 0, sizeof(errbuf));
	t = trace_parse("t", text, strlen(text), &o);
	fclose(err);
	return t;
}

static const struct trace_op *op_at(struct trace *t, size_t s, size_t i)
{
	return i < trace_stream_nops(t, s) ? &trace_stream_ops(t, s)[i] : NULL;
}

static const char *opath(struct trace *t, const struct trace_op *op)
{
	return op ? trace_path(t, op->path) : NULL;
}

/* the calls of the trace ignored whose names are in names (a list, space
 * separated) */
static size_t ignored(struct trace *t, const char *names)
{
	const char *name, *at;
	uint64_t count;
	size_t n = 0, k;

	for (size_t i = 0; i < trace_nignored(t); i++) {
		trace_ignored(t, i, &name, &count);
		k = strlen(name);
		for (at = strstr(names, name); at; at = strstr(at + 1, name))
			if ((at == names || at[-1] == ' ') &&
			    (at[k] == ' ' || at[k] == '\0'))
				n += count;
	}
	return n;
}

static void test_strace(void)
{
	const char *text =
		"7 1700000000.5 openat(AT_FDCWD</w>, \"a/../b\", O_RDWR|O_CREAT|O_CLOEXEC, 0640) = 3</w/b> <0.000010>\n"
		"8 1700000000.6 read(3</w/b>, \"\\x01\\\"\"..., 100 <unfinished ...>\n"
		"7 1700000000.7 dup2(3</w/b>, 9) = 9</w/b> <0.1>\n"
		"8 1700000000.8 <... read resumed>) = 50 <0.25>\n"
		"7 1700000000.9 pwrite64(9</w/b>, \"x\", 1, 4096) = 1 <0.1>\n"
		"7 1700000001.0 openat(AT_FDCWD</w>, \"/etc/hosts\", O_RDONLY) = -1 EACCES (Permission denied) <0.1>\n"
		"7 1700000001.1 openat(AT_FDCWD</w>, \"/proc/self/stat\", O_RDONLY) = 4</proc/7/stat> <0.1>\n"
		"7 1700000001.2 lseek(3</w/b>, 10, SEEK_SET) = 10 <0.1>\n"
		"7 1700000001.3 mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, 3</w/b>, 0) = 0x7f0000 <0.1>\n"
		"7 1700000001.4 --- SIGCHLD {si_signo=SIGCHLD} ---\n"
		"7 1700000001.5 +++ exited with 0 +++\n";
	struct trace *t = parse(text, TRACE_AUTO, NULL);
	const struct trace_op *op;

	ok(t != NULL, "strace: parses (%s)", errbuf);
	if (!t)
		return;
	is_int(trace_format(t), TRACE_STRACE, "strace: detected");
	is_int(trace_nstreams(t), 2, "strace: a stream per pid");
	is_int(trace_stream_nops(t, 0), 4, "strace: pid 7's ops: open, pwrite64, the failed open, lseek");
	op = op_at(t, 0, 0);
	is_int(op->type, TOP_OPEN, "strace: openat is an open");
	is_str(opath(t, op), "b", "strace: the path under the root, lexical");
	is_int(op->flags, TRACE_O_READ | TRACE_O_WRITE | TRACE_O_CREAT,
	       "strace: open flags kept, O_CLOEXEC dropped");
	is_int(op->mode, 0640, "strace: the mode");
	is_int(op->time_ns, 0, "strace: times from the first");
	is_int(op->dur_ns, 10000, "strace: -T's duration");
	op = op_at(t, 0, 1);
	is_int(op->type, TOP_WRITE, "strace: pwrite64 through dup2's fd");
	is_int(op->handle, 0, "strace: dup2's fd is the open's handle");
	is_int(op->offset, 4096, "strace: pwrite64's offset");
	op = op_at(t, 0, 2);
	is_int(op->err, EACCES, "strace: the recorded failure");
	is_str(opath(t, op), "_abs/etc/hosts",
	       "strace: an absolute path outside the root under _abs/");
	op = op_at(t, 0, 3);
	is_int(op->type, TOP_SEEK, "strace: /proc was skipped, lseek next");
	is_int(op->offset, 10, "strace: lseek's result is where to");
	op = op_at(t, 1, 0);
	is_int(op->type, TOP_READ, "strace: resumed read joined");
	is_int(op->offset, -1, "strace: read at the current offset");
	is_int(op->length, 100, "strace: read's count");
	is_int(op->result, 50, "strace: read's result");
	is_int(op->time_ns, 100000000, "strace: time of the unfinished half");
	is_int(op->dur_ns, 250000000, "strace: duration of the resumed half");
	ok(trace_stream_handle(t, 1, op->handle)->inherited,
	   "strace: another pid's fd is an inherited handle");
	is_int(ignored(t, "mmap openat dup2"), 3,
	       "strace: mmap, dup2 and the /proc open counted as ignored");
	trace_free(t);
}

static void test_root(void)
{
	const char *text = "1 1.0 stat(\"/data/run/x\", {st_mode=S_IFREG|0644, st_size=77, ...}) = 0\n"
			   "1 1.1 stat(\"/elsewhere\", 0x1) = -1 ENOENT (No such file or directory)\n"
			   "1 1.2 mkdir(\"rel/d\", 0755) = 0\n";
	struct trace *t = parse(text, TRACE_STRACE, "/data/run/");
	const struct trace_entry *e;
	size_t n;

	ok(t != NULL, "root: parses (%s)", errbuf);
	if (!t)
		return;
	is_str(opath(t, op_at(t, 0, 0)), "x", "root: beneath the root, relative");
	is_str(opath(t, op_at(t, 0, 1)), "_abs/elsewhere", "root: outside, under _abs/");
	is_int(op_at(t, 0, 2)->mode, 0755, "root: mkdir's mode");
	n = trace_initial(t, &e);
	is_int(n, 2, "root: the initial state holds x and rel");
	if (n == 2) {
		is_str(trace_path(t, e[0].path), "rel", "root: rel first");
		ok(e[0].dir, "root: rel is a directory (mkdir's parent)");
		is_str(trace_path(t, e[1].path), "x", "root: then x");
		is_int(e[1].size, 77, "root: x's size from stat");
	}
	trace_free(t);
}

/* without -y: descriptors known only by the opens the trace holds */
static void test_no_y(void)
{
	const char *text = "open(\"d\", O_RDONLY|O_DIRECTORY) = 3\n"
			   "openat(3, \"f\", O_RDONLY) = 4\n"
			   "read(4, \"abc\", 10) = 3\n"
			   "read(0, \"x\", 1) = 1\n";
	struct trace *t = parse(text, TRACE_STRACE, NULL);

	ok(t != NULL, "no -y: parses (%s)", errbuf);
	if (!t)
		return;
	is_str(opath(t, op_at(t, 0, 1)), "d/f",
	       "no -y: openat's directory fd is the directory the trace opened");
	is_int(op_at(t, 0, 2)->handle, 1, "no -y: read through the open's fd");
	is_int(trace_stream_nops(t, 0), 3, "no -y: a read of an unknown fd is ignored");
	trace_free(t);
}

static void test_dbench(void)
{
	const char *text =
		"# comment\n"
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x5 12 NT_STATUS_OK\n"
		"1.5 WriteX 12 10 20 20 NT_STATUS_OK\n"
		"ReadX 12 0 100 30 NT_STATUS_OK\n"
		"Close 12 NT_STATUS_OK\n"
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\g\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"FIND_FIRST \"\\clients\\client1\\sub\\*.txt\" 260 10 2 NT_STATUS_OK\n"
		"Sleep 100 NT_STATUS_OK\n";
	struct trace *t = parse(text, TRACE_AUTO, NULL);
	const struct trace_op *op;

	ok(t != NULL, "dbench: parses (%s)", errbuf);
	if (!t)
		return;
	is_int(trace_format(t), TRACE_DBENCH, "dbench: detected");
	is_int(trace_stream_nops(t, 0), 6, "dbench: six ops, Sleep ignored");
	op = op_at(t, 0, 0);
	is_str(opath(t, op), "clients/client1/f", "dbench: backslashes become slashes");
	is_int(op->flags, TRACE_O_READ | TRACE_O_WRITE | TRACE_O_CREAT | TRACE_O_TRUNC,
	       "dbench: overwrite-if is create and truncate");
	op = op_at(t, 0, 1);
	is_int(op->handle, 0, "dbench: fnum 12 is handle 0");
	is_int(op->offset, 10, "dbench: WriteX's offset");
	is_int(op->time_ns, 1500000000, "dbench: the line's time");
	is_int(op_at(t, 0, 2)->result, 30, "dbench: ReadX's bytes done");
	is_int(op_at(t, 0, 4)->err, ENOENT, "dbench: NT status as errno");
	is_str(opath(t, op_at(t, 0, 5)), "clients/client1/sub",
	       "dbench: FIND_FIRST lists the pattern's directory");
	trace_free(t);
}

static void test_fio(void)
{
	const char *v2 = "fio version 2 iolog\n/x/f add\n/x/f open\n/x/f wait 1000 0\n"
			 "/x/f read 4096 512\n/x/f close\n";
	const char *v3 = "fio version 3 iolog\n5 f add\n6 f open\n"
			 "10 f write 0 8192\n12 f datasync 0 0\n20 f close\n";
	struct trace *t = parse(v2, TRACE_AUTO, "/x");

	ok(t != NULL, "fio v2: parses (%s)", errbuf);
	if (t) {
		is_int(trace_stream_nops(t, 0), 3, "fio v2: open, read, close");
		is_int(op_at(t, 0, 1)->offset, 4096, "fio v2: the offset");
		is_int(op_at(t, 0, 1)->time_ns, 1000000, "fio v2: after the wait");
		is_str(opath(t, op_at(t, 0, 0)), "f", "fio v2: the path under the root");
		trace_free(t);
	}
	t = parse(v3, TRACE_FIO, NULL);
	ok(t != NULL, "fio v3: parses (%s)", errbuf);
	if (t) {
		is_int(op_at(t, 0, 1)->time_ns, 10000, "fio v3: microseconds");
		is_int(op_at(t, 0, 2)->type, TOP_FDATASYNC, "fio v3: datasync");
		trace_free(t);
	}
}

/* every field but the line equal, paths compared as text */
static bool same(struct trace *a, struct trace *b)
{
	if (trace_nstreams(a) != trace_nstreams(b) ||
	    trace_nignored(a) != trace_nignored(b))
		return false;
	for (size_t s = 0; s < trace_nstreams(a); s++) {
		if (trace_stream_nops(a, s) != trace_stream_nops(b, s) ||
		    trace_stream_nhandles(a, s) != trace_stream_nhandles(b, s) ||
		    strcmp(trace_stream_name(a, s), trace_stream_name(b, s)))
			return false;
		for (size_t i = 0; i < trace_stream_nops(a, s); i++) {
			struct trace_op x = *op_at(a, s, i), y = *op_at(b, s, i);
			const char *px = trace_path(a, x.path), *py = trace_path(b, y.path);
			const char *qx = trace_path(a, x.path2), *qy = trace_path(b, y.path2);

			if ((px || py) && (!px || !py || strcmp(px, py)))
				return false;
			if ((qx || qy) && (!qx || !qy || strcmp(qx, qy)))
				return false;
			x.line = y.line = 0;
			x.path = y.path = x.path2 = y.path2 = 0;
			if (memcmp(&x, &y, sizeof(x)))
				return false;
		}
		for (size_t h = 0; h < trace_stream_nhandles(a, s); h++) {
			const struct trace_handle *x = trace_stream_handle(a, s, (int)h);
			const struct trace_handle *y = trace_stream_handle(b, s, (int)h);

			if (x->inherited != y->inherited || x->flags != y->flags ||
			    strcmp(trace_path(a, x->path), trace_path(b, y->path)))
				return false;
		}
	}
	return true;
}

static void round_trip(const char *what, const char *text)
{
	struct trace *a = parse(text, TRACE_AUTO, NULL), *b = NULL;
	char *out1 = NULL, *out2 = NULL;
	size_t n1 = 0, n2 = 0;
	FILE *f;

	ok(a != NULL, "%s: parses (%s)", what, errbuf);
	if (!a)
		return;
	f = open_memstream(&out1, &n1);
	is_int(trace_write(a, f), 0, "%s: written", what);
	fclose(f);
	b = parse(out1, TRACE_AUTO, NULL);
	ok(b != NULL, "%s: fbrun's format read back (%s)", what, errbuf);
	if (b) {
		is_int(trace_format(b), TRACE_FBRUN, "%s: detected as fbrun's", what);
		ok(same(a, b), "%s: the same model after the round trip", what);
		f = open_memstream(&out2, &n2);
		trace_write(b, f);
		fclose(f);
		/* the same text but the comment that names the source format */
		ok(strcmp(strchr(strchr(out1, '\n') + 1, '\n'),
			  strchr(strchr(out2, '\n') + 1, '\n')) == 0,
		   "%s: written again, the same text", what);
	}
	free(out1);
	free(out2);
	trace_free(a);
	trace_free(b);
}

/* copy_file_range and sendfile: a read of the source, a write of the
 * destination, each of the bytes copied */
static void test_copy(void)
{
	const char *text =
		"1 1.0 openat(AT_FDCWD</w>, \"a\", O_RDONLY) = 3</w/a> <0.1>\n"
		"1 1.1 openat(AT_FDCWD</w>, \"b\", O_WRONLY|O_CREAT, 0644) = 4</w/b> <0.1>\n"
		"1 1.2 copy_file_range(3</w/a>, NULL, 4</w/b>, NULL, 9223372035781033984, 0) = 5000 <0.1>\n"
		"1 1.3 copy_file_range(3</w/a>, [100], 4</w/b>, [200], 4096, 0) = 300 <0.1>\n"
		"1 1.4 sendfile(4</w/b>, 3</w/a>, [7] => [17], 10) = 10 <0.1>\n"
		"1 1.5 sendfile(5<socket:[99]>, 3</w/a>, NULL, 64) = 64 <0.1>\n"
		"1 1.55 sendfile64(4</w/b>, 3</w/a>, NULL, 5) = 5 <0.1>\n"
		"1 1.6 copy_file_range(3</w/a>, NULL, 4</w/b>, NULL, 8, 0) = -1 EXDEV (Invalid cross-device link) <0.1>\n";
	static const struct {
		enum trace_op_type type;
		int64_t offset, bytes;
	} want[] = {
		{ TOP_READ, -1, 5000 }, { TOP_WRITE, -1, 5000 },
		{ TOP_READ, 100, 300 }, { TOP_WRITE, 200, 300 },
		{ TOP_READ, 7, 10 },	{ TOP_WRITE, -1, 10 },
		{ TOP_READ, -1, 64 },	{ TOP_READ, -1, 5 },
		{ TOP_WRITE, -1, 5 },
	};
	struct trace *t = parse(text, TRACE_AUTO, NULL);
	const struct trace_op *op;

	ok(t != NULL, "copy: parses (%s)", errbuf);
	if (!t)
		return;
	is_int(trace_stream_nops(t, 0), 2 + ARRAY_SIZE(want),
	       "copy: the opens, then a read and a write per copy, a read for "
	       "the socket's sendfile, none for the failed copy");
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		op = op_at(t, 0, 2 + i);
		if (!op)
			break;
		ok(op->type == want[i].type && op->offset == want[i].offset &&
			   op->length == want[i].bytes &&
			   op->result == want[i].bytes &&
			   op->handle == (op->type == TOP_READ ? 0 : 1),
		   "copy %zu: %s at %lld of %lld bytes", i,
		   want[i].type == TOP_READ ? "read of a" : "write of b",
		   (long long)want[i].offset, (long long)want[i].bytes);
	}
	is_int(ignored(t, "copy_file_range"), 1,
	       "copy: the failed copy counted as ignored");
	trace_free(t);
}

static void test_errors(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "1 1.0 read(3</w/a>, \"x\", 1\n", "t:1:27: error: truncated line" },
		{ "1 1.0 close(3)\n", "t:1:15: error: truncated line: no result" },
		{ "NTCreateX \"\\..\\x\" 0x40 0x1 1 NT_STATUS_OK\n",
		  "t:1:11: error: path '../x' climbs out of the trace root" },
		{ "fio version 2 iolog\nf add\nf open\nf read 0 99999999999999999999\n",
		  "t:4:10: error: length 99999999999999999999 is beyond" },
		{ "fbrun-trace 1\nstream \"s\"\n- - read h=0 off=0 len=1 = 1\n",
		  "t:3:12: error: handle 0 was not opened in this stream" },
		{ "fbrun-trace 1\nstream \"s\"\n- - stat path=\"a\" = EWHAT\n",
		  "t:3:21: error: unknown error 'EWHAT'" },
		{ "1 1.0 copy_file_range(3</w/a>, [x], 4</w/b>, NULL, 1, 0) = 1\n",
		  "t:1:33: error: expected a number for the offset, not 'x'" },
		{ "1 1.0 sendfile(4</w/b>, 3</w/a>, 7, 1) = 1\n",
		  "t:1:34: error: expected NULL or [OFFSET] for the offset" },
		{ "1 1.0 copy_file_range(3</w/a>, [1125899906842624], 4</w/b>, NULL, 1, 0) = 1\n",
		  "t:1:7: error: the copy ends beyond the largest offset" },
		{ "1 1.0 copy_file_range(3</w/a>, NULL, 4</w/b>, NULL, 1, 0) = 9223372036854775807\n",
		  "t:1:61: error: result 9223372036854775807 is beyond" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct trace *t = parse(bad[i].text, TRACE_AUTO, NULL);

		ok(!t && strncmp(errbuf, bad[i].want, strlen(bad[i].want)) == 0,
		   "bad trace %zu: %s", i, bad[i].want);
		if (t || strncmp(errbuf, bad[i].want, strlen(bad[i].want)))
			printf("#   got: %s\n", errbuf);
		trace_free(t);
	}
}

/*
 * Every format of trace/format_list.h: its name read back, and a trace
 * of it here, told from its first line (the table's looks) and read by
 * its reader.  A new format fails here until it has one.
 */
static void test_formats(void)
{
	static const char *const sample[TRACE_NFORMATS] = {
		[TRACE_STRACE] = "1 1.0 unlink(\"a\") = 0 <0.1>\n",
		[TRACE_DBENCH] = "Deltree \"\\d\" NT_STATUS_OK\n",
		[TRACE_FIO] = "fio version 3 iolog\n1 f add\n2 f open\n",
		[TRACE_FBRUN] = "fbrun-trace 1\nstream \"s\"\n",
	};
	char words[256];
	enum trace_format g;

	trace_format_words(words, sizeof(words));
	for (int f = TRACE_AUTO; f < TRACE_NFORMATS; f++) {
		const char *name = trace_format_name((enum trace_format)f);
		struct trace *t;

		ok(trace_format_parse(name, &g) == 0 && (int)g == f,
		   "format %s: its name read back", name);
		ok(strstr(words, name) != NULL, "format %s: among the words (%s)",
		   name, words);
		if (f == TRACE_AUTO)
			continue;
		ok(sample[f] != NULL,
		   "format %s: a trace of it in tests/unit/test-trace.c", name);
		if (!sample[f])
			continue;
		t = parse(sample[f], TRACE_AUTO, NULL);
		ok(t && trace_format(t) == (enum trace_format)f,
		   "format %s: told from its first line (%s)", name, errbuf);
		trace_free(t);
	}
	ok(trace_format_parse("nosuch", &g) < 0, "format nosuch: refused");
}

int main(void)
{
	test_strace();
	test_root();
	test_no_y();
	test_dbench();
	test_fio();
	test_copy();
	round_trip("round trip of strace",
		   "1 1.0 openat(AT_FDCWD</w>, \"a b\\n\", O_WRONLY|O_CREAT|O_APPEND|O_DIRECT, 0600) = 3</w/a b\\n> <0.5>\n"
		   "2 1.1 write(3</w/a b\\n>, \"x\", 1) = 1 <0.5>\n"
		   "1 1.2 rename(\"a b\\n\", \"c\") = 0 <0.1>\n"
		   "1 1.3 ftruncate(3</w/c>, 4096) = 0\n"
		   "1 1.4 unlink(\"zz\") = -1 ENOENT (No such file or directory)\n"
		   "1 1.5 mmap(NULL, 1, PROT_READ, MAP_SHARED, 3</w/c>, 0) = 0x7f00\n");
	round_trip("round trip of dbench",
		   "NTCreateX \"\\d\" 0x1 0x2 5 NT_STATUS_OK\nLockX 5 10 20 NT_STATUS_OK\n"
		   "UnlockX 5 10 20 NT_STATUS_OK\nClose 5 NT_STATUS_OK\nDeltree \"\\d\" NT_STATUS_OK\n");
	round_trip("round trip of fio", "fio version 3 iolog\n1 f add\n2 f open\n3 f trim 4096 8192\n4 f close\n");
	test_errors();
	test_formats();
	return tap_done();
}
