/*
 * fbrun bonnie: runs bonnie++'s tests, in its order, as the phase scripts
 * of workloads/bonnie/ through the same parser and engine as any script,
 * then prints bonnie++'s table and CSV line.  Options and their meanings
 * are bonnie++ 2.00's (see doc/bonnie.md for where fbrun differs).
 */
#include "bonnie/bonnie.h"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/results.h"
#include "engine/timeline.h"
#include "lang/catalog.h"
#include "lang/compile.h"
#include "lang/diag.h"
#include "lang/script.h"
#include "util/msg.h"
#include "util/util.h"

/* One phase: its script, the figure it gives and the flowop timed. */
struct phase {
	const char *script;
	enum bon_test test;
	enum flowop_type timed;
	const char *says; /* bonnie++'s progress message */
	const char *vars; /* the variables it is given with -D */
};

#define IO_VARS "dir ioname size chunk chunks limit"
#define FILE_VARS "dir name files dirs filechunk limit"

static const struct phase phases[BT_COUNT] = {
	{ "putc", BT_PUTC, FO_WRITEBYTES, "Writing a byte at a time...",
	  IO_VARS " bytechunks direct" },
	{ "block-write", BT_PUT_BLOCK, FO_WRITE, "Writing intelligently...",
	  IO_VARS " direct data" },
	{ "rewrite", BT_REWRITE, FO_REWRITE, "Rewriting...", IO_VARS },
	{ "getc", BT_GETC, FO_READBYTES, "Reading a byte at a time...",
	  IO_VARS " bytechunks" },
	{ "block-read", BT_GET_BLOCK, FO_READ, "Reading intelligently...",
	  IO_VARS },
	{ "seeks", BT_SEEKS, FO_SEEKRW, "start 'em...",
	  IO_VARS " seeks seekers sync" },
	{ "seq-create", BT_SEQ_CREATE, FO_CREATENEXT,
	  "Create files in sequential order...",
	  FILE_VARS " minsize maxsize sizeend sync data" },
	{ "seq-stat", BT_SEQ_STAT, FO_STATNEXT,
	  "Stat files in sequential order...", FILE_VARS },
	{ "seq-delete", BT_SEQ_DEL, FO_DELETENEXT,
	  "Delete files in sequential order...", FILE_VARS " sync" },
	{ "ran-create", BT_RAN_CREATE, FO_CREATENEXT,
	  "Create files in random order...",
	  FILE_VARS " minsize maxsize sizeend sync data" },
	{ "ran-stat", BT_RAN_STAT, FO_STATNEXT,
	  "Stat files in random order...", FILE_VARS },
	{ "ran-delete", BT_RAN_DEL, FO_DELETENEXT,
	  "Delete files in random order...", FILE_VARS " sync" },
};

struct bonnie {
	struct bon_config c;
	const char *dir;
	bool quiet, size_given, ram_given, iterations_given, dry_run;
	unsigned iterations;
	const char *user, *group;
	char ioname[64], name[64];
	/* the phase being collected */
	const struct phase *ph;
	struct bon_figure fig;
	uint64_t count;
	char error[PATH_MAX + 600]; /* as results.error, and a phase name */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fbrun bonnie [-d dir] [-s size(MiB)[:chunk[:seeks[:seekers]]]]\n"
		"                    [-n number(x1024)[:max[:min[:dirs[:chunk]]]]]\n"
		"                    [-m machine] [-r ram(MiB)] [-x iterations] [-q]\n"
		"                    [-f[size]] [-b] [-D] [-z seed] [-c concurrency]\n"
		"                    [-u user[:group]] [-g group]\n"
		"                    [--csv-format 1.96|1.98] [--random-data]\n"
		"                    [--dry-run]\n"
		"Runs bonnie++'s tests (the phase scripts in bonnie/: see\n"
		"`fbrun --show bonnie/putc`) and prints its table and CSV line.\n");
}

static int bad(const char *opt, const char *arg, const char *why)
{
	return fb_error("%s '%s': %s", opt, arg, why);
}

