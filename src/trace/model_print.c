/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The model's script: a header saying what was measured and fitted,
 * then a fileset and a thread per group of opens (model.c) and one
 * thread for what was done by path.  Each thread runs its loop as many
 * times as the trace has opens in its group and ends (finishoncount),
 * and the run ends when all have: one run does the recording's work
 * once.  Every figure is an integer computed from the trace alone, so
 * the same trace prints the same bytes.
 */
#include "trace/model_int.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "util/util.h"

/* What a group's thread does, per pass of its loop. */
struct plan {
	const char *what; /* the group's name without its number */
	uint64_t loops; /* passes */
	uint64_t n[MC_N]; /* each count per pass */
	uint64_t rsize, wsize; /* iosize of the reads and writes */
	uint64_t entries, width, size;
	bool prealloc;
};

/*
 * The reads' size: what the recording's reads asked for, where reads of
 * that size over a file of the pass's size take the bytes it read (to
 * within 5%: a whole file read with a buffer, then the read that found
 * its end); else the size that takes them exactly.
 */
static uint64_t read_size(const struct model_group *g, const struct plan *p,
			  uint64_t rper)
{
	uint64_t q = p->n[MC_READ], x = model_divr(g->rasked, g->n[MC_READ]), got;

	if (!q)
		return 0;
	/* a file the pass made is read at random within its writes: exact */
	if (x > 0 && g->kind != MK_CREATE && q <= (p->size + x - 1) / x + 1) {
		got = q * x < p->size ? q * x : p->size;
		if (got <= rper + rper / 20 && got + rper / 20 >= rper)
			return x;
	}
	return model_maxu(1, (rper + q - 1) / q);
}

static void plan_of(const struct model_group *g, struct plan *p)
{
	uint64_t rper;

	*p = (struct plan){ .loops = g->nopens };
	if (g->kind == MK_INHERITED)
		p->loops = 1; /* the handles are open already: the ops alone */
	for (int c = 0; c < MC_N; c++)
		p->n[c] = model_divr(g->n[c], p->loops);
	rper = model_divr(g->rbytes, p->loops);
	if (p->n[MC_WRITE])
		p->wsize = model_maxu(1, model_divr(g->wbytes, p->loops * p->n[MC_WRITE]));
	p->width = model_maxu(1, model_divr(g->nfiles, g->ndirs));
	p->size = model_maxu(rper, g->size);
	p->entries = model_maxu(1, g->nfiles);
	p->prealloc = true;
	switch (g->kind) {
	case MK_CREATE:
		p->what = g->append ? "append" : "create";
		p->entries = g->nopens; /* each makes a file anew */
		p->size = model_divr(g->wbytes, g->nopens);
		p->prealloc = false;
		break;
	case MK_OPEN:
		p->what = g->append ? "append" : g->rd && g->wr ? "update" :
						 g->wr	       ? "write" :
								 "read";
		break;
	case MK_LIST:
		p->what = "list";
		p->size = 0;
		/* about 32 bytes a directory entry as getdents64 gives them */
		p->width = model_maxu(1, g->rbytes / 32 / model_maxu(1, g->n[MC_DENTS]));
		p->entries = p->width * model_maxu(1, g->nfiles);
		break;
	default:
		p->what = "inherited";
		break;
	}
	p->rsize = read_size(g, p, rper);
}

/* ---------------------------------------------------------------- header */

static const char *const count_names[MC_N] = { "read", "write", "fstat",
					       "fsync", "getdents" };
static const char *const counts_names[MC_N] = { "reads", "writes", "fstats",
						"fsyncs", "getdents" };
static const char *const pathop_names[MP_N] = {
	"stat", "unlink", "rename", "link", "mkdir", "rmdir", "readdir",
};
static const char *const size_names[MODEL_NSIZES] = {
	"up to 1K", "to 4K", "to 16K", "to 64K", "to 256K",
	"to 1M",    "to 4M", "to 16M", "more",
};

