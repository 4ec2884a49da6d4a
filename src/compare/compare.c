/*
 * fbrun compare: several results files of one workload side by side.
 * Flowops are matched by name (the n-th "x" with the n-th "x", for the odd
 * script whose labels repeat), ratios are to the first run, and runs of
 * different workloads are refused unless --common narrows the comparison
 * to what they share.
 */
#include "compare/compare.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const struct cmp_metric_info cmp_metrics[CM_COUNT] = {
	[CM_OPS] = { "ops/s", "Operations per second", 1, true },
	[CM_MB] = { "mb/s", "Throughput (MiB/s)", 1, true },
	[CM_MS] = { "ms/op", "Mean latency (ms/op)", 3, false },
	[CM_CPU] = { "us/op-cpu", "CPU per operation (us)", 1, false },
	[CM_P99] = { "p99 ms", "99th percentile latency (ms)", 3, false },
};

const struct cmp_summary_info cmp_summary[] = {
	{ "ops_per_sec", "ops/s", 1 },
	{ "reads_per_sec", "reads/s", 1 },
	{ "writes_per_sec", "writes/s", 1 },
	{ "mb_per_sec", "mb/s", 1 },
	{ "ms_per_op", "ms/op", 3 },
	{ "cpu_us_per_op", "us/op-cpu", 1 },
};

const size_t cmp_nsummary = ARRAY_SIZE(cmp_summary);

#define MAX_LISTED 5 /* names shown in a "only in" list */
#define QUOTE_MAX 64 /* bytes of a name an error message shows */

/* A run's flowops sorted by (name, position), for matching by name. */
struct name_key {
	const char *name;
	size_t occ; /* 0 for the first flowop of this name, 1 next... */
	size_t idx; /* position in the file */
};

struct loaded {
	struct name_key *keys;
	size_t *occ; /* occ of each flowop, by position */
	size_t nkeys;
	size_t nleft; /* flowops of this run left out by --common */
};

bool cmp_value(const struct json_value *fo, enum cmp_metric m, double *out)
{
	static const char *const keys[CM_COUNT] = {
		[CM_OPS] = "ops_per_sec", [CM_MB] = "mb_per_sec",
		[CM_MS] = "ms_per_op", [CM_CPU] = "cpu_us_per_op",
	};
	const struct json_value *v;

	/* a flowop that never ran has no latency or CPU cost, not 0 */
	if (m != CM_OPS && m != CM_MB && json_get_num(fo, "ops", 1) == 0)
		return false;
	if (m == CM_CPU && json_get_num(fo, "cpu_samples", 1) == 0)
		return false;
	if (m == CM_P99) {
		v = json_get(json_get(fo, "latency_ns"), "p99");
		if (!json_is(v, JSON_NUMBER))
			return false;
		*out = v->num / 1e6;
		return true;
	}
	v = json_get(fo, keys[m]);
	if (!json_is(v, JSON_NUMBER))
		return false;
	*out = v->num;
	return true;
}

bool cmp_summary_value(const struct cmp_run *r, size_t i, double *out)
{
	const struct json_value *v =
		json_get(json_get(r->root, "summary"), cmp_summary[i].key);

	if (!json_is(v, JSON_NUMBER))
		return false;
	*out = v->num;
	return true;
}

void cmp_ratio(char *buf, size_t len, double v, double base)
{
	double r;

	if (base == 0) {
		snprintf(buf, len, v == 0 ? "1.00x" : "n/a");
		return;
	}
	r = v / base;
	if (r >= 99.995)
		snprintf(buf, len, "%.0fx", r);
	else if (r > 0 && r < 0.005)
		snprintf(buf, len, "<0.01x");
	else
		snprintf(buf, len, "%.2fx", r);
}

int cmp_prec(const double *v, const bool *ok, size_t n, int prec)
{
	double small = 0;

	for (size_t i = 0; i < n; i++)
		if (ok[i] && v[i] != 0 && (!small || fabs(v[i]) < small))
			small = fabs(v[i]);
	/* the smallest value gets at least two significant digits */
	if (small && small < pow(10, 1 - prec)) {
		int d = 1 - (int)floor(log10(small));

		prec = d > 12 ? 12 : d;
	}
	return prec;
}