/* A number without sign; a byte count may end in k, m, g or t (parse_int). */
static int number(const char *s, size_t len, bool bytes, uint64_t *out)
{
	int64_t v;

	if (len == 0 || s[0] < '0' || s[0] > '9')
		return -1;
	if (!bytes && (s[len - 1] < '0' || s[len - 1] > '9'))
		return -1;
	if (parse_int(s, len, &v) != NUM_OK)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* Split arg at ':' into at most max fields; returns how many. */
static int fields(const char *arg, const char **f, size_t *len, int max)
{
	int n = 0;

	for (const char *p = arg;; n++) {
		const char *e = strchr(p, ':');

		if (n == max)
			return -1;
		f[n] = p;
		len[n] = e ? (size_t)(e - p) : strlen(p);
		if (!e)
			return n + 1;
		p = e + 1;
	}
}

/* A size in MiB: a number, m (MiB, the unit), g (GiB) or t (TiB). */
static int size_mib(const char *s, size_t len, uint64_t *out)
{
	uint64_t mul = 1;

	if (len > 1) {
		switch (s[len - 1] | 0x20) {
		case 'm': len--; break;
		case 'g': mul = 1024; len--; break;
		case 't': mul = 1048576; len--; break;
		default: break;
		}
	}
	/* the byte count must fit too */
	if (number(s, len, false, out) < 0 || *out > UINT64_MAX / 1048576 / mul)
		return -1;
	*out *= mul;
	return 0;
}

/* -s size(MiB)[:chunk[:seeks[:seekers]]] */
static int opt_size(struct bonnie *b, const char *arg)
{
	const char *f[4];
	size_t len[4];
	uint64_t v;
	int n = fields(arg, f, len, 4);

	if (n < 0)
		return bad("-s", arg, "expected size[:chunk[:seeks[:seekers]]]");
	if (size_mib(f[0], len[0], &v) < 0)
		return bad("-s", arg, "size is a number of MiB, optionally "
				      "with m, g or t");
	b->c.size_mib = v;
	if (n > 1 && len[1]) {
		if (number(f[1], len[1], true, &v) < 0 || v < 256 ||
		    v > 1048576 || (v & (v - 1)))
			return bad("-s", arg, "chunk must be a power of two from "
					      "256 to 1m bytes");
		b->c.chunk = (unsigned)v;
	}
	if (n > 2 && len[2]) {
		if (number(f[2], len[2], true, &v) < 0 || v == 0 ||
		    v > UINT32_MAX)
			return bad("-s", arg, "seeks must be a positive number");
		b->c.seeks = (unsigned)v;
	}
	if (n > 3 && len[3]) {
		if (number(f[3], len[3], false, &v) < 0 || v == 0 || v > 1000)
			return bad("-s", arg, "seekers must be 1 to 1000");
		b->c.seekers = (unsigned)v;
	}
	b->size_given = true;
	return 0;
}

/* -n number(x1024)[:max[:min[:dirs[:chunk]]]] */
static int opt_files(struct bonnie *b, const char *arg)
{
	const char *f[5];
	size_t len[5];
	uint64_t v;
	int n = fields(arg, f, len, 5);

	if (n < 0)
		return bad("-n", arg,
			   "expected number[:max[:min[:dirs[:chunk]]]]");
	/* the number counts 1024s of files; m: 1024 of those */
	if (len[0] > 1 && (f[0][len[0] - 1] | 0x20) == 'm') {
		if (number(f[0], len[0] - 1, false, &v) < 0 || v > 1000000)
			return bad("-n", arg, "the number of files (x1024) "
					      "must be a number");
		v *= 1024;
	} else if (number(f[0], len[0], false, &v) < 0) {
		return bad("-n", arg, "the number of files (x1024) must be a "
				      "number");
	}
	if (v > 1000000)
		return bad("-n", arg, "more than 1024 million files");
	b->c.files = (unsigned)v;
	if (n > 1 && len[1] && f[1][0] == '-')
		return bad("-n", arg, "hard links and symbolic links (max -1 "
				      "and -2) are not supported");
	if (n > 1 && len[1] && number(f[1], len[1], true, &b->c.max_size) < 0)
		return bad("-n", arg, "max is a size in bytes (k, m, g)");
	if (n > 2 && len[2] && number(f[2], len[2], true, &b->c.min_size) < 0)
		return bad("-n", arg, "min is a size in bytes (k, m, g)");
	if (b->c.min_size > b->c.max_size)
		return bad("-n", arg, "min is larger than max");
	if (n > 3 && len[3]) {
		if (number(f[3], len[3], false, &v) < 0 || v >= 100000)
			return bad("-n", arg, "dirs must be below 100000");
		b->c.dirs = (unsigned)v;
	}
	if (n > 4 && len[4]) {
		if (number(f[4], len[4], true, &v) < 0 || v == 0 ||
		    v > 1048576)
			return bad("-n", arg, "chunk must be 1 to 1m bytes");
		b->c.file_chunk = (unsigned)v;
	}
	return 0;
}

static int opt_uint(const char *opt, const char *arg, uint64_t max,
		    uint64_t *out)
{
	if (number(arg, strlen(arg), false, out) < 0 || *out > max) {
		char why[64];

		snprintf(why, sizeof(why), "expected a number up to %" PRIu64,
			 max);
		return bad(opt, arg, why);
	}
	return 0;
}

static uint64_t ram_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	return pages > 0 && psize > 0 ?
		       (uint64_t)pages * (uint64_t)psize / 1048576 :
		       0;
}

