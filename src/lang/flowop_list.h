/*
 * The one list of flowops.  Each user includes it with its own FLOWOP()
 * definition to build the enum, the name table, the docs or the dispatch.
 *
 * FLOWOP(id, name, fn, class, uses, needs, help)
 *   fn     the function in flowops.c that runs it
 *   class  FC_IO (file I/O), FC_READ/FC_WRITE (I/O that moves data),
 *          FC_AIO, FC_SYNC, FC_OTHER: decides what the IO Summary counts
 *   uses   attributes (FA_* bits from attr.h) that mean something to it;
 *          others are accepted with a warning, as filebench ignores them
 *   needs  what compile checks: NEED_FILE (fileset or an fd opened in the
 *          thread), NEED_FILESET, NEED_FD (an fd opened in the thread),
 *          NEED_IOSIZE, NEED_LEAFDIRS, NEED_TARGET, OPENS (it fills its fd)
 */

#define FA_FILEIO                                                              \
	(FA(FILESET) | FA(FD) | FA(IOSIZE) | FA(DIRECTIO) | FA(DSYNC) |        \
	 FA(OPENNEXT) | FA(NOREADAHEAD) | FA(INDEXED))
#define FA_WRITES (FA_FILEIO | FA(DATA) | FA(COMPRESS))

FLOWOP(READ, "read", fo_read, FC_READ, FA_FILEIO | FA(RANDOM) | FA(WORKINGSET),
       NEED_FILE | NEED_IOSIZE,
       "read iosize bytes: at a random aligned offset within the working set "
       "if random, else sequentially, rewinding at end of file")
FLOWOP(WRITE, "write", fo_write, FC_WRITE, FA_WRITES | FA(RANDOM) | FA(WORKINGSET),
       NEED_FILE | NEED_IOSIZE,
       "write iosize bytes: at a random aligned offset within the working "
       "set if random, else sequentially (the file grows)")
FLOWOP(APPENDFILE, "appendfile", fo_appendfile, FC_WRITE, FA_WRITES, NEED_FILE | NEED_IOSIZE,
       "append iosize bytes at end of file")
FLOWOP(APPENDFILERAND, "appendfilerand", fo_appendfilerand, FC_WRITE, FA_WRITES,
       NEED_FILE | NEED_IOSIZE,
       "append a uniformly random 0..iosize-1 bytes at end of file")
FLOWOP(READWHOLEFILE, "readwholefile", fo_readwholefile, FC_READ, FA_FILEIO | FA(WORKINGSET),
       NEED_FILE, "read the whole file from its start in iosize chunks")
FLOWOP(WRITEWHOLEFILE, "writewholefile", fo_writewholefile, FC_WRITE,
       FA_WRITES | FA(SRCFD) | FA(WORKINGSET), NEED_FILE,
       "write the file's whole size (or srcfd's file size) in iosize chunks")
FLOWOP(CREATEFILE, "createfile", fo_createfile, FC_IO,
       FA(FILESET) | FA(FD) | FA(DIRECTIO) | FA(DSYNC) | FA(INDEXED),
       NEED_FILESET | OPENS,
       "create a file that does not exist yet and keep it open in fd")
FLOWOP(OPENFILE, "openfile", fo_openfile, FC_IO,
       FA(FILESET) | FA(FD) | FA(DIRECTIO) | FA(DSYNC) | FA(OPENNEXT) |
	       FA(NOREADAHEAD) | FA(INDEXED),
       NEED_FILESET | OPENS, "open an existing file and keep it open in fd")
FLOWOP(CLOSEFILE, "closefile", fo_closefile, FC_IO, FA(FD), NEED_FD,
       "close the file open in fd")
FLOWOP(DELETEFILE, "deletefile", fo_deletefile, FC_IO, FA(FILESET) | FA(FD) | FA(INDEXED),
       NEED_FILE, "delete an existing file (the one in fd if it is open)")
FLOWOP(STATFILE, "statfile", fo_statfile, FC_IO, FA(FILESET) | FA(FD) | FA(INDEXED),
       NEED_FILE, "stat an existing file (fstat if fd is open)")
FLOWOP(FSYNC, "fsync", fo_fsync, FC_IO, FA(FD), NEED_FD, "fsync the file open in fd")
FLOWOP(FSYNCSET, "fsyncset", fo_fsyncset, FC_IO, FA(FILESET), NEED_FILESET,
       "fsync every file of the fileset this thread has open")
FLOWOP(MAKEDIR, "makedir", fo_makedir, FC_IO, FA(FILESET) | FA(INDEXED),
       NEED_FILESET | NEED_LEAFDIRS, "create a leaf directory")
FLOWOP(REMOVEDIR, "removedir", fo_removedir, FC_IO, FA(FILESET) | FA(INDEXED),
       NEED_FILESET | NEED_LEAFDIRS, "remove a leaf directory")
FLOWOP(LISTDIR, "listdir", fo_listdir, FC_IO, FA(FILESET), NEED_FILESET,
       "read all entries of one of the fileset's directories")
FLOWOP(WRITEBYTES, "writebytes", fo_writebytes, FC_WRITE, FA_FILEIO,
       NEED_FILE | NEED_IOSIZE,
       "write iosize bytes sequentially with one write() per byte "
       "(bonnie++'s per-character output)")