/*
 * The bytes a pass reads: sequential reads stop at the end of the file
 * (read_size keeps them from wrapping round), random ones within what
 * the pass wrote are whole.
 */
static uint64_t pass_rbytes(const struct model_group *g,
			    const struct plan *p)
{
	uint64_t want = p->n[MC_READ] * p->rsize;
	uint64_t written = p->n[MC_WRITE] * p->wsize;

	if (g->kind == MK_CREATE && written)
		return p->rsize <= written ? want : 0;
	return want < p->size ? want : p->size;
}

/* Per op type, what the script does (the model's own figures). */
static void model_does(const struct model *m, uint64_t *does,
		       uint64_t *rbytes, uint64_t *wbytes)
{
	static const enum trace_op_type path_types[MP_N] = {
		TOP_STAT, TOP_UNLINK, TOP_RENAME, TOP_LINK, TOP_MKDIR, TOP_RMDIR,
		TOP_READDIR,
	};

	memset(does, 0, TOP_COUNT * sizeof(*does));
	*rbytes = *wbytes = 0;
	for (size_t j = 0; j < m->ngroups; j++) {
		const struct model_group *g = &m->groups[j];
		struct plan p;

		plan_of(g, &p);
		if (g->kind == MK_LIST) {
			does[TOP_READDIR] += p.loops * p.n[MC_DENTS];
			continue;
		}
		if (g->kind != MK_INHERITED) {
			does[TOP_OPEN] += p.loops;
			does[TOP_CLOSE] += p.loops;
			does[TOP_FSYNC] += p.loops * p.n[MC_SYNC];
		}
		does[TOP_READ] += p.loops * p.n[MC_READ];
		does[TOP_WRITE] += p.loops * p.n[MC_WRITE];
		does[TOP_FSTAT] += p.loops * p.n[MC_FSTAT];
		*rbytes += p.loops * pass_rbytes(g, &p);
		*wbytes += p.loops * p.n[MC_WRITE] * p.wsize;
	}
	for (int i = 0; i < MP_N; i++)
		does[path_types[i]] += m->path_ops[i];

}

/* The rows of the header's table: the types the model does, merged. */
static const struct {
	const char *name;
	enum trace_op_type type, also; /* also: TOP_COUNT for none */
} rows[] = {
	{ "open", TOP_OPEN, TOP_COUNT },     { "close", TOP_CLOSE, TOP_COUNT },
	{ "read", TOP_READ, TOP_COUNT },     { "write", TOP_WRITE, TOP_COUNT },
	{ "fsync", TOP_FSYNC, TOP_FDATASYNC }, { "stat", TOP_STAT, TOP_LSTAT },
	{ "fstat", TOP_FSTAT, TOP_COUNT },   { "unlink", TOP_UNLINK, TOP_COUNT },
	{ "rename", TOP_RENAME, TOP_COUNT }, { "link", TOP_LINK, TOP_COUNT },
	{ "mkdir", TOP_MKDIR, TOP_COUNT },   { "rmdir", TOP_RMDIR, TOP_COUNT },
	{ "readdir", TOP_READDIR, TOP_COUNT },
};

static uint64_t row_sum(const uint64_t *v, size_t r)
{
	return v[rows[r].type] + (rows[r].also < TOP_COUNT ? v[rows[r].also] : 0);
}

