/* The attribute tables of every entity, and lookups in them (attr.h). */
#include "lang/attr.h"

#include <stddef.h>
#include <string.h>

#include "lang/datapat.h"
#include "lang/ir.h"
#include "util/util.h"

#define TABLE(ent, arr) { ent, arr, ARRAY_SIZE(arr) }
#define BIG INT64_MAX

/* ------------------------------------------------------------ filesets */
#define FS(f) offsetof(struct ir_fileset, f)
static const struct attr_spec fileset_specs[] = {
	{ "name", NULL, AT_STR, FS(name), 0, 0, 0, A_REQUIRED | A_FILE, NULL,
	  "name that flowops use in filesetname=" },
	{ "path", NULL, AT_STR, FS(path), 0, 0, 0, A_REQUIRED | A_FILE, NULL,
	  "directory under which the tree <path>/<name>/ is created" },
	{ "entries", NULL, AT_INT, FS(entries), 0, BIG, 0, 0, NULL,
	  "number of files in the fileset" },
	{ "size", "filesize", AT_VALUE, FS(size), 0, BIG, 1024,
	  A_RANDOM | A_SIZE | A_FILE, NULL,
	  "size of each file; a random variable gives each file its own" },
	{ "dirwidth", NULL, AT_VALUE, FS(dirwidth), 1, BIG, 0, A_RANDOM, NULL,
	  "mean number of entries per directory" },
	{ "dirgamma", NULL, AT_INT, FS(dirgamma), 0, BIG, 1500, 0, NULL,
	  "gamma shape x 1000 of directory widths and depths; 0 = fixed" },
	{ "dirdepthrv", NULL, AT_VALUE, FS(dirdepth), 0, 1000, 0, A_RANDOM,
	  NULL, "directory depth, usually a random variable" },
	{ "leafdirs", NULL, AT_INT, FS(leafdirs), 0, BIG, 0, 0, NULL,
	  "number of empty leaf directories for makedir/removedir" },
	{ "prealloc", NULL, AT_PCT, FS(prealloc), 0, 100, 0, A_FILE, NULL,
	  "percent of files created before the run (bare: 100)" },
	{ "paralloc", NULL, AT_BOOL, FS(paralloc), 0, 0, 0, A_FILE, NULL,
	  "preallocate files with several threads" },
	{ "reuse", NULL, AT_BOOL, FS(reuse), 0, 0, 0, A_FILE, NULL,
	  "keep an existing tree made by fbrun instead of recreating it" },
	{ "trusttree", NULL, AT_BOOL, FS(trusttree), 0, 0, 0, A_FILE, NULL,
	  "with reuse: assume every file exists without checking" },
	{ "readonly", NULL, AT_BOOL, FS(readonly), 0, 0, 0, A_FILE, NULL,
	  "open files read-only" },
	{ "writeonly", NULL, AT_BOOL, FS(writeonly), 0, 0, 0, A_FILE, NULL,
	  "open files write-only" },
	{ "data", NULL, AT_DATA, FS(data), 0, 0, 0, A_FILE, datapat_words,
	  "what preallocation and the write flowops write: zeros, bonnie "
	  "or random (default: --data)" },
	{ "compress", NULL, AT_DATA, FS(data), 0, DATAPAT_MAX_PCT, 0, A_FILE,
	  NULL, "write data that gzip -1 shrinks by about this percent" },
	{ "cached", NULL, AT_OBSOLETE, 0, 0, 0, 0, A_FILE, NULL,
	  "has no effect; remove it" },
	{ "filesizegamma", NULL, AT_OBSOLETE, 0, 0, 0, 0, A_FILE, NULL,
	  "write size=$v with set $v = randvar(type=gamma, mean=SIZE, "
	  "gamma=N)" },
	{ "dirdepth", NULL, AT_OBSOLETE, 0, 0, 0, 0, 0, NULL,
	  "write dirdepthrv=N" },
};
const struct attr_table fileset_attrs = TABLE("fileset", fileset_specs);

/* ------------------------------------------------------------ processes */
#define PR(f) offsetof(struct ir_process, f)
static const struct attr_spec process_specs[] = {
	{ "name", NULL, AT_STR, PR(name), 0, 0, 0, A_REQUIRED, NULL,
	  "name of the process (a group of threads)" },
	{ "instances", NULL, AT_INT, PR(instances), 1, 1000000, 1, 0, NULL,
	  "number of copies of the process" },
	{ "nice", NULL, AT_INT, PR(nice), -20, 19, 0, 0, NULL,
	  "scheduling niceness of its threads" },
};
const struct attr_table process_attrs = TABLE("process", process_specs);

