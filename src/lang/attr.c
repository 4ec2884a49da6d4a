/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* The attribute tables of every entity, and lookups in them (attr.h). */
#include "lang/attr.h"

#include <stddef.h>
#include <string.h>

#include "lang/datapat.h"
#include "lang/ir.h"
#include "util/util.h"

#define TABLE(ent, arr) { .entity = ent, .specs = arr, .n = ARRAY_SIZE(arr) }
#define BIG INT64_MAX

/* ------------------------------------------------------------ open loop */
/*
 * rate=, arrivals= and backlog= of a thread, a process or a flowop: the
 * same rows in each table, at the offsets of its struct ir_rate.
 */
static const char *const arrival_words[] = { "fixed", "poisson", NULL };
#define OPEN_LOOP_ROWS(at, what, each)                                        \
	{ .name = "rate", .type = AT_RATE, .off = (at),                        \
	  .max = MAX_RATE,                                                     \
	  .help = "open loop: " each " an arrival, this many per second "      \
		  what "; N/job: N for the whole fbrun-mpi job, split over "   \
		  "its ranks (not given: a closed loop)" },                    \
	{ .name = "arrivals", .type = AT_ENUM,                                 \
	  .off = (at) + offsetof(struct ir_rate, arrivals),                   \
	  .words = arrival_words,                                              \
	  .help = "with rate: fixed, evenly spaced; poisson, at random "       \
		  "(exponential gaps, drawn from --seed)" },                   \
	{ .name = "backlog", .type = AT_INT,                                   \
	  .off = (at) + offsetof(struct ir_rate, backlog),                     \
	  .max = MAX_BACKLOG,                                                  \
	  .def = 1000000,                                                      \
	  .help = "with rate: arrivals that may wait while the thread is "     \
		  "behind; later ones are dropped and counted" }

/* ------------------------------------------------------------ filesets */
#define FS(f) offsetof(struct ir_fileset, f)
static const struct attr_spec fileset_specs[] = {
	{ .name = "name", .type = AT_STR, .off = FS(name),
	  .flags = A_REQUIRED | A_FILE,
	  .help = "name that flowops use in filesetname=" },
	{ .name = "path", .type = AT_STR, .off = FS(path),
	  .flags = A_REQUIRED | A_FILE,
	  .help = "directory under which the tree <path>/<name>/ is created" },
	{ .name = "entries", .type = AT_INT, .off = FS(entries), .max = BIG,
	  .help = "number of files in the fileset" },
	{ .name = "size", .alias = "filesize", .type = AT_VALUE,
	  .off = FS(size), .max = BIG, .def = 1024,
	  .flags = A_RANDOM | A_SIZE | A_FILE,
	  .help = "size of each file; a random variable gives each file its "
		  "own" },
	{ .name = "dirwidth", .type = AT_VALUE, .off = FS(dirwidth), .min = 1,
	  .max = BIG, .flags = A_RANDOM,
	  .help = "mean number of entries per directory" },
	{ .name = "dirgamma", .type = AT_INT, .off = FS(dirgamma), .max = BIG,
	  .def = 1500,
	  .help = "gamma shape x 1000 of directory widths and depths; 0 = "
		  "fixed" },
	{ .name = "dirdepthrv", .type = AT_VALUE, .off = FS(dirdepth),
	  .max = 1000, .flags = A_RANDOM,
	  .help = "directory depth, usually a random variable" },
	{ .name = "leafdirs", .type = AT_INT, .off = FS(leafdirs), .max = BIG,
	  .help = "number of empty leaf directories for makedir/removedir" },
	{ .name = "prealloc", .type = AT_PCT, .off = FS(prealloc), .max = 100,
	  .flags = A_FILE,
	  .help = "percent of files created before the run (bare: 100)" },
	{ .name = "paralloc", .type = AT_BOOL, .off = FS(paralloc),
	  .flags = A_FILE, .help = "preallocate files with several threads" },
	{ .name = "reuse", .type = AT_BOOL, .off = FS(reuse), .flags = A_FILE,
	  .help = "keep an existing tree made by fbrun instead of "
		  "recreating it" },
	{ .name = "trusttree", .type = AT_BOOL, .off = FS(trusttree),
	  .flags = A_FILE,
	  .help = "with reuse: assume every file exists without checking" },
	{ .name = "removeafter", .type = AT_BOOL, .off = FS(removeafter),
	  .help = "with reuse: remove the tree after the run all the same "
		  "(the last phase of a series, such as mdtest's delete)" },
	{ .name = "readonly", .type = AT_BOOL, .off = FS(readonly),
	  .flags = A_FILE, .help = "open files read-only" },
	{ .name = "writeonly", .type = AT_BOOL, .off = FS(writeonly),
	  .flags = A_FILE, .help = "open files write-only" },
	{ .name = "shared", .type = AT_BOOL, .off = FS(shared), .flags = A_FILE,
	  .help = "fbrun-mpi: one tree for every rank, made by rank 0, "
		  "holding entries (and leafdirs) for each rank, entry i rank "
		  "i mod nranks's (without it: a tree per rank under "
		  "<path>/rank-N)" },
	{ .name = "rankshift", .type = AT_INT, .off = FS(rankshift),
	  .max = BIG,
	  .help = "fbrun-mpi, with shared: each rank works on the entries of "
		  "the rank this many after it, so none reads what it wrote "
		  "itself (mdtest -N)" },
	{ .name = "verify", .type = AT_BOOL, .off = FS(verify),
	  .flags = A_FILE,
	  .help = "write 4 KiB blocks stamped with the file, the offset and "
		  "a checksum (instead of data=), and check what every read "
		  "gets against them" },
	{ .name = "data", .type = AT_DATA, .off = FS(data), .flags = A_FILE,
	  .words = datapat_words,
	  .help = "what preallocation and the write flowops write: zeros, "
		  "bonnie or random (default: --data)" },
	{ .name = "compress", .type = AT_DATA, .off = FS(data),
	  .max = DATAPAT_MAX_PCT, .flags = A_FILE,
	  .help = "write data that gzip -1 shrinks by about this percent" },
	{ .name = "cached", .type = AT_OBSOLETE, .flags = A_FILE,
	  .help = "has no effect; remove it" },
	{ .name = "filesizegamma", .type = AT_OBSOLETE, .flags = A_FILE,
	  .help = "write size=$v with set $v = randvar(type=gamma, "
		  "mean=SIZE, gamma=N)" },
	{ .name = "dirdepth", .type = AT_OBSOLETE,
	  .help = "write dirdepthrv=N" },
};
const struct attr_table attr_fileset = TABLE("fileset", fileset_specs);

