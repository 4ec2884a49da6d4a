/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The one list of flowops: everything the compiler, the engine and the
 * printers know about a flowop is in its row.  Each user includes it with
 * its own FLOWOP() definition to build the enum, the table (flowop.c), the
 * declarations and the engine's table (flowops_int.h, flowops.c).
 *
 * FLOWOP(id, name, fn, flags, uses, needs, prepare, release, help)
 *   fn       the function that runs it once, in the engine file of its
 *            family (flowops_int.h declares it from this list)
 *   flags    FF_* (flowop.h): what it counts as (FF_IO in the IO Summary,
 *            FF_MOVES_DATA, FF_READ, FF_WRITE, FF_FLUSH) and what the run
 *            gives it (FF_TOTALS, FF_SYNC_POINT), how the report shows it
 *            (FF_MEAN), what a block device refuses (FF_ALTERS, FF_NAMES),
 *            what a fileset with verify refuses (FF_UNVERIFIED)
 *   uses     attributes (FA_* bits, flowop.h) that mean something to it;
 *            others are accepted with a warning, as filebench ignores them
 *   needs    what compile checks: NEED_FILE (fileset or an fd opened in
 *            the thread), NEED_FILESET, NEED_FD (an fd opened in the
 *            thread), NEED_IOSIZE, NEED_LEAFDIRS, NEED_TARGET, NEED_VALUE,
 *            NEED_RANDVAR, NEED_EVENTGEN (warned), VALUE_STRING, the kind
 *            of flowop target= names (TARGET_*), OPENS (it fills its fd)
 *   prepare  NULL, or what makes its per-thread state before the clock
 *            starts (wk->fostate[id]); -1 after failing the flowop
 *   release  NULL, or what frees that state after the thread ended
 */

#define FA_FILEIO                                                              \
	(FA(FILESET) | FA(FD) | FA(IOSIZE) | FA(DIRECTIO) | FA(DSYNC) |        \
	 FA(OPENNEXT) | FA(NOREADAHEAD) | FA(INDEXED))
#define FA_WRITES (FA_FILEIO | FA(DATA) | FA(COMPRESS))
/* a mapping has no directio or dsync */
#define FA_MMAP                                                                \
	(FA(FILESET) | FA(FD) | FA(IOSIZE) | FA(OPENNEXT) | FA(NOREADAHEAD) |  \
	 FA(INDEXED) | FA(RANDOM) | FA(WORKINGSET))

#define FF_READS (FF_IO | FF_MOVES_DATA | FF_READ)
#define FF_WRITES (FF_IO | FF_MOVES_DATA | FF_WRITE)

FLOWOP(READ, "read", fo_read, FF_READS,
       FA_FILEIO | FA(RANDOM) | FA(WORKINGSET) | FA(STRIDE) | FA(STARTRECORD),
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "read iosize bytes: at a random aligned offset within the working set "
       "if random, else sequentially, rewinding at end of file")
FLOWOP(WRITE, "write", fo_write, FF_WRITES,
       FA_WRITES | FA(RANDOM) | FA(WORKINGSET) | FA(STRIDE) |
         FA(STARTRECORD),
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "write iosize bytes: at a random aligned offset within the working "
       "set if random, else sequentially (the file grows)")
FLOWOP(APPENDFILE, "appendfile", fo_appendfile, FF_WRITES,
       FA_WRITES,
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "append iosize bytes at end of file")
FLOWOP(APPENDFILERAND, "appendfilerand", fo_appendfilerand, FF_WRITES,
       FA_WRITES,
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "append a uniformly random 0..iosize-1 bytes at end of file")
FLOWOP(READWHOLEFILE, "readwholefile", fo_readwholefile, FF_READS,
       FA_FILEIO | FA(WORKINGSET),
       NEED_FILE,
       NULL, NULL,
       "read the whole file from its start in iosize chunks")
