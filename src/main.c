/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun command line: options, the parse -> compile pipeline and exit
 * codes (0 ok, 1 run failure, 2 usage or script error).  The only file
 * that calls exit().
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonnie/bonnie.h"
#include "compare/compare.h"
#include "engine/engine.h"
#include "engine/run/ivlog.h"
#include "lang/attr.h"
#include "lang/catalog.h"
#include "lang/compile.h"
#include "lang/datapat.h"
#include "lang/diag.h"
#include "lang/ir.h"
#include "lang/script.h"
#include "lang/source.h"
#include "engine/sys/timeline.h"
#include "report/build.h"
#include "report/command.h"
#include "report/repeat.h"
#include "mpi/job.h"
#include "report/report.h"
#include "util/msg.h"
#include "util/util.h"

#define MAX_ERRORS 20
#define MAX_REPEAT 10000

enum action {
	ACT_RUN,
	ACT_PARSE_ONLY,
	ACT_DUMP_AST,
	ACT_DUMP_IR,
};

struct options {
	enum action action;
	struct engine_opts run;
	enum report_format format; /* --format */
	struct cli_define *defines;
	size_t ndefines, cap;
	const char *script;
	struct job *peers; /* fbrun-mpi's job, or NULL */
	bool stonewall;
	uint64_t repeat; /* --repeat N: 0 if not given */
	bool fresh; /* --fresh: the filesets made anew for each run */
	const char *interval_log; /* --interval-log FILE, or NULL */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fbrun [options] SCRIPT.f     (SCRIPT '-' reads standard input;\n"
		"                                    a bare name runs a shipped workload)\n"
		"       fbrun compare A.json B.json ...  compare runs (fbrun compare --help)\n"
		"       fbrun bonnie [bonnie++ options]  bonnie++'s tests (fbrun bonnie --help)\n"
		"       fbrun report RUN.json            a saved run's table again (fbrun report --help)\n"
		"\n"
		"  -D, --define NAME=VALUE  set $NAME, overriding the script's own 'set'\n"
		"  -t, --runtime SECONDS    run this long, whatever the script's 'run' says\n"
		"  -o, --output FILE        also write the results to FILE (JSON if *.json,\n"
		"                           CSV if *.csv, else text)\n"
		"      --format FORMAT      results on standard output: text, json or csv\n"
		"      --interval SECONDS   print a line every SECONDS during the run and\n"
		"                           keep the series in the JSON\n"
		"      --interval-flowops   with --interval, a line per flowop too\n"
		"      --interval-log FILE  with --interval, also write each line to FILE\n"
		"                           as CSV while the run goes\n"
		"      --steady[=PCT]       with --interval: say whether the last third's\n"
		"                           ops/s stay within PCT%% (10) of their mean\n"
		"      --repeat N           run the workload N times: each run's IO Summary,\n"
		"                           then the mean, sd and 95%% interval per flowop\n"
		"      --fresh              with --repeat, make the filesets anew each run\n"
		"      --warmup SECONDS     run this long first, not measured (counters\n"
		"                           start again from zero at its end)\n"
		"      --keep               leave the filesets on disk after the run\n"
		"      --force              preallocate even if the files will not fit in\n"
		"                           the free space (checked before anything is made)\n"
		"      --allow-device-writes\n"
		"                           let write flowops write a fileset that is a\n"
		"                           block device (opened read-only without it)\n"
		"      --force-device       write such a device even though libblkid finds\n"
		"                           a file system, partition table or other\n"
		"                           signature on it\n"
		"      --data PATTERN       what is written where the script does not say:\n"
		"                           zeros, bonnie, random or compress=N (percent)\n"
		"      --seed N             draw every random number from N (0 to 2^63-1;\n"
		"                           0 unless given): the same N, the same trees,\n"
		"                           files and, per thread, operations\n"
		"      --continue-on-error  count failed operations and keep running\n"
		"      --stonewall          fbrun-mpi: the first rank whose work is done\n"
		"                           ends the run for all\n"
		"  -q, --quiet              no log or status lines, only the results\n"
		"      --parse-only         check the script and exit\n"
		"      --dump-ast           print the syntax tree and exit\n"
		"      --dump-ir            print the compiled workload and exit\n"
		"      --list-flowops       list the flowops and what they do\n"
		"      --list-attributes    print the attribute reference (markdown)\n"
		"      --list-workloads     list the shipped workloads\n"
		"      --show NAME          print a shipped workload (e.g. bonnie/putc)\n"
		"  -h, --help               show this help\n"
		"  -V, --version            show the version and what the build has\n"
		"\n"
		"Exit status: 0 ok, 1 the run failed or was interrupted (its results\n"
		"are printed), 2 usage or script error.\n");
}