/* ------------------------------------------------------------ traces */
#define TR(f) offsetof(struct ir_trace, f)
/* the formats format= takes besides auto; compile_trace.c checks it */
static const char *const trace_formats[] = {
#define TRACE_FORMAT(id, name, read, looks) name,
#include "trace/format_list.h"
#undef TRACE_FORMAT
	NULL
};
static const struct attr_spec trace_specs[] = {
	{ .name = "name", .type = AT_STR, .off = TR(name), .flags = A_REQUIRED,
	  .help = "name that replay flowops use in trace=" },
	{ .name = "path", .type = AT_STR, .off = TR(path), .flags = A_REQUIRED,
	  .help = "the trace file, read and checked when the script is "
		  "compiled (doc/trace-format.md)" },
	{ .name = "format", .type = AT_STR, .off = TR(format),
	  .words = trace_formats, .help = "auto (from its first lines)" },
};
const struct attr_table attr_trace = TABLE("trace", trace_specs);

/* ------------------------------------------------------------ processes */
#define PR(f) offsetof(struct ir_process, f)
static const struct attr_spec process_specs[] = {
	{ .name = "name", .type = AT_STR, .off = PR(name), .flags = A_REQUIRED,
	  .help = "name of the process (a group of threads)" },
	{ .name = "instances", .type = AT_INT, .off = PR(instances), .min = 1,
	  .max = 1000000, .def = 1, .help = "number of copies of the process" },
	{ .name = "nice", .type = AT_INT, .off = PR(nice), .min = -20,
	  .max = 19, .help = "scheduling niceness of its threads" },
	OPEN_LOOP_ROWS(PR(rate), "for each instance, shared evenly by its "
		       "threads' instances", "each pass of a thread's flowops"),
};
const struct attr_table attr_process = TABLE("process", process_specs);