enum { OPT_CSV = 256, OPT_RANDOM, OPT_DRY_RUN };

/* Returns 0, -1 (usage error) or 1 (--help done). */
static int parse(struct bonnie *b, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv-format", required_argument, NULL, OPT_CSV },
		{ "random-data", no_argument, NULL, OPT_RANDOM },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":d:s:n:m:r:x:qf::bDz:c:u:g:p:y:Z:h",
				 longopts, NULL)) != -1) {
		int rc = 0;

		switch (ch) {
		case 'd': b->dir = optarg; break;
		case 's': rc = opt_size(b, optarg); break;
		case 'n': rc = opt_files(b, optarg); break;
		case 'm':
			snprintf(b->c.machine, sizeof(b->c.machine), "%s",
				 optarg);
			break;
		case 'r':
			rc = opt_uint("-r", optarg, UINT32_MAX, &b->c.ram_mib);
			b->ram_given = true;
			break;
		case 'x':
			rc = opt_uint("-x", optarg, 100000, &v);
			if (rc == 0 && v == 0)
				rc = bad("-x", optarg, "expected at least 1");
			b->iterations = (unsigned)v;
			b->iterations_given = true;
			break;
		case 'q': b->quiet = true; break;
		case 'f':
			b->c.byte_mib = 0;
			if (optarg) {
				rc = opt_uint("-f", optarg, 1048576, &v);
				b->c.byte_mib = (unsigned)v;
			}
			break;
		case 'b': b->c.fsync_each = true; break;
		case 'D': b->c.direct = true; break;
		case 'z':
			rc = opt_uint("-z", optarg, UINT32_MAX, &b->c.seed);
			break;
		case 'c':
			rc = opt_uint("-c", optarg, 200, &v);
			if (rc == 0 && v == 0)
				rc = bad("-c", optarg, "expected 1 to 200");
			b->c.concurrency = (unsigned)v;
			break;
		case 'u': b->user = optarg; break;
		case 'g': b->group = optarg; break;
		case 'p':
		case 'y':
		case 'Z':
			return fb_error("option '-%c' is not supported "
					"(semaphores and random-number files of "
					"bonnie++)",
					ch);
		case OPT_CSV:
			if (strcmp(optarg, "1.96") && strcmp(optarg, "1.98"))
				rc = bad("--csv-format", optarg,
					 "expected 1.96 or 1.98");
			b->c.csv_layout = optarg[3] == '6' ? 196 : 198;
			break;
		case OPT_RANDOM: b->c.random_data = true; break;
		case OPT_DRY_RUN: b->dry_run = true; break;
		case 'h': usage(stdout); return 1;
		case ':':
			return msg_bad_option(ch, argv, optind);
		default:
			msg_bad_option(ch, argv, optind);
			usage(stderr);
			return -1;
		}
		if (rc < 0)
			return -1;
	}
	if (optind < argc) {
		return fb_error("unexpected argument '%s'", argv[optind]);
	}
	return 0;
}

/* bonnie++'s size rules, on the options as parsed. */
static int check_sizes(struct bonnie *b)
{
	struct bon_config *c = &b->c;

	if (!b->size_given) {
		c->size_mib = 2 * c->ram_mib > 300 ? 2 * c->ram_mib : 300;
		if (c->size_mib % 1024 > 512)
			c->size_mib += 1024 - c->size_mib % 1024;
	} else if (c->ram_mib && c->size_mib &&
		   c->size_mib * c->concurrency < 2 * c->ram_mib) {
		return fb_error("file size should be double RAM for good "
				"results, RAM is %" PRIu64 "M (use -r to say "
				"otherwise, -r 0 to skip this check)",
				c->ram_mib);
	}
	if (c->size_mib && c->size_mib * 1048576 / c->chunk == 0) {
		return fb_error("-s %" PRIu64 "M is smaller than one chunk",
				c->size_mib);
	}
	if (c->byte_mib > c->size_mib)
		c->byte_mib = (unsigned)c->size_mib;
	if (c->ram_mib && (uint64_t)c->files * 1024 * 37 * 2 >
				  c->ram_mib * 1048576) {
		return fb_error("-n %u: too many files for %" PRIu64 "M of RAM",
				c->files, c->ram_mib);
	}
	return 0;
}