static void list_flowops(void)
{
	for (int i = 0; i < FO_NTYPES; i++)
		printf("%-16s %s\n", flowop_info[i].name, flowop_info[i].help);
}

static void print_table(const struct attr_table *t, const char *title,
			const char *note)
{
	printf("\n## %s\n\n%s%s| attribute | type | default | meaning |\n"
	       "|---|---|---|---|\n",
	       title, note, note[0] ? "\n\n" : "");
	for (size_t i = 0; i < t->n; i++) {
		const struct attr_spec *s = &t->specs[i];
		static const char *const types[] = {
			[AT_INT] = "integer", [AT_BOOL] = "boolean",
			[AT_STR] = "word", [AT_VALUE] = "integer",
			[AT_PCT] = "percent", [AT_ENUM] = "word",
			[AT_REF] = "name", [AT_LIST] = "table",
			[AT_OBSOLETE] = "obsolete",
			[AT_DATA] = "word",
		};
		char def[32] = "";

		if ((s->type == AT_INT || s->type == AT_VALUE ||
		     s->type == AT_PCT) && (s->def || s->type != AT_VALUE))
			format_size(def, sizeof(def), s->def);
		if (s->type == AT_ENUM)
			snprintf(def, sizeof(def), "%s", s->words[s->def]);
		if (s->type == AT_BOOL)
			snprintf(def, sizeof(def), "false");
		if (s->flags & A_REQUIRED)
			snprintf(def, sizeof(def), "required");
		if ((s->type == AT_INT && s->def < 0) || s->type == AT_DATA)
			snprintf(def, sizeof(def), "-");
		printf("| `%s`%s%s%s | %s%s | %s | %s |\n", s->name,
		       s->alias ? " (`" : "", s->alias ? s->alias : "",
		       s->alias ? "`)" : "",
		       s->type == AT_DATA && !s->words ? "percent" :
							 types[s->type],
		       (s->flags & A_RANDOM) ? ", random ok" : "", def,
		       s->help);
	}
}

/* Markdown reference of every attribute, from the compiler's own tables. */
static void list_attributes(void)
{
	printf("# Attribute reference\n\n"
	       "Generated by `fbrun --list-attributes` from the tables the "
	       "compiler checks scripts against.\n"
	       "\"random ok\" means a random variable may be given; it is "
	       "sampled at each use.\n");
	print_table(&attr_fileset, "define fileset / define file",
		    "`define file` takes name, path, size, prealloc, paralloc, "
		    "reuse, trusttree, readonly, writeonly, shared, data "
		    "and compress.");
	print_table(&attr_process, "define process", "");
	print_table(&attr_thread, "thread", "");
	print_table(&attr_flowop, "flowop", "");
	print_table(&attr_composite, "define flowop (composite)",
		    "Local variables are declared as `$name=default` and set "
		    "per use as `flowop NAME name=x, $name=value`.");
	print_table(&attr_randvar, "randvar(...)", "");
	print_table(&attr_cvar, "cvar(...)", "");
	print_table(&attr_eventgen, "eventgen", "");
	printf("\n## Flowops\n\n| flowop | attributes it uses | what it "
	       "does |\n|---|---|---|\n");
	for (int i = 0; i < FO_NTYPES; i++) {
		printf("| `%s` |", flowop_info[i].name);
		for (int a = FA_FILESET; a < FA_COUNT; a++)
			if (flowop_info[i].uses & (1u << a))
				printf(" %s", attr_flowop.specs[a].name);
		printf(" | %s |\n", flowop_info[i].help);
	}
}