#define TH(f) offsetof(struct ir_thread, f)
static const struct attr_spec thread_specs[] = {
	{ "name", NULL, AT_STR, TH(name), 0, 0, 0, A_REQUIRED, NULL,
	  "name of the thread" },
	{ "instances", NULL, AT_INT, TH(instances), 1, 1000000, 1, 0, NULL,
	  "number of copies of the thread in each process instance" },
	{ "memsize", NULL, AT_INT, TH(memsize), 0, BIG, 0, A_SIZE, NULL,
	  "per-thread I/O buffer, allocated before the run; the part its I/O can use is touched then" },
	{ "useism", NULL, AT_BOOL, TH(useism), 0, 0, 0, 0, NULL,
	  "accepted for compatibility; the buffer is always private" },
	{ "ioprio", NULL, AT_INT, TH(ioprio), 0, 8, 8, 0, NULL,
	  "I/O priority 0 (high) to 7 (low) in the best-effort class; 8 = "
	  "unchanged" },
};
const struct attr_table thread_attrs = TABLE("thread", thread_specs);

/* ------------------------------------------------------------ flowops */
#define FO(f) offsetof(struct ir_flowop, f)
static const struct attr_spec flowop_specs[FA_COUNT] = {
	[FA_NAME] = { "name", NULL, AT_STR, FO(name), 0, 0, 0, A_REQUIRED,
		      NULL, "name shown in the results" },
	[FA_FILESET] = { "filesetname", "filename", AT_REF, FO(fileset), 0, 0,
			 0, 0, NULL, "fileset the flowop picks files from" },
	[FA_FD] = { "fd", NULL, AT_INT, FO(fd), 0, 1023, -1, 0, NULL,
		    "descriptor slot of the thread that holds the open file" },
	[FA_SRCFD] = { "srcfd", NULL, AT_INT, FO(srcfd), 0, 1023, -1, 0, NULL,
		       "slot whose file's size writewholefile writes" },
	[FA_IOSIZE] = { "iosize", NULL, AT_VALUE, FO(iosize), 0, BIG, 0,
			A_RANDOM | A_SIZE, NULL, "bytes per I/O" },
	[FA_WORKINGSET] = { "workingset", NULL, AT_VALUE, FO(workingset), 0,
			    BIG, 0, A_RANDOM | A_SIZE | A_ONCE, NULL,
			    "bytes of the file random I/O stays within; 0 = "
			    "whole file" },
	[FA_RANDOM] = { "random", NULL, AT_BOOL, FO(random), 0, 0, 0, 0, NULL,
			"random offsets instead of sequential I/O" },
	[FA_DSYNC] = { "dsync", NULL, AT_BOOL, FO(dsync), 0, 0, 0, 0, NULL,
		       "open with O_SYNC" },
	[FA_DIRECTIO] = { "directio", NULL, AT_BOOL, FO(directio), 0, 0, 0, 0,
			  NULL, "open with O_DIRECT" },
	[FA_OPENNEXT] = { "opennext", NULL, AT_BOOL, FO(opennext), 0, 0, 0, 0,
			  NULL, "each thread walks the fileset with its own "
				"position" },
	[FA_NOREADAHEAD] = { "noreadahead", NULL, AT_BOOL, FO(noreadahead), 0,
			     0, 0, 0, NULL, "advise the kernel not to read "
					    "ahead" },
	[FA_INDEXED] = { "indexed", NULL, AT_VALUE, FO(indexed), 0, BIG, 0,
			 A_RANDOM, NULL, "pick the file with this number "
					 "(modulo entries) instead of in turn" },
	[FA_ITERS] = { "iters", NULL, AT_INT, FO(iters), 1, BIG, 1, 0, NULL,
		       "run the flowop this many times in a row" },
	[FA_VALUE] = { "value", NULL, AT_VALUE, FO(value), 0, BIG, 0,
		       A_RANDOM | A_STRING | A_ONCE, NULL,
		       "seconds (delay), loops (hog), a limit (finishon*), "
		       "units (sem*), text (print)" },
	[FA_TARGET] = { "target", NULL, AT_REF, FO(target), 0, 0, 0, 0, NULL,
			"name of the flowop this one acts on or counts" },
	[FA_BLOCKING] = { "blocking", NULL, AT_BOOL, FO(blocking), 0, 0, 0, 0,
			  NULL, "sempost: wait while the semaphore is above "
				"highwater" },
	[FA_HIGHWATER] = { "highwater", NULL, AT_INT, FO(highwater), 1, BIG, 1,
			   0, NULL, "semaphore level where a blocking sempost "
				    "waits" },
	[FA_DATA] = { "data", NULL, AT_DATA, FO(data), 0, 0, 0, 0,
		      datapat_words, "what the write flowops write: zeros, "
				     "bonnie or random (default: the "
				     "fileset's)" },
	[FA_COMPRESS] = { "compress", NULL, AT_DATA, FO(data), 0,
			  DATAPAT_MAX_PCT, 0, 0, NULL,
			  "write data that gzip -1 shrinks by about this "
			  "percent" },
	[FA_ROTATEFD] = { "rotatefd", NULL, AT_OBSOLETE, 0, 0, 0, 0, 0, NULL,
			  "write opennext" },
	[FA_ENTRIES] = { "entries", NULL, AT_VALUE, FO(entries), 0, BIG, 0,
			 0, NULL, "number of files createnext makes (default: "
				  "no limit)" },
	[FA_DIRS] = { "dirs", NULL, AT_INT, FO(dirs), 0, 99999, 0, 0, NULL,
		      "files go in this many subdirectories 00000, 00001, "
		      "...; 0 or 1: the fileset's root" },
	[FA_FILESIZE] = { "filesize", NULL, AT_VALUE, FO(filesize), 0, BIG, 0,
			  A_RANDOM | A_SIZE, NULL,
			  "bytes written into each file createnext makes" },
	[FA_FSYNC] = { "fsync", NULL, AT_BOOL, FO(fsync), 0, 0, 0, 0, NULL,
		       "fsync each file written and its directory (bonnie++ "
		       "-b)" },
	[FA_DELETE] = { "delete", NULL, AT_BOOL, FO(del), 0, 0, 0, 0, NULL,
			"seekrw: the first thread out of tickets removes the "
			"file once it has closed it (bonnie++'s seekers do)" },
};
const struct attr_table flowop_attrs = TABLE("flowop", flowop_specs);