FLOWOP(WRITEWHOLEFILE, "writewholefile", fo_writewholefile, FF_WRITES,
       FA_WRITES | FA(SRCFD) | FA(WORKINGSET),
       NEED_FILE,
       NULL, NULL,
       "write the file's whole size (or srcfd's file size) in iosize chunks")
FLOWOP(MMAPREAD, "mmapread", fo_mmapread, FF_READS,
       FA_MMAP,
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "copy iosize bytes out of a shared mapping of the file (mapped on "
       "first use, outside the op): at a random aligned offset within the "
       "working set if random, else sequentially, wrapping at its end "
       "(an fbrun extension)")
FLOWOP(MMAPWRITE, "mmapwrite", fo_mmapwrite, FF_WRITES,
       FA_MMAP | FA(DATA) | FA(COMPRESS),
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "copy iosize bytes into a shared mapping of the file, as mmapread "
       "reads; the file does not grow, so it must hold iosize bytes "
       "(fsync msyncs it; an fbrun extension)")
FLOWOP(CREATEFILE, "createfile", fo_createfile, FF_IO | FF_NAMES,
       FA(FILESET) | FA(FD) | FA(DIRECTIO) | FA(DSYNC) | FA(INDEXED),
       NEED_FILESET | OPENS,
       NULL, NULL,
       "create a file that does not exist yet and keep it open in fd")
FLOWOP(OPENFILE, "openfile", fo_openfile, FF_IO,
       FA(FILESET) | FA(FD) | FA(DIRECTIO) | FA(DSYNC) | FA(OPENNEXT) |
         FA(NOREADAHEAD) | FA(INDEXED),
       NEED_FILESET | OPENS,
       NULL, NULL,
       "open an existing file and keep it open in fd")
FLOWOP(CLOSEFILE, "closefile", fo_closefile, FF_IO,
       FA(FD),
       NEED_FD,
       NULL, NULL,
       "close the file open in fd")
FLOWOP(DELETEFILE, "deletefile", fo_deletefile, FF_IO | FF_NAMES | FF_REMOVES,
       FA(FILESET) | FA(FD) | FA(INDEXED),
       NEED_FILE,
       NULL, NULL,
       "delete an existing file: the one fd holds, or held last, else "
       "one of the fileset")
FLOWOP(STATFILE, "statfile", fo_statfile, FF_IO,
       FA(FILESET) | FA(FD) | FA(INDEXED),
       NEED_FILE,
       NULL, NULL,
       "stat an existing file (fstat if fd is open)")
FLOWOP(TRUNCATEFILE, "truncatefile", fo_truncatefile,
       FF_IO | FF_ALTERS | FF_UNVERIFIED,
       FA_FILEIO,
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "set the file's size to iosize bytes (a random variable gives each "
       "op its own): cut it, or extend it with a hole; no data is written "
       "(an fbrun extension)")
FLOWOP(FALLOCATEFILE, "fallocatefile", fo_fallocatefile, FF_IO | FF_ALTERS,
       FA_FILEIO | FA(RANDOM) | FA(WORKINGSET),
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "allocate iosize bytes with fallocate(2) (a random variable gives "
       "each op its own) at the file's end, or if random at an aligned "
       "offset within the working set; no data is written (an fbrun "
       "extension)")
FLOWOP(SETXATTR, "setxattr", fo_setxattr, FF_IO | FF_ALTERS,
       FA(FILESET) | FA(FD) | FA(IOSIZE) | FA(OPENNEXT) | FA(INDEXED),
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "set the file's extended attribute user.fbrun to iosize bytes "
       "(an fbrun extension)")
FLOWOP(GETXATTR, "getxattr", fo_getxattr, FF_IO,
       FA(FILESET) | FA(FD) | FA(IOSIZE) | FA(OPENNEXT) | FA(INDEXED),
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "read the file's extended attribute user.fbrun, up to iosize bytes; "
       "a file without it is an error (an fbrun extension)")