static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z') ||
			(s[0] >= 'a' && s[0] <= 'z')))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= 'a' && s[i] <= 'z')))
			return false;
	return true;
}

static int add_define(struct options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	const char *name = arg[0] == '$' ? arg + 1 : arg;

	if (!eq || !valid_name(name, (size_t)(eq - name))) {
		fb_error("-D expects NAME=VALUE with NAME a variable name, "
			 "got '%s'",
			 arg);
		return -1;
	}
	o->defines = grow_array(o->defines, &o->cap, o->ndefines + 1,
				sizeof(*o->defines));
	o->defines[o->ndefines].name = xstrndup(name, (size_t)(eq - name));
	o->defines[o->ndefines].value = eq + 1;
	o->ndefines++;
	return 0;
}

/* A whole number of seconds, 1 to MAX_SECONDS, for option opt. */
static int seconds_arg(const char *opt, const char *arg, uint64_t *out)
{
	int64_t n;

	if (parse_int(arg, strlen(arg), &n) != NUM_OK || n <= 0 ||
	    n > MAX_SECONDS) {
		fb_error("%s expects 1 to %lld seconds, got '%s'", opt,
			 (long long)MAX_SECONDS, arg);
		return -1;
	}
	*out = (uint64_t)n;
	return 0;
}

/* --steady[=PCT]: 10% unless given, 1 to 100. */
static int steady_arg(const char *arg, double *out)
{
	int64_t n;

	if (!arg) {
		*out = 10;
		return 0;
	}
	if (parse_int(arg, strlen(arg), &n) != NUM_OK || n < 1 || n > 100)
		return fb_error("--steady=PCT expects a percentage from 1 to "
				"100, got '%s'",
				arg);
	*out = (double)n;
	return 0;
}

/*
 * --seed N: decimal digits only, 0 to 2^63-1, so that the JSON's seed
 * reads back exactly in any reader of 64-bit integers.
 */
static int seed_arg(const char *arg, uint64_t *out)
{
	int64_t n;

	if (!arg[0] || strspn(arg, "0123456789") != strlen(arg) ||
	    parse_int(arg, strlen(arg), &n) != NUM_OK)
		return fb_error("--seed expects a whole number from 0 to "
				"%" PRId64 ", got '%s'",
				INT64_MAX, arg);
	*out = (uint64_t)n;
	return 0;
}

/* --interval-log FILE needs --interval, and a file of its own (not -o's). */
static int interval_log_arg(const struct options *o)
{
	if (!o->interval_log)
		return 0;
	if (!o->interval_log[0])
		return fb_error("--interval-log needs a file name");
	if (!o->run.interval_s)
		return fb_error("--interval-log needs --interval (the lines "
				"it writes)");
	if (o->run.output && strcmp(o->run.output, o->interval_log) == 0)
		return fb_error("--interval-log and -o name one file, '%s'",
				o->interval_log);
	return 0;
}