FLOWOP(READBYTES, "readbytes", fo_readbytes, FC_READ, FA_FILEIO,
       NEED_FILE | NEED_IOSIZE,
       "read iosize bytes sequentially with one read() per byte, rewinding "
       "at end of file")
FLOWOP(REWRITE, "rewrite", fo_rewrite, FC_WRITE, FA_FILEIO,
       NEED_FILE | NEED_IOSIZE,
       "read iosize bytes, change one, seek back and write them: the file "
       "is rewritten in place, rewinding at end of file")
FLOWOP(SEEKRW, "seekrw", fo_seekrw, FC_READ,
       FA_FILEIO | FA(VALUE) | FA(FSYNC) | FA(DELETE),
       NEED_FILE | NEED_IOSIZE | NEED_VALUE,
       "take one of value tickets the run's threads share: seek to a random "
       "iosize chunk and read it; one ticket in ten also writes it back "
       "with a byte changed.  A thread that finds none left fsyncs and "
       "closes its file and is done (with delete, the first removes it)")
FLOWOP(SYNC, "sync", fo_sync, FC_IO, 0, 0,
       "flush every file system's dirty data (sync())")
FLOWOP(CREATENEXT, "createnext", fo_createnext, FC_IO,
       FA(FILESET) | FA(ENTRIES) | FA(DIRS) | FA(FILESIZE) | FA(IOSIZE) |
	       FA(RANDOM) | FA(FSYNC) | FA(DATA) | FA(COMPRESS),
       NEED_FILESET,
       "create the next numbered file in the fileset's root (or its dirs "
       "subdirectories) with bonnie++'s names, random: random part first, "
       "writing filesize bytes")
FLOWOP(STATNEXT, "statnext", fo_statnext, FC_IO,
       FA(FILESET) | FA(DIRS) | FA(IOSIZE) | FA(RANDOM), NEED_FILESET,
       "stat the next file in directory order (random: in an order shuffled "
       "before the run) and read its data if it has any")
FLOWOP(DELETENEXT, "deletenext", fo_deletenext, FC_IO,
       FA(FILESET) | FA(DIRS) | FA(RANDOM) | FA(FSYNC), NEED_FILESET,
       "delete the next file in directory order (random: in a shuffled "
       "order); empty subdirectories are removed")
FLOWOP(DELAY, "delay", fo_delay, FC_OTHER, FA(VALUE), NEED_VALUE,
       "sleep value seconds")
FLOWOP(HOG, "hog", fo_hog, FC_OTHER, FA(VALUE), NEED_VALUE,
       "burn CPU for value loop iterations")
FLOWOP(EVENTLIMIT, "eventlimit", fo_eventlimit, FC_OTHER, 0, 0,
       "wait for one event of the eventgen")
FLOWOP(OPSLIMIT, "opslimit", fo_opslimit, FC_OTHER, FA(TARGET), 0,
       "hold the thread's I/O operations (or target's) to the event rate")
FLOWOP(IOPSLIMIT, "iopslimit", fo_iopslimit, FC_OTHER, FA(TARGET), 0,
       "hold reads and writes (or target's) to the event rate")
FLOWOP(BWLIMIT, "bwlimit", fo_bwlimit, FC_OTHER, FA(TARGET), 0,
       "hold bytes moved (or target's) to one MiB per event")
FLOWOP(FINISHONCOUNT, "finishoncount", fo_finishoncount, FC_OTHER, FA(VALUE) | FA(TARGET),
       NEED_VALUE, "finish once value I/O operations (or target's) are done")
FLOWOP(FINISHONBYTES, "finishonbytes", fo_finishonbytes, FC_OTHER, FA(VALUE) | FA(TARGET),
       NEED_VALUE, "finish once value bytes (or target's) are moved")
FLOWOP(BLOCK, "block", fo_block, FC_SYNC, FA(TARGET), 0,
       "wait until a wakeup flowop names this one")
FLOWOP(WAKEUP, "wakeup", fo_wakeup, FC_SYNC, FA(TARGET), NEED_TARGET,
       "wake every block flowop named by target")
FLOWOP(SEMBLOCK, "semblock", fo_semblock, FC_SYNC,
       FA(VALUE) | FA(HIGHWATER) | FA(BLOCKING) | FA(TARGET), 0,
       "take value units from this flowop's semaphore, waiting if short")
FLOWOP(SEMPOST, "sempost", fo_sempost, FC_SYNC,
       FA(VALUE) | FA(HIGHWATER) | FA(BLOCKING) | FA(TARGET), NEED_TARGET,
       "add value units to target's semaphore")
FLOWOP(AIOWRITE, "aiowrite", fo_aiowrite, FC_AIO,
       FA_WRITES | FA(RANDOM) | FA(WORKINGSET), NEED_FILE | NEED_IOSIZE,
       "start an asynchronous write of iosize bytes")
FLOWOP(AIOWAIT, "aiowait", fo_aiowait, FC_AIO, 0, 0,
       "wait for this thread's outstanding asynchronous writes")
FLOWOP(PRINT, "print", fo_print, FC_OTHER, FA(VALUE), NEED_VALUE,
       "print value (a string) each time it runs")
FLOWOP(TESTRANDVAR, "testrandvar", fo_testrandvar, FC_OTHER, FA(VALUE), NEED_VALUE,
       "sample the random variable in value and report its mean")