static void header_counts(const struct model *m, FILE *out)
{
	uint64_t does[TOP_COUNT], rb, wb;
	bool modelled[TOP_COUNT] = { false }, any = false;

	model_does(m, does, &rb, &wb);
	fprintf(out, "#   %-14s %10s %10s %10s\n", "operation", "trace",
		"failed", "model");
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		uint64_t n = row_sum(m->count, r), f = row_sum(m->failed, r);

		modelled[rows[r].type] = true;
		if (rows[r].also < TOP_COUNT)
			modelled[rows[r].also] = true;
		if (!n && !row_sum(does, r))
			continue;
		fprintf(out, "#   %-14s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			     "\n",
			rows[r].name, n - f, f, row_sum(does, r));
	}
	fprintf(out, "#   %-14s %10" PRIu64 " %10s %10" PRIu64 "\n",
		"bytes read", m->rbytes, "", rb);
	fprintf(out, "#   %-14s %10" PRIu64 " %10s %10" PRIu64 "\n",
		"bytes written", m->wbytes, "", wb);
	fprintf(out, "# (trace: the operations that succeeded; stat counts "
		     "lstat, fsync fdatasync.)\n"
		     "# Not modelled: the failed operations");
	for (int i = 0; i < TOP_COUNT; i++)
		if (!modelled[i] && m->count[i] > m->failed[i]) {
			fprintf(out, "%s %s %" PRIu64, any ? "," : ";",
				trace_op_name(i), m->count[i] - m->failed[i]);
			any = true;
		}
	fprintf(out, "%s.\n", any ? " (no flowop does them)" : "");
}

static void header(const struct model *m, const char *name, FILE *out)
{
	uint64_t nops = 0;

	for (int i = 0; i < TOP_COUNT; i++)
		nops += m->count[i];
	fprintf(out, "# A synthetic model of ");
	/* a comment line: a newline in the name would start script text */
	for (const char *c = name; *c; c++)
		fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c, out);
	fprintf(out, " (fbrun model)\n#\n");
	fprintf(out,
		"# What the recording did to files, as ordinary flowops: a "
		"fileset and a\n"
		"# thread per group of opens that did alike, and a thread for "
		"what was done\n"
		"# by path.  Each thread runs its loop once per open of its "
		"group and ends;\n"
		"# the run ends when all have, so one run does the "
		"recording's work once.\n"
		"# Edit it freely: more passes are a larger finishoncount "
		"value (and more\n"
		"# entries where a thread makes, removes or links files); "
		"copies of a thread\n"
		"# (instances=) stop once their passes together reach the "
		"value.\n#\n");
	fprintf(out,
		"# Measured: %" PRIu64 " operations in %zu stream%s (a trace "
		"of format %s).\n",
		nops, trace_nstreams(m->t), model_plural(trace_nstreams(m->t)),
		trace_format_name(trace_format(m->t)));
	header_counts(m, out);
	fprintf(out,
		"# Files opened: %" PRIu64 " in %" PRIu64
		" director%s (%" PRIu64 " a directory); their sizes in bytes:\n#  ",
		m->nfiles, m->ndirs, m->ndirs == 1 ? "y" : "ies",
		model_divr(m->nfiles, m->ndirs));
	for (int b = 0; b < MODEL_NSIZES; b++)
		if (m->sizes.n[b])
			fprintf(out, " %s: %" PRIu64, size_names[b], m->sizes.n[b]);
	fprintf(out, "\n# Opens: %zu, in %zu group%s (%s).\n#\n",
		m->nopens, m->ngroups, model_plural(m->ngroups),
		m->classed ? "by counts in power-of-two classes,\n"
			     "# each pass doing the class's mean" :
			     "by their exact counts");
}

/* ---------------------------------------------------------------- groups */

/*
 * "$NAMEsize": a tabular random variable of h's classes (each class's
 * share of the files, its smallest and largest size), set before the
 * fileset, when the files fall in more than one class; the shares are
 * whole percents, the rest of 100 given to the largest class.  Into buf;
 * false (buf empty) for one class or none.
 */
