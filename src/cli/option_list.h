/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The options of fbrun and fbrun-mpi, one row each, in --help's order:
 *
 *   OPTION(ID, long name, short letter or 0, ARG_NONE | ARG_REQUIRED |
 *          ARG_OPTIONAL, the argument's name, the words the man page
 *          shows for it (or NULL: its name), the programs that take it
 *          (P_ALL, P_MPI: fbrun-mpi only, P_HIDDEN: none lists it),
 *          --help's text (a line per \n), the man page's paragraph,
 *          fbrun-mpi's page's paragraph where it differs (or NULL))
 *
 * Everything the command line says about an option comes from its row:
 * getopt_long's array, --help, the OPTIONS of both man pages and the
 * bash completion's words (cmd/usage.c); tests/options.sh checks that
 * README, the man pages and the completion name the options here.
 * The man text is troff, escaped for C.
 */
OPTION(DEFINE, "define", 'D', ARG_REQUIRED, "NAME=VALUE", NULL, P_ALL,
	"set $NAME, overriding the script's own 'set'",
	"Set the script variable \\fB$\\fINAME\\fR before the script starts;\n"
	"the script's own \\fBset $\\fINAME\\fR lines are then ignored.\n"
	"VALUE is an integer (with an optional k, m, g or t suffix),\n"
	"\\fBtrue\\fR, \\fBfalse\\fR, or any other text as a string.\n",
	"Each rank compiles the script with its own \\fB\\-D\\fR (in an MPMD\n"
	"launch each command may give its own); filesets marked\n"
	"\\fBshared\\fR must come out the same on every rank, or the job is\n"
	"refused with exit 2.\n")
OPTION(DEFINE_UNUSED, "define-unused", 0, ARG_REQUIRED, "WHAT", "error|warn",
	P_ALL,
	"a -D the script never uses: error (the default,\n"
	"exit 2) or warn (for a set of -D's shared by\n"
	"many scripts)",
	"What a \\fB\\-D\\fR whose name the script neither sets nor reads\n"
	"does: \\fBerror\\fR (the default) refuses the run with exit 2 and\n"
	"the nearest name the script has, as a misspelt variable inside the\n"
	"script is refused; \\fBwarn\\fR says so and runs, for scripts run in\n"
	"a batch with one shared set of \\fB\\-D\\fR options.\n",
	NULL)
OPTION(RUNTIME, "runtime", 't', ARG_REQUIRED, "SECONDS", NULL, P_ALL,
	"run this long, whatever the script's 'run' says",
	"Run for this long, whatever the script's \\fBrun\\fR says.\n",
	NULL)
OPTION(OUTPUT, "output", 'o', ARG_REQUIRED, "FILE", NULL, P_ALL,
	"also write the results to FILE (JSON if *.json,\n"
	"CSV if *.csv, else text)",
	"Also write the results to \\fIFILE\\fR: JSON if its name ends\n"
	"in .json, CSV if it ends in .csv, else text.  Checked before\n"
	"anything runs: a directory, a device, a FIFO, a socket or a symbolic\n"
	"link, a file that cannot be made or written, or a file inside a\n"
	"fileset's tree is refused (exit 2).  The results are written to a\n"
	"new file beside \\fIFILE\\fR and renamed over it, so \\fIFILE\\fR\n"
	"holds the old results or the whole new ones, never a part.\n",
	"Written by rank 0, on its machine, with the job's results and each\n"
	"rank's.\n")
OPTION(FORMAT, "format", 0, ARG_REQUIRED, "FORMAT", "text|json|csv", P_ALL,
	"results on standard output: text, json or csv",
	"Format of the results on standard output.  JSON and CSV imply\n"
	"\\fB\\-q\\fR, and interval and psrun lines then go to standard\n"
	"error.  The CSV has a header row, a row per flowop and an IO Summary\n"
	"row; its columns are listed in \\fIdoc/running.md\\fR.  \\fBfbrun\n"
	"report\\fR and \\fBfbrun compare\\fR take \\fB\\-\\-format\\fR with\n"
	"the same words and meaning: the text table, a JSON document, CSV\n"
	"rows under a header.\n",
	NULL)