/* Returns -1 to exit with FB_EXIT_USAGE, 1 to exit with FB_EXIT_OK. */
static int parse_args(int argc, char **argv, struct options *o)
{
	enum {
		OPT_PARSE_ONLY = 256,
		OPT_DUMP_AST,
		OPT_DUMP_IR,
		OPT_LIST,
		OPT_ATTRS,
		OPT_FORMAT,
		OPT_KEEP,
		OPT_CONTINUE,
		OPT_WORKLOADS,
		OPT_SHOW,
		OPT_DATA,
		OPT_INTERVAL,
		OPT_INTERVAL_FLOWOPS,
		OPT_FORCE,
		OPT_STONEWALL,
		OPT_DEVICE_WRITES,
		OPT_FORCE_DEVICE,
		OPT_WARMUP,
		OPT_STEADY,
		OPT_REPEAT,
		OPT_FRESH,
		OPT_SEED,
		OPT_INTERVAL_LOG,
	};
	static const struct option longopts[] = {
		{ "define", required_argument, NULL, 'D' },
		{ "runtime", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "interval-flowops", no_argument, NULL, OPT_INTERVAL_FLOWOPS },
		{ "interval-log", required_argument, NULL, OPT_INTERVAL_LOG },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "steady", optional_argument, NULL, OPT_STEADY },
		{ "repeat", required_argument, NULL, OPT_REPEAT },
		{ "fresh", no_argument, NULL, OPT_FRESH },
		{ "keep", no_argument, NULL, OPT_KEEP },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "allow-device-writes", no_argument, NULL, OPT_DEVICE_WRITES },
		{ "force-device", no_argument, NULL, OPT_FORCE_DEVICE },
		{ "data", required_argument, NULL, OPT_DATA },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "continue-on-error", no_argument, NULL, OPT_CONTINUE },
		{ "stonewall", no_argument, NULL, OPT_STONEWALL },
		{ "quiet", no_argument, NULL, 'q' },
		{ "parse-only", no_argument, NULL, OPT_PARSE_ONLY },
		{ "dump-ast", no_argument, NULL, OPT_DUMP_AST },
		{ "dump-ir", no_argument, NULL, OPT_DUMP_IR },
		{ "list-flowops", no_argument, NULL, OPT_LIST },
		{ "list-attributes", no_argument, NULL, OPT_ATTRS },
		{ "list-workloads", no_argument, NULL, OPT_WORKLOADS },
		{ "show", required_argument, NULL, OPT_SHOW },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":D:t:o:qhV", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 't':
			if (seconds_arg("--runtime", optarg,
					&o->run.runtime_s) < 0)
				return -1;
			break;
		case 'o':
			o->run.output = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
			    strcmp(optarg, "csv")) {
				fb_error("--format expects text, json or csv, "
					 "got '%s'",
					 optarg);
				return -1;
			}
			o->format = optarg[0] == 'j' ? FORMAT_JSON :
					optarg[0] == 'c' ? FORMAT_CSV :
							   FORMAT_TEXT;
			break;
		case OPT_INTERVAL:
			if (seconds_arg("--interval", optarg,
					&o->run.interval_s) < 0)
				return -1;
			break;
		case OPT_WARMUP:
			if (seconds_arg("--warmup", optarg,
					&o->run.warmup_s) < 0)
				return -1;
			break;
		case OPT_REPEAT: {
			int64_t n;

			if (parse_int(optarg, strlen(optarg), &n) != NUM_OK ||
			    n < 2 || n > MAX_REPEAT)
				return fb_error("--repeat expects 2 to %d runs, "
						"got '%s'",
						MAX_REPEAT, optarg);
			o->repeat = (uint64_t)n;
			break;
		}
		case OPT_FRESH:
			o->fresh = true;
			break;
		case OPT_STEADY:
			if (steady_arg(optarg, &o->run.steady_pct) < 0)
				return -1;
			break;
		case OPT_INTERVAL_FLOWOPS:
			o->run.interval_flowops = true;
			break;
		case OPT_INTERVAL_LOG:
			o->interval_log = optarg;
			break;
		case OPT_KEEP:
			o->run.keep = true;
			break;
		case OPT_FORCE:
			o->run.force = true;
			break;
		case OPT_DEVICE_WRITES:
			o->run.allow_device_writes = true;
			break;
		case OPT_FORCE_DEVICE:
			o->run.force_device = true;
			break;
		case OPT_DATA: {
			char err[160];

			if (datapat_parse(optarg, &o->run.data, err,
					  sizeof(err)) < 0) {
				return fb_error("--data %s", err);
			}
			break;
		}
		case OPT_SEED:
			if (seed_arg(optarg, &o->run.seed) < 0)
				return -1;
			break;
		case OPT_CONTINUE:
			o->run.continue_on_error = true;
			break;
		case OPT_STONEWALL:
			o->stonewall = true;
			break;
		case 'q':
			o->run.quiet = true;
			break;
		case 'D':
			if (add_define(o, optarg) < 0)
				return -1;
			break;
		case OPT_PARSE_ONLY:
			o->action = ACT_PARSE_ONLY;
			break;
		case OPT_DUMP_AST:
			o->action = ACT_DUMP_AST;
			break;
		case OPT_DUMP_IR:
			o->action = ACT_DUMP_IR;
			break;
		case OPT_LIST:
			list_flowops();
			return 1;
		case OPT_ATTRS:
			list_attributes();
			return 1;
		case OPT_WORKLOADS:
			return catalog_list(stdout) < 0 ? -1 : 1;
		case OPT_SHOW:
			return catalog_show(stdout, optarg) < 0 ? -1 : 1;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			build_print(stdout);
			return 1;
		case ':':
			return msg_bad_option(c, argv, optind);
		default:
			msg_bad_option(c, argv, optind);
			usage(stderr);
			return -1;
		}
	}
	if (o->fresh && !o->repeat)
		return fb_error("--fresh needs --repeat");
	if (o->run.steady_pct > 0 && !o->run.interval_s)
		return fb_error("--steady needs --interval (the series it "
				"judges)");
	if (o->run.interval_flowops && !o->run.interval_s) {
		return fb_error("--interval-flowops needs --interval");
	}
	if (interval_log_arg(o) < 0)
		return -1;
	if (o->stonewall && !o->peers)
		return fb_error("--stonewall is for fbrun-mpi, whose ranks it "
				"stops together");
	if (optind != argc - 1) {
		fb_error("%s", optind >= argc ? "no script given" :
						"one script at a time");
		usage(stderr);
		return -1;
	}
	o->script = catalog_resolve(argv[optind]);
	return 0;
}