FLOWOP(RENAMEFILE, "renamefile", fo_renamefile,
       FF_IO | FF_NAMES | FF_UNVERIFIED,
       FA(FILESET),
       NEED_FILESET,
       NULL, NULL,
       "rename an existing file of the fileset to one of its free names "
       "(never over anything): the old name is free afterwards (an fbrun "
       "extension)")
FLOWOP(LINKFILE, "linkfile", fo_linkfile,
       FF_IO | FF_NAMES | FF_UNVERIFIED | FF_LINKS,
       FA(FILESET),
       NEED_FILESET,
       NULL, NULL,
       "hard-link an existing file of the fileset at one of its free names: "
       "both exist afterwards (an fbrun extension)")
FLOWOP(SYMLINKFILE, "symlinkfile", fo_symlinkfile,
       FF_IO | FF_NAMES | FF_SYMLINKS,
       FA(FILESET),
       NEED_FILESET,
       NULL, NULL,
       "make a symlink at a free name of the fileset to an existing file, "
       "relative and inside the fileset; the link is then a file that "
       "exists, which fbrun stats, renames, links and deletes but never "
       "opens through (an fbrun extension)")
FLOWOP(FSYNC, "fsync", fo_fsync, FF_IO | FF_FLUSH,
       FA(FD),
       NEED_FD,
       NULL, NULL,
       "fsync the file open in fd")
FLOWOP(FSYNCSET, "fsyncset", fo_fsyncset, FF_IO | FF_FLUSH,
       FA(FILESET),
       NEED_FILESET,
       NULL, NULL,
       "fsync every file of the fileset this thread has open")
FLOWOP(MAKEDIR, "makedir", fo_makedir, FF_IO | FF_NAMES,
       FA(FILESET) | FA(INDEXED),
       NEED_FILESET | NEED_LEAFDIRS,
       NULL, NULL,
       "create a leaf directory")
FLOWOP(REMOVEDIR, "removedir", fo_removedir, FF_IO | FF_NAMES,
       FA(FILESET) | FA(INDEXED),
       NEED_FILESET | NEED_LEAFDIRS,
       NULL, NULL,
       "remove a leaf directory")
FLOWOP(LISTDIR, "listdir", fo_listdir, FF_IO | FF_NAMES,
       FA(FILESET),
       NEED_FILESET,
       NULL, NULL,
       "read all entries of one of the fileset's directories")
FLOWOP(WRITEBYTES, "writebytes", fo_writebytes, FF_WRITES | FF_UNVERIFIED,
       FA_FILEIO,
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "write iosize bytes sequentially with one write() per byte "
       "(bonnie++'s per-character output)")
FLOWOP(READBYTES, "readbytes", fo_readbytes, FF_READS | FF_UNVERIFIED,
       FA_FILEIO,
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "read iosize bytes sequentially with one read() per byte, rewinding "
       "at end of file")
FLOWOP(REWRITE, "rewrite", fo_rewrite, FF_WRITES | FF_UNVERIFIED,
       FA_FILEIO,
       NEED_FILE | NEED_IOSIZE,
       NULL, NULL,
       "read iosize bytes, change one, seek back and write them: the file "
       "is rewritten in place, rewinding at end of file")
FLOWOP(SEEKRW, "seekrw", fo_seekrw, FF_READS | FF_ALTERS | FF_UNVERIFIED,
       FA_FILEIO | FA(VALUE) | FA(FSYNC) | FA(DELETE),
       NEED_FILE | NEED_IOSIZE | NEED_VALUE,
       NULL, NULL,
       "take one of value tickets the run's threads share: seek to a random "
       "iosize chunk and read it; one ticket in ten also writes it back "
       "with a byte changed.  A thread that finds none left fsyncs and "
       "closes its file and is done (with delete, the first removes it)")
FLOWOP(SYNC, "sync", fo_sync, FF_IO | FF_FLUSH,
       0,
       0,
       NULL, NULL,
       "flush every file system's dirty data (sync())")
