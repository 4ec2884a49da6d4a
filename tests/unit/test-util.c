/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Numbers with size suffixes, size formatting and "did you mean". */
#include <stdint.h>

#include "tap.h"
#include "util/sha256.h"
#include "util/util.h"

static const struct {
	const char *in;
	enum num_status st;
	int64_t want;
} ints[] = {
	{ "0", NUM_OK, 0 },
	{ "42", NUM_OK, 42 },
	{ "1k", NUM_OK, 1024 },
	{ "128k", NUM_OK, 131072 },
	{ "10m", NUM_OK, 10485760 },
	{ "5g", NUM_OK, 5368709120LL },
	{ "2t", NUM_OK, 2199023255552LL },
	{ "1K", NUM_OK, 1024 },
	{ "3G", NUM_OK, 3221225472LL },
	{ "-10", NUM_OK, -10 },
	{ "+7", NUM_OK, 7 },
	{ "9223372036854775807", NUM_OK, INT64_MAX },
	{ "-9223372036854775808", NUM_OK, INT64_MIN },
	{ "9223372036854775808", NUM_RANGE, 0 },
	{ "99999999999999999999", NUM_RANGE, 0 },
	{ "8589934592g", NUM_RANGE, 0 },
	{ "8388607t", NUM_OK, 9223370937343148032LL },
	{ "8388608t", NUM_RANGE, 0 },
	{ "10x", NUM_SUFFIX, 0 },
	{ "10kb", NUM_SUFFIX, 0 },
	{ "k", NUM_SYNTAX, 0 },
	{ "", NUM_SYNTAX, 0 },
	{ "-", NUM_SYNTAX, 0 },
};

int main(void)
{
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(ints); i++) {
		int64_t v = 0;
		enum num_status st = parse_int(ints[i].in, strlen(ints[i].in), &v);

		is_int(st, ints[i].st, "parse_int(\"%s\") status", ints[i].in);
		if (ints[i].st == NUM_OK)
			is_int(v, ints[i].want, "parse_int(\"%s\") value",
			       ints[i].in);
	}
	format_size(buf, sizeof(buf), 131072);
	is_str(buf, "128k", "format_size 128k");
	format_size(buf, sizeof(buf), 10485760);
	is_str(buf, "10m", "format_size 10m");
	format_size(buf, sizeof(buf), 1000);
	is_str(buf, "1000", "format_size keeps non-multiples");
	format_size(buf, sizeof(buf), 0);
	is_str(buf, "0", "format_size 0");

	is_int(edit_distance("readwholefile", "raedwholefile", 3), 2,
	       "transposition costs two edits");
	is_int(edit_distance("iosize", "iosize", 3), 0, "equal strings");
	is_int(edit_distance("a", "abcdefgh", 2), 3,
	       "distance is capped at max + 1");
	{
		static const char *const cands[] = { "define", "set", "run",
						     "psrun" };

		is_str(did_you_mean("defin", cands, 4, sizeof(char *)),
		       "define", "suggests the closest word");
		ok(did_you_mean("xyzzy", cands, 4, sizeof(char *)) == NULL,
		   "no suggestion when nothing is close");
	}
	{
		char hex[65], big[1000];

		sha256_hex("", 0, hex);
		is_str(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		       "sha256 of nothing");
		sha256_hex("abc", 3, hex);
		is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		       "sha256 of abc");
		memset(big, 'a', sizeof(big));
		sha256_hex(big, sizeof(big), hex);
		is_str(hex, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3",
		       "sha256 across blocks");
		sha256_hex(big, 56, hex);
		is_str(hex, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
		       "sha256 whose padding needs a second block");
	}
	{
		/* the filesets' trees depend on these values staying put */
		ok(str_hash("") == 1469598103934665603ULL, "str_hash: the basis");
		ok(str_hash("a") == ((1469598103934665603ULL ^ 'a') *
				     1099511628211ULL),
		   "str_hash: one byte");
	}
	{
		struct strmap *m = strmap_new();
		char keys[200][8];
		bool all = true;

		for (int i = 0; i < 200; i++) {
			snprintf(keys[i], sizeof(keys[i]), "k%d", i);
			all &= strmap_add(m, keys[i], keys[i]) == NULL;
		}
		all &= strmap_add(m, "k7", keys[0]) == keys[7];
		for (int i = 0; i < 200; i++)
			all &= strmap_get(m, keys[i]) == keys[i];
		ok(all && !strmap_get(m, "k200"),
		   "strmap: 200 keys, past a rehash, each found once");
		strmap_free(m);
	}
	return tap_done();
}