/* The -D options as a source, so notes can point at them. */
static struct source *defines_source(const struct options *o,
				     struct loc **locs)
{
	char *text = xstrdup(""), *next;
	struct source *src;

	*locs = xcalloc(o->ndefines ? o->ndefines : 1, sizeof(**locs));
	for (size_t i = 0; i < o->ndefines; i++) {
		int start = (int)strlen(text) + 3;

		(*locs)[i] = (struct loc){ start,
					   start + (int)strlen(o->defines[i].name) };
		next = xasprintf("%s-D %s=%s\n", text, o->defines[i].name,
				 o->defines[i].value);
		free(text);
		text = next;
	}
	src = source_from_string("<command line>", text, strlen(text));
	free(text);
	return src;
}

/*
 * The script: read here, or in a job, read by rank 0 and its text sent
 * to every rank, so only the launching node needs the file.
 */
static struct script *load_script(const struct options *o)
{
	struct script *sc = NULL;
	const struct source *src;
	char *text;
	size_t len = 0;

	if (!o->peers || job_rank(o->peers) == 0)
		sc = script_new(o->script);
	if (!o->peers)
		return sc;
	src = sc ? script_source(sc) : NULL;
	text = job_share(o->peers, src ? source_text(src) : NULL,
			 src ? source_len(src) : 0, &len);
	if (text && job_rank(o->peers) != 0)
		sc = script_from_text(o->script, text, len);
	free(text);
	return sc;
}

/*
 * --repeat N: the workload run N times, its filesets made once (the runs
 * are a series, as fbrun bonnie's phases) unless --fresh; a failed or
 * interrupted run ends the series, and what was measured is summarised.
 */
