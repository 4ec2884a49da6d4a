/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * A small streaming JSON writer: enough for the results file.  Commas and
 * indentation are handled here; callers say what comes next.
 */
#ifndef FBRUN_JSON_H
#define FBRUN_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *out);
/* key may be NULL inside arrays. */
void json_object(struct json *j, const char *key);
void json_array(struct json *j, const char *key);
void json_end(struct json *j, char close); /* '}' or ']' */
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_num(struct json *j, const char *key, double v);
/* All 17 digits: the number reads back as the same double. */
void json_exact(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, bool v);

#endif