/* -u user[:group] / -g group: only root switches, and only when asked. */
static int switch_user(struct bonnie *b)
{
	char user[256] = "", *colon;
	const char *group = b->group;
	struct passwd *pw = NULL;
	gid_t gid;

	if (b->user) {
		snprintf(user, sizeof(user), "%s", b->user);
		colon = strchr(user, ':');
		if (colon) {
			*colon = '\0';
			group = b->group ? b->group : colon + 1;
		}
	}
	if (!user[0] && !group)
		return 0;
	if (geteuid() != 0)
		return fb_error("-u and -g need root");
	if (user[0] && !(pw = getpwnam(user)))
		return fb_error("-u: no user '%s'", user);
	gid = pw ? pw->pw_gid : getegid();
	if (group && group[0]) {
		struct group *gr = getgrnam(group);

		if (!gr)
			return fb_error("no group '%s'", group);
		gid = gr->gr_gid;
	}
	if (setgroups(0, NULL) < 0 || setgid(gid) < 0 ||
	    (pw && setuid(pw->pw_uid) < 0)) {
		return fb_error("cannot switch to '%s': %s",
				user[0] ? user : group, strerror(errno));
	}
	return 0;
}

/* $data stays the script's own (bonnie++'s patterns) unless --random-data. */
static bool passed(const struct bonnie *b, const char *var)
{
	return strcmp(var, "data") != 0 || b->c.random_data;
}

/* The -D value of variable name for this run. */
static char *var_value(const struct bonnie *b, const char *name)
{
	const struct bon_config *c = &b->c;
	uint64_t size = c->size_mib * 1048576;

	if (!strcmp(name, "dir"))
		return xstrdup(b->dir);
	if (!strcmp(name, "ioname"))
		return xstrdup(b->ioname);
	if (!strcmp(name, "name"))
		return xstrdup(b->name);
	if (!strcmp(name, "size"))
		return xasprintf("%" PRIu64, size);
	if (!strcmp(name, "chunk"))
		return xasprintf("%u", c->chunk);
	if (!strcmp(name, "chunks"))
		return xasprintf("%" PRIu64, size / c->chunk);
	if (!strcmp(name, "bytechunks"))
		return xasprintf("%" PRIu64,
				 (uint64_t)c->byte_mib * 1048576 / c->chunk);
	if (!strcmp(name, "limit"))
		return xstrdup("1000000");
	if (!strcmp(name, "direct"))
		return xstrdup(c->direct ? "true" : "false");
	if (!strcmp(name, "data"))
		return xstrdup("random");
	if (!strcmp(name, "sync"))
		return xstrdup(c->fsync_each ? "true" : "false");
	if (!strcmp(name, "seeks"))
		return xasprintf("%u", c->seeks);
	if (!strcmp(name, "seekers"))
		return xasprintf("%u", c->seekers);
	if (!strcmp(name, "files"))
		return xasprintf("%" PRIu64, (uint64_t)c->files * 1024);
	if (!strcmp(name, "dirs"))
		return xasprintf("%u", c->dirs);
	if (!strcmp(name, "filechunk"))
		return xasprintf("%u", c->file_chunk);
	if (!strcmp(name, "minsize"))
		return xasprintf("%" PRIu64, c->min_size);
	/* bonnie++ draws min + rand % (max - min + 1): [min, max + 1) */
	if (!strcmp(name, "maxsize"))
		return xasprintf("%" PRIu64, c->max_size);
	return xasprintf("%" PRIu64, c->max_size + 1); /* sizeend */
}

#define MAX_DEFINES 16 /* the most variables a phase is given */

/* The -D NAME=VALUE a phase is given; returns how many (free_defines). */
static size_t phase_defines(const struct bonnie *b, const struct phase *ph,
			    struct cli_define *defs)
{
	char vars[128], *save = NULL, *tok;
	size_t n = 0;