static int run_repeated(const struct options *o, const struct workload *w,
			struct engine_opts *eo, const struct report_dest *dest)
{
	struct repeat *rp = repeat_new(dest, (size_t)o->repeat);
	int rc = FB_EXIT_OK;

	eo->deliver = repeat_deliver;
	eo->deliver_arg = rp;
	for (uint64_t i = 0; i < o->repeat; i++) {
		eo->series = eo->series_reuse = !o->fresh;
		eo->series_last = i + 1 == o->repeat;
		rc = engine_run(w, eo);
		/* in a job the agreed status says it, signals included */
		if (rc != FB_EXIT_OK || (!o->peers && timeline_signalled))
			break;
	}
	/* in a job, rank 0 keeps the runs and says what they were */
	if (o->peers && job_rank(o->peers) != 0) {
		repeat_free(rp);
		return rc;
	}
	if (repeat_count(rp) < o->repeat)
		fb_warning("%zu of %" PRIu64 " runs done; their statistics "
			   "follow",
			   repeat_count(rp), o->repeat);
	if (repeat_finish(rp) < 0 && rc == FB_EXIT_OK)
		rc = FB_EXIT_RUN;
	repeat_free(rp);
	return rc;
}

/*
 * The run with --interval-log: the log is rank 0's to write, as -o is,
 * and closed after every run of --repeat; a log that could not be
 * written fails the run (exit 1), as -o does.
 */
static int run_logged(const struct options *o, const struct workload *w,
		      struct engine_opts *eo, const struct report_dest *dest)
{
	int rc;

	if (o->interval_log && (!o->peers || job_rank(o->peers) == 0))
		eo->ivlog = ivlog_new(o->interval_log);
	rc = o->repeat ? run_repeated(o, w, eo, dest) : engine_run(w, eo);
	if (ivlog_close(eo->ivlog) < 0 && rc == FB_EXIT_OK)
		rc = FB_EXIT_RUN;
	ivlog_free(eo->ivlog);
	eo->ivlog = NULL;
	return rc;
}

static int run(const struct options *o)
{
	struct diag *d;
	struct script *sc = load_script(o);
	struct source *cli;
	const struct workload *w;
	struct compile_opts copts = { 0 };
	struct loc *locs = NULL;
	unsigned rank = o->peers ? job_rank(o->peers) : 0;
	/* rank 0 tells what is wrong with the script; the others agree */
	FILE *sink = rank != 0 ? fopen("/dev/null", "w") : NULL;
	int rc = FB_EXIT_USAGE;

	if (!sc) {
		if (sink)
			fclose(sink);
		return FB_EXIT_USAGE;
	}
	d = diag_new(sink ? sink : stderr, MAX_ERRORS);
	msg_mute(rank != 0);
	cli = defines_source(o, &locs);
	if (script_parse(sc, d) < 0) {
		/* the same text: every rank finds the same error */
		msg_mute(false);
		goto out;
	}
	if (o->action == ACT_DUMP_AST) {
		ast_dump(stdout, script_source(sc), script_ast(sc));
		rc = FB_EXIT_OK;
		goto out;
	}
	copts.defines = o->defines;
	copts.ndefines = o->ndefines;
	copts.cli_src = cli;
	copts.define_locs = locs;
	copts.rank = rank;
	copts.nranks = o->peers ? job_size(o->peers) : 1;
	copts.rank_dirs = o->peers != NULL;
	copts.seed = o->run.seed;
	w = script_compile(sc, &copts, d);
	if (o->peers && job_agree(o->peers, w ? 0 : 1)) {
		msg_mute(false);
		if (w && rank == 0)
			fb_error("the script does not check on every rank (a "
				 "value that depends on $rank?); nothing was "
				 "run");
		w = NULL;
	}
	msg_mute(false);
	if (!w)
		goto out;
	rc = FB_EXIT_OK;
	if (o->action == ACT_DUMP_IR)
		workload_dump(stdout, w);
	else if (o->action == ACT_RUN) {
		struct engine_opts eo = o->run;
		struct report_dest dest = { o->format, o->run.output, NULL,
					    o->run.data };

		eo.script = dest.script = source_name(script_source(sc));
		/* JSON or CSV on stdout must stay parseable: no log lines */
		if (o->format != FORMAT_TEXT)
			eo.quiet = eo.data_on_stdout = true;
		eo.deliver = report_deliver;
		eo.deliver_arg = &dest;
		if (o->peers) {
			eo.peers = job_engine(o->peers, o->stonewall);
			/* rank 0 speaks for the job and writes its results */
			/* each rank draws its own numbers from the seed */
			if (rank != 0)
				eo.quiet = true, eo.output = NULL;
		}
		rc = run_logged(o, w, &eo, &dest);
	}
out:
	diag_finish(d);
	if (diag_error_count(d) && rc == FB_EXIT_OK)
		rc = FB_EXIT_USAGE;
	script_free(sc);
	source_free(cli);
	free(locs);
	diag_free(d);
	if (sink)
		fclose(sink);
	return rc;
}

