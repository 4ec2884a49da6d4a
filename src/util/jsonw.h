/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A small streaming JSON writer (jw_): the results file, fbrun curve's,
 * compare's and --repeat's JSON.  Its names are not jansson's
 * (json_object, json_array), which fbrun links too.  Commas, indentation,
 * the escapes of strings and the digits of numbers are done here only;
 * callers say what comes next.
 */
#ifndef FBRUN_JSONW_H
#define FBRUN_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16
/* jw_num's digits; compare's CSV writes its figures alike. */
#define JW_NUM "%.6g"

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
void jw_null(struct json *j, const char *key);

/*
 * An object jw_ wrote (a run's, report_json's text) without its closing
 * brace, for members to follow it (--repeat's runs, fbrun curve's curve),
 * each after jw_member, then "}\n".
 */
void jw_reopen(FILE *out, const char *object);
/* ",\n  \"key\": ": a member of jw_reopen's object; its value follows. */
void jw_member(FILE *out, const char *key);

/*
 * JSON text from a file, put on out so that it cannot drive a terminal:
 * valid JSON has no raw C0 characters, and the C1 ones and DEL, inside
 * its strings, become \u escapes of themselves, so every value is kept.
 */
void jw_put_clean(FILE *out, const char *s, size_t n);

#endif