static bool size_var(FILE *out, const char *name,
		     const struct model_sizes *h, char *buf, size_t len)
{
	uint64_t total = 0, pct[MODEL_NSIZES], sum = 0;
	int big = 0, nrows = 0;
	const char *sep = "";

	buf[0] = '\0';
	for (int b = 0; b < MODEL_NSIZES; b++) {
		total += h->n[b];
		if (h->n[b] > h->n[big])
			big = b;
	}
	for (int b = 0; b < MODEL_NSIZES; b++) {
		pct[b] = total ? h->n[b] * 100 / total : 0;
		sum += pct[b];
	}
	pct[big] += 100 - sum;
	for (int b = 0; b < MODEL_NSIZES; b++)
		nrows += pct[b] > 0;
	if (nrows < 2)
		return false;
	snprintf(buf, len, "$%ssize", name);
	fprintf(out, "set %s = randvar(type=tabular, randtable={", buf);
	for (int b = 0; b < MODEL_NSIZES; b++) {
		if (!pct[b])
			continue;
		fprintf(out, "%s{%" PRIu64 ", %" PRIu64 ", %" PRIu64 "}", sep,
			pct[b], h->min[b], h->max[b]);
		sep = ", ";
	}
	fprintf(out, "})\n");
	return true;
}

static void fileset(FILE *out, const char *name, const struct plan *p,
		    const char *size, const char *extra)
{
	fprintf(out,
		"define fileset name=%s,path=$dir,entries=%" PRIu64
		",dirwidth=%" PRIu64 ",size=",
		name, p->entries, p->width);
	if (size[0])
		fputs(size, out);
	else
		fprintf(out, "%" PRIu64, p->size);
	fprintf(out, "%s%s\n", p->prealloc ? ",prealloc" : "", extra);
}

static void group_comment(FILE *out, const char *name,
			  const struct model_group *g, const struct plan *p)
{
	static const char *const kinds[MK_NKINDS] = {
		"made the file", "opened an existing file",
		"read a directory", "were open before their process began",
	};
	const char *sep = ":";

	fprintf(out,
		"# %s: %" PRIu64 " open%s that %s (%" PRIu64 " path%s in %" PRIu64
		" director%s)",
		name, g->nopens, model_plural(g->nopens), kinds[g->kind], g->nfiles,
		model_plural(g->nfiles), g->ndirs, g->ndirs == 1 ? "y" : "ies");
	if (g->kind == MK_INHERITED)
		fprintf(out, "; done once");
	fprintf(out, ";\n#   %s", p->loops > 1 || g->kind == MK_INHERITED ?
					    "each pass" :
					    "the pass");
	for (int c = 0; c < MC_N; c++) {
		if (!p->n[c])
			continue;
		fprintf(out, "%s %" PRIu64 " %s", sep, p->n[c],
			p->n[c] == 1 ? count_names[c] : counts_names[c]);
		if (c == MC_READ)
			fprintf(out, " of %" PRIu64 " bytes", p->rsize);
		if (c == MC_WRITE)
			fprintf(out, " of %" PRIu64 " bytes", p->wsize);
		sep = ",";
	}
	if (sep[0] == ':')
		fprintf(out, ": nothing but the open");
	fprintf(out, "\n");
}

static void filesets(const struct model *m, FILE *out)
{
	for (size_t j = 0; j < m->ngroups; j++) {
		const struct model_group *g = &m->groups[j];
		const char *extra = "";
		struct plan p;
		char name[32], size[48] = "";

		plan_of(g, &p);
		snprintf(name, sizeof(name), "%s%zu", p.what, j + 1);
		group_comment(out, name, g, &p);
		if (g->kind == MK_OPEN && !g->wr)
			extra = ",readonly";
		else if (g->kind == MK_OPEN && !g->rd)
			extra = ",writeonly";
		/*
		 * a group that reads needs the one size its reads were
		 * fitted to; one that reads nothing has the files' own
		 */
		if (g->kind == MK_OPEN && !p.n[MC_READ])
			size_var(out, name, &g->sizes, size, sizeof(size));
		fileset(out, name, &p, size, extra);
	}
}