OPTION(INTERVAL, "interval", 0, ARG_REQUIRED, "SECONDS", NULL, P_ALL,
	"print a line every SECONDS during the run and\n"
	"keep the series in the JSON",
	"Every \\fISECONDS\\fR (1 or more) of the run, and once more when it\n"
	"ends, print a line with the time since the start, the I/O operations\n"
	"per second, MB/s and failed operations over that interval; the JSON\n"
	"results then carry the series as \\fBintervals\\fR.  Takes\n"
	"precedence over a \\fBpsrun\\fR period, and turns the status line\n"
	"off.  In \\fBfbrun\\-mpi\\fR, rank 0 prints the job's lines and\n"
	"keeps the job's series: every rank's counts of the interval summed,\n"
	"the latency percentiles from the ranks' summed histograms, on the\n"
	"common clock of the ranks' stop rounds\n"
	"(\\fI@docdir@/scale-out.md\\fR).\n",
	"Rank 0 prints one line per interval for the whole job: the ranks'\n"
	"counts of the interval summed, and latency percentiles from their\n"
	"summed histograms, on the common clock of the ranks' stop rounds.\n")
OPTION(INTERVAL_FLOWOPS, "interval-flowops", 0, ARG_NONE, NULL, NULL, P_ALL,
	"with --interval, a line per flowop too",
	"With \\fB\\-\\-interval\\fR, also print a line per flowop with its\n"
	"operations per second over the interval.\n",
	NULL)
OPTION(INTERVAL_LOG, "interval-log", 0, ARG_REQUIRED, "FILE", NULL, P_ALL,
	"with --interval, also write each line to FILE\n"
	"as CSV while the run goes",
	"With \\fB\\-\\-interval\\fR, also write each interval as a CSV row\n"
	"to \\fIFILE\\fR while the run goes (a header, then a row per\n"
	"interval, with a column per flowop with\n"
	"\\fB\\-\\-interval\\-flowops\\fR), each row flushed as it is\n"
	"written, so \\fBtail \\-f\\fR follows it.  Checked before the run as\n"
	"\\fB\\-o\\fR is; made at the first interval as a new file renamed\n"
	"over what was there.  In \\fBfbrun\\-mpi\\fR, rank 0 writes it.\n",
	NULL)
OPTION(STEADY, "steady", 0, ARG_OPTIONAL, "PCT", NULL, P_ALL,
	"with --interval: say whether the last third's\n"
	"ops/s stay within PCT% (10) of their mean",
	"With \\fB\\-\\-interval\\fR: say whether the ops/s of the last third\n"
	"of the intervals stay within \\fIPCT\\fR percent (10) of their mean,\n"
	"and warn if not.\n",
	NULL)
OPTION(REPEAT, "repeat", 0, ARG_REQUIRED, "N", NULL, P_ALL,
	"run the workload N times: each run's IO Summary,\n"
	"then the mean, sd and 95% interval per flowop",
	"Run the workload \\fIN\\fR times, its filesets made once and reused\n"
	"(unless \\fB\\-\\-fresh\\fR); print each run's IO Summary line as it\n"
	"ends, then per flowop the mean, standard deviation and 95%\n"
	"confidence interval of ops/s, MB/s and ms/op.  The JSON keeps every\n"
	"run (\\fI@docdir@/compare.md\\fR).\n",
	NULL)
OPTION(FRESH, "fresh", 0, ARG_NONE, NULL, NULL, P_ALL,
	"with --repeat, make the filesets anew each run",
	"With \\fB\\-\\-repeat\\fR: make the filesets anew for each run.\n",
	NULL)
OPTION(WARMUP, "warmup", 0, ARG_REQUIRED, "SECONDS", NULL, P_ALL,
	"run this long first, not measured (counters\n"
	"start again from zero at its end)",
	"Run the workload this long before the measured run (as fio's\n"
	"\\fBramp_time\\fR); the counters start again from zero at its end,\n"
	"and the report says the warm-up's length and the operations it did.\n",
	NULL)
OPTION(CACHE_LIMIT, "cache-limit", 0, ARG_REQUIRED, "SIZE", NULL, P_ALL,
	"run in a memory cgroup of SIZE (k, m, g), so reads\n"
	"beyond it reach the devices; the filesets are\n"
	"dropped from the page cache first",
	"Run the workload in a memory cgroup of its own bounded to\n"
	"\\fISIZE\\fR bytes (k, m, g or t: powers of 1024), so the page\n"
	"cache its reads fill holds at most that and file data beyond it is\n"
	"read from the devices.  fbrun moves in once its filesets are made,\n"
	"then writes them back and drops them from the page cache\n"
	"(\\fBsyncfs\\fR(2), \\fBPOSIX_FADV_DONTNEED\\fR), so the bound\n"
	"holds from the first read; what the run allocates from then on\n"
	"(each thread's \\fBmemsize\\fR buffer) counts against it too.\n"
	"Uses cgroup v2's \\fBmemory.max\\fR where the unified hierarchy\n"
	"has the memory controller, else cgroup v1's\n"
	"\\fBmemory.limit_in_bytes\\fR; refused (exit 1, nothing made) where\n"
	"neither can be used.  The cgroup is removed when the run ends.  The\n"
	"JSON results record it as \\fBcache_limit\\fR.\n",
	"Each rank runs in a cgroup of its own, bounded to \\fISIZE\\fR.\n")