void cmp_run_fs(const struct cmp_run *r, char *buf, size_t len)
{
	const struct json_value *fs = json_index(json_get(r->root, "filesets"), 0);
	const char *type = json_get_str(fs, "fs_type", NULL);
	const char *mnt = json_get_str(fs, "mountpoint", NULL);

	if (!type)
		snprintf(buf, len, "?");
	else if (mnt)
		snprintf(buf, len, "%s on %s", type, mnt);
	else
		snprintf(buf, len, "%s", type);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fbrun compare [options] A.json B.json [C.json ...]\n"
		"\n"
		"  -l, --label NAME   name the next run's column (repeat, in "
		"file order;\n"
		"                     default: the file name without .json)\n"
		"      --html FILE    also write an HTML page with charts to "
		"FILE\n"
		"      --common       compare only the flowops every run has\n"
		"  -h, --help         show this help\n"
		"\n"
		"Ratios are to the first run.  Exit status: 0 ok, 2 usage or "
		"bad input.\n");
}

static char *default_label(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	return xstrndup(base, n);
}

static int cmp_key(const void *a, const void *b)
{
	const struct name_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->occ != y->occ)
		return x->occ < y->occ ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Index a run's flowops by name; fails on a flowop without a name. */
static int index_names(const struct cmp_run *r, struct loaded *l)
{
	size_t n = json_len(r->flowops);

	l->keys = xcalloc(n ? n : 1, sizeof(*l->keys));
	l->occ = xcalloc(n ? n : 1, sizeof(*l->occ));
	l->nkeys = n;
	for (size_t i = 0; i < n; i++) {
		const struct json_value *fo = json_index(r->flowops, i);
		const char *name = json_get_str(fo, "name", NULL);

		if (!name) {
			fprintf(stderr,
				"fbrun: error: %s:%d:%d: a flowop without a "
				"\"name\" string\n",
				r->path, fo->line, fo->col);
			return -1;
		}
		l->keys[i] = (struct name_key){ name, 0, i };
	}
	/* sorted by (name, position), then number the repeats */
	qsort(l->keys, n, sizeof(*l->keys), cmp_key);
	for (size_t i = 1; i < n; i++)
		if (strcmp(l->keys[i].name, l->keys[i - 1].name) == 0)
			l->keys[i].occ = l->keys[i - 1].occ + 1;
	for (size_t i = 0; i < n; i++)
		l->occ[l->keys[i].idx] = l->keys[i].occ;
	return 0;
}

static const struct name_key *find_key(const struct loaded *l,
				       const char *name, size_t occ)
{
	struct name_key k = { name, occ, 0 };
	size_t lo = 0, hi = l->nkeys;

	/* binary search on (name, occ), ignoring idx */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->keys[mid].name, k.name);

		if (!c)
			c = l->keys[mid].occ < occ ? -1 : l->keys[mid].occ > occ;
		if (!c)
			return &l->keys[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int load_run(struct cmp_run *r)
{
	char err[512];

	r->root = json_load(r->path, err, sizeof(err));
	if (!r->root) {
		fprintf(stderr, "fbrun: error: %s\n", err);
		return -1;
	}
	r->flowops = json_get(r->root, "flowops");
	if (!json_is(r->flowops, JSON_ARRAY)) {
		fprintf(stderr,
			"fbrun: error: %s is not an fbrun results file (no "
			"\"flowops\" array); write one with fbrun -o RUN.json\n",
			r->path);
		return -1;
	}
	return 0;
}

/*
 * Text from results files must not drive the terminal: C0 and C1 control
 * characters (raw or UTF-8 encoded) become '?'.
 */
static void put_clean(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f) {
			fputc('?', out);
			i++;
		} else if ((ch < 0x20 && ch != '\n') || ch == 0x7f) {
			fputc('?', out);
		} else {
			fputc(ch, out);
		}
	}
}

/*
 * A name from a results file in an error message: its first QUOTE_MAX
 * bytes (not cutting a UTF-8 character), then "..." if there is more.
 */
static void put_quoted(FILE *out, const char *s)
{
	size_t n = strnlen(s, QUOTE_MAX + 1);

	if (n <= QUOTE_MAX) {
		put_clean(out, s, n);
		return;
	}
	n = QUOTE_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	put_clean(out, s, n);
	fputs("...", out);
}

/*
 * Print up to MAX_LISTED flowops of run a (in its order) that lb lacks;
 * returns how many there are.  out NULL only counts.
 */