FLOWOP(CREATENEXT, "createnext", fo_createnext,
       FF_IO | FF_NAMES | FF_SERIAL | FF_UNVERIFIED | FF_NEXT,
       FA(FILESET) | FA(ENTRIES) | FA(DIRS) | FA(FILESIZE) | FA(IOSIZE) |
         FA(RANDOM) | FA(FSYNC) | FA(DATA) | FA(COMPRESS),
       NEED_FILESET,
       op_names_prepare, op_names_free,
       "create the next numbered file in the fileset's root (or its dirs "
       "subdirectories) with bonnie++'s names, random: random part first, "
       "writing filesize bytes")
FLOWOP(STATNEXT, "statnext", fo_statnext,
       FF_IO | FF_NAMES | FF_UNVERIFIED | FF_NEXT,
       FA(FILESET) | FA(DIRS) | FA(IOSIZE) | FA(RANDOM),
       NEED_FILESET,
       op_names_prepare, op_names_free,
       "stat the next file in directory order (random: in an order shuffled "
       "before the run) and read its data if it has any")
FLOWOP(DELETENEXT, "deletenext", fo_deletenext,
       FF_IO | FF_NAMES | FF_SERIAL | FF_UNVERIFIED | FF_NEXT,
       FA(FILESET) | FA(DIRS) | FA(RANDOM) | FA(FSYNC),
       NEED_FILESET,
       op_names_prepare, op_names_free,
       "delete the next file in directory order (random: in a shuffled "
       "order); empty subdirectories are removed")
FLOWOP(DELAY, "delay", fo_delay, 0,
       FA(VALUE),
       NEED_VALUE,
       NULL, NULL,
       "sleep value seconds")
FLOWOP(HOG, "hog", fo_hog, 0,
       FA(VALUE),
       NEED_VALUE,
       NULL, NULL,
       "burn CPU for value loop iterations")
FLOWOP(EVENTLIMIT, "eventlimit", fo_eventlimit, 0,
       0,
       NEED_EVENTGEN,
       NULL, NULL,
       "wait for one event of the eventgen")
FLOWOP(OPSLIMIT, "opslimit", fo_opslimit, FF_TOTALS,
       FA(TARGET),
       NEED_EVENTGEN,
       NULL, NULL,
       "hold the thread's I/O operations (or target's) to the event rate")
FLOWOP(IOPSLIMIT, "iopslimit", fo_iopslimit, FF_TOTALS,
       FA(TARGET),
       NEED_EVENTGEN | TARGET_MOVES_DATA,
       NULL, NULL,
       "hold reads and writes (or target's) to the event rate")
FLOWOP(BWLIMIT, "bwlimit", fo_bwlimit, FF_TOTALS,
       FA(TARGET),
       NEED_EVENTGEN | TARGET_MOVES_DATA,
       NULL, NULL,
       "hold bytes moved (or target's) to one MiB per event")
FLOWOP(FINISHONCOUNT, "finishoncount", fo_finishoncount, FF_TOTALS,
       FA(VALUE) | FA(TARGET),
       NEED_VALUE,
       NULL, NULL,
       "finish once value I/O operations (or target's) are done")
FLOWOP(FINISHONBYTES, "finishonbytes", fo_finishonbytes, FF_TOTALS,
       FA(VALUE) | FA(TARGET),
       NEED_VALUE,
       NULL, NULL,
       "finish once value bytes (or target's) are moved")
FLOWOP(BLOCK, "block", fo_block, FF_SYNC_POINT,
       FA(TARGET),
       0,
       NULL, NULL,
       "wait until a wakeup flowop names this one")
FLOWOP(WAKEUP, "wakeup", fo_wakeup, 0,
       FA(TARGET),
       NEED_TARGET | TARGET_BLOCK,
       NULL, NULL,
       "wake every block flowop named by target")