/* "flowop TYPE name=G.SUFFIX" with attrs and iters */
static void flowop(FILE *out, const char *type, const char *g,
		   const char *suffix, const char *attrs, uint64_t iters)
{
	fprintf(out, "    flowop %s name=%s.%s%s", type, g, suffix, attrs);
	if (iters > 1)
		fprintf(out, ",iters=%" PRIu64, iters);
	fprintf(out, "\n");
}

static void reads(const struct model_group *g, const struct plan *p,
		  const char *name, const char *on, FILE *out)
{
	uint64_t written = p->n[MC_WRITE] * p->wsize;
	char a[160];

	/*
	 * A file the pass made is read where the pass wrote it: at random
	 * within its writes (sequential reads would start at its end).
	 */
	if (g->kind == MK_CREATE && written)
		snprintf(a, sizeof(a),
			 "%s,iosize=%" PRIu64 ",random,workingset=%" PRIu64,
			 on, p->rsize, written);
	else
		snprintf(a, sizeof(a), "%s,iosize=%" PRIu64, on, p->rsize);
	flowop(out, "read", name, "read", a, p->n[MC_READ]);
}

/* The I/O of a pass on fd 1: reads, writes, fstats; the last one named. */
static void io(const struct model_group *g, const struct plan *p,
	       const char *name, const char *on, FILE *out,
	       const char **last, uint64_t *per)
{
	bool made = g->kind == MK_CREATE;
	char a[128];

	if (p->n[MC_READ] && !made)
		reads(g, p, name, on, out);
	if (p->n[MC_WRITE]) {
		snprintf(a, sizeof(a), "%s,iosize=%" PRIu64, on, p->wsize);
		flowop(out, g->append ? "appendfile" : "write", name, "write",
		       a, p->n[MC_WRITE]);
		*last = "write";
		*per = p->n[MC_WRITE];
	}
	if (p->n[MC_READ] && made)
		reads(g, p, name, on, out);
	if (p->n[MC_READ] && (made || !p->n[MC_WRITE])) {
		*last = "read";
		*per = p->n[MC_READ];
	}
	if (p->n[MC_FSTAT]) {
		flowop(out, "statfile", name, "fstat", on, p->n[MC_FSTAT]);
		*last = "fstat";
		*per = p->n[MC_FSTAT];
	}
}

static void thread(const struct model_group *g, size_t j, FILE *out)
{
	struct plan p;
	char name[32], on[64];
	const char *last = "close";
	uint64_t per = 1;

	plan_of(g, &p);
	snprintf(name, sizeof(name), "%s%zu", p.what, j + 1);
	fprintf(out, "  thread name=%s {\n", name);
	switch (g->kind) {
	case MK_LIST:
		snprintf(on, sizeof(on), ",filesetname=%s", name);
		flowop(out, "listdir", name, "list", on, p.n[MC_DENTS]);
		last = "list";
		per = p.n[MC_DENTS];
		break;
	case MK_INHERITED:
		/* open before the recording: the first flowop opens it untimed */
		snprintf(on, sizeof(on), ",filesetname=%s,fd=1", name);
		io(g, &p, name, on, out, &last, &per);
		break;
	default:
		snprintf(on, sizeof(on), ",filesetname=%s,fd=1", name);
		flowop(out, g->kind == MK_CREATE ? "createfile" : "openfile",
		       name, "open", on, 1);
		io(g, &p, name, ",fd=1", out, &last, &per);
		if (p.n[MC_SYNC])
			flowop(out, "fsync", name, "fsync", ",fd=1",
			       p.n[MC_SYNC]);
		flowop(out, "closefile", name, "close", ",fd=1", 1);
		last = "close";
		per = 1;
		break;
	}
	fprintf(out,
		"    flowop finishoncount name=%s.done,target=%s.%s,value=%" PRIu64
		"\n  }\n",
		name, name, last, p.loops * per);
}

/* ---------------------------------------------------------------- paths */

static const char *const pathop_flowops[MP_N] = {
	"statfile", "deletefile", "renamefile", "linkfile", "makedir",
	"removedir", "listdir",
};

