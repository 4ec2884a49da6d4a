/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The version of the results files' schema (doc/results.schema.json),
 * "MAJOR.MINOR": written at the top of every results file by report/,
 * checked by compare/ when it reads one back.  MINOR goes up when
 * members are added (readers ignore those they do not know), MAJOR when
 * one is removed or changes its meaning (doc/compare.md, "Results
 * files and their versions").  Change it here only, with the schema.
 */
#ifndef FBRUN_SCHEMA_VERSION_H
#define FBRUN_SCHEMA_VERSION_H

#define SCHEMA_MAJOR 1
#define SCHEMA_MINOR 4

#define SCHEMA_STR_(x) #x
#define SCHEMA_STR(x) SCHEMA_STR_(x)
#define SCHEMA_VERSION SCHEMA_STR(SCHEMA_MAJOR) "." SCHEMA_STR(SCHEMA_MINOR)

#endif