#define TH(f) offsetof(struct ir_thread, f)
static const struct attr_spec thread_specs[] = {
	{ .name = "name", .type = AT_STR, .off = TH(name), .flags = A_REQUIRED,
	  .help = "name of the thread" },
	{ .name = "instances", .type = AT_INT, .off = TH(instances), .min = 1,
	  .max = 1000000, .def = 1,
	  .help = "number of copies of the thread in each process instance" },
	{ .name = "memsize", .type = AT_INT, .off = TH(memsize), .max = BIG,
	  .flags = A_SIZE,
	  .help = "per-thread I/O buffer, allocated before the run; the "
		  "part its I/O can use is touched then" },
	{ .name = "useism", .type = AT_BOOL, .off = TH(useism),
	  .help = "accepted for compatibility; the buffer is always private" },
	{ .name = "ioprio", .type = AT_INT, .off = TH(ioprio), .max = 8,
	  .def = 8,
	  .help = "I/O priority 0 (high) to 7 (low) in the best-effort "
		  "class; 8 = unchanged" },
	OPEN_LOOP_ROWS(TH(rate), "for each instance",
		       "each pass of its flowops"),
	{ .name = "accelerator", .type = AT_PCT, .off = TH(accelerator),
	  .min = 1, .max = 100,
	  .help = "each instance is an emulated accelerator, busy while its "
		  "compute flowops run: the run reports its utilisation "
		  "(compute time / run time), passed at this percent or more" },
};
const struct attr_table attr_thread = TABLE("thread", thread_specs);