/* The files a path op works on: entries of the paths' sizes. */
static void path_files(const struct model *m, FILE *out, int i,
		       uint64_t entries, uint64_t width, const char *extra)
{
	struct plan p = { .entries = entries, .width = width,
			  .size = m->path_size[i], .prealloc = !extra[0] };
	char size[48];

	size_var(out, pathop_names[i], &m->path_sizes[i], size, sizeof(size));
	fileset(out, pathop_names[i], &p, size, extra);
}

/* A fileset per kind of path op, as its flowop needs it. */
static void path_filesets(const struct model *m, FILE *out)
{
	for (int i = 0; i < MP_N; i++) {
		uint64_t n = m->path_ops[i];
		uint64_t files = model_maxu(1, m->path_files[i]);
		uint64_t dirs = model_maxu(1, m->path_dirs[i]);
		uint64_t width = model_maxu(1, model_divr(files, dirs));

		if (!n)
			continue;
		fprintf(out, "# %s: %" PRIu64 " %s%s of %" PRIu64 " path%s",
			pathop_names[i], n, pathop_names[i], model_plural(n),
			m->path_files[i], model_plural(m->path_files[i]));
		switch (i) {
		case MP_STAT:
			fprintf(out, ", files of their sizes\n");
			path_files(m, out, i, files, width, "");
			break;
		case MP_UNLINK:
			fprintf(out, ": as many files to delete\n");
			path_files(m, out, i, n, width, "");
			break;
		case MP_RENAME:
		case MP_LINK:
			/* half made: a free name for each */
			fprintf(out, ": as many files and free names\n");
			path_files(m, out, i, 2 * n, width, ",prealloc=50");
			break;
		case MP_READDIR:
			/* as wide as the directories of the files opened */
			width = model_maxu(1, model_divr(m->nfiles, m->ndirs));
			fprintf(out, ": directories of %" PRIu64 " entries\n",
				width);
			fprintf(out, "define fileset name=readdir,path=$dir,"
				"entries=%" PRIu64 ",dirwidth=%" PRIu64
				",size=0,prealloc\n", files * width, width);
			break;
		default:
			fprintf(out, ": as many leaf directories%s\n",
				i == MP_MKDIR ? " to make" : "");
			fprintf(out, "define fileset name=%s,path=$dir,entries=0,"
				"dirwidth=%" PRIu64 ",leafdirs=%" PRIu64 "%s\n",
				pathop_names[i], width, n,
				i == MP_RMDIR ? ",prealloc" : "");
			break;
		}
	}
}

static void path_thread(const struct model *m, FILE *out)
{
	const char *last = NULL;
	uint64_t n = 0;
	char on[32];

	for (int i = 0; i < MP_N; i++) {
		if (!m->path_ops[i])
			continue;
		if (!last)
			fprintf(out, "  # what was done by path, each in one go\n"
				     "  thread name=paths {\n");
		snprintf(on, sizeof(on), ",filesetname=%s", pathop_names[i]);
		flowop(out, pathop_flowops[i], "paths", pathop_names[i], on,
		       m->path_ops[i]);
		last = pathop_names[i];
		n = m->path_ops[i];
	}
	if (last)
		fprintf(out,
			"    flowop finishoncount name=paths.done,target=paths.%s,"
			"value=%" PRIu64 "\n  }\n",
			last, n);
}

int model_print(const struct model *m, const char *name, FILE *out)
{
	header(m, name, out);
	fprintf(out, "set $dir=\"$tmpdir/fbrun-model\"\n"
		     "set mode quit alldone\n\n");
	filesets(m, out);
	path_filesets(m, out);
	fprintf(out, "\ndefine process name=model {\n");
	for (size_t j = 0; j < m->ngroups; j++)
		thread(&m->groups[j], j, out);
	path_thread(m, out);
	fprintf(out, "}\nrun 86400\n");
	if (fflush(out) != 0 || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
