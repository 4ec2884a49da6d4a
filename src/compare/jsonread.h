/*
 * A small, strict JSON reader (RFC 8259) into a tree, for reading results
 * files back.  Invalid input is reported as "name:line:col: message" and
 * never crashes; nesting is limited to JSON_READ_MAX_DEPTH.  The accessors
 * are named json_as_* because json_num/json_str belong to the writer.
 */
#ifndef FBRUN_JSONREAD_H
#define FBRUN_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_READ_MAX_DEPTH 64
/* Results files are tens of kilobytes; refuse anything absurd. */
#define JSON_READ_MAX_SIZE (256u << 20)

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_value;

struct json_member {
	char *key;
	struct json_value *value;
	int line, col; /* of the key */
};

struct json_value {
	enum json_type type;
	int line, col; /* where the value starts, 1-based */
	bool b;
	double num;
	char *str; /* NUL-terminated; len excludes the NUL (may hold \u0000) */
	size_t len;
	size_t n, cap; /* elements of an array, members of an object */
	struct json_value **items;
	struct json_member *members;
	/* an object's members sorted by key, for json_get; NULL if few */
	struct json_member **byname;
};

/*
 * Parse text[0..len).  `name` prefixes error messages.  Returns NULL and
 * fills err with "name:line:col: message" on error.
 */
struct json_value *json_parse(const char *text, size_t len, const char *name,
			      char *err, size_t errlen);
/* Read and parse a file; errors as above, or "path: strerror". */
struct json_value *json_load(const char *path, char *err, size_t errlen);
void json_value_free(struct json_value *v);

/*
 * Lookups return NULL when v is NULL, of another type, or lacks the item.
 * json_get takes O(log n) in the object's members.
 */
const struct json_value *json_get(const struct json_value *obj,
				  const char *key);
const struct json_value *json_index(const struct json_value *arr, size_t i);
/* Key of member i of an object; NULL if obj is not one or i is too big. */
const char *json_key(const struct json_value *obj, size_t i);
/* Elements of an array or members of an object; 0 for anything else. */
size_t json_len(const struct json_value *v);
bool json_is(const struct json_value *v, enum json_type t);
/* The number or string, or `def` when v is missing or of another type. */
double json_as_num(const struct json_value *v, double def);
const char *json_as_str(const struct json_value *v, const char *def);
/* Shorthands for json_as_*(json_get(obj, key), def). */
double json_get_num(const struct json_value *obj, const char *key,
		    double def);
const char *json_get_str(const struct json_value *obj, const char *key,
			 const char *def);

#endif
