/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The one list of trace formats: everything fbrun knows about a format
 * is in its row and its reader's file.  Each user includes it with its
 * own TRACE_FORMAT() definition to build the enum (trace.h), the words
 * format= and --format take (trace.c; the help of define trace's format
 * in lang/attr.c), the readers' declarations (trace_int.h) and their
 * table (trace_load.c).
 *
 * TRACE_FORMAT(id, name, read, looks)
 *   id     TRACE_<id> in enum trace_format
 *   name   the word that names it (format=, --format, the trace's
 *          "# from" line); the messages list them in this order
 *   read   int read(struct trace_reader *r): the whole trace into r->t,
 *          r at line 1; 0, or -1 after one located error (trace_int.h)
 *   looks  enum trace_looks looks(const char *line, size_t len): how
 *          surely the first line that is not blank or a comment, its
 *          leading blanks skipped, is in this format.  Without format=,
 *          the format most sure of it is read, the first of a tie
 */
TRACE_FORMAT(STRACE, "strace", trace_read_strace, trace_looks_strace)
TRACE_FORMAT(DBENCH, "dbench", trace_read_dbench, trace_looks_dbench)
TRACE_FORMAT(FIO, "fio", trace_read_fio, trace_looks_fio)
TRACE_FORMAT(FBRUN, "fbrun", trace_read_fbrun, trace_looks_fbrun)