OPTION(KEEP, "keep", 0, ARG_NONE, NULL, NULL, P_ALL,
	"leave the filesets on disk after the run",
	"Leave the filesets on disk after the run.\n",
	NULL)
OPTION(FORCE, "force", 0, ARG_NONE, NULL, NULL, P_ALL,
	"preallocate even if the files will not fit in\n"
	"the free space (checked before anything is made)",
	"Preallocate even when the files will not fit.  Before creating any\n"
	"fileset, fbrun adds up what preallocation will write to each file\n"
	"system (whole blocks, less what a tree of its own there already\n"
	"holds) and compares it with the free space (\\fBstatvfs\\fR(3)\n"
	"\\fIf_bavail\\fR); without \\fB\\-\\-force\\fR a run that cannot fit\n"
	"is refused with exit 1 and nothing is created.\n",
	NULL)
OPTION(ALLOW_DEVICE_WRITES, "allow-device-writes", 0, ARG_NONE, NULL, NULL,
	P_ALL,
	"let write flowops write a fileset that is a\n"
	"block device (opened read-only without it)",
	"Let the write flowops (\\fBwrite\\fR, the appends,\n"
	"\\fBwritewholefile\\fR, \\fBaiowrite\\fR, \\fBwritebytes\\fR,\n"
	"\\fBrewrite\\fR, \\fBseekrw\\fR, \\fBtruncatefile\\fR) work on a\n"
	"\\fBdefine file\\fR that is a block device.  Without it such a\n"
	"script is refused with exit 2, the error at the flowop's line, and\n"
	"the device is opened read-only.  The device is never created,\n"
	"truncated, preallocated or removed, with or without this option.  A\n"
	"device that is mounted or held by the kernel (swap, RAID, LVM,\n"
	"device-mapper) is refused whatever the options.  In\n"
	"\\fBfbrun\\-mpi\\fR every rank uses the same device (no\n"
	"\\fIrank\\-N\\fR below it), checks it as its host sees it, and with\n"
	"this option writes it at the same time as the others.\n",
	NULL)
OPTION(FORCE_DEVICE, "force-device", 0, ARG_NONE, NULL, NULL, P_ALL,
	"write such a device even though libblkid finds\n"
	"a file system, partition table or other\n"
	"signature on it",
	"With \\fB\\-\\-allow\\-device\\-writes\\fR, write a device even\n"
	"though libblkid finds something on it (a file system, swap, a RAID\n"
	"or LVM member, LUKS, a partition table, as \\fBblkid \\-p\\fR and\n"
	"\\fBwipefs\\fR see them), which is otherwise refused with exit 2,\n"
	"what was found named.\n",
	NULL)
OPTION(DATA, "data", 0, ARG_REQUIRED, "PATTERN",
	"zeros|bonnie|random|compress=N", P_ALL,
	"what is written where the script does not say:\n"
	"zeros, bonnie, random or compress=N (percent)",
	"What preallocation and the write flowops write where the script\n"
	"gives no \\fBdata=\\fR or \\fBcompress=\\fR: zero bytes, bonnie++'s\n"
	"block-write data, incompressible bytes, or data that gzip shrinks by\n"
	"about \\fIN\\fR percent.\n",
	NULL)
OPTION(SEED, "seed", 0, ARG_REQUIRED, "N", NULL, P_ALL,
	"draw every random number from N (0 to 2^63-1;\n"
	"0 unless given): the same N, the same trees,\n"
	"files and, per thread, operations",
	"Draw every random number of the run from \\fIN\\fR (0 to 2^63\\-1; 0\n"
	"when not given, so runs are repeatable by default): the fileset\n"
	"trees, which files are preallocated and their bytes, and what each\n"
	"thread draws: random offsets, random variables, random names (thread\n"
	"\\fIk\\fR from \\fIN\\fR and \\fIk\\fR; in fbrun\\-mpi from the rank\n"
	"too).  The same seed gives the same trees and, for one thread ended\n"
	"by a count, the same operations.  Seed 0 lays out filebench's trees;\n"
	"a \\fBreuse\\fR fileset is laid out so whatever the seed.  The first\n"
	"log line and the JSON's \\fBseed\\fR say it.\n",
	NULL)