static size_t only_in(FILE *out, const struct cmp_run *a,
		      const struct loaded *la, const struct loaded *lb)
{
	size_t n = 0;

	for (size_t i = 0; i < la->nkeys; i++) {
		const char *name = json_get_str(json_index(a->flowops, i),
						"name", "");

		if (find_key(lb, name, la->occ[i]))
			continue;
		if (out && n < MAX_LISTED) {
			fputs(n ? ", " : "", out);
			put_quoted(out, name);
		}
		n++;
	}
	if (out && n > MAX_LISTED)
		fprintf(out, " and %zu more", n - MAX_LISTED);
	return n;
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "?";
}

/*
 * Refuse runs of different workloads unless --common: different script
 * digests, or different sets of flowop names.  0 when comparable.
 */
static int check_workloads(struct cmp *c, struct loaded *l, bool common)
{
	const struct cmp_run *a = &c->runs[0];
	const char *sha0 = json_get_str(a->root, "script_sha256", NULL);
	int rc = 0;

	c->same_script = true;
	for (size_t i = 1; i < c->nruns; i++) {
		const struct cmp_run *b = &c->runs[i];
		const char *sha = json_get_str(b->root, "script_sha256", NULL);
		bool diff_sets = only_in(NULL, a, &l[0], &l[i]) ||
				 only_in(NULL, b, &l[i], &l[0]);

		if (sha0 && sha && strcmp(sha0, sha) != 0) {
			c->same_script = false;
			if (common)
				continue;
			fprintf(stderr,
				"fbrun: error: %s and %s are runs of different "
				"scripts (",
				b->path, a->path);
			put_quoted(stderr,
				   base_name(json_get_str(b->root, "script",
							  NULL)));
			fputs(" and ", stderr);
			put_quoted(stderr,
				   base_name(json_get_str(a->root, "script",
							  NULL)));
			fputs(": their script_sha256 differ)\n", stderr);
			rc = -1;
		} else if (diff_sets && !common) {
			fprintf(stderr, "fbrun: error: %s and %s ran different "
					"flowops (only in %s: ",
				b->path, a->path, b->path);
			if (!only_in(stderr, b, &l[i], &l[0]))
				fprintf(stderr, "none");
			fprintf(stderr, "; only in %s: ", a->path);
			if (!only_in(stderr, a, &l[0], &l[i]))
				fprintf(stderr, "none");
			fprintf(stderr, ")\n");
			rc = -1;
		}
	}
	if (rc < 0)
		fprintf(stderr, "fbrun: note: use --common to compare only "
				"the flowops they share\n");
	return rc;
}

/* Rows: the first run's flowops, in its order, that every run has. */
static int match_rows(struct cmp *c, struct loaded *l)
{
	size_t n0 = json_len(c->runs[0].flowops);

	c->rows = xcalloc(n0 ? n0 : 1, sizeof(*c->rows));
	for (size_t k = 0; k < l[0].nkeys; k++) {
		const struct json_value *fo = json_index(c->runs[0].flowops, k);
		const char *name = json_get_str(fo, "name", "");
		struct cmp_row row = { name, NULL };
		bool all = true;

		row.fo = xcalloc(c->nruns, sizeof(*row.fo));
		for (size_t i = 0; i < c->nruns && all; i++) {
			const struct name_key *m = find_key(&l[i], name,
							    l[0].occ[k]);

			if (m)
				row.fo[i] = json_index(c->runs[i].flowops,
						       m->idx);
			all = m != NULL;
		}
		if (!all) {
			free(row.fo);
			continue;
		}
		c->rows[c->nrows++] = row;
	}
	for (size_t i = 0; i < c->nruns; i++)
		l[i].nleft = l[i].nkeys - c->nrows;
	if (!c->nrows) {
		fprintf(stderr, "fbrun: error: the runs have no flowop in "
				"common\n");
		return -1;
	}
	return 0;
}

/* Display width of UTF-8 text: one column per character. */
static int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *out, const char *s, int width, bool right)
{
	int n = width - text_width(s);

	if (right)
		fprintf(out, "%*s%s", n > 0 ? n : 0, "", s);
	else
		fprintf(out, "%s%*s", s, n > 0 ? n : 0, "");
}

const char *cmp_var(const struct cmp_run *r, const char *name)
{
	return json_get_str(json_get(r->root, "variables"), name, "-");
}

