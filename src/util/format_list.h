/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The one list of output formats, in the order --format's error lists
 * them; util/format.h includes it with its own FORMAT() definitions to
 * build the enum (FORMAT_<id>) and the table format.c reads.
 *
 * FORMAT(id, word, suffix, commands)
 *   word      what --format takes
 *   suffix    the end of an -o name that asks for it, or NULL; a name
 *             that ends in none of the suffixes is text
 *   commands  the commands that print it (FOR_* in format.h): FOR_RUN,
 *             a run's results (fbrun, fbrun curve, --repeat); FOR_REPORT,
 *             fbrun report; FOR_COMPARE, fbrun compare.  Each of them
 *             has its printer in its own table, indexed by the enum.
 */
FORMAT(TEXT, "text", NULL, FOR_RUN | FOR_REPORT | FOR_COMPARE)
FORMAT(JSON, "json", ".json", FOR_RUN | FOR_REPORT | FOR_COMPARE)
FORMAT(CSV, "csv", ".csv", FOR_RUN | FOR_REPORT | FOR_COMPARE)
FORMAT(HTML, "html", NULL, FOR_REPORT)