/* Results that could not be written (a full disk, /dev/full) are a failure. */
static int check_stdout(int rc)
{
	if (fflush(stdout) != 0)
		fb_error("cannot write to standard output: %s",
			 strerror(errno));
	else if (ferror(stdout))
		fb_error("cannot write to standard output");
	else
		return rc;
	return rc == FB_EXIT_OK ? FB_EXIT_RUN : rc;
}

/*
 * fbrun-mpi: rank 0 prints for the job; the others print only what goes
 * wrong with them, their messages named by rank.
 */
static void join_job(struct options *o, int *argc, char ***argv)
{
	static char name[48];
	unsigned rank;

	o->peers = job_new(argc, argv);
	if (!o->peers)
		return;
	rank = job_rank(o->peers);
	if (rank == 0) {
		msg_program("fbrun-mpi");
		return;
	}
	snprintf(name, sizeof(name), "fbrun-mpi: rank %u", rank);
	msg_program(name);
	if (!freopen("/dev/null", "w", stdout))
		fclose(stdout);
	msg_mute(true); /* while the options are checked */
}

int main(int argc, char **argv)
{
	struct options o = { .action = ACT_RUN };
	int rc;

	join_job(&o, &argc, &argv);
	build_set_mpi(job_library());
	/* "fbrun compare A.json B.json ...": a subcommand with its own options */
	if (argc > 1 && (strcmp(argv[1], "compare") == 0 ||
			 strcmp(argv[1], "report") == 0) && o.peers) {
		msg_mute(job_rank(o.peers) != 0);
		fb_error("%s reads results files in one process: run it with "
			 "fbrun", argv[1]);
		job_free(o.peers);
		return FB_EXIT_USAGE;
	}
	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return check_stdout(compare_main(argc - 1, argv + 1));
	/* "fbrun report RUN.json": a saved run printed again */
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return check_stdout(report_command(argc - 1, argv + 1));
	/* "fbrun bonnie ...": bonnie++'s tests, its options */
	if (argc > 1 && strcmp(argv[1], "bonnie") == 0) {
		msg_mute(false);
		rc = bonnie_main(argc - 1, argv + 1,
				 o.peers ? job_engine(o.peers, false) : NULL);
		job_free(o.peers);
		return check_stdout(rc);
	}
	rc = parse_args(argc, argv, &o);
	msg_mute(false);
	if (rc == 0)
		rc = run(&o);
	else
		rc = rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	for (size_t i = 0; i < o.ndefines; i++)
		free((char *)o.defines[i].name);
	free(o.defines);
	free((char *)o.script);
	job_free(o.peers);
	return check_stdout(rc);
}