bool cmp_var_differs(const struct cmp *c, size_t run, size_t k)
{
	const char *name = json_key(json_get(c->runs[run].root, "variables"),
				    k);

	if (!name)
		return false;
	/* each name once, from the first run that has it */
	for (size_t p = 0; p < run; p++)
		if (json_get(json_get(c->runs[p].root, "variables"), name))
			return false;
	for (size_t p = 1; p < c->nruns; p++)
		if (strcmp(cmp_var(&c->runs[p], name),
			   cmp_var(&c->runs[0], name)) != 0)
			return true;
	return false;
}

/* A run's --data, and its first fileset's mount options. */
static const char *run_data(const struct cmp_run *r)
{
	return json_get_str(r->root, "data", "default");
}

static const char *run_mount(const struct cmp_run *r)
{
	return json_get_str(json_index(json_get(r->root, "filesets"), 0),
			    "mount_options", "?");
}

/* Add a row if the runs' values differ; values is taken either way. */
static void add_diff(struct cmp_diff **d, size_t *n, size_t *cap,
		     const struct cmp *c, char *name, const char **values)
{
	for (size_t p = 1; p < c->nruns; p++)
		if (strcmp(values[p], values[0]) != 0) {
			*d = grow_array(*d, cap, *n + 1, sizeof(**d));
			(*d)[(*n)++] = (struct cmp_diff){ name, values };
			return;
		}
	free(name);
	free(values);
}

struct cmp_diff *cmp_diffs(const struct cmp *c, size_t *n)
{
	static const struct {
		const char *name;
		const char *(*get)(const struct cmp_run *);
	} settings[] = { { "--data", run_data },
			 { "mount options", run_mount } };
	struct cmp_diff *d = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++) {
		const char **v = xcalloc(c->nruns, sizeof(*v));

		for (size_t p = 0; p < c->nruns; p++)
			v[p] = settings[i].get(&c->runs[p]);
		add_diff(&d, n, &cap, c, xstrdup(settings[i].name), v);
	}
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_value *vars = json_get(c->runs[i].root,
							 "variables");

		for (size_t k = 0; k < json_len(vars); k++) {
			const char *name = json_key(vars, k), **v;

			if (!cmp_var_differs(c, i, k))
				continue;
			v = xcalloc(c->nruns, sizeof(*v));
			for (size_t p = 0; p < c->nruns; p++)
				v[p] = cmp_var(&c->runs[p], name);
			add_diff(&d, n, &cap, c, xasprintf("$%s", name), v);
		}
	}
	return d;
}

void cmp_diffs_free(struct cmp_diff *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].name);
		free(d[i].values);
	}
	free(d);
}

/*
 * Variables (-D values or defaults) that differ explain many differences;
 * so do --data and the mount options (compression on or off).
 */
static void print_variables(FILE *out, const struct cmp *c)
{
	size_t n;
	struct cmp_diff *d = cmp_diffs(c, &n);

	if (n)
		fprintf(out, "Variables that differ:\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %s:", d[i].name);
		for (size_t p = 0; p < c->nruns; p++)
			fprintf(out, "%s %s", p ? " |" : "", d[i].values[p]);
		fputc('\n', out);
	}
	cmp_diffs_free(d, n);
}

static void print_header(FILE *out, const struct cmp *c,
			 const struct loaded *l)
{
	int lw = 0;

	for (size_t i = 0; i < c->nruns; i++)
		if (text_width(c->runs[i].label) > lw)
			lw = text_width(c->runs[i].label);
	fprintf(out, "Runs (ratios are to the first, %s):\n", c->runs[0].label);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_value *root = c->runs[i].root;
		const struct json_value *sys = json_get(root, "system");
		const char *ended = json_get_str(root, "ended_by", NULL);
		const char *error = json_get_str(root, "error", NULL);
		char fs[512];

		cmp_run_fs(&c->runs[i], fs, sizeof(fs));
		fputs("  ", out);
		pad(out, c->runs[i].label, lw, false);
		fprintf(out, "  %s, %s, %s (%.0f cpus), %s, %.1f s",
			json_get_str(root, "script", "?"), fs,
			json_get_str(sys, "kernel", "?"),
			json_get_num(sys, "cpus", 0),
			json_get_str(root, "started", "?"),
			json_get_num(root, "seconds", 0));
		if (ended && strcmp(ended, "timeout") && strcmp(ended, "done"))
			fprintf(out, ", ended by %s", ended);
		if (error)
			fprintf(out, ", error: %s", error);
		fputc('\n', out);
	}
	if (!c->same_script)
		fprintf(out, "The runs are of different scripts.\n");
	for (size_t i = 0; i < c->nruns; i++) {
		if (!l[i].nleft)
			continue;
		fprintf(out, "Compared: the %zu flowop%s every run has; left "
			     "out:", c->nrows, c->nrows == 1 ? "" : "s");
		for (size_t k = 0; k < c->nruns; k++)
			fprintf(out, "%s %zu of %s's %zu", k ? "," : "",
				l[k].nleft, c->runs[k].label, l[k].nkeys);
		fputc('\n', out);
		break;
	}
	print_variables(out, c);
	fputc('\n', out);
}