static const struct attr_spec composite_specs[] = {
	{ "name", NULL, AT_STR, FO(composite), 0, 0, 0, A_REQUIRED, NULL,
	  "flowop type name that threads use to run this sequence" },
	{ "iters", NULL, AT_INT, FO(iters), 1, BIG, 1, 0, NULL,
	  "run the whole sequence this many times per pass" },
};
const struct attr_table composite_attrs = TABLE("flowop", composite_specs);

/* ------------------------------------------------------------ randvars */
static const char *const rv_types[] = { "uniform", "gamma", "tabular", NULL };
static const char *const rv_srcs[] = { "rand48", "urandom", NULL };

#define RV(f) offsetof(struct rv_form, f)
static const struct attr_spec randvar_specs[] = {
	{ "type", NULL, AT_ENUM, RV(type), 0, 0, 0, 0, rv_types,
	  "distribution: uniform, gamma or tabular" },
	{ "randsrc", NULL, AT_ENUM, RV(randsrc), 0, 0, 0, 0, rv_srcs,
	  "rand48 (repeatable with seed) or urandom" },
	{ "seed", NULL, AT_INT, RV(seed), 0, BIG, 0, 0, NULL,
	  "seed of the generator (rand48)" },
	{ "gamma", NULL, AT_INT, RV(gamma), 1, BIG, 1500, 0, NULL,
	  "gamma shape x 1000" },
	{ "mean", NULL, AT_INT, RV(mean), 0, BIG, 0, A_SIZE, NULL,
	  "mean of the values (min included)" },
	{ "min", NULL, AT_INT, RV(min), 0, BIG, 0, A_SIZE, NULL,
	  "smallest value" },
	{ "round", NULL, AT_INT, RV(round), 0, BIG, 0, A_SIZE, NULL,
	  "round samples to a multiple of this" },
	{ "randtable", NULL, AT_LIST, 0, 0, 0, 0, 0, NULL,
	  "tabular bins {{percent, min, max}, ...}" },
	{ "name", NULL, AT_STR, RV(name), 0, 0, 0, 0, NULL,
	  "old form only: the variable to define" },
};
const struct attr_table randvar_attrs = TABLE("randvar", randvar_specs);

#define CV(f) offsetof(struct cvar_form, f)
static const struct attr_spec cvar_specs[] = {
	{ "type", NULL, AT_STR, CV(type), 0, 0, 0, A_REQUIRED, NULL,
	  "distribution: cvar-gamma, cvar-normal, cvar-uniform, "
	  "cvar-exponential, cvar-erlang, cvar-lognormal, cvar-triangular, "
	  "cvar-weibull" },
	{ "parameters", NULL, AT_STR, CV(parameters), 0, 0, 0, 0, NULL,
	  "distribution parameters \"key:value;key:value\"" },
	{ "min", NULL, AT_INT, CV(min), 0, BIG, 0, A_SIZE, NULL,
	  "smallest value" },
	{ "max", NULL, AT_INT, CV(max), 0, BIG, 0, A_SIZE, NULL,
	  "largest value" },
	{ "round", NULL, AT_INT, CV(round), 0, BIG, 0, A_SIZE, NULL,
	  "round samples to a multiple of this" },
};
const struct attr_table cvar_attrs = TABLE("cvar", cvar_specs);

static const struct attr_spec eventgen_specs[] = {
	{ "rate", NULL, AT_INT, offsetof(struct eventgen_form, rate), 0, BIG, 0, A_REQUIRED, NULL,
	  "events per second for the *limit flowops" },
};
const struct attr_table eventgen_attrs = TABLE("eventgen", eventgen_specs);

const struct attr_spec *attr_lookup(const struct attr_table *t,
				    const char *name)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct attr_spec *s = &t->specs[i];

		if (strcmp(s->name, name) == 0 ||
		    (s->alias && strcmp(s->alias, name) == 0))
			return s;
	}
	return NULL;
}

const char *attr_suggest(const struct attr_table *t, const char *name)
{
	return did_you_mean(name, &t->specs[0].name, t->n,
			    sizeof(t->specs[0]));
}