FLOWOP(SEMBLOCK, "semblock", fo_semblock, FF_SYNC_POINT,
       FA(VALUE) | FA(HIGHWATER) | FA(BLOCKING) | FA(TARGET),
       0,
       NULL, NULL,
       "take value units from this flowop's semaphore, waiting if short")
FLOWOP(SEMPOST, "sempost", fo_sempost, 0,
       FA(VALUE) | FA(HIGHWATER) | FA(BLOCKING) | FA(TARGET),
       NEED_TARGET | TARGET_SEMBLOCK,
       NULL, NULL,
       "add value units to target's semaphore")
FLOWOP(QUEUETAKE, "queuetake", fo_queuetake, FF_SYNC_POINT,
       FA(VALUE) | FA(DEPTH),
       0,
       op_queue_prepare, NULL,
       "take value items (default 1: a batch of them) from this flowop's "
       "queue, which holds up to depth items, waiting while it holds "
       "fewer; each process instance has one queue, shared by its "
       "threads (an fbrun extension)")
FLOWOP(QUEUEPUT, "queueput", fo_queueput, 0,
       FA(VALUE) | FA(TARGET),
       NEED_TARGET | TARGET_QUEUE,
       op_queue_prepare, NULL,
       "put value items (default 1) into the queue of target, a "
       "queuetake of the same process instance, waiting while it is full "
       "(an fbrun extension)")
FLOWOP(COMPUTE, "compute", fo_compute, 0,
       FA(VALUE),
       NEED_VALUE,
       NULL, NULL,
       "compute for value microseconds, as an accelerator fed by the "
       "thread does: the thread sleeps, and the time counts as its "
       "compute time, apart from I/O (an fbrun extension)")
FLOWOP(AIOWRITE, "aiowrite", fo_aiowrite, FF_WRITES | FF_ASYNC,
       FA_WRITES | FA(RANDOM) | FA(WORKINGSET) | FA(IODEPTH),
       NEED_FILE | NEED_IOSIZE,
       op_aio_prepare, NULL,
       "start an asynchronous write of iosize bytes (the op is the "
       "submission; with iodepth, each write from submission to "
       "completion)")
FLOWOP(AIOREAD, "aioread", fo_aioread, FF_READS | FF_ASYNC,
       FA_FILEIO | FA(RANDOM) | FA(WORKINGSET) | FA(IODEPTH),
       NEED_FILE | NEED_IOSIZE,
       op_aio_prepare, NULL,
       "start an asynchronous read of iosize bytes, at a random aligned "
       "offset if random, else sequentially, wrapping at end of file; "
       "each read is an op from submission to completion (an fbrun "
       "extension)")
FLOWOP(AIOWAIT, "aiowait", fo_aiowait, FF_IO | FF_MOVES_DATA,
       0,
       0,
       NULL, NULL,
       "wait for this thread's outstanding asynchronous reads and writes")
FLOWOP(PRINT, "print", fo_print, 0,
       FA(VALUE),
       NEED_VALUE | VALUE_STRING,
       NULL, NULL,
       "print value (a string) each time it runs")
FLOWOP(TESTRANDVAR, "testrandvar", fo_testrandvar, FF_MEAN,
       FA(VALUE),
       NEED_VALUE | NEED_RANDVAR,
       NULL, NULL,
       "sample the random variable in value and report its mean")
FLOWOP(REPLAY, "replay", fo_replay,
       FF_ALTERS | FF_NAMES | FF_SERIAL | FF_UNVERIFIED | FF_TRACE,
       FA(FILESET) | FA(TRACE) | FA(VALUE) | FA(PACE) | FA(STREAMS) |
	       FA(CALLS),
       NEED_FILESET,
       op_replay_prepare, op_replay_free,
       "replay a trace (define trace) whole, all its streams, in a "
       "directory of its own under the fileset's root, value times (not "
       "given or 0: until the run ends); each operation type is a row "
       "of its own, <name>.<type>")