/* ------------------------------------------------------------ flowops */
#define FO(f) offsetof(struct ir_flowop, f)
/* replay's streams=, as IR_STREAMS_* */
static const char *const replay_streams[] = { "sequence", "parallel", NULL };
/* replay's calls=, as IR_CALLS_* */
static const char *const replay_calls[] = { "recorded", "dbench", NULL };
static const struct attr_spec flowop_specs[FA_COUNT] = {
	[FA_NAME] = { .name = "name", .type = AT_STR, .off = FO(name),
	  .flags = A_REQUIRED, .help = "name shown in the results" },
	[FA_FILESET] = { .name = "filesetname", .alias = "filename",
	  .type = AT_REF, .off = FO(fileset),
	  .help = "fileset the flowop picks files from" },
	[FA_FD] = { .name = "fd", .type = AT_INT, .off = FO(fd), .max = 1023,
	  .def = -1,
	  .help = "descriptor slot of the thread that holds the open file" },
	[FA_SRCFD] = { .name = "srcfd", .type = AT_INT, .off = FO(srcfd),
	  .max = 1023, .def = -1,
	  .help = "slot whose file's size writewholefile writes" },
	[FA_IOSIZE] = { .name = "iosize", .type = AT_VALUE, .off = FO(iosize),
	  .max = BIG, .flags = A_RANDOM | A_SIZE, .help = "bytes per I/O" },
	[FA_WORKINGSET] = { .name = "workingset", .type = AT_VALUE,
	  .off = FO(workingset), .max = BIG,
	  .flags = A_RANDOM | A_SIZE | A_ONCE,
	  .help = "bytes of the file random I/O stays within; 0 = whole file" },
	[FA_RANDOM] = { .name = "random", .type = AT_BOOL, .off = FO(random),
	  .help = "random offsets instead of sequential I/O" },
	[FA_STRIDE] = { .name = "stride", .type = AT_INT, .off = FO(stride),
	  .min = 1, .max = BIG,
	  .help = "sequential I/O every this many iosize records of the file "
		  "(1: each the next record); with startrecord=$rank and "
		  "stride=$nranks the ranks of a job interleave in one file" },
	[FA_STARTRECORD] = { .name = "startrecord", .type = AT_INT,
	  .off = FO(startrecord), .max = BIG,
	  .help = "sequential I/O from this iosize record of the file on "
		  "(counted from 0), each time the file is opened" },
	[FA_DSYNC] = { .name = "dsync", .type = AT_BOOL, .off = FO(dsync),
	  .help = "open with O_SYNC" },
	[FA_DIRECTIO] = { .name = "directio", .type = AT_BOOL,
	  .off = FO(directio), .help = "open with O_DIRECT" },
	[FA_OPENNEXT] = { .name = "opennext", .type = AT_BOOL,
	  .off = FO(opennext),
	  .help = "each thread walks the fileset with its own position" },
	[FA_NOREADAHEAD] = { .name = "noreadahead", .type = AT_BOOL,
	  .off = FO(noreadahead),
	  .help = "advise the kernel not to read ahead" },
	[FA_INDEXED] = { .name = "indexed", .type = AT_VALUE,
	  .off = FO(indexed), .max = BIG, .flags = A_RANDOM,
	  .help = "pick the file with this number (modulo entries) instead "
		  "of in turn" },
	[FA_ITERS] = { .name = "iters", .type = AT_INT, .off = FO(iters),
	  .min = 1, .max = BIG, .def = 1,
	  .help = "run the flowop this many times in a row" },
	[FA_VALUE] = { .name = "value", .type = AT_VALUE, .off = FO(value),
	  .max = BIG, .flags = A_RANDOM | A_STRING | A_ONCE,
	  .help = "seconds (delay), loops (hog), a limit (finishon*), units "
		  "(sem*), items (queue*), microseconds (compute), text "
		  "(print)" },
	[FA_TARGET] = { .name = "target", .type = AT_REF, .off = FO(target),
	  .help = "name of the flowop this one acts on or counts" },
	[FA_BLOCKING] = { .name = "blocking", .type = AT_BOOL,
	  .off = FO(blocking),
	  .help = "sempost: wait while the semaphore is above highwater" },
	[FA_HIGHWATER] = { .name = "highwater", .type = AT_INT,
	  .off = FO(highwater), .min = 1, .max = BIG, .def = 1,
	  .help = "semaphore level where a blocking sempost waits" },
	[FA_DATA] = { .name = "data", .type = AT_DATA, .off = FO(data),
	  .words = datapat_words,
	  .help = "what the write flowops write: zeros, bonnie or random "
		  "(default: the fileset's)" },
	[FA_COMPRESS] = { .name = "compress", .type = AT_DATA, .off = FO(data),
	  .max = DATAPAT_MAX_PCT,
	  .help = "write data that gzip -1 shrinks by about this percent" },
	[FA_ROTATEFD] = { .name = "rotatefd", .type = AT_OBSOLETE,
	  .help = "write opennext" },
	[FA_ENTRIES] = { .name = "entries", .type = AT_VALUE,
	  .off = FO(entries), .max = BIG,
	  .help = "number of files createnext makes (default: no limit)" },
	[FA_DIRS] = { .name = "dirs", .type = AT_INT, .off = FO(dirs),
	  .max = 99999,
	  .help = "files go in this many subdirectories 00000, 00001, ...; "
		  "0 or 1: the fileset's root" },
	[FA_FILESIZE] = { .name = "filesize", .type = AT_VALUE,
	  .off = FO(filesize), .max = BIG, .flags = A_RANDOM | A_SIZE,
	  .help = "bytes written into each file createnext makes" },
	[FA_FSYNC] = { .name = "fsync", .type = AT_BOOL, .off = FO(fsync),
	  .help = "fsync each file written and its directory (bonnie++ -b)" },
	[FA_DELETE] = { .name = "delete", .type = AT_BOOL, .off = FO(del),
	  .help = "seekrw: the first thread out of tickets removes the file "
		  "once it has closed it (bonnie++'s seekers do)" },
	[FA_IODEPTH] = { .name = "iodepth", .type = AT_INT, .off = FO(iodepth),
	  .min = 1, .max = 4096,
	  .help = "aioread/aiowrite: requests kept in flight, a full queue "
		  "waiting for one to complete first; each request is an op "
		  "from submission to completion (0, not given: up to 64, "
		  "and aiowrite's op is its submission, as filebench's)" },
	[FA_TRACE] = { .name = "trace", .type = AT_REF, .off = FO(trace),
	  .help = "replay: the trace (define trace) it replays" },
	[FA_STREAMS] = { .name = "streams", .type = AT_ENUM,
	  .off = FO(streams), .words = replay_streams,
	  .help = "replay: sequence, every recorded stream (process or "
		  "thread) in one sequence; parallel, each stream in a thread "
		  "of its own at once, its own ops in their recorded order" },
	[FA_PACE] = { .name = "pace", .type = AT_REAL, .off = FO(pace),
	  .max = 1000000,
	  .help = "replay: each op starts no earlier than its recorded time "
		  "divided by this (bare or 1: the recorded pace, 2: twice as "
		  "fast); not given: as fast as the calls go" },
	[FA_CALLS] = { .name = "calls", .type = AT_ENUM, .off = FO(calls),
	  .words = replay_calls,
	  .help = "replay: recorded, each operation's own call; dbench (a "
		  "dbench loadfile only), the calls dbench's file backend "
		  "makes for each line: its name lookups too, so that the "
		  "figures compare with dbench's" },
	/* rate, then arrivals and backlog: FA_ARRIVALS, FA_BACKLOG follow */
	[FA_RATE] = OPEN_LOOP_ROWS(FO(rate), "for each thread instance",
				   "each op of it"),
	[FA_DEPTH] = { .name = "depth", .type = AT_INT, .off = FO(depth),
	  .min = 1, .max = 1000000, .def = 1,
	  .help = "queuetake: the items its queue holds at most, so how far "
		  "the queueput threads may run ahead of it (prefetch)" },
};
const struct attr_table attr_flowop = TABLE("flowop", flowop_specs);