OPTION(CONTINUE_ON_ERROR, "continue-on-error", 0, ARG_NONE, NULL, NULL, P_ALL,
	"count failed operations and keep running",
	"Count failed operations, and reads that a fileset's \\fBverify\\fR\n"
	"found wrong, against their flowop and keep running (the default is\n"
	"to stop at the first failure, print the results and exit 1); the\n"
	"exit status is 1 all the same.\n",
	NULL)
OPTION(STONEWALL, "stonewall", 0, ARG_NONE, NULL, NULL, P_MPI,
	"fbrun-mpi: the first rank whose work is done\n"
	"ends the run for all",
	"\\fBfbrun\\-mpi\\fR only: the first rank whose threads are done (a\n"
	"quit mode such as \\fBfinishoncount\\fR) ends the run on every rank,\n"
	"as IOR's stonewalling does; without it the job runs until every rank\n"
	"is done or the run time is over.  The report names the rank that\n"
	"ended it.\n",
	"The first rank whose threads are done (a quit mode such as\n"
	"\\fBfinishoncount\\fR) ends the run on every rank, as IOR's\n"
	"stonewalling does; the report names that rank.  Without it a rank\n"
	"whose work is done waits for the others, and the job runs until\n"
	"every rank is done or the run time is over.\n")
OPTION(QUIET, "quiet", 'q', ARG_NONE, NULL, NULL, P_ALL,
	"no log or status lines, only the results",
	"Print only the results: no log lines and no status line.\n",
	NULL)
OPTION(PARSE_ONLY, "parse-only", 0, ARG_NONE, NULL, NULL, P_ALL,
	"check the script and exit",
	"Check the script and exit.\n",
	NULL)
OPTION(DUMP_AST, "dump-ast", 0, ARG_NONE, NULL, NULL, P_ALL,
	"print the syntax tree and exit",
	"Print the syntax tree and exit.\n",
	NULL)
OPTION(DUMP_IR, "dump-ir", 0, ARG_NONE, NULL, NULL, P_ALL,
	"print the compiled workload and exit",
	"Print the compiled workload (filesets, processes, threads, flowops,\n"
	"variables) and exit.\n",
	NULL)
OPTION(LIST_FLOWOPS, "list-flowops", 0, ARG_NONE, NULL, NULL, P_ALL,
	"list the flowops and what they do",
	"List the flowops and what each does.\n",
	NULL)
OPTION(LIST_ATTRIBUTES, "list-attributes", 0, ARG_NONE, NULL, NULL, P_ALL,
	"print the attribute reference (markdown)",
	"Print the attribute reference, in markdown, from the compiler's\n"
	"tables.\n",
	NULL)
OPTION(LIST_WORKLOADS, "list-workloads", 0, ARG_NONE, NULL, NULL, P_ALL,
	"list the shipped workloads",
	"List the shipped workloads.\n",
	NULL)
OPTION(SHOW, "show", 0, ARG_REQUIRED, "NAME", NULL, P_ALL,
	"print a shipped workload (e.g. bonnie/putc)",
	"Print the shipped workload \\fINAME\\fR (for example\n"
	"\\fBbonnie/putc\\fR).\n",
	NULL)
OPTION(HELP, "help", 'h', ARG_NONE, NULL, NULL, P_ALL,
	"show this help",
	"Show a summary of the options.\n",
	NULL)
OPTION(VERSION, "version", 'V', ARG_NONE, NULL, NULL, P_ALL,
	"show the version and what the build has",
	"Show the version, then a line per feature of the build: the aio\n"
	"engine (io_uring through liburing, or POSIX aio), MPI (fbrun\\-mpi's\n"
	"library; no in fbrun, with whether fbrun\\-mpi is in fbrun's own\n"
	"directory, as after make or make install), libblkid and jansson.\n"
	"The JSON records the same under \\fBbuild\\fR.\n",
	NULL)
/* the man pages' and the completion's text from these rows, for the build */
OPTION(HELP_OPTIONS, "help-options", 0, ARG_REQUIRED, "WHAT", NULL, P_HIDDEN,
	NULL,
	NULL,
	NULL)