struct cell {
	char val[40];
	char ratio[16];
};

static void fill_cells(struct cell *cells, const bool *ok, const double *v,
		       size_t nruns, int prec)
{
	prec = cmp_prec(v, ok, nruns, prec);
	for (size_t i = 0; i < nruns; i++) {
		struct cell *ce = &cells[i];

		if (!ok[i]) {
			snprintf(ce->val, sizeof(ce->val), "-");
			continue;
		}
		snprintf(ce->val, sizeof(ce->val), "%.*f", prec, v[i]);
		if (i > 0 && ok[0])
			cmp_ratio(ce->ratio, sizeof(ce->ratio), v[i], v[0]);
	}
}

static void print_table(FILE *out, const struct cmp *c)
{
	size_t nlines = c->nrows * CM_COUNT + cmp_nsummary, line = 0;
	struct cell *cells = xcalloc(nlines * c->nruns, sizeof(*cells));
	const char **names = xcalloc(nlines, sizeof(*names));
	const char **metrics = xcalloc(nlines, sizeof(*metrics));
	int *vw = xcalloc(c->nruns, sizeof(*vw));
	int *rw = xcalloc(c->nruns, sizeof(*rw));
	double *v = xcalloc(c->nruns, sizeof(*v));
	bool *ok = xcalloc(c->nruns, sizeof(*ok));
	int nw = (int)strlen("IO Summary"), mw = (int)strlen("metric");

	for (size_t r = 0; r < c->nrows; r++) {
		for (int m = 0; m < CM_COUNT; m++, line++) {
			for (size_t i = 0; i < c->nruns; i++)
				ok[i] = cmp_value(c->rows[r].fo[i], m, &v[i]);
			fill_cells(&cells[line * c->nruns], ok, v, c->nruns,
				   cmp_metrics[m].prec);
			names[line] = c->rows[r].name;
			metrics[line] = cmp_metrics[m].name;
		}
	}
	for (size_t s = 0; s < cmp_nsummary; s++, line++) {
		for (size_t i = 0; i < c->nruns; i++)
			ok[i] = cmp_summary_value(&c->runs[i], s, &v[i]);
		fill_cells(&cells[line * c->nruns], ok, v, c->nruns,
			   cmp_summary[s].prec);
		names[line] = "IO Summary";
		metrics[line] = cmp_summary[s].name;
	}
	for (size_t i = 0; i < c->nruns; i++)
		vw[i] = text_width(c->runs[i].label);
	for (size_t k = 0; k < nlines; k++) {
		if (text_width(names[k]) > nw)
			nw = text_width(names[k]);
		if (text_width(metrics[k]) > mw)
			mw = text_width(metrics[k]);
		for (size_t i = 0; i < c->nruns; i++) {
			const struct cell *ce = &cells[k * c->nruns + i];

			if ((int)strlen(ce->val) > vw[i])
				vw[i] = (int)strlen(ce->val);
			if ((int)strlen(ce->ratio) + 3 > rw[i])
				rw[i] = (int)strlen(ce->ratio) + 3;
		}
	}
	pad(out, "flowop", nw, false);
	fputs("  ", out);
	pad(out, "metric", mw, false);
	for (size_t i = 0; i < c->nruns; i++) {
		fputs("  ", out);
		pad(out, c->runs[i].label, vw[i], true);
		if (i + 1 < c->nruns)
			fprintf(out, "%*s", rw[i], "");
	}
	fputc('\n', out);
	for (size_t k = 0; k < nlines; k++) {
		if (k == c->nrows * CM_COUNT)
			fputc('\n', out);
		pad(out, names[k], nw, false);
		fputs("  ", out);
		pad(out, metrics[k], mw, false);
		for (size_t i = 0; i < c->nruns; i++) {
			const struct cell *ce = &cells[k * c->nruns + i];
			char r[24] = "";

			if (ce->ratio[0])
				snprintf(r, sizeof(r), " (%s)", ce->ratio);
			fputs("  ", out);
			pad(out, ce->val, vw[i], true);
			/* no trailing blanks after the last column */
			if (i + 1 < c->nruns)
				pad(out, r, rw[i], false);
			else
				fputs(r, out);
		}
		fputc('\n', out);
	}
	free(cells);
	free(names);
	free(metrics);
	free(vw);
	free(rw);
	free(v);
	free(ok);
}