static const struct attr_spec composite_specs[] = {
	{ .name = "name", .type = AT_STR, .off = FO(composite),
	  .flags = A_REQUIRED,
	  .help = "flowop type name that threads use to run this sequence" },
	{ .name = "iters", .type = AT_INT, .off = FO(iters), .min = 1,
	  .max = BIG, .def = 1,
	  .help = "run the whole sequence this many times per pass" },
};
const struct attr_table attr_composite = TABLE("flowop", composite_specs);

/* ------------------------------------------------------------ randvars */
static const char *const rv_types[] = { "uniform", "gamma", "tabular", NULL };
static const char *const rv_srcs[] = { "rand48", "urandom", NULL };

#define RV(f) offsetof(struct rv_form, f)
static const struct attr_spec randvar_specs[RVA_COUNT] = {
	[RVA_TYPE] = { .name = "type", .type = AT_ENUM, .off = RV(type),
	  .words = rv_types,
	  .help = "distribution: uniform, gamma or tabular" },
	[RVA_RANDSRC] = { .name = "randsrc", .type = AT_ENUM,
	  .off = RV(randsrc), .words = rv_srcs,
	  .help = "filebench's; not used: every draw comes from --seed" },
	[RVA_SEED] = { .name = "seed", .type = AT_INT, .off = RV(seed),
	  .max = BIG,
	  .help = "filebench's; not used: every draw comes from --seed" },
	[RVA_GAMMA] = { .name = "gamma", .type = AT_INT, .off = RV(gamma),
	  .min = 1, .max = BIG, .def = 1500, .help = "gamma shape x 1000" },
	[RVA_MEAN] = { .name = "mean", .type = AT_INT, .off = RV(mean),
	  .max = BIG, .flags = A_SIZE,
	  .help = "mean of the values (min included)" },
	[RVA_MIN] = { .name = "min", .type = AT_INT, .off = RV(min), .max = BIG,
	  .flags = A_SIZE, .help = "smallest value" },
	[RVA_ROUND] = { .name = "round", .type = AT_INT, .off = RV(round),
	  .max = BIG, .flags = A_SIZE,
	  .help = "round samples to a multiple of this" },
	[RVA_RANDTABLE] = { .name = "randtable", .type = AT_LIST,
	  .help = "tabular bins {{percent, min, max}, ...}" },
	[RVA_NAME] = { .name = "name", .type = AT_STR, .off = RV(name),
	  .help = "old form only: the variable to define" },
};
const struct attr_table attr_randvar = TABLE("randvar", randvar_specs);

#define CV(f) offsetof(struct cvar_form, f)
static const struct attr_spec cvar_specs[CVA_COUNT] = {
	[CVA_TYPE] = { .name = "type", .type = AT_STR, .off = CV(type),
	  .flags = A_REQUIRED,
	  .help = "distribution: cvar-gamma, cvar-normal, cvar-uniform, "
		  "cvar-exponential, cvar-erlang, cvar-lognormal, "
		  "cvar-triangular, cvar-weibull" },
	[CVA_PARAMETERS] = { .name = "parameters", .type = AT_STR,
	  .off = CV(parameters),
	  .help = "distribution parameters \"key:value;key:value\"" },
	[CVA_MIN] = { .name = "min", .type = AT_INT, .off = CV(min), .max = BIG,
	  .flags = A_SIZE, .help = "smallest value" },
	[CVA_MAX] = { .name = "max", .type = AT_INT, .off = CV(max), .max = BIG,
	  .flags = A_SIZE, .help = "largest value" },
	[CVA_ROUND] = { .name = "round", .type = AT_INT, .off = CV(round),
	  .max = BIG, .flags = A_SIZE,
	  .help = "round samples to a multiple of this" },
};
const struct attr_table attr_cvar = TABLE("cvar", cvar_specs);

static const struct attr_spec eventgen_specs[] = {
	{ .name = "rate", .type = AT_INT,
	  .off = offsetof(struct eventgen_form, rate), .max = BIG,
	  .flags = A_REQUIRED,
	  .help = "events per second for the *limit flowops" },
};
const struct attr_table attr_eventgen = TABLE("eventgen", eventgen_specs);

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