	snprintf(vars, sizeof(vars), "%s", ph->vars);
	for (tok = strtok_r(vars, " ", &save); tok && n < MAX_DEFINES;
	     tok = strtok_r(NULL, " ", &save))
		if (passed(b, tok))
			defs[n++] = (struct cli_define){ xstrdup(tok),
							 var_value(b, tok) };
	return n;
}

static void free_defines(struct cli_define *defs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)defs[i].name);
		free((char *)defs[i].value);
	}
}

static int collect(const struct results *r, void *arg)
{
	struct bonnie *b = arg;

	b->fig.elapsed = r->secs;
	b->fig.cpu = (double)r->cpu_ns / 1e9;
	for (size_t i = 0; i < r->nfo; i++)
		if (r->fo[i].f->type == b->ph->timed) {
			b->count += r->fo[i].s.count;
			if (r->fo[i].s.count &&
			    (double)r->fo[i].s.lat_max / 1e9 > b->fig.max_lat)
				b->fig.max_lat = (double)r->fo[i].s.lat_max / 1e9;
		}
	if (r->error[0])
		snprintf(b->error, sizeof(b->error), "%s", r->error);
	return 0;
}

/* The operations a complete phase does. */
static uint64_t expected(const struct bonnie *b, enum bon_test t)
{
	const struct bon_config *c = &b->c;

	switch (t) {
	case BT_PUTC:
	case BT_GETC:
		return (uint64_t)c->byte_mib * 1048576 / c->chunk;
	case BT_SEEKS:
		return c->seeks;
	case BT_PUT_BLOCK:
	case BT_REWRITE:
	case BT_GET_BLOCK:
		return c->size_mib * 1048576 / c->chunk;
	default:
		return (uint64_t)c->files * 1024;
	}
}

/* Compile and run one phase script; 0, or the exit status. */
static int run_phase(struct bonnie *b, const struct phase *ph, bool last)
{
	const char *dir = catalog_dir();
	char *path = xasprintf("%s/bonnie/%s.f", dir ? dir : "workloads",
			       ph->script);
	struct cli_define defs[MAX_DEFINES];
	size_t nd = phase_defines(b, ph, defs);
	struct diag *d = diag_new(stderr, 20);
	struct script *sc = script_new(path);
	const struct workload *w;
	struct compile_opts co = { .defines = defs, .ndefines = nd };
	struct engine_opts eo = { 0 };
	int rc = FB_EXIT_USAGE;

	if (!sc || script_parse(sc, d) < 0 ||
	    !(w = script_compile(sc, &co, d)))
		goto out;
	b->ph = ph;
	b->fig = (struct bon_figure){ 0 };
	b->count = 0;
	b->error[0] = '\0';
	eo.script = path;
	eo.quiet = true;
	eo.seed = b->c.seed ? b->c.seed : 0x5eed;
	eo.series = true;
	eo.series_last = last;
	eo.deliver = collect;
	eo.deliver_arg = b;
	rc = engine_run(w, &eo);
	if (rc == 0 && b->count != expected(b, ph->test)) {
		snprintf(b->error, sizeof(b->error),
			 "did %" PRIu64 " of its %" PRIu64 " operations",
			 b->count, expected(b, ph->test));
		rc = FB_EXIT_RUN;
	}
out:
	diag_finish(d);
	diag_free(d);
	script_free(sc);
	free_defines(defs, nd);
	free(path);
	return rc;
}

static bool wanted(const struct bonnie *b, enum bon_test t);

/* --dry-run: each phase as the fbrun command that runs it alone. */
static void print_plan(const struct bonnie *b)
{
	for (int t = 0; t < BT_COUNT; t++) {
		struct cli_define defs[MAX_DEFINES];
		size_t n;

		if (!wanted(b, (enum bon_test)t))
			continue;
		n = phase_defines(b, &phases[t], defs);
		printf("fbrun");
		for (size_t i = 0; i < n; i++)
			printf(" -D %s=%s", defs[i].name, defs[i].value);
		printf(" bonnie/%s\n", phases[t].script);
		free_defines(defs, n);
	}
}

static bool wanted(const struct bonnie *b, enum bon_test t)
{
	if (t == BT_PUTC || t == BT_GETC)
		return b->c.size_mib && b->c.byte_mib;
	if (t <= BT_SEEKS)
		return b->c.size_mib;
	return b->c.files;
}

/* The last phase of its scratch tree (the I/O file's, or the files'). */
static bool last_of_tree(const struct bonnie *b, enum bon_test t)
{
	return t == BT_SEEKS || t == BT_RAN_DEL ||
	       (t < BT_SEEKS && !wanted(b, BT_SEEKS));
}