struct cmp_opts {
	const char **labels;
	size_t nlabels, cap;
	const char *html;
	bool common;
};

/* Returns -1 to exit 2, 1 to exit 0 (--help), 0 to go on. */
static int parse_args(int argc, char **argv, struct cmp_opts *o)
{
	enum { OPT_HTML = 256, OPT_COMMON };
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "common", no_argument, NULL, OPT_COMMON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":l:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			if (!optarg[0]) {
				fprintf(stderr, "fbrun: error: --label needs "
						"a non-empty name\n");
				return -1;
			}
			o->labels = grow_array(o->labels, &o->cap,
					       o->nlabels + 1,
					       sizeof(*o->labels));
			o->labels[o->nlabels++] = optarg;
			break;
		case OPT_HTML:
			o->html = optarg;
			break;
		case OPT_COMMON:
			o->common = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
			fprintf(stderr, "fbrun: error: option '%s' needs a "
					"value\n", argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "fbrun: error: unknown option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return -1;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, "fbrun: error: compare needs at least two "
				"results files\n");
		usage(stderr);
		return -1;
	}
	if (o->nlabels > (size_t)(argc - optind)) {
		fprintf(stderr, "fbrun: error: %zu labels for %d files\n",
			o->nlabels, argc - optind);
		return -1;
	}
	return 0;
}

int compare_main(int argc, char **argv)
{
	struct cmp_opts o = { 0 };
	struct cmp c = { 0 };
	struct loaded *l = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int rc = parse_args(argc, argv, &o);

	if (rc) {
		free(o.labels);
		return rc < 0 ? 2 : 0;
	}
	rc = 2;
	c.nruns = (size_t)(argc - optind);
	c.runs = xcalloc(c.nruns, sizeof(*c.runs));
	l = xcalloc(c.nruns, sizeof(*l));
	for (size_t i = 0; i < c.nruns; i++) {
		c.runs[i].path = argv[optind + (int)i];
		c.runs[i].label = i < o.nlabels ? xstrdup(o.labels[i]) :
						  default_label(c.runs[i].path);
	}
	for (size_t i = 0; i < c.nruns; i++)
		if (load_run(&c.runs[i]) < 0 || index_names(&c.runs[i], &l[i]) < 0)
			goto out;
	if (check_workloads(&c, l, o.common) < 0 || match_rows(&c, l) < 0)
		goto out;
	/* built in memory so that it can be cleaned on the way out */
	mem = open_memstream(&text, &len);
	if (!mem) {
		fprintf(stderr, "fbrun: error: %s\n", strerror(errno));
		goto out;
	}
	print_header(mem, &c, l);
	print_table(mem, &c);
	if (fclose(mem) != 0) {
		fprintf(stderr, "fbrun: error: %s\n", strerror(errno));
		goto out;
	}
	put_clean(stdout, text, len);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "fbrun: error: cannot write the table\n");
		goto out;
	}
	if (o.html && html_write(o.html, &c) < 0)
		goto out;
	rc = 0;
out:
	for (size_t i = 0; i < c.nruns; i++) {
		free(c.runs[i].label);
		json_value_free(c.runs[i].root);
		free(l[i].keys);
		free(l[i].occ);
	}
	for (size_t r = 0; r < c.nrows; r++)
		free(c.rows[r].fo);
	free(c.rows);
	free(c.runs);
	free(l);
	free(o.labels);
	free(text);
	return rc;
}
