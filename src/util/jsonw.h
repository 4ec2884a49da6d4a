/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A small streaming JSON writer (jw_): the results file and compare's
 * --format json.  Its names are not jansson's (json_object, json_array),
 * which fbrun links too.  Commas and indentation are handled here;
 * callers say what comes next.
 */
#ifndef FBRUN_JSONW_H
#define FBRUN_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

void jw_init(struct json *j, FILE *out);
/* key may be NULL inside arrays. */
void jw_object(struct json *j, const char *key);
void jw_array(struct json *j, const char *key);
void jw_end(struct json *j, char close); /* '}' or ']' */
void jw_str(struct json *j, const char *key, const char *v);
void jw_u64(struct json *j, const char *key, uint64_t v);
void jw_i64(struct json *j, const char *key, int64_t v);
void jw_num(struct json *j, const char *key, double v);
/* All 17 digits: the number reads back as the same double. */
void jw_exact(struct json *j, const char *key, double v);
void jw_bool(struct json *j, const char *key, bool v);

#endif