/*
 * Without the per-character test bonnie++ still creates its file, fsyncs
 * and closes it before the block write: the journal is committed, with
 * whatever a previous run left (the freeing of its deleted file), before
 * the block write's clock starts.  syncfs() of the test directory's file
 * system does the same here.
 */
static int settle(struct bonnie *b)
{
	int fd = open(b->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	rc = fd < 0 ? -1 : syncfs(fd);
	if (rc < 0)
		snprintf(b->error, sizeof(b->error),
			 "cannot sync the file system of '%s': %s", b->dir,
			 strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

static int run_all(struct bonnie *b, struct bon_result *res)
{
	for (int t = 0; t < BT_COUNT; t++) {
		const struct phase *ph = &phases[t];
		int rc;

		if (!wanted(b, (enum bon_test)t))
			continue;
		if (t == BT_PUT_BLOCK && !wanted(b, BT_PUTC) && settle(b) < 0) {
			fb_error("%s", b->error);
			return FB_EXIT_RUN;
		}
		if (!b->quiet) {
			fputs(t == BT_SEEKS ? "start 'em..." : ph->says, stderr);
			fflush(stderr);
		}
		rc = run_phase(b, ph, last_of_tree(b, (enum bon_test)t));
		if (rc != 0) {
			if (!b->quiet)
				fputc('\n', stderr);
			if (b->error[0])
				fb_error("phase '%s': %s", ph->script,
					 b->error);
			if (timeline_signalled)
				fb_warning("interrupted; results so far");
			return rc;
		}
		res->t[t] = b->fig;
		res->t[t].ran = true;
		if (!b->quiet) {
			if (t == BT_SEEKS)
				for (unsigned i = 0; i < b->c.seekers; i++)
					fputs("done...", stderr);
			fputs(t == BT_SEEKS ? "\n" :
			      t >= BT_SEQ_CREATE ? "done.\n" : "done\n",
			      stderr);
		}
	}
	return 0;
}

static void defaults(struct bonnie *b)
{
	struct utsname u;

	memset(b, 0, sizeof(*b));
	b->dir = ".";
	b->iterations = 1;
	b->c.concurrency = 1;
	b->c.chunk = 8192;
	b->c.seeks = 8192;
	b->c.seekers = 5;
	b->c.byte_mib = 3;
	b->c.files = 16;
	b->c.dirs = 0;
	b->c.file_chunk = 8192;
	b->c.csv_layout = 198;
	b->c.ram_mib = ram_mib();
	if (uname(&u) == 0)
		snprintf(b->c.machine, sizeof(b->c.machine), "%s", u.nodename);
}

int bonnie_main(int argc, char **argv)
{
	struct bonnie b;
	struct stat st;
	int rc;

	msg_program("fbrun bonnie");
	defaults(&b);
	rc = parse(&b, argc, argv);
	if (rc)
		return rc > 0 ? FB_EXIT_OK : FB_EXIT_USAGE;
	if (!b.c.seed)
		b.c.seed = (uint64_t)((unsigned)getpid() ^ (unsigned)time(NULL));
	if (check_sizes(&b) < 0 || switch_user(&b) < 0)
		return FB_EXIT_USAGE;
	if (stat(b.dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		fb_error("-d '%s' is not a directory", b.dir);
		return FB_EXIT_USAGE;
	}
	if (access(b.dir, W_OK | X_OK) < 0) {
		fb_error("cannot use directory '%s': %s", b.dir,
			 strerror(errno));
		return FB_EXIT_USAGE;
	}
	snprintf(b.name, sizeof(b.name), "Bonnie.%d", (int)getpid());
	snprintf(b.ioname, sizeof(b.ioname), "Bonnie.%d.io", (int)getpid());
	if (b.dry_run) {
		print_plan(&b);
		return FB_EXIT_OK;
	}
	if (!b.quiet)
		fprintf(stderr, "Using uid:%d, gid:%d.\n", (int)geteuid(),
			(int)getegid());
	if (b.iterations_given && b.iterations > 1)
		bon_csv_header(stdout, &b.c);
	for (unsigned i = 0; i < b.iterations && rc == 0; i++) {
		struct bon_result res = { 0 };

		rc = run_all(&b, &res);
		if (!b.iterations_given)
			bon_text(b.quiet ? stderr : stdout, &b.c, &res);
		bon_csv(stdout, &b.c, &res);
		fflush(stdout);
	}
	return rc;
}
