/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* data= and --data: the pattern words, parsed and printed (datapat.h). */
#include "lang/datapat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const char *const datapat_words[] = { "zeros", "bonnie", "random", NULL };

int datapat_parse(const char *s, struct datapat *out, char *err,
		  size_t errlen)
{
	static const enum datapat_kind kinds[] = { DATA_ZEROS, DATA_BONNIE,
						   DATA_RANDOM };
	const char *hint;
	int64_t n;

	for (size_t i = 0; datapat_words[i]; i++)
		if (strcmp(s, datapat_words[i]) == 0) {
			*out = (struct datapat){ kinds[i], 0 };
			return 0;
		}
	if (strncmp(s, "compress=", 9) == 0) {
		if (parse_int(s + 9, strlen(s + 9), &n) != NUM_OK || n < 0 ||
		    n > DATAPAT_MAX_PCT) {
			snprintf(err, errlen,
				 "compress= expects a percent from 0 to %d, "
				 "got '%s'",
				 DATAPAT_MAX_PCT, s + 9);
			return -1;
		}
		*out = (struct datapat){ DATA_COMPRESS, (int)n };
		return 0;
	}
	hint = did_you_mean(s, datapat_words, 3, sizeof(datapat_words[0]));
	snprintf(err, errlen,
		 "expects zeros, bonnie, random or compress=N, got '%s'%s%s%s",
		 s, hint ? "; did you mean '" : "", hint ? hint : "",
		 hint ? "'?" : "");
	return -1;
}

void datapat_format(char *buf, size_t len, struct datapat p)
{
	switch (p.kind) {
	case DATA_ZEROS:
	case DATA_BONNIE:
	case DATA_RANDOM:
		snprintf(buf, len, "%s", datapat_words[p.kind - DATA_ZEROS]);
		break;
	case DATA_COMPRESS:
		snprintf(buf, len, "compress=%d", p.compress_pct);
		break;
	case DATA_DEFAULT:
		snprintf(buf, len, "default");
		break;
	}
}

bool datapat_equal(struct datapat a, struct datapat b)
{
	return a.kind == b.kind &&
	       (a.kind != DATA_COMPRESS || a.compress_pct == b.compress_pct);
}

struct datapat datapat_pick(struct datapat a, struct datapat b,
			    struct datapat c)
{
	return a.kind != DATA_DEFAULT ? a : b.kind != DATA_DEFAULT ? b : c;
}
